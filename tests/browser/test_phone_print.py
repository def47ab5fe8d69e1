"""Printing a match: the More menu's Print opens the score sheet; on paper it names the
table, the date and the players, and lists the hands in playing order."""

from __future__ import annotations

from tests.browser.conftest import shot, start_match
from tests.browser.test_phone_companion import add


def test_the_printed_sheet(live_server, phone):
    url = start_match(phone, live_server)
    for first, second, points in ((0, 1, 75), (1, 0, 50), (2, 3, 75)):
        add(phone, first, second, points)
    phone.goto(url)
    phone.tap("summary:has-text('More')")
    phone.tap("a:has-text('Print')")
    phone.wait_for_selector("table.sheet-hands")
    button = phone.locator("[data-print]")
    assert button.is_visible()  # the script showed it
    phone.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    button.tap()
    assert phone.evaluate("window.printed") == 1
    phone.emulate_media(media="print")
    assert not button.is_visible() and not phone.locator(".topbar").is_visible()
    sheet = phone.locator("article.sheet")
    text = sheet.inner_text()
    table = phone.locator("h1").inner_text()
    assert table and sheet.locator("h1").is_visible()
    assert phone.locator("article.sheet time").is_visible()
    assert "Ann, Bob, Cy, Dee" in text
    assert phone.locator("table.sheet-hands tbody th").all_inner_texts() == ["1", "2", "3"]
    shot(phone, "print-sheet")
    assert not phone.errors, phone.errors
