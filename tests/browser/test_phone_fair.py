"""Fair partnerships on a phone (360×640), English and light, German and dark: Tonight
suggests the fairest partnerships for the players here from the table's ratings, each
side's chance shown; one tap starts that match, whose page shows the chances quietly
until its first hand."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import LOOKS, PHONE, dress, fits, one_table, serving, shot
from tests.browser.test_accessibility import accessible_in_each_language
from tichu_scorer.extensions import db
from tichu_scorer.models import Group


@pytest.fixture()
def club(tmp_path):
    """A one-table instance (every phone its scorer) where Ann and Cy won three matches
    together tonight; Eve and Maximiliane played too."""
    app, _client = one_table(tmp_path, (["Ann", "Bob", "Cy", "Dee"], ["Ann", "Eve", "Cy", "Bob"],
                                        ["Ann", "Dee", "Cy", "Maximiliane"]))
    with app.app_context():
        key = db.session.execute(db.select(Group.key)).scalar_one()
    with serving(app) as base:
        yield base, key


@pytest.mark.parametrize("language, theme, start", [("en", "light", "Start with these partners"),
                                                    ("de", "dark",
                                                     "Mit diesen Partnerschaften starten")])
def test_tonight_suggests_fair_partners_and_starts_the_match(club, phone, language, theme,
                                                             start):
    base, key = club
    page = dress(phone, base, language, theme)
    page.goto(f"{base}/tables/{key}/tonight")
    # six played tonight: four tables' worth of partners and Tientsin's two teams of three
    assert page.locator("[data-fair-table]").count() == 2
    page.locator("details.here summary").click()
    for name in ("Eve", "Maximiliane"):
        page.locator(f"details.here input[value='{name}']").uncheck()
    page.locator("details.here button[type=submit]").click()
    page.wait_for_url(re.compile(r"here="))
    fair = page.locator("[data-fair-table]")
    assert fair.count() == 1
    chances = [int(re.sub(r"\D", "", c)) for c in fair.locator("[data-chance]").all_inner_texts()]
    assert sum(chances) == 100 and all(35 <= c <= 65 for c in chances)
    teams = [t.replace("\xa0", " ") for t in fair.locator(".team-a, .team-b").all_inner_texts()]
    assert not any("Ann" in t and "Cy" in t for t in teams)  # the winners are parted
    fits(page, "Tonight")
    fair.scroll_into_view_if_needed()
    shot(page, f"fair-tonight-{language}-{theme}")
    fair.get_by_role("button", name=start).click()
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    line = page.locator("[data-chances]")
    assert line.is_visible()
    shown = [int(p) for p in re.findall(r"(\d+)\s?%", line.inner_text())]
    assert shown == chances  # the match's chances are the ones Tonight showed
    fits(page, "the match page")
    shot(page, f"fair-match-{language}-{theme}")
    assert not page.errors


def test_the_suggestion_and_the_chances_have_no_accessibility_violation(club, new_context):
    base, key = club
    def suggested(page):
        assert page.locator("[data-fair-table]").count() == 1

    accessible_in_each_language(new_context(**PHONE, bypass_csp=True).new_page(), base,
                                f"{base}/tables/{key}/tonight?here=Ann&here=Bob&here=Cy&here=Dee",
                                suggested)


@pytest.mark.parametrize("language, theme", LOOKS)
def test_the_director_draws_partners_fair(club, phone, language, theme):
    base, _key = club
    page = dress(phone, base, language, theme)
    made = page.request.post(base + "/tournaments/new", form={
        "name": "Club cup", "kind": "individual", "pairing": "swiss", "rounds": "2",
        "hands": "2", "entries": "Ann\nBob\nCy\nDee"}, max_redirects=0)
    assert made.status == 303
    page.goto(base + made.headers["location"])
    page.locator("[data-fair-draw] input").check()
    fits(page, "the tournament page")
    shot(page, f"fair-draw-{language}-{theme}")
    page.locator("[data-draw] button[type=submit]").click()
    told = page.locator(".flash, [role=status]").filter(has_text=re.compile("%"))
    told.first.wait_for()
    assert re.search(r"\d+\s?%", told.first.inner_text())
    shot(page, f"fair-drawn-{language}-{theme}")
    assert not page.errors
