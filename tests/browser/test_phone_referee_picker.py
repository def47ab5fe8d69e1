"""The referee page's picker at 360×640 (issue 24): "Fill in" takes free cards only and never
gives one of them away behind the player's back; ends of one suit fill a straight flush; the
whole verdict is read without a tap, the keys staying under the thumb; keys a fingertip
wide, their labels and the slots' clear of one another."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, shot
from tests.browser.test_phone_referee import SeenTaps, in_view, pick, settled, verdict

KEYS = ".pick:not([hidden])"


def taps(page, *keys: str) -> None:
    tap = SeenTaps(page)
    for key in keys:
        tap(key if key.startswith(".") else f".pick[data-card='{key}']")


def test_fill_in_never_moves_a_card_behind_the_players_back(live_server, phone):
    """The Sword 5 that "Fill in" chose for the table's run is the one the player taps for
    the play: the run takes another free 5, and the question stays a fair one."""
    page = phone
    page.goto(live_server + "/referee")
    taps(page, "4j", "8t", ".fill")
    assert page.input_value("#trick") == "4j 5s 6p 7t 8t"
    taps(page, "5s", "8s", ".fill", "PH")
    assert page.input_value("#trick") == "4j 5p 6p 7t 8t"  # still a run of five
    assert page.input_value("#play") == "5s 6s 7s 8s PH"
    assert verdict(page)[0] == "✓ Legal"
    assert "beats the straight 4–8" in page.text_content("#verdict")
    assert [e for e in page.errors if "status of 400" not in e] == []


def test_a_filled_card_with_no_stand_in_stays_and_the_page_says_so(live_server, phone):
    """No other card keeps the straight flush a flush: the Pagoda 5 stays in it until the
    player takes it back there."""
    page = phone
    page.goto(live_server + "/referee")
    taps(page, "3p", "7p", ".fill", "5p")
    assert page.input_value("#trick") == "3p 4p 5p 6p 7p" and page.input_value("#play") == ""
    assert "Pagoda 5 stays in the run" in page.text_content("#verdict-box")
    pick(page, "trick", ["5p"])  # taken back by the player
    pick(page, "play", ["5p"])
    assert page.input_value("#trick") == "3p 4p 6p 7p" and page.input_value("#play") == "5p"


def test_fill_in_says_when_no_card_of_a_rank_is_free(live_server, phone):
    page = phone
    page.goto(live_server + "/referee")
    pick(page, "hand", ["6j", "6s", "6p", "6t"])
    pick(page, "trick", ["4j", "8s"])
    assert page.locator(".fill").count() == 1
    assert page.text_content(".fill") == "No free 6 to fill in" and page.is_disabled(".fill")
    page.tap("label[for='target-hand']")
    page.tap(".pick[data-card='6t']")  # one 6 free again
    pick(page, "trick", [])
    page.tap(".fill")
    assert page.input_value("#trick") == "4j 5s 6t 7t 8s"
    assert page.input_value("#hand") == "6j 6s 6p"  # nothing taken from the hand


@pytest.mark.parametrize("ends, blocked, filled, word", [
    (["3p", "7p"], [], "3p 4p 5p 6p 7p", "✓ Legal"),  # a straight flush beats four 9s
    (["3p", "7j"], [], "3p 4t 5j 6s 7j", "✗ Not legal"),  # two suits: a plain straight
    (["3p", "7p"], ["5p"], "3p 4t 5j 6s 7p", "✗ Not legal"),  # its 5 taken: as before
])
def test_ends_of_one_suit_fill_a_straight_flush(live_server, phone, ends, blocked, filled,
                                                word):
    page = phone
    page.goto(live_server + "/referee")
    pick(page, "hand", blocked)
    pick(page, "trick", ["9j", "9s", "9p", "9t"])
    pick(page, "play", ends)
    page.tap(".fill")
    assert page.input_value("#play") == filled
    assert verdict(page)[0] == word


@pytest.mark.parametrize("theme, locale, cost", [
    ("light", "en-GB", "the other team scores 200 card points, the offender's 0"),
    ("dark", "de-DE", "das andere Team erhält 200 Kartenpunkte, das des Verursachers 0")])
def test_the_whole_verdict_is_read_without_a_tap(live_server, new_context, theme, locale,
                                                  cost):
    """A long verdict (the missed wish, its penalty and the play that fulfils it) is in view
    whole, nothing behind an arrow; the page scrolls its top bar away first so that the keys
    stay where they were, and back when the verdict is short again."""
    page = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
    page.goto(live_server + "/referee")
    home = page.locator(".pick").first.bounding_box()["y"]
    pick(page, "trick", ["4j"])
    pick(page, "play", ["5j"])
    settled(page)  # a short verdict: nothing moves
    assert abs(page.locator(".pick").first.bounding_box()["y"] - home) < 1
    pick(page, "play", ["5j"])  # a pass
    page.select_option("#wish", "8")
    taps(page, "8s")
    # The 8 in the hand brings the long verdict, which moves the keys. A finger taps the Jade
    # K where it then is; Playwright's tap, aimed before a slow verdict moved the keys, would
    # land on another key, and its retry scrolls the page by itself (seen under load: the
    # verdict's top back at 56 px), so the next tap waits for the verdict
    settled(page)
    taps(page, "Kj")
    settled(page)
    box = page.locator("#verdict-box")
    assert in_view(page, "#verdict-box") and box.evaluate("b => b.scrollHeight <= b.clientHeight")
    assert cost in box.text_content() and in_view(page, ".fulfil .chip")
    # the keys moved only by what the top bar could not give: the verdict starts at the top
    moved = page.locator(".pick").first.bounding_box()["y"] - home
    assert moved < 1 or box.bounding_box()["y"] < 1, (moved, page.evaluate("scrollY"),
                                                       page.input_value("#hand"))
    assert in_view(page, ".pick[data-card='8s']") and in_view(page, ".pick[data-card='Kj']")
    shot(page, f"referee-whole-verdict-{theme}-{locale}")
    page.select_option("#wish", "")  # the pass is legal now: a short verdict, keys back
    settled(page)
    assert abs(page.locator(".pick").first.bounding_box()["y"] - home) < 1
    page.context.close()


def test_keys_are_a_fingertip_and_labels_keep_clear(live_server, phone):
    """56 keys of at least 44×44 px, all in view with a short verdict; the table's tab reads
    "Table ⚠" on one line; the slot's letter on a key (the Dog's "T") sits above its label."""
    page = phone
    page.goto(live_server + "/referee?trick=DOG%0A9j&play=5j")  # no table: ⚠
    sizes = page.eval_on_selector_all(KEYS, "keys => keys.map(k => {"
                                      " const b = k.getBoundingClientRect();"
                                      " return [b.width, b.height]; })")
    assert len(sizes) == 56 and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    cards = page.eval_on_selector_all(KEYS, "keys => keys.map(k => k.dataset.card)")
    assert all(in_view(page, f".pick[data-card='{c}']") for c in cards)
    assert "problem-slot" in page.get_attribute("[data-slot='trick']", "class").split()
    lines = page.evaluate("""() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector("[data-slot='trick'] .slot-tab"));
      return range.getClientRects().length;
    }""")
    assert lines == 1
    assert page.get_attribute(".pick[data-card='DOG']", "data-at") == "T"
    gap = page.evaluate("""() => {
      const key = document.querySelector(".pick[data-card='DOG']");
      const mark = getComputedStyle(key, "::after");
      const label = document.createRange();
      label.selectNodeContents(key);
      const top = key.getBoundingClientRect().top + key.clientTop;
      return label.getBoundingClientRect().top - (top + parseFloat(mark.top)
                                                    + parseFloat(mark.height));
    }""")
    assert gap >= 0, gap  # the letter's box ends above the label's
    shot(page, "referee-keys")
