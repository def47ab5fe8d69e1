"""A tournament of a long name at the phone (360×640, dark German and light English): the
board's title wraps at words and its link back stays on one line, nothing is wider than the
phone, and the director's Print button works under the page's CSP (no inline script)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, shot


@pytest.mark.parametrize("theme, locale", [("dark", "de"), ("light", "en")])
def test_a_long_named_tournament_fits_the_phone(live_server, new_context, theme, locale):
    page = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
    page.goto(live_server + "/tournaments/new")
    page.fill("#name", "Kreismeisterschaft Oberbayern 2026 Herb")
    page.fill("#rounds", "3")
    page.fill("#hands", "1")
    page.fill("#entries", "Ann\nBob\nCy\nDee\nEve")
    page.tap("button[type=submit]")
    page.tap("[data-draw] button")
    page.wait_for_selector("[data-board='1']")
    url = page.url.split("#")[0]
    assert page.is_visible("[data-print]")  # shown by print.js: the script runs
    page.goto(url + "/board")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    back = page.locator(".hand-head .back").bounding_box()
    assert back["height"] < 60  # one line, not "tourna-ment" cut over three
    shot(page, f"tournament-board-long-{theme}-{locale}")
