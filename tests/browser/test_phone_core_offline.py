"""Without signal the phone scores with its copy of the core: the preview, the waiting
hands in the list and the totals, who shuffles next; the server's result replaces them
once the hands are sent. Where the core cannot run, the phone does what it did before and
loses nothing. (The bundle is fetched by the set-up: missing in CI, these tests fail.)"""

from __future__ import annotations

import os
import re

import pytest

from benchmarks.harness import controlled
from tests.browser.conftest import shot
from tests.browser.test_phone_offline import controlled_match, kept, send_waiting
from tichu_scorer.views import core as core_view

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core

BUNDLE = core_view._runtime_folder  # noqa: SLF001 (the set-up's folder, found as the app finds it)


@pytest.fixture(autouse=True)
def _bundle():
    from flask import Flask
    if BUNDLE(Flask(__name__)) is None:
        if os.environ.get("CI"):
            pytest.fail("the Pyodide bundle is missing: `make pyodide` must fetch it in CI")
        pytest.skip("the Pyodide bundle could not be fetched: see docs/OFFLINE_CORE.md")


def core_kept(page) -> None:
    """Wait until the service worker keeps every file of the core."""
    for _ in range(600):
        if page.evaluate("""async () => {
              const keys = await (await caches.open('tichu-core')).keys();
              return keys.length >= 7; }"""):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never kept the core")


def lose_signal_ready(page, match_url: str) -> None:
    """The match's hand form opened once, the match page under the service worker's control
    and the core kept: then the signal goes."""
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(match_url)
    controlled(page)
    core_kept(page)
    page.context.set_offline(True)


SNAPSHOT_KEPT = """async () => (await (await caches.open('tichu-core')).keys())
  .some((r) => r.url.includes('/core/snapshot?v='))"""


def snapshot_kept(page) -> None:
    """Wait until the scorer's page, idle with signal, had the core keep its memory snapshot
    (offline.js, warm), as a phone does at the table: its first start without signal then
    takes a second or so, not the start from nothing, which on a loaded machine can outlast
    the page's wait for the core's answer (core-client.js, CORE_TIMEOUT)."""
    for _ in range(600):
        if page.evaluate(SNAPSHOT_KEPT):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the match page never had the core keep its snapshot")


def tap_hand(page, first, second, points):
    """Out first and second; the card points only where they count: partners out first
    and second (a double victory) hide them, at once or when the preview says so."""
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(f".out-btn[data-seat='{first}']")
    page.tap(f".out-btn[data-seat='{second}']")
    if (first - second) % 2:
        page.tap(f".quick button[data-set='{points}']")


def test_without_signal_the_phone_scores_as_the_server_will(live_server, phone):
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    page.context.set_offline(True)

    page.goto(match_url + "/hands/new")
    tap_hand(page, 0, 2, "75")  # Ann and Cy out first: a double victory for team A
    page.wait_for_selector(".preview .scored-here", timeout=60000)  # the core's first start
    assert "+200" in page.locator(".preview").text_content()
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.goto(match_url + "/hands/new")
    tap_hand(page, 1, 0, "25")  # Bob out first, Ann second; team A 25 card points
    page.wait_for_selector(".preview .scored-here")
    preview = page.locator(".preview").text_content()
    assert "A +25 → 225" in preview and "B +75 → 75" in preview  # after the waiting hand
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")

    page.wait_for_selector("#provisional:not([hidden])")
    page.wait_for_selector("tr.waiting >> nth=1")
    assert page.locator("[data-total='0']").text_content().strip() == "225"
    assert page.locator("[data-total='1']").text_content().strip() == "75"
    note = page.locator("#provisional").text_content()
    assert "2 hands waiting to be sent are counted" in note and "not" not in note
    # the first one out of the latest hand shuffles next
    assert page.locator(".shuffler strong").text_content() == "Bob"
    # the hands waiting are the list: no "No hands yet" under them (the server's page,
    # with them stored, has none)
    assert page.locator("p.empty").is_hidden()
    shot(page, "core-offline-waiting")

    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden")
    page.goto(match_url)
    assert page.locator("[data-total='0']").text_content().strip() == "225"
    assert not page.locator("tr.waiting").count()
    assert [e for e in page.errors if "net::ERR_INTERNET_DISCONNECTED" not in e] == []


def test_a_hand_saved_before_its_preview_came_is_counted(live_server, phone):
    """The README's three taps without signal, Save tapped at once: the preview (the core's
    start) has not come yet, and the hand is counted all the same once the core answers."""
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    page.context.set_offline(True)
    page.goto(match_url)
    page.tap(".first-btn >> nth=1")  # Bob out first
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".quick button[data-set='65']")  # team A's card points
    assert not page.locator(".preview .scored-here").count()  # no preview yet
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#provisional:not([hidden])")
    page.wait_for_selector("tr.waiting")
    page.wait_for_function("() => document.querySelector(\"[data-total='1']\")"
                           ".textContent.trim() === '35'", timeout=60000)
    assert page.locator("[data-total='0']").text_content().strip() == "65"
    note = page.locator("#provisional").text_content()
    assert "is counted" in note and "not" not in note, note
    page.reload()  # and again on the page the phone kept
    page.wait_for_function("() => document.querySelector(\"[data-total='0']\")"
                           ".textContent.trim() === '65'", timeout=60000)


def test_a_core_that_cannot_start_leaves_the_outbox_as_it_was(live_server, phone):
    page = phone
    # the bundle fails: every file of the core answers 503, none is kept
    page.context.route("**/core/**", lambda route: route.fulfill(status=503, body="down"))
    match_url = controlled_match(page, live_server)
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    tap_hand(page, 0, 1, "75")
    page.wait_for_selector(".preview:has-text('Preview unavailable offline')")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    page.wait_for_selector("#provisional:not([hidden])")
    # counted nowhere, said so, never the contradiction "1 counted (1 not yet scored)"
    note = page.locator("#provisional").text_content()
    assert "counted" in note and "are counted" not in note and "is counted" not in note
    assert page.locator("[data-total='0']").text_content().strip() == "0"
    items = page.evaluate("window.tichuOutbox.all()")
    assert len(items) == 1 and items[0]["number"] == 1
    page.context.unroute("**/core/**")
    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden")
    page.goto(match_url)
    assert page.locator("[data-total='0']").text_content().strip() == "75"


def test_the_referee_judges_without_signal(live_server, phone):
    page = phone
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(live_server + "/referee")  # under the worker's control: it asks for the core
    core_kept(page)
    page.context.set_offline(True)
    page.goto(live_server + "/referee")  # kept from the install, on every phone
    page.tap("label[for='target-trick']")
    page.tap(".pick[data-card='7j']")
    page.tap("label[for='target-play']")
    page.tap(".pick[data-card='6s']")
    page.wait_for_selector("#verdict.illegal .here", timeout=60000)  # the core's first start
    assert page.locator("#verdict .reason").text_content() == \
        "The single 6 is not higher than the single 7."  # the server's own sentence
    assert page.locator("#verdict .rule-link").get_attribute("href").endswith("#C1")
    page.tap(".pick[data-card='6s']")  # taken back
    page.tap(".pick[data-card='Qp']")
    page.wait_for_selector("#verdict.legal .here")
    assert "The single Q beats the single 7." in page.locator("#verdict .reason").text_content()
    shot(page, "core-offline-referee")


def test_with_signal_the_page_keeps_the_cores_snapshot_for_a_fast_start(live_server, phone):
    """The scorer's match page, idle with signal, starts the core once so that it keeps its
    memory snapshot; the hand form opened later without signal starts from it."""
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    snapshot_kept(page)  # the page itself, idle: nobody asked for the core
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    tap_hand(page, 0, 2, "75")
    page.wait_for_selector(".preview .scored-here", timeout=60000)
    assert "+200" in page.locator(".preview").text_content()
    steps = page.evaluate("window.tichuCore.steps()")
    assert steps["snapshot"] > 1_000_000 and "imported" not in steps  # no import: the heap had it


CHART = """() => {
  const f = document.querySelector('figure.chart');
  if (!f || f.hidden) return null;
  const at = (e, name) => e.getAttribute(name);
  return { provisional: f.classList.contains('provisional'),
    paths: Array.from(f.querySelectorAll('path.line'), (p) => at(p, 'class') + ' ' + at(p, 'd')),
    marks: Array.from(f.querySelectorAll('.call'), (m) => [at(m, 'class'),
      at(m, 'cx') === null ? at(m, 'd') : [Number(at(m, 'cx')), Number(at(m, 'cy'))],
      m.querySelector('title').textContent]),
    labels: Array.from(f.querySelectorAll('text.axis'),
      (t) => [Number(at(t, 'x')), Number(at(t, 'y')), t.textContent]),
    title: f.querySelector('svg title').textContent };
}"""


def called(page, match_url, caller, hand):
    """Enter a hand without signal in which `caller` called Tichu; save it once the phone
    scored it."""
    page.goto(match_url + "/hands/new")
    page.locator(".call-row").nth(caller).locator("label").filter(
        has_text=re.compile(r"^Tichu$")).tap()
    tap_hand(page, *hand)
    page.wait_for_selector(".preview .scored-here", timeout=60000)
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")


def test_without_signal_the_chart_moves_as_the_server_will_draw_it(live_server, phone):
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    page.goto(match_url + "/hands/new")  # one hand stored: the page has a chart
    tap_hand(page, 1, 0, "25")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    stored = page.evaluate(CHART)
    assert stored and not stored["provisional"]
    kept(page, match_url + "/chart.json", "[[25,75]]")  # kept with the page: hand 1's totals
    # and the hand form's copy, fetched beside it: opened for hand 2 (an older copy, for
    # hand 1, would queue the hands as 1 and 2, and hand 1 meet the stored hand 1)
    kept(page, match_url + "/hands/new", 'name="number" value="2"')
    page.context.set_offline(True)

    called(page, match_url, 0, (0, 2, "75"))  # Ann calls Tichu and goes out first: made
    called(page, match_url, 1, (2, 0, "50"))  # Bob calls Tichu, Cy goes out first: failed
    page.wait_for_selector("tr.waiting >> nth=1")
    page.wait_for_selector("figure.chart.provisional")
    offline = page.evaluate(CHART)
    assert offline["paths"] != stored["paths"] and len(offline["marks"]) == 2
    assert offline["marks"][0][2] == "hand 2: Ann: Tichu made"
    assert offline["marks"][1][0] == "call failed"
    shot(page, "core-offline-chart")
    page.emulate_media(color_scheme="dark")
    shot(page, "core-offline-chart-dark")
    page.emulate_media(color_scheme="light")

    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden")
    page.goto(match_url)
    served = page.evaluate(CHART)
    assert not served["provisional"]
    offline["provisional"] = False
    assert offline == served  # the phone drew what the server draws


def test_a_broken_snapshot_is_dropped_and_the_core_starts_from_nothing(live_server, phone):
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    snapshot_kept(page)  # the page keeps a snapshot by itself; it is then spoiled
    page.evaluate("""async () => {
      const cache = await caches.open('tichu-core');
      const key = (await cache.keys()).find((r) => r.url.includes('/core/snapshot?v='));
      await cache.put(key, new Response(new Uint8Array(4096)));  // cut short: zeros
    }""")
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    tap_hand(page, 0, 2, "75")
    page.wait_for_selector(".preview .scored-here", timeout=60000)
    assert "+200" in page.locator(".preview").text_content()
    assert page.evaluate("window.tichuCore.steps()")["snapshot"] == 0  # started from nothing
    for _ in range(300):  # and kept a good snapshot again
        if page.evaluate("""async () => {
              const cache = await caches.open('tichu-core');
              const key = (await cache.keys()).find((r) => r.url.includes('/core/snapshot?v='));
              return key ? (await (await cache.match(key)).arrayBuffer()).byteLength : 0;
            }""") > 1_000_000:
            return
        page.wait_for_timeout(100)
    raise AssertionError("no good snapshot was kept again")


GS_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
GS_SAVED = {"en": "Hand {n} saved.", "de": "Runde {n} gespeichert."}


def gs_hand(page, seats) -> None:
    page.wait_for_selector(".out-buttons:not([hidden])")
    for seat in seats:
        page.tap(f".out-btn[data-seat='{seat}']")
    page.tap("button[type=submit]")


def gs_page(page) -> dict:
    """What a Grand Seigneur match page shows: the seating, the pushes, the records, each
    hand's finishing order (without the waiting mark), the count of hands."""
    return page.evaluate(r"""() => {
        const text = (q) => Array.from(document.querySelectorAll(q),
                                       (e) => e.textContent.replace(/\s+/g, ' ').trim());
        const shown = (q) => { const e = document.querySelector(q); return !!e && !e.hidden; };
        return {seating_title: text('#seating'), seating: text('ol.seating li'),
                pushes: text('ul.pushes li'), bold: text('ul.pushes li strong'),
                records: text('table.records tbody tr'), played: text('[data-played]'),
                orders: Array.from(document.querySelectorAll('table.ranks tbody td.notes'),
                                   (td) => td.firstChild.textContent.trim()),
                sections: [shown('section[aria-labelledby=seating]'), shown('table.records'),
                           shown('p.empty')]};
    }""")


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("de", "dark")])
def test_without_signal_grand_seigneur_shows_what_the_server_will(live_server, new_context,
                                                                  lang, scheme):
    """Grand Seigneur offline: a hand the server would refuse is refused on the phone with
    its message and rule; two waiting hands are in the list, marked, and the seating, the
    pushes and the records follow them, exactly as the server shows them once sent."""
    from tests.browser.conftest import PHONE
    page = new_context(**PHONE, locale="de-DE" if lang == "de" else "en-US",
                       color_scheme=scheme).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server + "/")
    page.goto(f"{live_server}/matches/new?variant=seigneur")
    for seat, name in enumerate(GS_NAMES):
        page.fill(f"#seat_{seat}", name)
    page.tap("form button[type=submit]")
    page.wait_for_selector(".first-btn")
    match_url = page.url.split("?")[0]
    page.tap(".other-hand")
    gs_hand(page, (2, 0, 4, 1))  # hand 1, stored: Cy is the Great Lord
    page.wait_for_selector("text=" + GS_SAVED[lang].format(n=1))
    lose_signal_ready(page, match_url)

    page.goto(match_url + "/hands/new")
    gs_hand(page, (3, 1))  # two of five: the server would refuse it ([GS1])
    problem = page.locator(".problems .problem").first
    problem.wait_for(timeout=60000)  # the core's first start
    refused_here = " ".join(problem.text_content().split())
    assert refused_here.endswith("GS1") and page.url.startswith(match_url + "/hands/new")
    assert not page.evaluate("window.tichuOutbox.all()")  # the form holds it, not the outbox
    shot(page, f"core-offline-seigneur-refused-{lang}-{scheme}")
    page.tap(".clear-order")
    gs_hand(page, (3, 1, 0, 2))  # hand 2: Dee first, Eve last
    page.wait_for_url(match_url + "*")
    page.goto(match_url + "/hands/new")
    gs_hand(page, (1, 3, 4, 0))  # hand 3: Bob first, Cy last
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("tr.waiting >> nth=1")
    page.wait_for_selector("#provisional:not([hidden])")
    here = gs_page(page)
    numbers = page.locator("tr.waiting th").all_text_contents()
    assert [n.split(" ")[0] for n in numbers] == ["3", "2"]
    assert page.locator("tr.waiting .waiting-mark").count() == 2
    assert here["seating"][0].endswith(": Bob") and here["seating"][-1].endswith(": Cy")
    assert "4" in here["seating_title"][0] and "3" in here["played"][0]
    shot(page, f"core-offline-seigneur-{lang}-{scheme}")

    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden")
    page.goto(match_url)
    assert not page.locator("tr.waiting").count()
    assert gs_page(page) == here  # the server's page, word for word
    # and the server refuses the short order with the phone's words and rule
    page.goto(match_url + "/hands/new")
    gs_hand(page, (3, 1))
    page.wait_for_selector(".problems .problem")
    assert " ".join(page.locator(".problems .problem").first.text_content().split()) == refused_here
    assert errors == []


# The core's answers held back until the test lets them go (a phone slow to start it)
HELD_CORE = """(() => {
  const Real = window.Worker;
  window.coreAsked = [];
  window.coreHeld = [];
  window.letCoreAnswer = () => { window.coreHeld.splice(0).forEach((go) => go()); };
  window.Worker = class extends Real {
    postMessage(message) { window.coreAsked.push(message.text); super.postMessage(message); }
    set onmessage(fn) { super.onmessage = (event) => window.coreHeld.push(() => fn(event)); }
    get onmessage() { return super.onmessage; }
  };
})();"""


def test_a_count_the_core_answers_late_never_draws_a_hand_refused_meanwhile(live_server, phone):
    """The match page asks the core to count a waiting hand; before it answers, the signal
    comes back and the server refuses the hand: the late count draws nothing (the hand is
    no longer waiting), as on a phone slow to start the core."""
    page = phone
    match_url = controlled_match(page, live_server)
    core_kept(page)
    page.context.add_init_script(HELD_CORE)
    page.context.set_offline(True)
    page.goto(match_url + "/hands/new")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='2']")
    page.fill("#card_a", "33")  # not a multiple of 5: the server refuses it
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand waiting')")
    page.wait_for_function("() => window.coreAsked.some((t) => t.includes('\"op\":\"waiting\"'))")
    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox:has-text('Hand 1 was refused')")
    assert not page.locator("tr.waiting").count()
    # the core answers the count now, the hand long refused
    page.wait_for_function("() => window.coreHeld.length >= window.coreAsked.length",
                           timeout=60000)
    page.evaluate("window.letCoreAnswer()")
    # what the answers drew, they drew before a later task of the page's
    page.evaluate("() => new Promise((done) => setTimeout(done))")
    assert not page.locator("tr.waiting").count()
    assert page.locator("#provisional").is_hidden()
    assert page.locator("[data-total='0']").text_content().strip() == "0"
