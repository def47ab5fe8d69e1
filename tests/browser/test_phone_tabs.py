"""Two tabs of one phone (one browser: the same cookies, service worker and outbox), each
with the form of the same hand open. A hand one tab saves is this phone's, not another
phone's: the other tab's form says so before Save, stays the hand it was opened for, with
what was typed, and its Save shows both hands and lets the player choose, as a hand saved
on another phone does (test_phone_trust.py, test_phone_live.py)."""

from __future__ import annotations

from tests.browser.conftest import HEARD, PHONE, start_match, until, watched
from tests.browser.test_phone_companion import totals
from tests.browser.test_phone_live import SOON, slow_save_server  # noqa: F401
from tests.browser.test_phone_trust import fill_hand, hand_rows

HERE = ("Hand 1 was just saved in another tab of this phone. Save will show both hands and "
        "let you choose.")


def test_a_hand_saved_in_another_tab_is_this_phones_and_the_form_stays_its_hand(
        slow_save_server, new_context):  # noqa: F811
    """Tab A's Save is stored and its answer is slow to come (the server holds it): tab B
    hears of hand 1 while A's hand is still in the phone's outbox. B's form stays hand 1,
    says the hand was saved in another tab of this phone, and its Save, once A's answer has
    come, shows both hands and saves B's as hand 2 only when the player chooses it; A's
    match page then says that hand 2 was saved on this phone."""
    base, release = slow_save_server
    phone = new_context(**PHONE)
    a = watched(phone.new_page())
    match_url = start_match(a, base)
    b = watched(phone.new_page())
    b.add_init_script(HEARD)
    b.goto(match_url + "/hands/new")
    fill_hand(b, 2, 3, "25")  # B's hand, typed and not yet saved
    a.goto(match_url + "/hands/new")
    fill_hand(a, 0, 1, "75")
    a.tap("button[type=submit]")
    until(b, "() => (window.heard || 0) > 0", seconds=SOON / 1000,
          what="tab B heard of hand 1 while A's answer was on its way")
    assert a.url.endswith("/hands/new"), "A's answer came before B heard"
    b.evaluate("window.tichuOutbox.show()")  # the outbox as B counts it, awaited
    assert b.input_value("input[data-number]") == "1"
    assert b.locator(".hand-head h1").text_content() == "Hand 1"
    b.wait_for_selector("#live-taken:not([hidden])")
    assert b.text_content("#live-taken") == HERE
    assert b.get_attribute(".out-btn[data-seat='2']", "aria-pressed") == "true"
    assert b.input_value("#card_a") == "25"

    release.set()
    a.wait_for_selector("text=Hand 1 saved.")
    b.tap("button[type=submit]")
    b.wait_for_selector("text=Another tab of this phone saved hand 1 meanwhile")
    assert b.locator("#conflict").is_visible()
    assert b.locator("#conflict [data-theirs]").count() == 1
    with a.expect_request(lambda r: "/live/" in r.url):  # A's match page listens (live.js)
        a.reload()
    assert hand_rows(a) == 1  # B's Save stored nothing unasked
    b.tap("button:has-text('Save mine as hand 2')")
    b.wait_for_selector("text=Hand 2 saved.")
    assert hand_rows(b) == 2 and totals(b) == [75 + 25, 25 + 75]
    # and A's match page, hearing of hand 2, says where it was saved
    a.wait_for_selector("#live-note:has-text('Hand 2 saved on this phone.')", timeout=SOON)
    assert totals(a) == [75 + 25, 25 + 75]
    # the conflict is answered 409, to the Save and to the page that shows it: nothing else
    assert a.errors == [] and [e for e in b.errors if "409 (CONFLICT)" not in e] == []
