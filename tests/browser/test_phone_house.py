"""House rules at 360×640 (RULES.md §10.1): folded away on the new-match form so a plain
match starts as before; a preset in two taps; the match's own set shown only when chosen;
the match page names the rules and counts victory points; the hand form offers no Grand
Tichu under [R2] and no wish penalty under [R8]. Light and English, dark and German."""

from __future__ import annotations

from tests.browser.conftest import PHONE, shot
from tests.browser.test_phone_companion import totals


def looked_at(page, name: str) -> None:
    """Nothing pushes the page sideways at 360 px; a screenshot to look at."""
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(page, name)


def test_a_tournament_match_in_two_taps(live_server, phone):
    page = phone
    page.goto(live_server + "/matches/new")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        page.fill(f"#seat_{seat}", name)
    assert not page.is_visible(".house-choice")  # folded away: a plain match as before
    page.tap("details.house summary")
    page.tap("label.choice:has-text('Tournament')")
    assert not page.is_visible(".house-own")  # a preset: no boxes to tick
    looked_at(page, "house-new-tournament")
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    rules = " ".join(page.text_content("[data-house-rules]").split())
    assert rules == ("House rules: No Grand Tichu R2 · Double victory worth 100 R3 · "
                     "Victory points 2 / 1 / 3 R4")
    assert "0 of 4 hands" in page.text_content(".match-meta")
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    assert page.locator(".call-row label:has-text('Grand')").count() == 0  # [R2]
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='2']")  # a double victory: worth 100 here ([R3])
    page.tap("button[type=submit]")
    page.wait_for_selector("text=saved.")
    assert totals(page) == [100, 0]
    assert page.text_content("[data-victory='0']").strip() == "3 victory points"
    shot(page, "house-match")
    settings_show(page, ["No Grand Tichu", "Double victory worth 100",
                         "Victory points 2 / 1 / 3"], "house-settings")
    assert not page.errors, page.errors


def settings_show(page, ticked: list[str], name: str) -> None:
    """The match's settings page ticks the boxes of its rules, and only those (the boxes
    of game/house.py's FLAGS, in its order)."""
    page.goto(page.evaluate("() => document.querySelector(\"a[href$='/settings']\").href"))
    page.wait_for_selector(".house-own.shown")
    boxes = page.locator(".house-own label.check")
    assert boxes.count() == 5
    assert [" ".join(boxes.nth(i).text_content().split()) for i in range(5)
            if boxes.nth(i).locator("input").is_checked()] == ticked
    looked_at(page, name)


def test_our_own_rules_in_german_and_dark(live_server, new_context):
    page = new_context(**PHONE, locale="de-DE", color_scheme="dark").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server + "/matches/new")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        page.fill(f"#seat_{seat}", name)
    page.tap("details.house summary")
    page.tap("label.choice:has-text('Eigene')")
    page.wait_for_selector(".house-own", state="visible")
    page.tap("label.check:has-text('Keine Wunschstrafe')")
    page.fill("#lead_by", "500")
    looked_at(page, "house-new-own-de-dark")
    page.tap("button:has-text('Partie starten')")
    page.wait_for_selector("text=Runde 1 eintragen")
    rules = " ".join(page.text_content("[data-house-rules]").split())
    assert rules == "Hausregeln: Endet bei 500 Vorsprung R6 · Keine Wunschstrafe R8"
    page.tap("text=Runde 1 eintragen")
    page.wait_for_selector(".out-buttons:not([hidden])")
    assert page.locator("details.wish").count() == 0  # [R8]
    assert page.locator(".call-row label:has-text('Groß')").count() == 4
    shot(page, "house-hand-de-dark")
    page.go_back()
    settings_show(page, ["Keine Wunschstrafe"], "house-settings-de-dark")
    assert page.input_value("#lead_by") == "500"
    assert errors == []


def test_bombs_and_a_note_take_a_tap_each_and_show_in_the_list(live_server, phone):
    """Folded away under the wish: a plain hand never meets them; opened, one tap adds a
    bomb to a player (up to 4), and the note is typed."""
    from tests.browser.conftest import start_match
    page = phone
    start_match(page, live_server)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    assert not page.is_visible(".bombs")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")
    page.tap("details.extras summary")
    page.tap("button.bomb-add[data-bomb='bombs_1']")
    page.tap("button.bomb-add[data-bomb='bombs_1']")
    page.tap("button.bomb-add[data-bomb='bombs_2']")
    assert page.input_value("#bombs_1") == "2" and page.input_value("#bombs_2") == "1"
    page.fill("#note", "Dog to Cy")
    looked_at(page, "hand-bombs-note")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=saved.")
    notes = " ".join(page.text_content("table.hands tbody tr").split())
    assert "Bob: 2 bombs" in notes and "Cy: 1 bomb" in notes and "Dog to Cy" in notes
    assert totals(page) == [75, 25]
    shot(page, "hand-bombs-list")
    assert not page.errors, page.errors


def test_an_evening_of_five_in_english_light_and_german_dark(live_server, phone, new_context):
    """Tonight at a table of five: the standing, who plays next and who sits out; one tap
    starts that match; the next suggestion lets the one who sat out play."""
    from tests.browser.conftest import start_match
    page = phone
    start_match(page, live_server)
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Tonight')")
    page.wait_for_selector("[data-next-match]")  # the four who played: no one sits out
    assert page.locator("[data-sitting-out]").count() == 0
    page.tap("details.here summary")
    page.fill("details.here input[type=text]", "Eve")
    page.tap("button:has-text('Who plays next?')")
    page.wait_for_selector("[data-next-match]")
    assert "Sitting out" in page.text_content("[data-sitting-out]")
    looked_at(page, "tonight-next")
    out = page.text_content("[data-sitting-out]").split(": ", 1)[1].strip()
    assert out != "Eve"  # new tonight: Eve plays
    page.tap("button:has-text('Start this match')")
    page.wait_for_selector("text=Add hand 1")
    assert "Eve" in page.text_content(".totals")
    german = new_context(**PHONE, locale="de-DE", color_scheme="dark").new_page()
    german.context.add_cookies(page.context.cookies())
    german.goto(page.url.split("/matches/")[0] + "/")
    german.tap(".match-item >> nth=0")
    german.tap("summary:has-text('Mehr')")
    german.tap("a:has-text('Heute Abend')")
    german.wait_for_selector("table[data-tonight=players]")
    assert "Spieler heute Abend" in german.text_content("main")
    looked_at(german, "tonight-de-dark")
