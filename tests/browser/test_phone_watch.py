"""Watch codes at the phone (360×640; English and light, German and dark): the director
opens "Show on a screen" on the tournament page; a screen that never joined (a fresh
browser, no cookie) types its code at /join and shows the board; a hand saved at a table
appears on it without a reload. The same for a table's Tonight."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, shot, start_match, start_tournament

SOON = 10000  # ms: a loaded machine may take long
NO_WIDER = "document.documentElement.scrollWidth <= window.innerWidth"


def enter_a_hand(page) -> None:
    """Hand 1 through the ordinary flow: seat 0 out first, seat 1 second, 60 : 40."""
    page.tap("a[data-next-hand]")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='60']")
    page.tap("button[type=submit]")
    page.wait_for_selector("[data-total]")
    page.wait_for_function("() => !location.pathname.endsWith('/hands/new')")


def code_shown(page) -> str:
    page.tap("[data-watch-code] summary")
    page.wait_for_selector("[data-watch-code] .qr-box svg")
    return page.get_attribute("[data-watch-code] [data-code]", "data-code")


def open_on_a_screen(new_context, base, code, theme, locale):
    """A screen that never joined: a fresh context, no cookie; the code typed at /join."""
    screen = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
    assert screen.context.cookies() == []
    screen.goto(base + "/join")
    screen.fill("input[name=code]", code.lower()[:4] + " " + code.lower()[4:])
    screen.press("input[name=code]", "Enter")
    screen.wait_for_selector("[data-watching]")
    assert screen.url.endswith("/w/" + code)
    screen.evaluate("() => { window.keptFromTheStart = true; }")  # gone on a reload
    return screen


@pytest.mark.every_database
@pytest.mark.parametrize("theme, locale", [("light", "en"), ("dark", "de")])
def test_a_screen_opens_the_board_by_its_code_and_follows_it(live_server, new_context,
                                                              theme, locale):
    director = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
    start_tournament(director, live_server, ["Ann", "Bob", "Cy", "Dee"], rounds=2, hands=2)
    director.wait_for_selector("[data-board='1']")
    code = code_shown(director)
    assert director.evaluate(NO_WIDER)
    director.locator("[data-watch-code]").scroll_into_view_if_needed()
    shot(director, f"watch-code-tournament-{theme}-{locale}")
    tournament = director.url
    screen = open_on_a_screen(new_context, live_server, code, theme, locale)
    assert screen.locator("[data-standing] tbody tr").count() == 4
    assert screen.locator("a.match-item").count() == 0  # nothing it may not open
    assert screen.evaluate(NO_WIDER)
    # a hand saved at the table (the director's phone scores it)
    director.tap("[data-board='1'] a.match-item")
    director.wait_for_selector("[data-total]")
    enter_a_hand(director)
    screen.wait_for_function(
        "() => /1\\D+2/.test(document.querySelector('[data-board=\"1\"] .meta').textContent)"
        " && window.keptFromTheStart", timeout=SOON)
    points = screen.locator("[data-standing] tbody tr").first.locator("td").nth(2)
    assert points.inner_text().strip() == "60"
    shot(screen, f"watch-board-{theme}-{locale}")
    # the screen opens nothing else: the tournament itself is "not found"
    assert screen.goto(tournament).status == 404
    screen.context.close()
    director.context.close()


@pytest.mark.parametrize("theme, locale", [("light", "en"), ("dark", "de")])
def test_a_screen_opens_tonight_by_its_code_and_follows_it(live_server, new_context,
                                                           theme, locale):
    scorer = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
    match = start_match(scorer, live_server) if locale == "en" else None
    if match is None:  # the form in German: the button's words differ
        scorer.goto(live_server + "/matches/new")
        for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
            scorer.fill(f"#seat_{seat}", name)
        scorer.tap("form button[type=submit].primary")
        scorer.wait_for_selector("a[data-next-hand]")
        match = scorer.url
    scorer.tap("details.menu summary")  # More → Tonight
    scorer.tap("details.menu a[href$='/tonight']")
    scorer.wait_for_selector("[data-watch-code]")
    code = code_shown(scorer)
    assert scorer.evaluate(NO_WIDER)
    shot(scorer, f"watch-code-tonight-{theme}-{locale}")
    screen = open_on_a_screen(new_context, live_server, code, theme, locale)
    assert screen.locator("[data-watch-matches] li").count() == 1
    assert screen.locator("a.match-item").count() == 0  # nothing it may not open
    ann = "[data-tonight=players] tr[data-name=Ann] td:last-child"
    assert screen.inner_text(ann) == "0"
    scorer.goto(match)
    enter_a_hand(scorer)
    screen.wait_for_function(
        "s => document.querySelector(s)?.textContent === '60' && window.keptFromTheStart",
        arg=ann, timeout=SOON)
    assert screen.evaluate(NO_WIDER)
    shot(screen, f"watch-tonight-{theme}-{locale}")
    screen.context.close()
    scorer.context.close()


def test_the_watch_pages_have_no_axe_violation(tmp_path, new_context):
    """WCAG 2.1 AA, light and dark: Tonight with its watch code open, and Tonight on the
    screen."""
    from tests.browser.conftest import browser_app, serving
    from tests.browser.test_accessibility import violations
    from tests.conftest import hand_form, new_match, post_hand
    from tichu_scorer.extensions import db
    from tichu_scorer.models import Group
    app = browser_app(tmp_path)
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    post_hand(client, new_match(client), hand_form([0, 1], a=60))
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        key, scorer_key, code = group.key, group.scorer_key, group.watch_code
    with serving(app) as base:
        context = new_context(**PHONE, bypass_csp=True)
        page = context.new_page()
        page.goto(f"{base}/join?key={scorer_key}")
        page.goto(f"{base}/tables/{key}/tonight")
        page.tap("[data-watch-code] summary")
        assert violations(page) == {"light": [], "dark": []}
        screen = new_context(**PHONE, bypass_csp=True).new_page()
        screen.goto(f"{base}/w/{code}")
        assert violations(screen) == {"light": [], "dark": []}
        screen.context.close()
        context.close()
