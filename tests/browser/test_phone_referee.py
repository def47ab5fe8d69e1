"""Settling the table's classic disputes on the referee page, by tapping cards on a phone."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import shot


def pick(page, target: str, cards: list[str]) -> None:
    page.tap(f"label[for='target-{target}']")
    for card in cards:
        page.tap(f".pick[data-card='{card}']")


def verdict(page) -> tuple[str, str]:
    page.wait_for_selector("#verdict")
    return page.text_content(".verdict-word").strip(), page.text_content(".rule-link")


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
    page.tap("button[type=submit]")
    got_word, got_rule = verdict(page)
    assert got_word == word and f"Rule {rule}" in got_rule
    if rule == "W2":
        assert page.is_visible("text=Would have fulfilled the wish")
        assert "8" in page.text_content(".fulfil")
    if rule == "C6":
        assert "straight 4–8, Phoenix as 6" in page.text_content(".reading")
    shot(page, f"referee-{name}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.tap(".rule-link")
    page.wait_for_url(f"**/rules#{rule}")
    assert page.is_visible(f"[id='{rule}']")
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
    page.tap("button[type=submit]")
    word, rule = verdict(page)
    assert word == "✓ Legal" and "Rule S5" in rule  # [GS3] a second Dragon beats the first
    page.tap("[data-slot='trick'] [data-action='clear']")
    page.tap("[data-slot='play'] [data-action='clear']")
    pick(page, "play", ["5j", "5j"])  # tapped twice: both copies
    assert page.input_value("#play") == "5j 5j"
    pick(page, "play", ["5j"])  # a third tap takes them back
    assert page.input_value("#play") == ""
    pick(page, "play", ["5j", "5j"])
    page.tap("button[type=submit]")
    word, _rule = verdict(page)
    assert word == "✓ Legal" and "pair of 5s" in page.text_content(".reading")
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
    """Words typed into the fields (here: a shared link) are looked up in the server's
    spellings: "ts" is the Sword 10; "PaSs" is no pass word for the server, which refuses
    it, so it stays a word the picker does not know rather than a pass."""
    page = phone
    page.goto(live_server + "/referee?trick=Aj%0APaSs&play=ts")
    assert "not a card" in page.text_content("#verdict")
    groups = page.locator("[data-slot='trick'] .play-group")
    assert groups.count() == 2 and groups.nth(1).text_content() == "PaSs"
    assert page.locator("[data-slot='trick'] .chip.unknown").count() == 1
    assert page.get_attribute("[data-slot='play'] .chip", "title") == "Sword 10"
    pick(page, "play", ["Kt"])  # the picker writes the server's notation back
    assert page.input_value("#play") == "10s Kt"
    page.goto(live_server + "/referee?trick=Aj%0APass&play=DR")
    assert page.locator("[data-slot='trick'] .play-group").nth(1).text_content() == "pass"
    assert [e for e in page.errors if "status of 400" not in e] == []  # the refusal only


def test_the_picker_does_not_shift_the_page(live_server, browser):
    """Issue 10: the card picker appeared after the script ran and pushed the page (a
    layout shift of 0.42 on a 412 px phone); it is now laid out at first paint."""
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.add_init_script("""
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
      }).observe({type: 'layout-shift', buffered: true});
    """)
    def slow(route):  # the script arrives after the first paint, as on a slow phone
        time.sleep(0.8)
        route.continue_()

    page.route("**/js/referee.js*", slow)
    page.goto(live_server + "/referee")
    page.wait_for_function("() => document.querySelector('.ref-form.enhanced') !== null")
    page.wait_for_timeout(300)
    assert page.is_visible(".picker") and page.is_hidden("#trick")
    assert page.evaluate("window.__shift") < 0.05
    context.close()
