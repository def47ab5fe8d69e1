"""Settling the table's classic disputes on the referee page, by tapping cards on a phone
(360×640): the verdict follows every tap, the picker and its slots stay in one screen."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import shot
from tests.browser.test_phone_flow import SETTLED as STILL
from tests.browser.test_phone_match import Taps

# The question the page last answered is the form's present one (the verdict is asked a
# moment after the last change, and an older answer is dropped).
SETTLED = """() => {
  const form = document.getElementById('ref-form');
  const box = document.getElementById('verdict-box');
  const asked = new URLSearchParams(new FormData(form));
  asked.delete('_target');
  return !box.hasAttribute('aria-busy') && box.dataset.answered === asked.toString();
}"""
# A card in notation; "8s" is also the plural of a rank ("pair of 8s", "four 5s", "the
# wish for 8s"), which a sentence may say.
NOTATION = re.compile(r"\b(?:[2-9]|10|[JQKA])[jpt]\b|\b(?:MJ|DOG|PH|DR)\b"
                      r"|(?<!of )(?<!four )(?<!for )(?<!over )\b(?:[2-9]|10|[JQKA])s\b")


def pick(page, target: str, cards: list[str]) -> None:
    page.tap(f"label[for='target-{target}']")
    for card in cards:
        page.tap(f".pick[data-card='{card}']")


def settled(page) -> None:
    page.wait_for_function(SETTLED)


def verdict(page) -> tuple[str, str]:
    settled(page)
    return page.text_content(".verdict-word").strip(), page.text_content(".rule-link")


def in_view(page, selector: str) -> bool:
    """The element lies wholly inside the 360×640 viewport as the page stands (the tests
    never scroll; the page itself may, to keep its keys in place under a longer verdict)."""
    box = page.locator(selector).first.bounding_box()
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 640)


class SeenTaps(Taps):
    """Counts taps, and refuses one on anything the player would have to scroll to."""

    def __call__(self, selector: str) -> None:
        assert in_view(self.page, selector), f"{selector} is not in view without scrolling"
        super().__call__(selector)


DISPUTES = [
    # name, table plays, disputed play, rest of hand, wish, out of turn, word, rule
    ("phoenix-on-dragon", [["DR"]], ["PH"], [], "", False, "✗ Not legal", "S4"),
    ("had-to-play-the-8", [["4j"]], [], ["8s", "Kj"], "8", False, "✗ Not legal", "W2"),
    ("four-threes-and-phoenix", [], ["3j", "3s", "3p", "3t", "PH"], [], "", False,
     "✗ Not legal", "S7"),
    ("bomb-the-dog", [["DOG"]], ["5j", "5s", "5p", "5t"], [], "", True, "✗ Not legal", "B5"),
    ("phoenix-straight", [["3j", "4s", "5p", "6t", "7j"]], ["4j", "5s", "PH", "7t", "8t"], [],
     "", False, "✓ Legal", "C6"),
]


@pytest.mark.parametrize("name, table, play, rest, wish, out_of_turn, word, rule", DISPUTES)
def test_settle_a_dispute(live_server, phone, name, table, play, rest, wish, out_of_turn,
                          word, rule):
    page = phone
    page.goto(live_server + "/referee")
    for i, cards in enumerate(table):
        if i:
            page.tap("[data-action='next']")
        pick(page, "trick", cards)
    pick(page, "play", play)
    pick(page, "hand", rest)
    if wish:
        page.select_option("#wish", wish)
    if out_of_turn:
        page.check("#out_of_turn")
    got_word, got_rule = verdict(page)
    assert got_word == word and f"Rule {rule}" in got_rule
    said = page.text_content("#verdict")
    assert not NOTATION.search(said), said  # cards by name, never "8s"
    if rule == "W2":
        assert page.is_visible("text=Would have fulfilled the wish")
        assert "by playing Sword 8" in said and "Sword 8" in page.text_content(".fulfil")
    if rule == "C6":
        assert "straight 4–8, Phoenix as 6" in said
    shot(page, f"referee-{name}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.reload()  # the address followed the question: the same verdict, from the server
    assert page.text_content(".verdict-word").strip() == word
    page.tap(".rule-link")
    page.wait_for_url(f"**/rules#{rule}")
    assert page.is_visible(f"[id='{rule}']")
    assert [e for e in page.errors if "status of 400" not in e] == []


def test_does_this_phoenix_extend_this_straight(live_server, new_context):
    """Issue 10: the table holds the straight 4–8; does 5-6-7-8 and the Phoenix beat it?
    Seven taps (it took 13 and scrolling): the run's ends and "Fill in", which moves the
    picker on to the play; the play's ends, "Fill in" and the Phoenix. The verdict follows
    the taps; nothing is ever out of view. (Ends of two suits: a plain straight.)"""
    for theme in ("light", "dark"):
        context = new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                      has_touch=True, color_scheme=theme)
        page = context.new_page()
        page.goto(live_server + "/referee")
        tabs = [f"label[for='target-{t}']" for t in ("trick", "play", "hand")]
        assert all(in_view(page, tab) for tab in tabs)
        assert all(in_view(page, f".pick[data-card='{c}']") for c in
                   page.eval_on_selector_all(".pick:not([hidden])",
                                             "keys => keys.map(k => k.dataset.card)"))
        tap = SeenTaps(page)
        tap(".pick[data-card='4j']")
        tap(".pick[data-card='8s']")
        assert page.text_content(".fill") == "Fill in 5–7"
        tap(".fill")
        assert page.input_value("#trick") == "4j 5s 6p 7t 8s"  # never all of one suit
        assert page.is_checked("#target-play")  # a whole run on the table: the play is next
        tap(".pick[data-card='5j']")
        tap(".pick[data-card='8p']")
        tap(".fill")
        tap(".pick[data-card='PH']")
        assert page.input_value("#play") == "5j 6s 7p 8p PH"
        assert verdict(page)[0] == "✓ Legal"
        assert "The straight 5–9, Phoenix as 9 beats the straight 4–8." in page.text_content(
            "#verdict")
        assert tap.count == 7, tap.count
        assert all(in_view(page, tab) for tab in tabs) and in_view(page, "#verdict-box")
        shot(page, f"referee-phoenix-extends-{theme}")
        context.close()


def test_a_phoenix_in_the_middle_of_the_straight(live_server, phone):
    """The Phoenix standing for the 6 of 4-5-?-7-8 on 3–7: the table filled in, the play
    tapped card by card (the suits the run took are not the play's)."""
    page = phone
    page.goto(live_server + "/referee")
    tap = SeenTaps(page)
    for card in ("3j", "7s", ".fill"):
        tap(card if card == ".fill" else f".pick[data-card='{card}']")
    for card in ("4j", "5s", "PH", "7t", "8t"):
        tap(f".pick[data-card='{card}']")
    assert verdict(page)[0] == "✓ Legal"
    assert "Phoenix as 6" in page.text_content("#verdict")
    assert tap.count == 8, tap.count


def test_the_verdict_names_the_problem_and_its_slot(live_server, phone):
    page = phone
    page.goto(live_server + "/referee")
    pick(page, "trick", ["5j"])
    page.tap("[data-action='next']")
    pick(page, "trick", ["4j"])  # a 4 on a 5: a table that could not have happened
    pick(page, "play", ["6j"])
    settled(page)
    assert page.text_content(".verdict-word").strip() == "Can't judge that"
    assert "Play 2 on the table (Jade 4) could not have been played on the single 5" in \
        page.text_content("#verdict")
    assert "problem-slot" in page.get_attribute("[data-slot='trick']", "class").split()
    pick(page, "trick", ["4j"])  # taken back: the question is a fair one again
    settled(page)
    assert page.text_content(".verdict-word").strip() == "✓ Legal"
    assert "problem-slot" not in page.get_attribute("[data-slot='trick']", "class")
    assert [e for e in page.errors if "status of 400" not in e] == []


def test_choosing_a_wish_moves_the_picker_to_the_hand(live_server, phone):
    page = phone
    page.goto(live_server + "/referee")
    pick(page, "trick", ["4j"])
    page.select_option("#wish", "8")
    assert page.is_checked("#target-hand")
    for card in ("8s", "Kj"):
        page.tap(f".pick[data-card='{card}']")
    word, rule = verdict(page)
    assert (word, "Rule W2" in rule) == ("✗ Not legal", True)
    assert page.input_value("#hand") == "8s Kj"
    assert page.errors == []


def test_tapping_a_card_twice_takes_it_back(live_server, phone):
    page = phone
    page.goto(live_server + "/referee")
    pick(page, "play", ["Aj", "Aj", "Kt"])
    assert page.input_value("#play") == "Kt"
    pick(page, "trick", ["Kt"])  # a card lives in one place only
    assert page.input_value("#play") == "" and page.input_value("#trick").strip() == "Kt"


def test_grand_seigneur_two_decks_on_the_picker(live_server, phone):
    page = phone
    page.goto(live_server + "/referee")
    page.select_option("#variant", "seigneur")
    page.select_option("#decks", "2")
    pick(page, "trick", ["DR"])
    pick(page, "play", ["DR"])  # the second Dragon of two decks
    word, rule = verdict(page)
    assert word == "✓ Legal" and "Rule S5" in rule  # [GS3] a second Dragon beats the first
    page.tap("label[for='target-trick']")
    page.tap("[data-slot='trick'] [data-action='clear']")
    page.tap("label[for='target-play']")
    page.tap("[data-slot='play'] [data-action='clear']")
    pick(page, "play", ["5j", "5j"])  # tapped twice: both copies
    assert page.input_value("#play") == "5j 5j"
    assert page.get_attribute(".pick[data-card='5j']", "data-at") == "P×2"
    pick(page, "play", ["5j"])  # a third tap takes them back
    assert page.input_value("#play") == ""
    pick(page, "play", ["5j", "5j"])
    word, _rule = verdict(page)
    assert word == "✓ Legal" and "pair of 5s" in page.text_content("#verdict")
    assert page.errors == []


def test_the_picker_offers_only_the_games_deck(live_server, phone):
    """The deck comes from the server: no Dog in Grand Seigneur ([GS2]), back with Tichu."""
    page = phone
    page.goto(live_server + "/referee")
    assert page.is_visible(".pick[data-card='DOG']")
    page.select_option("#variant", "seigneur")
    assert page.is_hidden(".pick[data-card='DOG']") and page.is_visible(".pick[data-card='MJ']")
    page.select_option("#variant", "nanking")
    assert page.is_visible(".pick[data-card='DOG']")
    assert page.errors == []


def test_typed_cards_are_read_as_the_server_reads_them(live_server, phone):
    """Words in a shared link are read as the server reads them: "ts" is the Sword 10;
    "PaSs" is no pass word for the server, which refuses it, so it stays a word the picker
    does not know rather than a pass."""
    page = phone
    page.goto(live_server + "/referee?trick=Aj%0APaSs&play=ts")
    assert "not a card" in page.text_content("#verdict")
    groups = page.locator("[data-slot='trick'] .play-group")
    assert groups.count() == 2 and groups.nth(1).text_content() == "PaSs"
    assert page.locator("[data-slot='trick'] .chip.unknown").count() == 1
    assert page.get_attribute("[data-slot='play'] .chip", "title") == "Sword 10"
    assert page.get_attribute(".pick[data-card='10s']", "aria-pressed") == "true"
    pick(page, "play", ["Kt"])  # the picker writes the server's notation back
    assert page.input_value("#play") == "10s Kt"
    page.goto(live_server + "/referee?trick=Aj%0APass&play=DR")
    assert page.locator("[data-slot='trick'] .play-group").nth(1).text_content() == "pass"
    assert [e for e in page.errors if "status of 400" not in e] == []  # the refusal only


def test_without_a_connection_the_cards_stay(live_server, phone):
    """No network, or an answer that is no verdict: the player is told, the cards stay, and
    the next tap asks again."""
    page = phone
    # the phone's copy of the engine cannot run either (test_phone_core_offline.py: it can)
    page.context.route("**/core/**", lambda route: route.abort())
    page.goto(live_server + "/referee")
    page.route("**/referee/verdict*", lambda route: route.abort())
    pick(page, "trick", ["9j"])
    pick(page, "play", ["Kj"])
    # the box answered this tap: not idle before its question left (the tap's question goes
    # after a moment; "not busy" alone was true before it, seen once in a full run)
    page.wait_for_selector("#verdict-box:not([aria-busy]):has-text('No connection')")
    assert "No connection" in page.text_content("#verdict-box")
    assert page.input_value("#play") == "Kj"
    page.unroute("**/referee/verdict*")
    page.route("**/referee/verdict*", lambda route: route.fulfill(status=503, body="<html>busy"))
    pick(page, "play", ["Kj"])
    page.wait_for_selector("#verdict-box:not([aria-busy]):has-text('gave no verdict')")
    assert "gave no verdict" in page.text_content("#verdict-box")
    assert "busy" not in page.text_content("#verdict-box")  # never another page in the box
    page.unroute("**/referee/verdict*")
    pick(page, "play", ["Aj"])  # (the King was taken back) the Ace played
    assert verdict(page)[0] == "✓ Legal"


def test_without_scripts_the_page_is_a_form(live_server, new_context):
    """No script: text fields in notation and a Check button; the verdict is a link."""
    context = new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                  has_touch=True, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/referee")
    assert page.is_hidden(".picker") and page.is_visible("#trick")
    assert "Write the cards on the table" in page.text_content("#verdict-box")
    page.fill("#trick", "4j")
    page.fill("#hand", "8s Kj")
    page.select_option("#wish", "8")
    page.tap("button[type=submit]")
    page.wait_for_selector("#verdict")
    assert page.text_content(".verdict-word").strip() == "✗ Not legal"
    assert "could fulfil the wish by playing Sword 8" in page.text_content("#verdict")
    assert "wish=8" in page.url
    shot(page, "referee-no-script")
    context.close()


def test_the_picker_does_not_shift_the_page(live_server, new_context):
    """Issue 10: the card picker appeared after the script ran and pushed the page (a
    layout shift of 0.42 on a 412 px phone); it is laid out at first paint, and a verdict
    arriving as cards are tapped moves nothing either."""
    context = new_context(viewport={"width": 412, "height": 915}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.add_init_script("""
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__shift += e.value;
      }).observe({type: 'layout-shift', buffered: true});
    """)

    def slow(route):  # the script arrives after the first paint, as on a slow phone
        time.sleep(0.8)
        route.continue_()

    page.route("**/js/referee.js*", slow)
    page.goto(live_server + "/referee")
    page.wait_for_function("() => document.getElementById('ref-form').dataset.ready === '1'")
    page.locator(".pick").first.evaluate(STILL)  # drawn: in place for three frames in a row
    assert page.is_visible(".picker") and page.is_hidden("#trick")
    keys = page.locator(".pick").first.bounding_box()
    for card in ("3j", "4s", "5p", "6t", "7j"):
        page.tap(f".pick[data-card='{card}']")
    pick(page, "play", ["4j", "5s", "PH", "7t", "8t"])
    settled(page)
    now = page.locator(".pick").first.bounding_box()
    assert abs(now["y"] - keys["y"]) < 1 and now["height"] == keys["height"], (keys, now)
    # taps are input: the shifts right after them do not count for CLS, but none happen
    assert page.evaluate("window.__shift") < 0.05
    context.close()
