"""A house-rules match scored by the phone's offline core scores as the server does ([R3]
double victory 100, [R4] victory points, shown with the waiting hand)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot
from tests.browser.test_phone_core_offline import (  # noqa: F401
    _bundle,
    core_kept,
    snapshot_kept,
    tap_hand,
)
from tests.browser.test_phone_offline import controlled_match

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core


def start_club_match(page, base: str) -> str:
    """A match started with the club's house rules (2 / 1 / 3 victory points): its URL."""
    page.goto(base + "/matches/new")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        page.fill(f"#seat_{seat}", name)
    page.locator("details.house summary").click()
    page.check("input[name=house][value=club]")
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    return page.url.split("#")[0]


def test_offline_core_scores_a_club_match_as_the_server(live_server, phone):
    page = phone
    match_url = controlled_match(page, live_server, start=start_club_match)
    core_kept(page)
    snapshot_kept(page)  # what is tested is the club's scoring, not the core's first start
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    tap_hand(page, 0, 2, "75")  # a double victory for team A: 100 under [R3]
    page.wait_for_selector(".preview .scored-here", timeout=60000)
    preview = page.locator(".preview").text_content()
    shot(page, "club-offline-preview")
    assert "+100" in preview and "+200" not in preview, preview
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#provisional:not([hidden])")
    shot(page, "club-offline-waiting")
    assert page.locator("[data-total='0']").text_content().strip() == "100"
    board = page.locator("main").text_content()
    assert "3 victory points" in " ".join(board.split()), board
