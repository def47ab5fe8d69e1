"""Offline at the table: hands saved without network wait on the phone and are sent once."""

from __future__ import annotations

from benchmarks.harness import controlled
from tests.browser.conftest import shot, start_match


def test_offline_hands_wait_and_sync_once(live_server, phone):
    page = phone
    context = page.context
    match_url = start_match(page, live_server)
    # visit the hand form once online, and let the service worker take control
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(match_url)
    controlled(page)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")

    context.set_offline(True)
    for first, second, points in ((0, 1, "75"), (1, 0, "25")):
        page.goto(match_url + "/hands/new")  # served from the phone's cache
        page.wait_for_selector(".out-buttons:not([hidden])")
        page.tap(f".out-btn[data-seat='{first}']")
        page.tap(f".out-btn[data-seat='{second}']")
        page.tap(f".quick button[data-set='{points}']")
        page.tap("button[type=submit]")
        page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('2 hands waiting')")
    page.reload()  # a reload while offline loses nothing
    page.wait_for_selector("#outbox:has-text('2 hands waiting')")
    # the waiting hands are numbered 1 and 2: the next is 3, and the totals say provisional
    assert page.locator("a[data-next-hand]").text_content().strip().endswith("3")
    page.wait_for_selector("#provisional:not([hidden])")
    shot(page, "offline-waiting")

    context.set_offline(False)
    page.wait_for_selector("text=Add hand 3", timeout=15000)
    page.wait_for_selector("#outbox", state="hidden")
    totals = [int(t) for t in page.locator("[data-total]").all_text_contents()]
    assert totals == [75 + 25, 25 + 75]
    assert page.locator("table.hands tbody tr").count() == 2
    # flushing again sends nothing twice
    page.evaluate("window.tichuOutbox.flush()")
    page.reload()
    assert page.locator("table.hands tbody tr").count() == 2
    shot(page, "offline-synced")

    # a hand the server refuses when it arrives stays on the phone, with the server's reason
    context.set_offline(True)
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='2']")
    page.fill("#card_a", "33")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    context.set_offline(False)
    page.evaluate("window.tichuOutbox.flush()")
    page.wait_for_selector("#outbox:has-text('Hand 3 was refused')")
    assert "must be a multiple of 5. (P1)" in page.text_content("#outbox")
    assert page.locator("table.hands tbody tr").count() == 2
