"""The season at the phone (360×640; English and light, German and dark): from the table's
page to its season standing, ranked as the page says, another year and the other ranking a
tap away, nothing wider than the phone; printed without its controls; exported as CSV."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest

from tests.browser.conftest import PHONE, browser_app, serving, shot
from tests.conftest import hand_form, match_id, post_hand
from tichu_scorer.clock import utcnow
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match

NO_WIDER = "document.documentElement.scrollWidth <= window.innerWidth"


def won(app, client, names, team, started=None, **fields):
    """A finished match of `names` won by `team` (a double victory), started at `started`."""
    data = {f"seat_{i}": n for i, n in enumerate(names)} | {
        "target": "custom", "custom_target": "200"} | fields
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    url = response.headers["Location"]
    assert post_hand(client, url, hand_form([0, 2] if team == 0 else [1, 3])).status_code == 303
    if started is not None:
        with app.app_context():
            db.session.get(Match, match_id(url)).started_at = started
            db.session.commit()


@pytest.fixture()
def season_table(tmp_path):
    """A table with this year's matches (Bob and Dee win three, Ann and Cy one) and one of
    last year's (won by Zoe), served; yields the base URL and the table's scorer link."""
    app = browser_app(tmp_path)
    app.config["WTF_CSRF_ENABLED"] = False  # the history is made as a test client
    client = app.test_client()
    four = ["Ann", "Bob", "Cy", "Dee"]
    won(app, client, four, 0)
    for _ in range(3):
        won(app, client, ["Eve", "Bob", "Fay", "Dee"], 1)
    won(app, client, ["Zoe", "Bob", "Cy", "Dee"], 0,
        started=datetime(utcnow().year - 1, 11, 20, 20, 0))
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        key = db.session.execute(db.select(Group.scorer_key)).scalar_one()
    with serving(app) as base:
        yield base, f"{base}/join?key={key}"


def names(page):
    return page.eval_on_selector_all("[data-season-standing] tbody tr",
                                     "rows => rows.map(r => r.dataset.name)")


@pytest.mark.parametrize("theme, locale", [("light", "en"), ("dark", "de")])
def test_the_season_standing_at_the_phone(season_table, new_context, theme, locale):
    base, scorer_link = season_table
    context = new_context(**PHONE, color_scheme=theme, locale=locale, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(scorer_link)  # the table's page
    page.tap("a[data-season]")
    page.wait_for_selector("[data-season-standing]")
    assert names(page)[:2] == ["Bob", "Dee"]  # 3 wins of 4 each: one place, by name
    for row in range(2):
        cells = page.locator("[data-season-standing] tbody tr").nth(row).locator("td")
        assert cells.all_inner_texts()[:5] == ["1", "4", "3", "0", "6"]  # ties apart
    assert page.locator("[data-season-standing] thead th").nth(4).get_attribute(
        "title") == ("Matches tied" if locale == "en" else "Unentschiedene Partien")
    assert "Zoe" not in names(page)
    assert page.evaluate(NO_WIDER)
    assert page.eval_on_selector_all(  # each heading on one line: no word cut in two
        "[data-season-standing] thead th",
        "hs => hs.every(h => { const r = document.createRange(); r.selectNodeContents(h);"
        " return r.getClientRects().length === 1; })")
    assert page.locator("[data-season-rules] li").count() == 4
    shot(page, f"season-{theme}-{locale}")
    # last year: one tap
    page.tap(f"[data-season-form] nav a >> text={datetime.now().year - 1}")
    page.wait_for_selector("[data-season-standing] tr[data-name='Zoe']")
    assert names(page) == ["Cy", "Zoe", "Bob", "Dee"]
    # the other ranking, chosen and shown
    page.tap("label[for=by-vp]")
    page.tap("[data-season-form] button[type=submit]")
    page.wait_for_url("**by=victory_points**")
    assert page.is_checked("#by-vp")
    # printed: the ranking and its rules, without the controls
    page.emulate_media(media="print")
    assert page.locator("[data-season-form]").is_hidden()
    assert page.locator("[data-exports]").is_hidden()
    assert page.locator("[data-season-standing]").is_visible()
    shot(page, f"season-print-{theme}-{locale}")
    link = "[data-season-standing] th[scope=row] a"
    assert page.eval_on_selector(  # a name printed as the other names, not as a link
        link, "a => getComputedStyle(a).color === getComputedStyle(a.parentNode).color")
    page.emulate_media(media="screen")
    assert page.locator("[data-print]").is_visible()
    # exported as the page shows it
    with page.expect_download() as download:
        page.tap("[data-exports] a:first-child")
    rows = list(csv.DictReader(io.StringIO(download.value.path().read_text())))
    assert [r["name"] for r in rows] == names(page)
    # a name is one tap from the player's page
    page.tap("[data-season-standing] tr[data-name='Bob'] th a")
    page.wait_for_selector("h1[data-player]")
    assert page.inner_text("h1[data-player]") == "Bob"
    assert not errors, errors
    context.close()


def test_the_season_page_has_no_axe_violation(season_table, new_context):
    """WCAG 2.1 AA (as tests/browser/test_accessibility.py checks every page), light and dark:
    the standing, and the page refusing a date."""
    from tests.browser.test_accessibility import violations
    base, scorer_link = season_table
    context = new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(scorer_link)
    for path in ("/season", "/season?from=2026-02-30"):
        page.goto(base + path)
        found = violations(page)
        assert found == {"light": [], "dark": []}, (path, found)
        shot(page, "season-axe-" + ("error" if "?" in path else "standing"))
    context.close()
