"""A result to share (issue 36, item 6) at 360×640: on the score sheet, Share hands the
phone's share sheet the result as a PNG file and as text (navigator.share stubbed in the
page to keep what it got); a browser that cannot share files downloads the image and copies
the text instead; the evening (Tonight) shares the same way. In English on a light phone and
in German on a dark one (test-artifacts/share-*.png)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, dress, shot, start_match, until
from tests.browser.test_phone_variants import add_hand

WORDS = {"en": {"share": "Share the result", "shared": "Shared.", "team": "Team A: Ann & Cy",
                "saved": "Image saved, text copied", "tonight": "Tonight at"},
         "de": {"share": "Ergebnis teilen", "shared": "Geteilt.", "team": "Team A: Ann & Cy",
                "saved": "Bild gespeichert, Text kopiert", "tonight": "Heute Abend an"}}
# The share sheet, stubbed: what the page hands it is kept in window.shared.
SHARE_SHEET = """
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = async (data) => {
  window.shared = {title: data.title, text: data.text, files: (data.files || []).map(
    (f) => ({name: f.name, type: f.type, size: f.size}))};
};
"""
# A browser without Web Share (most desktops): the clipboard, stubbed, keeps what it got.
NO_SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "canShare", {value: undefined});
Object.defineProperty(Navigator.prototype, "share", {value: undefined});
Object.defineProperty(navigator, "clipboard", {value: {writeText: async (text) => {
  window.copied = text; }}});
"""


def a_played_match(page, base, language, theme):
    url = start_match(page, base)
    add_hand(page, 1, [".out-btn[data-seat='0']", ".out-btn[data-seat='2']"])  # 1-2 for A
    dress(page, base, language, theme)
    return url


@pytest.mark.parametrize("language, theme", LOOKS)
def test_share_offers_the_image_and_the_text_to_the_share_sheet(live_server, phone,
                                                                 language, theme):
    words, page = WORDS[language], phone
    url = a_played_match(page, live_server, language, theme)
    page.add_init_script(SHARE_SHEET)
    page.goto(url + "/sheet")
    button = page.get_by_role("button", name=words["share"])
    button.wait_for()
    shot(page, f"share-sheet-{language}-{theme}")
    button.tap()
    until(page, "() => Boolean(window.shared)", what="the share sheet was opened")
    shared = page.evaluate("window.shared")
    assert [(f["name"], f["type"]) for f in shared["files"]] == [
        (f"tichu-match-{url.rsplit('/', 1)[1]}.png", "image/png")]
    assert shared["files"][0]["size"] > 5000
    assert words["team"] in shared["text"] and " 200\n" in shared["text"]
    assert shared["title"]
    page.wait_for_selector(f"[data-share-status]:has-text('{words['shared']}')")
    # the evening at the table shares the same way
    page.evaluate("window.shared = null")
    page.goto(url)  # the match page's menu links Tonight
    page.goto(live_server + page.locator("a[href$='/tonight']").first.get_attribute("href"))
    page.get_by_role("button", name=words["share"]).tap()
    until(page, "() => Boolean(window.shared)", what="the evening was shared")
    assert page.evaluate("window.shared.text").startswith(words["tonight"])
    assert page.evaluate("window.shared.files[0].type") == "image/png"
    shot(page, f"share-tonight-{language}-{theme}")
    assert page.errors == []


def test_without_a_share_sheet_the_image_is_downloaded_and_the_text_copied(live_server,
                                                                            phone):
    page = phone
    url = a_played_match(page, live_server, "en", "light")
    page.add_init_script(NO_SHARE_SHEET)
    page.goto(url + "/sheet")
    button = page.get_by_role("button", name=WORDS["en"]["share"])
    button.wait_for()
    with page.expect_download() as download:
        button.tap()
    assert download.value.suggested_filename == f"tichu-match-{url.rsplit('/', 1)[1]}.png"
    with open(download.value.path(), "rb") as image:
        assert image.read(8) == b"\x89PNG\r\n\x1a\n"
    until(page, "() => Boolean(window.copied)", what="the text was copied")
    assert "Team B: Bob & Dee" in page.evaluate("window.copied")
    page.wait_for_selector(f"[data-share-status]:has-text('{WORDS['en']['saved']}')")
    assert page.errors == []
