"""The table's players on a phone (360×640): rename, merge and undo with the thumb, in
English and light, German and dark; nothing wider than the screen; no accessibility
violation."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, PHONE, dress, fits, one_table, serving, shot
from tests.browser.test_accessibility import accessible_in_each_language


@pytest.fixture()
def club(tmp_path):
    """A one-table instance (every phone its scorer) where "Ann" and "Anne" are one person
    typed two ways, and Maximiliane came once."""
    app, _client = one_table(tmp_path, (["Ann", "Bob", "Cy", "Dee"],
                                        ["Anne", "Bob", "Cy", "Maximiliane"]), hands=1)
    with serving(app) as base:
        yield base


def row(page, name):
    return page.locator(f"li[data-player='{name}']")


WORDS = {"en": {"rename": "Rename", "merge": "Merge", "undo": "Undo", "guests": "Guests",
                "renamed": "Ann is now Annie, in every match.", "undone": "undone"},
         "de": {"rename": "Umbenennen", "merge": "Zusammenführen", "undo": "Rückgängig",
                "guests": "Gäste", "renamed": "Ann heißt jetzt Annie, in allen Partien.",
                "undone": "rückgängig gemacht"}}


@pytest.mark.parametrize("language, theme", LOOKS)
def test_rename_merge_and_undo_on_a_phone(club, phone, language, theme):
    page, words = phone, WORDS[language]
    dress(page, club, language, theme)
    page.goto(club + "/stats")
    page.click("a[href='/players']")
    page.wait_for_selector("li[data-player='Ann']")
    fits(page)
    shot(page, f"players-{language}-{theme}")
    # the table's page leads here too, its buttons within the screen
    page.click("section.players h2 a")
    page.wait_for_selector("a[data-players]")
    fits(page)
    shot(page, f"players-table-{language}-{theme}")
    page.click("a[data-players]")
    page.wait_for_selector("li[data-player='Ann']")
    # rename: open the row, type, tap
    row(page, "Ann").locator("summary").click()
    field = row(page, "Ann").locator("input[name=name]")
    field.fill("Annie")
    row(page, "Ann").get_by_role("button", name=words["rename"]).click()
    page.wait_for_selector("li[data-player='Annie']")
    assert words["renamed"] in page.locator(".flash").first.inner_text()
    # the name follows into the old match
    page.goto(club + "/")
    assert "Annie" in page.locator(".match-list").inner_text()
    page.goto(club + "/players")
    # merge Annie into Anne: the same person
    row(page, "Annie").locator("summary").click()
    row(page, "Annie").locator("select[name=into]").select_option(label="Anne")
    shot(page, f"players-merge-{language}-{theme}")
    row(page, "Annie").get_by_role("button", name=words["merge"]).click()
    page.wait_for_selector("li[data-merge-record]")
    assert row(page, "Annie").count() == 0
    assert "2" in row(page, "Anne").locator(".meta").inner_text()
    fits(page)
    shot(page, f"players-merged-{language}-{theme}")
    # undo: Annie is back with her match
    page.locator("li[data-merge-record]").get_by_role("button", name=words["undo"]).click()
    page.wait_for_selector("li[data-player='Annie']")
    assert words["undone"] in page.locator("li[data-merge-record]").inner_text()
    assert "1" in row(page, "Anne").locator(".meta").inner_text()
    # a guest is listed apart
    row(page, "Maximiliane").locator("summary").click()
    row(page, "Maximiliane").locator("form[data-guest] button").click()
    page.wait_for_selector(f"h3:has-text('{words['guests']}')")
    fits(page)
    shot(page, f"players-guest-{language}-{theme}")
    assert not page.errors


def test_the_players_page_has_no_accessibility_violation(club, new_context):
    def opened(page):
        page.locator("li[data-player='Ann'] summary").click()

    accessible_in_each_language(new_context(**PHONE, bypass_csp=True).new_page(), club,
                                club + "/players", opened)
