"""A long match on a phone: the match page shows the latest 50 hands; the page of every hand
opens where the match page left off, and a change to an older hand comes back to its row
with its message (and Restore) in view."""

from __future__ import annotations

from tests.browser.conftest import browser_app, serving, shot, start_match
from tests.views.test_long_match import add_hands
from tichu_scorer.views.matches import LATEST


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640


def test_an_older_hand_is_changed_and_restored_at_its_row(tmp_path, phone):
    app = browser_app(tmp_path)
    with serving(app) as base:
        page = phone
        url = start_match(page, base)
        add_hands(app, url, LATEST + 5)
        page.goto(url)
        assert page.locator("table.hands tbody tr").count() == LATEST
        page.tap(f"text=Show all {LATEST + 5} hands")
        page.wait_for_url(url + "/every-hand#hand-5")
        page.wait_for_timeout(200)  # the browser scrolls to the row once laid out
        assert in_view(page, "#hand-5") and in_view(page, "#hand-4")
        assert page.locator("table.hands tbody tr").count() == LATEST + 5

        page.tap("#hand-2 a.edit-link")
        page.wait_for_url(url + "/hands/2/edit")
        page.tap("button:has-text('Delete hand 2')")
        page.wait_for_url(url + "/every-hand#hand-1")
        page.wait_for_timeout(200)
        # the message and its Restore stay in view above the hand before it, which is marked
        assert in_view(page, ".flash:has-text('Hand 2 deleted.')") and in_view(page, "#hand-1")
        assert page.locator("tr:target").get_attribute("id") == "hand-1"
        shot(page, "long-match-deleted")
        page.tap(".flash button:has-text('Restore')")
        page.wait_for_url(url + "/every-hand#hand-2")
        page.wait_for_timeout(200)
        assert in_view(page, ".flash:has-text('Hand restored.')") and in_view(page, "#hand-2")
        assert page.locator("table.hands tbody tr").count() == LATEST + 5
        assert not page.errors, page.errors
