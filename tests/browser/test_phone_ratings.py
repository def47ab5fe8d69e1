"""The ratings page on a phone (360×640): light and dark, English and German, nothing wider
than the screen, a history line per player."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, PHONE, dress, fits, one_table, serving, shot
from tests.browser.test_accessibility import accessible_in_each_language


@pytest.fixture()
def club(tmp_path):
    """A one-table instance (every phone its scorer) with three finished matches."""
    app, _client = one_table(tmp_path, (["Ann", "Bob", "Cy", "Dee"], ["Ann", "Eve", "Cy", "Bob"],
                                        ["Ann", "Dee", "Cy", "Maximiliane"]))
    with serving(app) as base:
        yield base


@pytest.mark.parametrize("language, theme", LOOKS)
def test_ratings_fit_a_phone(club, phone, language, theme):
    page = dress(phone, club, language, theme)
    page.goto(club + "/stats")
    page.click("a[href='/stats/ratings']")
    page.wait_for_selector("table.ratings")
    assert page.locator("table.ratings tbody tr").count() == 6
    assert page.locator("svg.spark path").count() == 6
    first = page.locator("table.ratings tbody tr th").first.inner_text().removeprefix("1. ")
    assert first.startswith(("Ann", "Cy"))  # won all three
    fits(page)
    shot(page, f"ratings-{language}-{theme}")
    assert not page.errors


def test_ratings_have_no_accessibility_violation(club, new_context):
    accessible_in_each_language(new_context(**PHONE, bypass_csp=True).new_page(), club,
                                club + "/stats/ratings")
