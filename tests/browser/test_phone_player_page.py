"""A player's page on a phone (360×640), opened from a name on the statistics: English
light and German dark, nothing wider than the screen and no table cut off, the hands played
and won (on the page and the statistics' cards), the period tabs, and no accessibility
violation."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, PHONE, dress, one_table, serving, shot
from tests.browser.conftest import fits as fits_the_phone
from tests.browser.test_accessibility import accessible_in_each_language
from tests.conftest import hand_form, new_match, post_hand


@pytest.fixture()
def club(tmp_path):
    """A one-table instance (every phone its scorer): three finished matches of Ann with
    three partners, a Threechu match, and a missed wish."""
    app, client = one_table(tmp_path, (["Ann", "Bob", "Cy", "Dee"],
                                       ["Ann", "Eve", "Maximiliane", "Bob"],
                                       ["Ann", "Cy", "Dee", "Maximiliane"]))
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    post_hand(client, url, hand_form([1, 3], {"0": "grand"}))
    post_hand(client, url, hand_form([], wish=0))
    with serving(app) as base:
        yield base


def fits(page) -> None:
    """Nothing wider than the screen, and every table whole inside its box."""
    fits_the_phone(page)
    cut = page.evaluate("""[...document.querySelectorAll('.stat-table-wrap')]
        .filter(w => w.scrollWidth > w.clientWidth + 1)
        .map(w => w.querySelector('table').dataset)""")
    assert cut == [], f"tables cut off: {cut}"


@pytest.mark.parametrize("language, theme", LOOKS)
def test_a_name_on_the_statistics_opens_the_players_page(club, phone, language, theme):
    page = dress(phone, club, language, theme)
    page.goto(club + "/stats")
    page.locator("table.stat-table tbody th a", has_text="Ann").first.tap()
    page.wait_for_selector("h1[data-player]")
    assert page.locator("h1").inner_text() == "Ann"
    matches = page.locator("[data-matches]").inner_text()
    assert matches == ("4 played, 3 won" if language == "en" else "4 gespielt, 3 gewonnen")
    assert page.locator("[data-missed-wishes]").inner_text() == "1"
    # hands won: the three matches' four sweeps each, of 14 hands
    hands = page.locator("[data-hands]").inner_text().replace("\xa0", " ")
    assert hands == ("14 played, 12 won 86%" if language == "en"
                     else "14 gespielt, 12 gewonnen 86 %")
    assert page.locator("table[data-partners] tbody tr").count() == 3
    assert page.locator("table[data-opponents] tbody tr").count() == 5
    assert page.locator("figure[data-rating] svg path").count() == 1
    fits(page)
    shot(page, f"player-page-{language}-{theme}")
    # a partner's name opens their page; the period tabs keep to it
    page.locator("table[data-partners] tbody th a", has_text="Maximiliane").tap()
    page.wait_for_selector("h1:has-text('Maximiliane')")
    page.locator("nav.variant-tabs a").first.tap()
    page.wait_for_url("**period=tonight")
    assert page.locator("nav.variant-tabs a[aria-current=page]").inner_text() == (
        "Tonight" if language == "en" else "Heute Abend")
    fits(page)
    # the statistics' cards show the hands won too, within the screen
    page.goto(club + "/stats?view=cards")
    card = page.locator(".stat-card", has=page.locator("a", has_text="Ann")).first
    assert card.locator("[data-hands-won]").inner_text().replace("\xa0", " ").startswith(
        "86" if language == "en" else "86 %")
    fits(page)
    shot(page, f"stats-cards-hands-won-{language}-{theme}")
    assert not page.errors


def test_the_players_page_has_no_accessibility_violation(club, new_context):
    page = new_context(**PHONE, bypass_csp=True).new_page()
    page.goto(club + "/stats")
    url = club + page.locator("table.stat-table tbody th a", has_text="Ann").first \
        .get_attribute("href")
    accessible_in_each_language(page, club, url)
