"""The first screens at 360×640: a newcomer's home page, the language switch at the top of
every page, the offline page's list of matches."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.conftest import PHONE, shot, start_match, until

WORDS = {"en": "Matches", "de": "Partien"}


def in_first_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and (
        box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 640)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_language_switch_is_at_the_top_of_every_page(live_server, phone, lang):
    page = phone
    other = "de" if lang == "en" else "en"
    match = start_match(page, live_server).removeprefix(live_server)
    page.goto(f"{live_server}/lang/{lang}")
    # (the hand form is a screen of its own, with Cancel and nothing above the form, so
    # that Save stays in view: it has no top bar)
    for path in ("/", "/matches/new", "/join", "/referee", "/rules", "/stats", "/import",
                 "/offline", match, match + "/log"):
        page.goto(live_server + path)
        assert in_first_view(page, ".topbar .lang"), path
        # the top bar keeps one row and nothing scrolls sideways
        assert page.locator(".topbar").bounding_box()["height"] <= 56, path
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), path
    shot(page, f"top-bar-{lang}")
    page.goto(live_server + "/rules")
    page.locator(".topbar .lang").tap()
    page.wait_for_selector(f"html[lang={other}]")
    assert page.url == live_server + "/rules"
    assert WORDS[other] in page.locator(".topbar nav").inner_text()
    assert not page.errors, page.errors


def test_a_fresh_phone_starts_with_a_match_or_a_table_and_imports_from_a_link(
        live_server, phone, new_context, tmp_path):
    scorer = new_context(**PHONE).new_page()
    start_match(scorer, live_server)
    export = tmp_path / "export.json"
    export.write_bytes(scorer.request.get(live_server + "/export.json").body())
    page = phone
    page.goto(live_server + "/")
    assert in_first_view(page, "a:has-text('Start a match')")
    assert in_first_view(page, "#join-code")
    assert page.locator("input[type=file]").count() == 0
    shot(page, "home-fresh")
    page.locator("a:has-text('Import matches from a file')").tap()
    page.set_input_files("#import-file", str(export))
    page.locator("form:has(#import-file) button[type=submit]").tap()
    page.wait_for_selector("text=Imported: 1 new match, 0 already here")
    assert page.locator(".match-item").count() == 1
    # a phone with matches has export and import on its home page
    assert page.locator("#import-file").count() == 1
    assert not page.errors, page.errors


def remembered_at(page, path: str, when: dt.datetime) -> None:
    """Wait until this phone has noted that it used the match at `when` (offline.js writes it
    to IndexedDB after the page loaded; leaving the page sooner would leave the old time)."""
    until(page, """([url, at]) => window.tichuOutbox && window.tichuOutbox.remembered().then(
                     (ms) => ms.some((m) => m.url === url && m.at === at))""",
          [path, int(when.timestamp() * 1000)], what=f"{path} remembered at {when}")


def test_the_offline_page_tells_matches_of_the_same_players_apart(live_server, phone):
    """Each line: the players, and the day this phone first scored the match, with the time
    where two are of the same day."""
    page = phone
    started = [dt.datetime(2026, 3, 2, 19, 30, tzinfo=dt.UTC),
               dt.datetime(2026, 3, 4, 18, 5, tzinfo=dt.UTC),
               dt.datetime(2026, 3, 4, 21, 40, tzinfo=dt.UTC)]
    urls = []
    for when in started:
        page.clock.set_fixed_time(when)
        urls.append(start_match(page, live_server).removeprefix(live_server))
        page.goto(live_server + urls[-1])  # opened again later: still the same day
        remembered_at(page, urls[-1], when)
    page.clock.set_fixed_time(started[-1] + dt.timedelta(days=1))
    page.goto(live_server + urls[0])
    remembered_at(page, urls[0], started[-1] + dt.timedelta(days=1))
    page.goto(live_server + "/offline")
    page.wait_for_selector("#offline-matches:not([hidden])")
    lines = page.locator("#offline-matches li")
    texts = [" ".join(t.split()) for t in lines.all_inner_texts()]
    assert len(texts) == len(set(texts)) == 3, texts
    assert all(t.startswith("Ann, Bob, Cy, Dee ") for t in texts), texts
    hrefs = [a.get_attribute("href") for a in page.locator("#offline-matches a").all()]
    assert hrefs == [urls[0], urls[2], urls[1]]  # the latest used first
    times = page.locator("#offline-matches time")
    assert [times.nth(i).get_attribute("datetime") for i in range(3)] == [
        started[i].isoformat(timespec="milliseconds").replace("+00:00", "Z") for i in (0, 2, 1)]
    assert "Mar 2, 2026" in texts[0] and ":" not in texts[0]  # alone on its day
    assert "Mar 4, 2026" in texts[1] and "Mar 4, 2026" in texts[2]
    assert texts[1] != texts[2]  # the same day: the time of day tells them apart
    assert all(in_first_view(page, f"#offline-matches li >> nth={i}") for i in range(3))
    shot(page, "offline-list")
    assert not page.errors, page.errors
