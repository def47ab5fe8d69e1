"""Groups of 3, 5, 6, 8 and 12 start the right game and record hands on a phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot


def start(page, base, variant, names):
    page.goto(f"{base}/matches/new?variant={variant}")
    for seat, name in enumerate(names):
        page.fill(f"#seat_{seat}", name)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")


def add_hand(page, number, taps, points=None):
    page.tap(f"text=Add hand {number}")
    page.wait_for_selector(".out-buttons:not([hidden])")
    for selector in taps:
        page.tap(selector)
    if points is not None:
        page.tap(f".quick button[data-set='{points}']")
    page.tap("button[type=submit]")
    page.wait_for_selector(f"text=Hand {number} saved.")


def totals(page):
    return [int(t) for t in page.locator("[data-total]").all_text_contents()]


def test_threechu_three_hands(live_server, phone):
    page = phone
    page.goto(f"{live_server}/matches/new?variant=threechu")
    for seat, name in enumerate(["Tom", "Uma", "Vic"]):
        page.fill(f"#seat_{seat}", name)
    page.fill("#hands", "3")
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    assert "Tom shuffles and plays the dummy" in page.text_content(".shuffler")
    add_hand(page, 1, ["label[for='call_3-1']", ".out-btn[data-seat='3']",
                       ".out-btn[data-seat='1']"], 50)
    assert totals(page) == [150, 50, 50, 150]
    assert "Uma shuffles and plays the dummy" in page.text_content(".shuffler")
    page.tap("text=Add hand 2")
    page.wait_for_selector(".out-buttons:not([hidden])")
    assert page.is_disabled("#call_1-2") and page.is_disabled("#call_3-2")  # T3.3
    page.go_back()
    add_hand(page, 2, [".out-btn[data-seat='0']", ".out-btn[data-seat='2']"])
    add_hand(page, 3, [".out-btn[data-seat='2']", ".out-btn[data-seat='0']"], 25)
    # hand 3: Vic shuffles; his side (with the dummy) takes 25 card points, Tom and Uma 75
    assert totals(page) == [425, 125, 275, 175]
    assert page.is_visible("text=Tom wins!")
    shot(page, "threechu-over")
    assert page.errors == []


def test_tientsin_triple_victory(live_server, phone):
    page = phone
    start(page, live_server, "tientsin", ["A1", "B1", "A2", "B2", "A3", "B3"])
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='1']")
    with page.expect_response("**/hands/preview"):
        page.tap(".out-btn[data-seat='3']")
    page.wait_for_function("() => document.querySelector('.preview').textContent.trim() !== ''")
    assert page.is_hidden(".sweep-note")  # no double-victory bonus with six
    page.tap(".out-btn[data-seat='5']")
    page.wait_for_selector(".sweep-note:visible")
    assert "Triple victory, 300 to 0" in page.text_content(".sweep-note")
    page.wait_for_selector(".preview:has-text('B +300 → 300')")
    shot(page, "tientsin-hand")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    assert totals(page) == [0, 300]
    assert page.errors == []


@pytest.mark.parametrize("players", [5, 8, 12])
def test_grand_seigneur(live_server, phone, players):
    page = phone
    names = [f"P{i + 1}" for i in range(players)]
    start(page, live_server, "seigneur", names)
    assert ("two decks" if players >= 7 else "one deck") in page.text_content(".match-meta")
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    order = list(range(players))[::-1]  # the last seat goes out first
    for seat in order[:-1]:
        page.tap(f".out-btn[data-seat='{seat}']")
    assert "Wretch" in page.text_content(f".out-btn[data-seat='{order[-1]}']")
    shot(page, f"seigneur-{players}-hand")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    seating = page.locator(".seating li").all_text_contents()
    assert seating[0] == f"Great Lord: P{players}" and seating[-1] == "Wretch: P1"
    pushes = page.locator(".pushes li").all_text_contents()
    first = "pushes 2 best cards" if players == 5 else "pushes 3 best cards"
    assert pushes[0].startswith("P1 (Wretch) " + first)
    assert len(pushes) == (2 if players == 5 else 3)
    shot(page, f"seigneur-{players}-match")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == []


# Each of these words stands alone in a button or a column heading; at 360 px it must fit
# on one line in both languages, never broken inside the word ("Einstellunge|n").
ONE_LINE = """(words) => words.map((word) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0 || !node.parentElement.offsetParent) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
    return [word, tops.size];
  }
  return [word, 0];
})"""


@pytest.mark.parametrize("lang, words", [
    ("de", {"form": ["Großes"], "more": ["Einstellungen", "Protokoll"],
            "seigneur": ["Großherr", "Herrschaft", "Schnitt", "Reihenfolge"]}),
    ("en", {"form": ["Grand"], "more": ["Settings"],
            "seigneur": ["Longest", "Average", "Finishing"]}),
])
def test_words_are_never_broken_and_nothing_scrolls_sideways(live_server, phone, lang, words):
    page = phone
    page.goto(f"{live_server}/lang/{lang}")
    start_label = "Partie starten" if lang == "de" else "Start match"
    add_label = "Runde 1 eintragen" if lang == "de" else "Add hand 1"

    def begin(variant, names):
        page.goto(f"{live_server}/matches/new?variant={variant}")
        for seat, name in enumerate(names):
            page.fill(f"#seat_{seat}", name)
        page.tap(f"button:has-text('{start_label}')")
        page.wait_for_selector(f"text={add_label}")

    def check(kind):
        found = dict(page.evaluate(ONE_LINE, words[kind]))
        assert found == dict.fromkeys(words[kind], 1), (kind, found)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    begin("nanking", ["Ann", "Bob", "Cat", "Dan"])
    page.locator("details.menu summary").tap()
    check("more")
    page.tap(f"text={add_label}")
    page.wait_for_selector(".out-buttons:not([hidden])")
    check("form")
    begin("seigneur", ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus"])
    page.tap(f"text={add_label}")
    page.wait_for_selector(".out-buttons:not([hidden])")
    for seat in (5, 4, 3, 2, 1):
        page.tap(f".out-btn[data-seat='{seat}']")
    page.tap("button[type=submit]")
    page.wait_for_selector(".seating")
    check("seigneur")
    shot(page, f"seigneur-6-{lang}")
    assert page.errors == []
