"""Offline at the table: hands saved without network wait on the phone and are sent once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from benchmarks.harness import controlled
from tests.browser.conftest import ready_without_signal, shot, start_match, until

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core


def controlled_match(page, base: str, start=start_match) -> str:
    """A new match (begun by `start`) whose hand form this phone opened once, and whose
    match page it opened under the service worker's control: its URL, once the worker kept
    the hand form for no signal. (The first hand form may load before the worker controls
    the phone; the match page then asks the worker to keep it, and a signal lost before
    that copy is in leaves the phone only the offline page, as it would a player.)"""
    match_url = start(page, base)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(match_url)
    controlled(page)
    kept(page, match_url + "/hands/new", 'id="hand-form"')
    return match_url


def send_waiting(page) -> None:
    """Send the outbox now. The phone's own sending on getting its signal back may be
    quicker and load the page afresh, which ends the page this was asked of: then the
    hands are on their way already."""
    try:
        page.evaluate("window.tichuOutbox.flush()")
    except PlaywrightError as exc:
        if "context was destroyed" not in str(exc):
            raise


def kept(page, path: str, text: str) -> None:
    """Wait until the phone's copy of `path` (the service worker's) holds `text`."""
    for _ in range(150):
        if page.evaluate("([u, t]) => caches.match(u).then((r) => r ? r.text() : '')"
                         ".then((body) => body.includes(t))", [path, text]):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the phone's copy of {path} never held {text!r}")


# The match page as the server drew it with `next` the next hand's number (offline.js
# changes the link's words, never its data-next-hand), nothing waiting on the phone
SYNCED = """async (next) => {
  const link = document.querySelector('a[data-next-hand]');
  const box = document.getElementById('outbox');
  return !!link && link.dataset.nextHand === next && !!box && box.hidden && !!window.tichuOutbox
    && (await window.tichuOutbox.all()).length === 0;
}"""


def synced(page, next_hand: int) -> None:
    """Wait until the page is the server's match page once the phone sent what waited."""
    until(page, SYNCED, str(next_hand), seconds=15,
          what=f"the server's page with hand {next_hand} next, nothing waiting")


def waiting_without_signal(page, match_url: str, *taps: str) -> None:
    """Without signal, the hand form (the phone's copy), `taps`, Save: the hand waits."""
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    for selector in taps:
        page.tap(selector)
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")


def enter_first_hand(page, match_url: str) -> None:
    """Hand 1 (Ann, then Bob out; 75 card points), entered without signal: it waits."""
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")


@pytest.mark.every_database
def test_offline_hands_wait_and_sync_once(live_server, phone):
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server)
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
    # Sent, the phone loads the match afresh (offline.js, flush). The page before it says
    # "Add hand 3" while the hands wait, and hides the outbox a moment before it goes, its
    # totals and list then back to its copy's (0, no rows): a read there is early. Waited
    # for: the server's own page (offline.js changes the link's words, never its
    # data-next-hand) with nothing waiting on the phone
    synced(page, 3)
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
    # the list shows the two stored hands only (a row the phone drew for the hand while it
    # waited goes once the page has the server's refusal: waited for, on a loaded machine)
    expect(page.locator("table.hands tbody tr")).to_have_count(2, timeout=15000)


def test_the_page_of_every_hand_counts_waiting_hands_and_is_the_same_match(live_server, phone):
    """A long match's page of every hand is the match page with more rows: with a hand
    waiting offline its copy shows the provisional totals too, and the offline page lists
    the match once, whichever of its pages the phone opened."""
    page = phone
    context = page.context
    # a phone whose copy of the core cannot run (test_phone_core_offline.py: one that can)
    context.route("**/core/**", lambda route: route.abort())
    match_url = controlled_match(page, live_server)
    page.goto(match_url + "/every-hand")  # the service worker keeps a copy of it
    page.wait_for_selector("text=Add hand 1")
    context.set_offline(True)
    enter_first_hand(page, match_url)
    page.goto(match_url + "/every-hand")  # its copy, from the phone
    page.wait_for_selector("#provisional:not([hidden])")
    # entered without signal and without the core, the hand has no score yet (the server
    # derives it): the totals are marked provisional, and the note counts it apart
    assert page.locator("[data-total].provisional").count() == 2
    note = page.text_content("#provisional")
    assert "Not counted yet: 1 more waiting" in note and "is counted" not in note
    assert page.locator("a[data-next-hand]").text_content().strip().endswith("2")
    shot(page, "offline-every-hand")
    context.set_offline(False)
    page.wait_for_selector("#outbox", state="hidden", timeout=15000)
    page.goto(live_server + "/offline")
    page.wait_for_selector("#offline-matches:not([hidden])")
    assert page.locator("#offline-matches li").count() == 1
    assert page.locator("#offline-matches a").get_attribute("href") == match_url.removeprefix(
        live_server)
    faults = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]  # offline
    assert not faults, faults


def test_undo_without_signal_takes_back_the_waiting_hand_or_says_why(live_server, phone):
    """While hands wait on the phone, Undo names the latest of them and takes it off the
    phone (nothing is sent); with none waiting and no signal, Undo says it cannot reach the
    server instead of leaving the app for the browser's error page."""
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='60']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.", timeout=60000)  # a loaded CI machine
    path = match_url.removeprefix(live_server)
    # the phone's copies now have hand 1: the page (and its Undo), the form for hand 2
    kept(page, path, "Undo hand 1")
    kept(page, path + "/hands/new", 'name="number" value="2"')

    context.set_offline(True)
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".quick button[data-set='30']")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    undo = page.locator("form[data-undo] button:has-text('Undo hand 2')")  # the waiting one
    undo.wait_for()
    undo.tap()
    page.wait_for_selector("#outbox", state="hidden")
    undo = page.locator("form[data-undo] button:has-text('Undo hand 1')")
    undo.wait_for()
    assert page.locator("#provisional").is_hidden()
    undo.tap()  # hand 1 is on the server: no signal, nothing undone, and it says so
    page.wait_for_selector("#outbox:has-text('No signal: nothing was undone.')")
    assert page.url.startswith(match_url)
    shot(page, "offline-undo")

    context.set_offline(False)
    page.reload()
    assert page.locator("table.hands tbody tr").count() == 1  # hand 1 stands, hand 2 gone
    page.evaluate("window.tichuOutbox.flush()")
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    faults = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert not faults, faults


def test_the_first_hand_saved_without_signal_can_be_undone_on_the_phone(live_server, phone):
    """No hand stored yet, the first one saved without signal: the match page offers "Undo
    hand 1" for it (it had no Undo before a stored hand), which takes it off the phone and
    leaves the empty match page again. The signal goes once the page says it is ready for
    that, as a player sees: the core draws the waiting hand (gone before the core was
    fetched, no core draws it: test_phone_ready.py)."""
    page = phone
    match_url = controlled_match(page, live_server)
    assert page.locator("form[data-undo]").is_hidden()  # nothing to take back
    ready_without_signal(page)
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='60']")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    page.wait_for_selector("tr.waiting")
    assert page.locator("p.empty").is_hidden()
    undo = page.locator("form[data-undo] button:has-text('Undo hand 1')")
    undo.wait_for()
    undo.tap()
    page.wait_for_selector("#outbox", state="hidden")
    page.wait_for_selector("form[data-undo]", state="hidden")
    page.wait_for_selector("p.empty")  # "No hands yet" again, the list hidden
    assert page.locator("table.hands").is_hidden()
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    shot(page, "offline-undo-first")
    page.context.set_offline(False)
    page.reload()
    assert page.locator("table.hands tbody tr").count() == 0  # nothing reached the server
    faults = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert not faults, faults


def test_a_hand_undone_and_entered_again_elsewhere_refreshes_the_phones_form(live_server,
                                                                               phone):
    """Another phone undoes hand 2 and enters it again: the match page looks as before, but
    the hand form's next entry number moved on. The phone's copy of the form follows, so a
    hand entered here without signal is saved as hand 3, not refused as a conflict."""
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server)
    for number, (first, points) in enumerate(((0, "60"), (1, "30")), start=1):
        page.tap(f"text=Add hand {number}")
        page.wait_for_selector(".out-buttons:not([hidden])")
        page.tap(f".out-btn[data-seat='{first}']")
        page.tap(f".quick button[data-set='{points}']")
        page.tap("button[type=submit]")
        page.wait_for_selector(f"text=Hand {number} saved.")
    # the other phone (the same cookies, through the API of the page's forms)
    form = page.request.get(match_url + "/hands/new").text()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    assert page.request.post(match_url + "/undo", form={"csrf_token": token, "number": "2"},
                             max_redirects=0).status == 303
    again = {"csrf_token": token, "number": "2", "entry": "3", "place_1": "1", "card_a": "30"}
    assert page.request.post(match_url + "/hands/new", form=again,
                             max_redirects=0).status == 303
    page.goto(match_url)  # the same next hand and totals as before the undo
    kept(page, match_url.removeprefix(live_server) + "/hands/new", 'name="entry" value="4"')

    waiting_without_signal(page, match_url, ".out-btn[data-seat='2']",
                           ".quick button[data-set='50']")
    context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden", timeout=15000)
    page.goto(match_url)
    assert page.locator("table.hands tbody tr").count() == 3
    assert [int(t) for t in page.locator("[data-total]").all_text_contents()] == [
        60 + 30 + 50, 40 + 70 + 50]


def test_a_form_kept_before_the_last_save_takes_the_next_hand_without_signal(live_server,
                                                                             phone):
    """The signal goes right after a save, before the service worker had kept the hand form
    anew (its fetch lost here): the phone's copy of the form is still the one for hand 1. It
    takes the next hand's number from the phone's copy of the match page, so the hand entered
    without signal is hand 2, and is saved once the signal is back, not refused as another
    phone's conflict."""
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server)
    path = match_url.removeprefix(live_server)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    lost = []

    def lose_the_forms_copy(route, request):
        if request.headers.get("x-tichu-prefetch"):  # the worker keeping its copy
            lost.append(request.url)
            route.abort()
        else:
            route.continue_()
    context.route("**" + path + "/hands/new", lose_the_forms_copy)
    page.tap(".out-btn[data-seat='0']")
    page.tap(".quick button[data-set='60']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    kept(page, path, "Undo hand 1")  # the phone's copy of the match page, as it came
    context.set_offline(True)
    page.goto(match_url + "/hands/new")  # the copy made when hand 1 was to be entered
    page.wait_for_selector(".out-buttons:not([hidden])")
    expect(page.locator("form.hand-form h1")).to_have_text("Hand 2")
    assert page.locator("[data-now]").all_text_contents() == ["60", "40"]  # hand 1 counted
    assert lost, "the worker never tried to keep the form anew: nothing was tested"
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='30']")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    context.set_offline(False)
    send_waiting(page)
    synced(page, 3)
    assert page.locator("table.hands tbody tr").count() == 2
    assert [int(t) for t in page.locator("[data-total]").all_text_contents()] == [
        60 + 30, 40 + 70]


def test_a_kept_form_filled_from_a_followed_hand_is_never_taken_for_the_next(live_server,
                                                                             phone):
    """A hand form filled from the hand the table followed is that hand's alone: kept before
    its save and served without signal after it, it is not renumbered for the next hand (it
    would store the followed hand's calls again, unasked). Its Save meets the stored hand as
    a conflict, and the player chooses."""
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server)
    path = match_url.removeprefix(live_server)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      page.request.get(match_url + "/hands/new").text()).group(1)
    for event in ("start", "tichu:0", "out:1"):  # another phone follows hand 1
        assert page.request.post(match_url + "/follow", form={"csrf_token": token,
                                 "event": event}, max_redirects=0).status in (200, 303)
    context.route("**" + path + "/hands/new", lambda route, request: route.abort()
                  if request.headers.get("x-tichu-prefetch") else route.continue_())
    page.goto(match_url + "/hands/new")  # filled from the followed hand, kept as it came
    page.wait_for_selector("[data-followed]")
    kept(page, path + "/hands/new", "data-followed")
    page.tap(".quick button[data-set='60']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    kept(page, path, "Undo hand 1")
    waiting_without_signal(page, match_url, ".quick button[data-set='50']")
    # saved as the form was drawn: for hand 1, with hand 1's followed taps
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.map((i) => i.number))"
                         ) == [1]
    context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox:has-text('Hand 1: another phone saved one meanwhile')",
                           timeout=15000)
    page.goto(match_url)
    assert page.locator("table.hands tbody tr").count() == 1


def start_threechu(page, base: str) -> str:
    """A Threechu match of Tom, Uma and Vic (and the dummy), begun through the form."""
    page.goto(base + "/matches/new?variant=threechu")
    for seat, name in enumerate(("Tom", "Uma", "Vic")):
        page.fill(f"#seat_{seat}", name)
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    return page.url


def test_a_threechu_hand_entered_while_another_waits_shows_its_own_seating(live_server,
                                                                         phone):
    """[T3.1]: in Threechu the shuffler plays the dummy and they are team A, and the shuffle
    passes every hand. Without signal, with hand 1 waiting on the phone, the form for hand 2
    is the copy drawn for hand 2 (the phone keeps the next hands' forms): Uma shuffles, and
    team A is Uma and the dummy, so the card points typed for A are theirs, as they read."""
    page = phone
    context = page.context
    match_url = controlled_match(page, live_server, start=start_threechu)
    path = match_url.removeprefix(live_server)
    kept(page, path + "/hands/new?number=2", "<strong>Uma</strong> shuffles")
    waiting_without_signal(page, match_url, ".out-btn[data-seat='1']",
                           ".quick button[data-set='50']")  # hand 1: Tom shuffles, A 50
    page.goto(match_url + "/hands/new")  # the copy for hand 1, then the one for hand 2
    # (the copy for hand 1 says "Hand 2" too, a moment, once numbered after the waiting hand)
    page.wait_for_url("**/hands/new?number=2")
    page.wait_for_selector(".out-buttons:not([hidden])")
    expect(page.locator("form.hand-form h1")).to_have_text("Hand 2")
    assert "Uma shuffles and plays the dummy" in page.text_content("form.hand-form")
    assert "Uma" in page.locator("label[data-team='0']").get_attribute("title")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".quick button[data-set='75']")  # for Uma and the dummy
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('2 hands waiting')")
    shot(page, "offline-threechu-waiting")
    context.set_offline(False)
    send_waiting(page)
    synced(page, 3)  # both stored, as hands 1 and 2
    # Tom, Uma, Vic, the dummy: 50 each, then A (Uma, the dummy) 75 and B 25
    assert [int(t) for t in page.locator("[data-total]").all_text_contents()] == [
        75, 125, 75, 125]


MARK_REFUSED = """async () => {
  const items = await window.tichuOutbox.all();
  await new Promise((resolve, reject) => {
    const req = indexedDB.open("tichu-scorer", 2);
    req.onsuccess = () => {
      const t = req.result.transaction("outbox", "readwrite");
      items.forEach((item) => t.objectStore("outbox").put({ ...item, error: "refused (403)" }));
      t.oncomplete = resolve;
      t.onerror = () => reject(t.error);
    };
  });
  return items.length;
}"""


def test_a_refused_hand_saved_from_show_leaves_the_outbox(live_server, phone):
    """A hand the server refused once (here: marked so while it waited, as a refusal for
    want of rights would) is sent again by the outbox's "Show"; saved, it is no longer
    listed as refused."""
    page = phone
    match_url = controlled_match(page, live_server)
    page.context.set_offline(True)
    enter_first_hand(page, match_url)
    assert page.evaluate(MARK_REFUSED) == 1
    page.context.set_offline(False)
    page.goto(match_url)
    page.wait_for_selector("#outbox:has-text('Hand 1 was refused')")
    page.locator("#outbox button", has_text="Show").click()
    page.wait_for_selector("table.hands tbody tr")
    page.wait_for_selector("#outbox", state="hidden")
    assert page.locator("table.hands tbody tr").count() == 1
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    page.reload()
    page.wait_for_selector("#outbox", state="hidden")
