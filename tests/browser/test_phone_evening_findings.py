"""The evening's smaller findings (issue 36, item 8) on a 360×640 phone: the new match's
Start stays in reach with the house rules unfolded, team B's card points look as tappable
as team A's, and the statistics table fits the screen in German (its Ø column was cut
off). In English on a light phone and in German on a dark one
(test-artifacts/findings-*.png)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, dress, shot, start_match
from tests.browser.test_phone_variants import add_hand

IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight; }"""


@pytest.mark.parametrize("language, theme", LOOKS)
def test_start_in_reach_card_points_tappable_and_stats_fit(live_server, phone, language,
                                                           theme):
    page = phone
    url = start_match(page, live_server)
    add_hand(page, 1, [".out-btn[data-seat='0']", ".out-btn[data-seat='1']"], 70)
    dress(page, live_server, language, theme)
    # house rules of its own: however far they unfold, Start needs no scroll
    page.goto(live_server + "/matches/new")
    page.locator("details.house summary").tap()
    page.locator("label.choice").last.tap()
    start = page.locator("button.start-match")
    assert page.locator(".house-own").is_visible()
    assert start.evaluate(IN_VIEW)
    shot(page, f"findings-new-match-{language}-{theme}")
    # the hand form: B's card points are framed as A's are, and a tap makes B the one set
    page.goto(url + "/hands/new")
    labels = page.locator(".cp-row label")
    styles = labels.evaluate_all("(ls) => ls.map((l) => getComputedStyle(l).borderTopStyle)")
    assert "none" not in styles and all(s in ("dashed", "solid") for s in styles)
    labels.nth(1).tap()
    assert "active" in (labels.nth(1).get_attribute("class") or "")
    shot(page, f"findings-card-points-{language}-{theme}")
    # the statistics as a table: every column on the screen, no sideways scroll
    page.goto(live_server + "/stats?view=table")
    page.wait_for_selector(".stat-table")
    fits = page.locator(".stat-table-wrap").evaluate_all(
        "(ws) => ws.map((w) => w.scrollWidth <= w.clientWidth)")
    assert fits and all(fits)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"findings-stats-{language}-{theme}")
    assert page.errors == []
