"""Following a hand at the table (RULES.md §11), at 360×640: one phone taps the calls, the
deal, the pass, the wish and who is out; the second phone sees each in place (the open wish
large) and taps too; a refused tap says its rule; the hand form then opens filled, and one
tap of the card points and Save score it. In English on a light phone and in German on a
dark one (test-artifacts/follow-*.png)."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import (
    HEARD,
    PHONE,
    held_answers,
    shot,
    start_match,
    until,
    watched,
)
from tests.browser.test_phone_live import SOON, second_phone

WORDS = {"en": {"in_play": "Hand 1 in play", "saved": "Hand 1 saved."},
         "de": {"in_play": "Runde 1 läuft", "saved": "Runde 1 gespeichert."}}


def tap(page, event: str) -> None:
    """One tap of the panel, and its answer in place (the panel knows one event more)."""
    seen = int(page.input_value("[data-seen]"))
    page.tap(f"button[name=event][value='{event}']")
    page.wait_for_selector(f"[data-seen][value='{seen + 1}']", state="attached", timeout=SOON)


@pytest.mark.parametrize("language, theme", [("en", "light"), ("de", "dark")])
def test_two_phones_follow_a_hand_and_the_form_opens_filled(live_server, phone, new_context,
                                                            language, theme):
    words = WORDS[language]
    page = phone
    page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    page.emulate_media(color_scheme=theme)
    start_match(page, live_server) if language == "en" else _start_german(page, live_server)
    other = second_phone(page, new_context)
    other.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    other.emulate_media(color_scheme=theme)
    other.reload()
    other.wait_for_selector("button[value='start']")

    tap(page, "start")
    other.wait_for_selector(f"text={words['in_play']}", timeout=SOON)  # live, in place
    for event in ("grand:1", "dealt", "passed", "tichu:0", "wish::8"):
        tap(page, event)
    other.wait_for_selector(".follow-wish.open[data-wish='8']", timeout=SOON)
    assert other.locator("button[value='grand:2']").count() == 0  # [L1]: the deal is behind
    shot(other, f"follow-{language}-{theme}-second-phone")
    board = other.context.new_page()  # the big screen: the open wish large
    board.set_viewport_size({"width": 1280, "height": 720})
    board.emulate_media(color_scheme=theme)
    board.goto(page.url + "/board")
    board.wait_for_selector(".board-follow .follow-wish.open[data-wish='8']")
    shot(board, f"follow-{language}-{theme}-board")
    board.close()
    # the second phone taps: the first sees it
    other.wait_for_selector("button[value='fulfilled']")
    tap(other, "fulfilled")
    page.wait_for_selector(".follow-wish:not(.open)[data-wish='8']", timeout=SOON)
    for event in ("bomb:3", "out:0", "out:3"):
        tap(page, event)
    # a tap the other phone still shows, refused now by the rules: said with its rule
    other.wait_for_selector(".follow-seat[data-seat='0'] .badge.out", timeout=SOON)
    tap(page, "out:1")
    page.wait_for_selector(".follow-phase[data-phase='over']")
    shot(page, f"follow-{language}-{theme}-over")
    assert page.errors == [] and other.errors == []

    page.tap(".follow a.button.primary")  # "Enter the card points"
    page.wait_for_selector("[data-followed]")
    filled = page.evaluate("""() => Object.fromEntries(new FormData(
        document.querySelector('form.hand-form')).entries())""")
    assert [filled.get(f"place_{i}") for i in (1, 2, 3)] == ["0", "3", "1"]
    assert filled.get("call_1") == "grand" and filled.get("call_0") == "tichu"
    assert filled.get("bombs_3") == "1"
    shot(page, f"follow-{language}-{theme}-form")
    page.tap(".quick button[data-set='50']")
    page.tap("button[type=submit]")
    page.wait_for_selector(f"text={words['saved']}")
    assert page.locator("button[value='start']").count() == 1  # hand 2: not followed yet
    assert page.errors == []


def _start_german(page, base: str) -> None:
    page.goto(base + "/matches/new")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        page.fill(f"#seat_{seat}", name)
    page.tap("form button[type=submit].primary")
    page.wait_for_selector("text=Runde 1 eintragen")


def test_a_refused_tap_says_its_rule(live_server, phone, new_context):
    """The second phone has not heard of the deal yet (its live path held back) and taps a
    Grand Tichu: refused with the rule, and its panel is the hand as it stands."""
    page = phone
    start_match(page, live_server)
    other = second_phone(page, new_context)
    tap(page, "start")
    other.reload()
    other.wait_for_selector("button[value='grand:1']")
    other.route("**/live/**", lambda route: route.abort())
    tap(page, "dealt")
    other.tap("button[value='grand:1']")
    other.wait_for_selector("[data-follow-note]:not([hidden])", timeout=SOON)
    assert "(L1)" in other.inner_text("[data-follow-note]")
    assert other.locator("button[value='grand:1']").count() == 0  # the hand as it stands
    assert page.errors == []


@pytest.mark.core
def test_without_signal_taps_wait_and_the_phones_core_draws_them(live_server, phone):
    """Offline, a tap waits on the phone and the core (the server's Python under Pyodide)
    draws the panel with it; with the signal back the taps are sent, in order, once."""
    from flask import Flask

    from tests.browser.test_phone_core_offline import BUNDLE, core_kept, snapshot_kept
    from tests.browser.test_phone_offline import controlled_match
    if BUNDLE(Flask(__name__)) is None:
        pytest.skip("the Pyodide bundle could not be fetched: see docs/OFFLINE_CORE.md")
    page = phone
    match_url = controlled_match(page, live_server)
    tap(page, "start")
    core_kept(page)
    snapshot_kept(page)
    page.context.set_offline(True)
    page.tap("button[value='tichu:1']")
    page.wait_for_selector("[data-follow-note].waiting:not([hidden])")
    # drawn by the phone's core: Bob's Tichu, and no Tichu button for him any more
    page.wait_for_selector(".follow-seat[data-seat='1'] .badge.call", timeout=60000)
    page.tap("button[value='grand:2']")
    page.wait_for_selector(".follow-seat[data-seat='2'] .badge.call", timeout=30000)
    page.tap("button[value='dealt']")
    page.wait_for_selector(".follow-phase[data-phase='pass']", timeout=30000)
    assert page.locator("button[value='grand:0']").count() == 0  # [L1], on the phone
    shot(page, "follow-en-offline")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    until_sent = """async (url) => {
        const r = await fetch(url + '/follow.json', { cache: 'no-store' });
        const j = await r.json();
        return j.seen === 4 && j.follow.phase === 'pass'; }"""
    from tests.browser.conftest import until
    until(page, until_sent, match_url, seconds=30, what="the waiting taps sent")
    answer = page.evaluate("async (u) => (await fetch(u + '/follow.json')).json()", match_url)
    assert answer["follow"]["calls"] == {"1": "tichu", "2": "grand"}
    # (without signal the browser says each request it could not send)
    assert [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


def test_a_tap_heard_live_before_its_answer_is_not_another_phones(tmp_path, phone):
    """The server stores the tap, and its answer is slow to come: the live channel tells the
    page first. The page must not say the match changed on another phone (it was this
    phone's own tap); the answer then puts the hand in play in place."""
    with held_answers(tmp_path, "/follow") as (base, release):
        page = phone
        page.add_init_script(HEARD)
        start_match(page, base)
        page.tap("button[name=event][value='start']")
        until(page, "() => (window.heard || 0) > 0", seconds=SOON / 1000,
              what="the page heard of the tap while its answer was on its way")
        note = page.locator("#live-note")
        assert note.count() == 0 or note.is_hidden(), note.text_content()
        assert page.evaluate("document.documentElement.hasAttribute('data-tapping')"), \
            "the tap's answer came before the live channel"
        release.set()
        page.wait_for_selector("[data-seen][value='1']", state="attached", timeout=SOON)
        assert note.count() == 0 or note.is_hidden(), note.text_content()
        assert page.errors == []


def test_a_tap_before_the_live_channel_starts_is_not_another_phones(live_server, new_context):
    """A player taps Start at once, before the page's live channel (live.js, loaded a second
    after the page) has started: once it starts and asks, it must not take that tap for a
    change made on another phone. (No service worker: it would serve live.js from its copy,
    which the test could not hold back.)"""
    page = watched(new_context(**PHONE, service_workers="block").new_page())
    held = []
    page.route("**/static/js/live.js*", lambda route: held.append(route))  # until answered
    start_match(page, live_server)
    page.tap("button[name=event][value='start']")
    page.wait_for_selector("[data-seen][value='1']", state="attached", timeout=SOON)
    deadline = time.monotonic() + SOON / 1000
    while not held and time.monotonic() < deadline:  # app.js asks for it after a second
        page.wait_for_timeout(50)
    assert held, "the page never asked for live.js"
    page.evaluate(HEARD)
    with page.expect_request("**/live/m/**", timeout=SOON):
        held[0].continue_()
    with page.expect_request("**/live/m/**", timeout=SOON):
        pass  # the next question: the answer to the first has been acted on
    note = page.locator("#live-note")
    assert note.count() == 0 or note.is_hidden(), note.text_content()
    assert page.evaluate("window.heard || 0") == 0
    assert page.errors == []


def test_answers_that_come_out_of_order_leave_the_later_panel(live_server, phone):
    """Two quick taps on a slow network, their answers back in the other order: the panel
    shows the later one (both Grand Tichus), not the overtaken first answer, and says
    nothing of another phone."""
    page = phone
    start_match(page, live_server)
    tap(page, "start")
    held = []
    page.route("**/follow", lambda route: held.append((route, route.fetch())))
    for event, n in (("grand:1", 1), ("grand:3", 2)):
        page.tap(f"button[name=event][value='{event}']")
        deadline = time.monotonic() + SOON / 1000
        while len(held) < n and time.monotonic() < deadline:  # stored, its answer held
            page.wait_for_timeout(50)
        assert len(held) == n
    for route, response in reversed(held):
        route.fulfill(response=response)
    until(page, "() => performance.getEntriesByType('resource').filter((e) =>"
                " e.name.endsWith('/follow')).length === 3"
                " && !document.documentElement.hasAttribute('data-tapping')",
          what="both answers taken")
    assert page.input_value("[data-seen]") == "3"
    assert page.locator(".follow-seat .badge", has_text="Grand Tichu").count() == 2
    note = page.locator("#live-note")
    assert note.count() == 0 or note.is_hidden(), note.text_content()
    assert page.errors == []
