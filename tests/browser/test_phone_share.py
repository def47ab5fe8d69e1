"""Sharing a match from one phone to others in a real browser: one choice, watch or score;
a code typed as a phone's keyboard gives it (small letters, dashes) is read."""

from __future__ import annotations

from tests.browser.conftest import PHONE, shot, start_match
from tests.browser.test_phone_companion import add


def typed(code: str) -> str:
    """The code as a player might type what the page shows: small letters, a dash between
    its groups."""
    return code.strip().lower().replace(" ", "-")


def test_score_and_watch_codes_typed_land_on_the_match(live_server, phone, new_context):
    page = phone
    url = start_match(page, live_server)
    add(page, 0, 1, "75")
    page.tap("summary:has-text('More')")
    page.tap("a:has-text('Share')")
    page.wait_for_selector("h2:has-text('Watch this match')")
    assert page.locator(".share-choice a").all_text_contents() == [
        "Watchfollow the score", "Scoreenter hands too"]
    assert page.locator(".qr-box svg").count() == 1 and page.locator(".join-code").count() == 1
    watch = page.text_content(".join-code")
    assert watch is not None and len(watch.strip()) == 9  # two groups of four
    watch_link = page.get_attribute("a[data-share-link]", "href")
    shot(page, "share-watch")
    page.tap("a[data-choice='score']")
    page.wait_for_selector("h2:has-text('Score on another phone')")
    assert page.locator(".qr-box svg").count() == 1 and page.locator(".join-code").count() == 1
    score = page.text_content(".join-code")
    assert score is not None and len(score.strip()) == 14  # three groups of four
    shot(page, "share-score")

    scorer = new_context(**PHONE).new_page()
    scorer.goto(live_server + "/join")
    scorer.fill("#code", typed(score))
    scorer.tap("button:has-text('Join')")
    scorer.wait_for_selector("text=This phone can now enter hands at")
    assert scorer.url == url
    add(scorer, 1, 0, "25")
    assert scorer.locator("text=Viewing only").count() == 0

    watcher = new_context(**PHONE).new_page()
    watcher.goto(live_server + "/join")
    watcher.fill("#code", typed(watch))
    watcher.tap("button:has-text('Join')")
    watcher.wait_for_selector("text=Viewing only")
    assert watcher.locator("text=/Add hand/").count() == 0
    assert [int(t) for t in watcher.locator("[data-total]").all_text_contents()] == [100, 100]
    linked = new_context(**PHONE).new_page()
    assert watch_link is not None
    linked.goto(watch_link)
    linked.wait_for_selector("text=Viewing only")
    assert linked.locator("text=/Add hand/").count() == 0
    shot(linked, "watch-link")
    assert page.errors == []


def test_the_share_page_says_what_plain_http_costs_without_signal(live_server, new_context):
    """Opened at 127.0.0.1 (a secure context, as localhost is) the Share page says nothing
    of it; opened where the browser finds no secure context (plain http:// to a LAN address,
    as `make run` prints: told here by the page's isSecureContext) it says that phones
    cannot keep the app for no signal, in the phone's language."""
    page = new_context(**PHONE).new_page()
    url = start_match(page, live_server)
    page.goto(url + "/share")
    page.wait_for_selector("h2#share-title")
    assert page.locator("[data-insecure]").is_hidden()
    page.tap("a[data-choice='score']")
    link = page.get_attribute("a[data-scorer-link]", "href")
    plain = new_context(**PHONE, locale="de", color_scheme="dark").new_page()
    plain.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    plain.goto(link)  # a second scorer's phone, in German
    plain.wait_for_selector("[data-total]")
    plain.goto(url + "/share")
    plain.wait_for_selector("[data-insecure]:visible")
    assert "HTTPS" in plain.text_content("[data-insecure]")
    assert "Handys" in plain.text_content("[data-insecure]")
    shot(plain, "share-plain-http-dark-de")
