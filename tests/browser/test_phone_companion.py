"""The table companion in a real browser: fix an old hand, share read-only, the live board."""

from __future__ import annotations

from tests.browser.conftest import shot


def start_four(page, base):
    page.goto(base + "/matches/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        page.fill(f"#seat_{seat}", name)
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    return page.url


def add(page, first, second, points):
    page.tap("text=/Add hand \\d+/")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(f".out-btn[data-seat='{first}']")
    page.tap(f".out-btn[data-seat='{second}']")
    if points is not None:  # none after a double victory: the pad gives way to a note
        page.tap(f".quick button[data-set='{points}']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=saved.")


def totals(page):
    return [int(t) for t in page.locator("[data-total]").all_text_contents()]


def test_edit_an_old_hand_and_undo(live_server, phone):
    page = phone
    url = start_four(page, live_server)
    add(page, 0, 1, "75")
    add(page, 1, 0, "25")
    add(page, 2, 3, "50")
    assert totals(page) == [150, 150]
    page.tap("a[aria-label='Edit hand 1']")
    page.wait_for_selector("h1:has-text('Edit hand 1')")
    assert page.input_value("#card_a") == "75"
    page.fill("#card_a", "60")
    page.wait_for_selector(".preview:has-text('A +60 → 135')")
    shot(page, "edit-hand")
    page.tap("button:has-text('Save changes')")
    page.wait_for_selector("text=Hand 1 updated.")
    assert totals(page) == [135, 165]
    page.tap("button:has-text('Undo hand 3')")
    page.wait_for_selector("text=Hand 3 undone.")
    assert totals(page) == [85, 115]
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Log')")
    page.wait_for_selector("text=hand 1 edited: team A card points 75 → 60; "
                           "team B card points 25 → 40")
    page.tap("button:has-text('Restore')")
    page.wait_for_selector("text=Hand restored.")
    assert totals(page) == [135, 165]
    shot(page, "after-restore")
    assert page.url == url and page.errors == []


def test_a_viewer_link_cannot_change_anything(live_server, phone, new_context):
    page = phone
    url = start_four(page, live_server)
    add(page, 0, 1, "75")
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Share')")
    code = page.text_content(".join-code").strip()
    shot(page, "share")
    viewer_context = new_context(viewport={"width": 360, "height": 640},
                                         is_mobile=True, has_touch=True)
    viewer = viewer_context.new_page()
    viewer.goto(live_server + "/join")
    viewer.fill("#code", code.lower())
    viewer.tap("button:has-text('Join')")
    viewer.wait_for_selector("text=Viewing only")
    assert viewer.locator("text=/Add hand/").count() == 0
    assert viewer.locator("a[aria-label^='Edit hand']").count() == 0
    shot(viewer, "viewer")
    # even a forged request is refused by the server
    status = viewer.evaluate(
        "url => fetch(url + '/undo', {method: 'POST'}).then(r => r.status)", url)
    assert status in (400, 403)
    response = viewer.goto(url + "/hands/new")
    assert response.status == 403
    viewer_context.close()
    page.goto(url)
    assert totals(page) == [75, 25]


def test_the_board_follows_a_saved_hand(live_server, phone, new_context):
    page = phone
    url = start_four(page, live_server)
    tv_context = new_context(viewport={"width": 1280, "height": 720})
    tv = tv_context.new_page()
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Share')")  # the TV opens the match's viewer link first
    tv.goto(page.get_attribute("a[href*='/v/']", "href"))
    page.goto(url)
    tv.goto(url + "/board")
    assert tv.locator(".board-side strong").all_text_contents() == ["0", "0"]
    add(page, 0, 2, None)  # a double victory for Ann & Cy
    tv.locator(".board-side strong").first.filter(has_text="200").wait_for(timeout=10000)
    shot(tv, "board")
    tv_context.close()


def test_german_at_the_table(live_server, new_context):
    context = new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                  has_touch=True, locale="de-DE")
    page = context.new_page()
    page.goto(live_server + "/matches/new")
    assert page.is_visible("h1:has-text('Neue Partie')")
    for seat, name in enumerate(["Anna", "Bernd", "Clara", "Dieter"]):
        page.fill(f"#seat_{seat}", name)
    page.tap("button:has-text('Partie starten')")
    page.tap("text=Runde 1 eintragen")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='2']")
    page.wait_for_selector(".sweep-note:visible")  # the server's preview, in German
    assert "Anna & Clara: Doppelsieg, 200 zu 0" in page.text_content(".sweep-note")
    shot(page, "german-hand")
    page.tap("button:has-text('Runde speichern')")
    page.wait_for_selector("text=Runde 1 gespeichert.")
    page.tap("a[lang='en']")  # the switch
    page.wait_for_selector("text=Add hand 2")
    context.close()
