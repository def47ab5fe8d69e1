"""The taps of the hand in play wait in the phone's one outbox, beside the hands
(static/js/offline.js, RULES.md §11): counted in its line, kept across a reload without
signal, applied by the phone's core (the panel, the hand form filled), sent once, in order,
when the signal is back; a tap the rules refuse by then is said with its rule and leaves."""

from __future__ import annotations

from tests.browser.conftest import shot, until
from tests.browser.test_phone_follow import offline_with_a_tap, tap
from tests.browser.test_phone_live import SOON, second_phone
from tests.browser.test_phone_offline import controlled_match

FOLLOW = "async (u) => (await fetch(u + '/follow.json', { cache: 'no-store' })).json()"
# (asked also while the page is loaded afresh after the flush: its outbox not there yet)
EMPTY = "async () => window.tichuOutbox && (await window.tichuOutbox.all()).length === 0"


def test_taps_made_offline_wait_in_the_outbox_and_reach_the_server_once(live_server, phone):
    page = phone
    match_url = offline_with_a_tap(page, live_server)
    page.wait_for_selector("#outbox:has-text('1 tap waiting')")
    page.tap("button[value='grand:2']")
    page.wait_for_selector("#outbox:has-text('2 taps waiting')")
    page.reload()  # a reload without signal loses nothing, and the core draws them again
    page.wait_for_selector("#outbox:has-text('2 taps waiting')")
    page.wait_for_selector(".follow-seat[data-seat='2'] .badge.call", timeout=60000)
    assert page.locator(".follow-seat[data-seat='1'] .badge.call").count() == 1
    shot(page, "follow-outbox-en-light")

    # the hand form's copy opens filled with the waiting taps, by the phone's core
    page.goto(match_url + "/hands/new")
    until(page, """() => document.querySelector('input[name=call_2][value=grand]').checked
                   && document.querySelector('input[name=call_1][value=tichu]').checked""",
          seconds=60, what="the hand form filled with the waiting taps")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")
    page.wait_for_selector("#outbox:has-text('1 hand and 2 taps waiting')")
    # hand 1 waits: the panel is hand 2's, not followed yet, and its taps are hand 2's
    page.wait_for_selector("button[value='start']", timeout=60000)
    page.tap("button[value='start']")
    page.wait_for_selector("#outbox:has-text('1 hand and 3 taps waiting')")
    page.wait_for_selector(".follow-head:has-text('Hand 2 in play')", timeout=60000)

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    until(page, EMPTY, seconds=30, what="the taps and the hand sent")
    page.wait_for_selector("a[data-next-hand='2']")
    page.goto(match_url + "/hands/1/edit")  # the saved hand: its story, each tap once, in order
    told = page.locator("[data-followed] li").all_text_contents()
    assert len(told) == 3 and "Bob called Tichu" in told[1] and "Cy called Grand" in told[2]
    filled = page.evaluate("""() => Object.fromEntries(new FormData(
        document.querySelector('form.hand-form')).entries())""")
    assert filled.get("call_1") == "tichu" and filled.get("call_2") == "grand"
    page.evaluate("window.tichuOutbox.flush()")  # flushing again sends nothing twice
    hand_2 = page.evaluate(FOLLOW, match_url)
    assert hand_2["hand"] == 2 and [e["kind"] for e in hand_2["follow"]["events"]] == ["start"]
    assert [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


def test_a_waiting_tap_refused_by_then_says_its_rule_and_leaves(live_server, phone,
                                                                 new_context):
    """A Grand Tichu waits without signal while another phone taps "all cards dealt": sent
    once the signal is back, the server refuses it ([L1]); the phone says so with the rule,
    and the tap leaves the outbox."""
    page = phone
    match_url = controlled_match(page, live_server)
    other = second_phone(page, new_context)
    tap(page, "start")
    other.reload()
    other.wait_for_selector("button[value='dealt']")
    page.context.set_offline(True)
    page.tap("button[value='grand:1']")
    page.wait_for_selector("#outbox:has-text('1 tap waiting')")
    tap(other, "dealt")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-follow-note]:has-text('(L1)')", timeout=SOON)
    until(page, EMPTY, seconds=15, what="the refused tap gone from the outbox")
    page.wait_for_selector("#outbox", state="hidden")
    answer = page.evaluate(FOLLOW, match_url)
    assert answer["follow"]["calls"] == {} and answer["seen"] == 2
    assert page.locator("button[value='grand:1']").count() == 0  # the hand as it stands
    assert [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
