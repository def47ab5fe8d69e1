"""A long match on a phone: the match page shows the latest 50 hands; the page of every hand
opens where the match page left off, and a change to an older hand comes back to its row
with its message (and Restore) in view."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from benchmarks.harness import controlled
from tests.browser.conftest import browser_app, serving, shot, start_match
from tests.views.test_long_match import add_hands
from tichu_scorer.views.matches import LATEST


@contextmanager
def long_match(tmp_path, page, hands: int) -> Iterator[tuple[str, str]]:
    """A served app with a match of `hands` hands, open on the phone: (base, match URL)."""
    app = browser_app(tmp_path)
    with serving(app) as base:
        url = start_match(page, base)
        add_hands(app, url, hands)
        page.goto(url)
        yield base, url


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640


def test_an_older_hand_is_changed_and_restored_at_its_row(tmp_path, phone):
    page = phone
    with long_match(tmp_path, page, LATEST + 5) as (_, url):
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


@pytest.mark.core
def test_the_page_of_every_hand_is_ready_without_signal(tmp_path, phone):
    """A phone that scores a long match keeps its page of every hand from the match page
    on, without ever opening it online: at a table without signal, Show all still opens
    every hand."""
    page = phone
    with long_match(tmp_path, page, LATEST + 3) as (base, url):
        controlled(page)
        page.reload()  # now under the service worker, which is asked to keep the copies
        every = url.removeprefix(base) + "/every-hand"
        for _ in range(100):  # the worker fetches the copies in the background
            if page.evaluate("(u) => caches.match(u).then(Boolean)", every):
                break
            page.wait_for_timeout(100)
        else:
            raise AssertionError(f"{every} was never kept")
        page.context.set_offline(True)
        page.tap(f"text=Show all {LATEST + 3} hands")
        page.wait_for_url(url + "/every-hand#hand-3")
        assert page.locator("table.hands tbody tr").count() == LATEST + 3
        assert page.locator("#hand-1").count() == 1
        shot(page, "long-match-offline-every-hand")
        faults = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
        assert not faults, faults
