"""Trust at the table, in a real browser at a phone viewport: a save on lie-fi is queued and
sent once; the installed start page opens offline; rights survive closing the browser; a
conflict with another phone is shown, never saved over; a stranger sees no other table."""

from __future__ import annotations

import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError

from benchmarks.harness import controlled
from tests.browser.conftest import HEARD, PHONE, shot, until
from tests.browser.test_phone_companion import add, start_four, totals

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core


def fill_hand(page, first, second, points):
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(f".out-btn[data-seat='{first}']")
    page.tap(f".out-btn[data-seat='{second}']")
    page.tap(f".quick button[data-set='{points}']")


def start_flush(page):
    """Send the waiting hands now, without awaiting the flush: one that sent or met a hand
    reloads the page, which may come before the answer to an awaited evaluate ("execution
    context was destroyed"). The outbox also retries by itself: when its own flush already
    sent the hand and the page is reloading, there is nothing left to start (what follows
    checks that the hand arrived once)."""
    try:
        page.evaluate("() => { window.tichuOutbox.flush(); }")
    except PlaywrightError as exc:
        if "Execution context was destroyed" not in str(exc):
            raise
        page.wait_for_load_state()


def hand_rows(page):
    return page.locator("table.hands tbody tr").count()


@pytest.mark.every_database
def test_a_save_on_lie_fi_is_queued_and_sent_once(live_server, phone):
    page = phone
    url = start_four(page, live_server)
    add(page, 0, 1, "75")
    controlled(page)
    page.tap("text=Add hand 2")
    fill_hand(page, 1, 0, "25")
    page.wait_for_selector(".preview:has-text('B +75')")  # scored before the signal went
    # Lie-fi: the phone still believes it is online, but the save never gets an answer.
    stuck = []
    page.route("**/hands/new", lambda route: stuck.append(route)
               if route.request.method == "POST" else route.continue_())
    assert page.evaluate("navigator.onLine") is True
    started = time.monotonic()
    page.tap("button[type=submit]")
    page.wait_for_url(url + "*", timeout=20000)
    assert time.monotonic() - started < 15  # gave up after the timeout, did not hang
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    # provisional totals, marked as such, and the next hand numbered after the waiting one
    page.wait_for_selector("#provisional:not([hidden])")
    assert totals(page) == [75 + 25, 25 + 75]
    assert page.locator(".big-score.provisional").count() == 2
    assert page.locator("a[data-next-hand]").text_content().strip().endswith("3")
    shot(page, "lie-fi-waiting")
    # the signal comes back: the hand is sent, once
    page.unroute("**/hands/new")
    start_flush(page)
    page.wait_for_selector("#outbox", state="hidden", timeout=15000)
    page.reload()
    assert hand_rows(page) == 2 and totals(page) == [100, 100]
    assert page.locator(".big-score.provisional").count() == 0
    page.evaluate("window.tichuOutbox.flush()")  # flushing again sends nothing twice
    page.reload()
    assert hand_rows(page) == 2
    shot(page, "lie-fi-sent")


REMEMBERED = """async (path) => {
  const db = await new Promise((ok, no) => {
    const req = indexedDB.open("tichu-scorer");
    req.onsuccess = () => ok(req.result);
    req.onerror = () => no(req.error);
  });
  if (!db.objectStoreNames.contains("matches")) return false;
  const known = await new Promise((ok) => {
    const get = db.transaction("matches").objectStore("matches").get(path);
    get.onsuccess = () => ok(get.result !== undefined);
    get.onerror = () => ok(false);
  });
  db.close();
  return known && (await caches.match("/")) !== undefined;
}"""


def test_the_installed_start_page_opens_offline(live_server, phone):
    page = phone
    url = start_four(page, live_server)
    controlled(page)
    page.goto(live_server + "/")
    page.wait_for_selector("text=Matches")
    page.goto(url)  # a match this phone scores: remembered for the offline page
    controlled(page)
    # what the offline start page needs, not a pause: this match remembered in IndexedDB
    # and the start page in the worker's page cache
    until(page, REMEMBERED, urlparse(url).path, seconds=60, what="the match remembered")
    page.context.set_offline(True)
    page.goto(live_server + "/")
    assert page.locator("h1").first.text_content().strip() == "Matches"
    assert "No network" not in page.content()
    page.goto(live_server + "/somewhere-never-visited")
    page.wait_for_selector("text=No network")
    page.wait_for_selector("#offline-matches:not([hidden]) a")
    assert page.locator("#offline-matches a").first.get_attribute("href") in url
    shot(page, "offline-start")
    page.context.set_offline(False)


def test_closing_the_browser_keeps_scoring_rights(live_server, phone, new_context):
    page = phone
    url = start_four(page, live_server)
    state = page.context.storage_state()
    session = [c for c in state["cookies"] if c["name"] == "session"]
    # a year on the browser's clock (it counts a cookie's expiry from the server's Date)
    browser_now = page.evaluate("Date.now() / 1000")
    assert session and session[0]["expires"] > browser_now + 360 * 24 * 3600
    # a browser restart keeps only cookies with an expiry
    state["cookies"] = [c for c in state["cookies"] if c["expires"] != -1]
    reopened = new_context(storage_state=state, **PHONE)
    again = reopened.new_page()
    again.goto(url)
    again.tap("text=Add hand 1")
    fill_hand(again, 2, 3, "25")
    again.tap("button[type=submit]")
    again.wait_for_selector("table.hands tbody tr")
    assert totals(again) == [25, 75]
    reopened.close()


def test_a_stranger_sees_no_other_table(live_server, phone, new_context):
    page = phone
    url = start_four(page, live_server)
    add(page, 0, 1, "75")
    stranger_context = new_context(**PHONE)
    stranger = stranger_context.new_page()
    for path in ("/", "/stats"):
        stranger.goto(live_server + path)
        body = stranger.content()
        assert "Ann" not in body and "Dee" not in body, path
    response = stranger.goto(url)
    assert response.status == 404
    stranger.goto(live_server + "/")
    shot(stranger, "stranger-home")
    stranger_context.close()


# Every form submission the page dispatches from now on, counted in window.__submits.
COUNT_SUBMITS = """() => {
  window.__submits = 0;
  window.addEventListener("submit", () => { window.__submits += 1; }, true);
}"""


def second_scorer(page, new_context):
    """Another phone, given the right to score the match `page` shows (its Share page): its
    page."""
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Share')")
    page.tap("a[data-choice='score']")
    link = page.get_attribute("a[data-scorer-link]", "href")
    other = new_context(**PHONE).new_page()
    other.goto(link)
    return other


@pytest.mark.every_database
def test_two_phones_one_hand_the_second_chooses(live_server, phone, new_context):
    page = phone
    url = start_four(page, live_server)
    other = second_scorer(page, new_context)
    # both phones open "Hand 1"; the other phone saves first
    page.goto(url + "/hands/new")
    other.goto(url + "/hands/new")
    fill_hand(other, 0, 1, "75")
    other.tap("button[type=submit]")
    other.wait_for_selector("text=Hand 1 saved.")
    fill_hand(page, 2, 3, "25")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Another phone saved hand 1 meanwhile")
    # the live preview must not wipe the message: its answer has come (hand.js)
    page.wait_for_selector(".preview:not(:empty)")
    assert page.locator("#conflict").is_visible()
    shot(page, "conflict-new-hand")
    # Enter (the phone keyboard's "Go") in a field chooses nothing: no form is submitted
    # (an implicit submission dispatches its submit event before the key press returns)
    page.evaluate(COUNT_SUBMITS)
    page.focus("#card_a")
    page.keyboard.press("Enter")
    assert page.evaluate("window.__submits") == 0
    assert page.locator("#conflict").is_visible()
    other.reload()
    assert hand_rows(other) == 1
    page.tap("button:has-text('Save mine as hand 2')")
    page.wait_for_selector("text=Hand 2 saved.")
    assert hand_rows(page) == 2 and totals(page) == [75 + 25, 25 + 75]
    other.context.close()


def held_save(page):
    """Tap Save and hold what offline.js sends (a script's POST: it asks for JSON) on its
    way: the held request, to be let go."""
    held = []
    page.route("**/hands/new", lambda route: held.append(route)
               if route.request.method == "POST"
               and "json" in (route.request.headers.get("accept") or "")
               else route.continue_())
    page.tap("button[type=submit]")
    for _ in range(300):  # the route's handler runs while the test waits
        if held:
            return held[0]
        page.wait_for_timeout(100)
    raise AssertionError("the Save was never sent")


def test_the_other_phones_hand_heard_during_a_save_still_shows_the_conflict(live_server, phone,
                                                                           new_context):
    """The timing of a loaded phone, forced: the page hears of the other phone's hand 1
    (live.js) while its own Save of hand 1 is on its way. The hand form is not renumbered
    for its own hand, and the page the refusal brings is the conflict, asked with what was
    refused: never a second POST that stores the hand as hand 2 unasked."""
    page = phone
    url = start_four(page, live_server)
    other = second_scorer(page, new_context)
    other.goto(url + "/hands/new")
    page.add_init_script(HEARD)
    page.goto(url + "/hands/new")
    fill_hand(page, 2, 3, "25")
    send = held_save(page)
    fill_hand(other, 0, 1, "75")
    other.tap("button[type=submit]")
    other.wait_for_selector("text=Hand 1 saved.")
    # live.js heard (the outbox was shown); its note of another phone's hand is not shown
    # while this phone's own Save is on its way: the answer tells (test_phone_live.py)
    until(page, "() => (window.heard || 0) > 0", what="the form heard of hand 1")
    page.evaluate("window.tichuOutbox.show()")  # and once more, awaited
    assert page.input_value("input[data-number]") == "1"
    assert page.locator(".hand-head h1").text_content() == "Hand 1"
    send.continue_()
    page.wait_for_selector("text=Another phone saved hand 1 meanwhile")
    assert page.locator("#conflict").is_visible()
    other.reload()
    assert hand_rows(other) == 1
    other.context.close()


def test_a_refused_hand_changed_during_its_save_is_shown_as_refused(live_server, phone):
    """The server's page for a refused hand answers the request it refused: a field changed
    while the Save was on its way (here the card points, typed again) is not a second
    request that stores the hand the outbox keeps as refused."""
    page = phone
    url = start_four(page, live_server)
    page.goto(url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.fill("#card_a", "73")  # not a multiple of 5 (P1): the server refuses it
    send = held_save(page)
    page.fill("#card_a", "75")
    send.continue_()
    # the server's page of problems holds the hand now (the Save's page kept it waiting)
    # (asked also while that page loads, before offline.js defines the outbox)
    until(page, "async () => !!window.tichuOutbox"
                " && (await window.tichuOutbox.all()).length === 0",
          what="the server's page of problems, holding the hand")
    assert page.input_value("#card_a") == "73"  # the hand as it was refused
    assert page.locator(".problems .problem a.rule:has-text('P1')").is_visible()
    page.goto(url)
    assert hand_rows(page) == 0


@pytest.mark.every_database
def test_a_waiting_hand_that_meets_another_phones_hand_is_never_lost(live_server, phone,
                                                                      new_context):
    page = phone
    url = start_four(page, live_server)
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Share')")
    page.tap("a[data-choice='score']")
    link = page.get_attribute("a[data-scorer-link]", "href")
    page.goto(url)
    controlled(page)
    page.goto(url + "/hands/new")  # opened as hand 1, then the signal goes
    page.context.set_offline(True)
    fill_hand(page, 2, 3, "25")
    page.tap("button[type=submit]")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    other_context = new_context(**PHONE)
    other = other_context.new_page()
    other.goto(link)
    other.goto(url + "/hands/new")
    fill_hand(other, 0, 1, "75")
    other.tap("button[type=submit]")
    other.wait_for_selector("text=Hand 1 saved.")
    # back online: the waiting hand meets hand 1 and waits for a choice, with its controls
    page.context.set_offline(False)
    start_flush(page)
    page.wait_for_selector("#outbox:has-text('another phone saved one meanwhile')")
    # a hand waiting for a choice is not counted as if it were going to be sent
    page.wait_for_selector("#provisional", state="hidden")
    assert page.locator(".big-score.provisional").count() == 0
    shot(page, "outbox-conflict")
    # lie-fi while opening the choice: the page never comes, the hand stays on the phone
    page.route("**/hands/new", lambda route: route.abort()
               if route.request.method == "POST" else route.continue_())
    # the last of it: the server's page asked for, as a page, and never come
    with page.expect_event("requestfailed", lambda r: r.method == "POST"
                           and r.is_navigation_request()):
        page.tap("#outbox button:has-text('Show')")
    page.unroute("**/hands/new")
    page.goto(url)
    assert len(page.evaluate("window.tichuOutbox.all()")) == 1
    page.wait_for_selector("#outbox button:has-text('Show')")
    page.tap("#outbox button:has-text('Show')")
    page.wait_for_selector("text=Another phone saved hand 1 meanwhile")
    page.tap("button:has-text('Save mine as hand 2')")
    page.wait_for_selector("text=Hand 2 saved.")
    assert hand_rows(page) == 2 and totals(page) == [75 + 25, 25 + 75]
    assert page.evaluate("window.tichuOutbox.all()") == []
    other_context.close()
