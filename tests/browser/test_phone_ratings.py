"""The ratings page on a phone (360×640): light and dark, English and German, nothing wider
than the screen, a history line per player."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, serving, shot
from tests.browser.test_accessibility import THEMES, violations
from tests.conftest import hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db


@pytest.fixture()
def club(tmp_path):
    """A one-table instance (every phone its scorer) with three finished matches."""
    app = make_app(tmp_path, SINGLE_TABLE=True, SECRET_KEY="browser")
    with app.app_context():
        db.create_all()
    client = app.test_client()
    for names in (["Ann", "Bob", "Cy", "Dee"], ["Ann", "Eve", "Cy", "Bob"],
                  ["Ann", "Dee", "Cy", "Maximiliane"]):
        url = new_match(client, names)
        for _ in range(4):
            assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    with serving(app) as base:
        yield base


@pytest.mark.parametrize("language, theme", [("en", "light"), ("de", "dark")])
def test_ratings_fit_a_phone(club, phone, language, theme):
    page = phone
    page.context.add_cookies([{"name": "lang", "value": language, "url": club}])
    page.emulate_media(color_scheme=theme)
    page.goto(club + "/stats")
    page.click("a[href='/stats/ratings']")
    page.wait_for_selector("table.ratings")
    assert page.locator("table.ratings tbody tr").count() == 6
    assert page.locator("svg.spark path").count() == 6
    first = page.locator("table.ratings tbody tr th").first.inner_text().removeprefix("1. ")
    assert first.startswith(("Ann", "Cy"))  # won all three
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide"
    shot(page, f"ratings-{language}-{theme}")
    assert not page.errors


def test_ratings_have_no_accessibility_violation(club, new_context):
    page = new_context(**PHONE, bypass_csp=True).new_page()
    for language in ("en", "de"):
        page.context.add_cookies([{"name": "lang", "value": language, "url": club}])
        page.goto(club + "/stats/ratings")
        assert violations(page) == {theme: [] for theme in THEMES}, language
