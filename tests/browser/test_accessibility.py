"""WCAG 2.1 AA: an automated axe check finds no violation on any page, in the light and the
dark theme; text at 200% still fits. axe-core is vendored in tests/vendor (the pages' CSP is
bypassed only to inject it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core

AXE = (Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js").read_text()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


THEMES = ("light", "dark")


@pytest.fixture()
def a11y_page(new_context):
    context = new_context(**PHONE, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


def violations(page) -> dict[str, list[dict]]:
    """axe's WCAG 2.1 AA violations of the page as loaded, in the light and the dark theme:
    the page is loaded and axe injected once, the colour scheme switched between the runs
    (the themes are CSS media queries only), and only violations are collected."""
    page.evaluate(AXE)
    found = {}
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                               " resultTypes: ['violations']})", TAGS)
        found[theme] = [{"id": v["id"], "help": v["help"],
                         "nodes": [n["target"] for n in v["nodes"]][:3]}
                        for v in result["violations"]]
    return found



def accessible_in_each_language(page, base: str, url: str, ready=None) -> None:
    """The page at `url` in English and in German, light and dark: no axe violation.
    `ready(page)`, where given, runs after each load (a part opened, a part waited for)."""
    for language in ("en", "de"):
        page.context.add_cookies([{"name": "lang", "value": language, "url": base}])
        page.goto(url)
        if ready is not None:
            ready(page)
        assert violations(page) == {theme: [] for theme in THEMES}, language

# Pages that need no match: checked on an empty database, apart from the matches' pages so
# that the two halves can run on two test workers at once.
PAGES = {
    "history (empty)": "/", "stats (empty)": "/stats", "referee": "/referee",
    "referee verdict": "/referee?trick=4j&play=&hand=8s+Kj&wish=8",
    "referee error": "/referee?play=5x", "rules": "/rules", "join": "/join",
    "join error": "/join?code=ZZZZZZ", "offline": "/offline", "not found": "/matches/999",
}


def build_site(page, base) -> dict[str, str]:
    """A match of every kind with a few hands, and the paths of the pages that show them."""
    def start(variant, names, **extra):
        page.goto(f"{base}/matches/new?variant={variant}")
        for seat, name in enumerate(names):
            page.fill(f"#seat_{seat}", name)
        page.tap("button:has-text('Start match')")
        page.wait_for_selector("text=Add hand 1")
        return page.url.replace(base, "")

    four = start("nanking", ["Ann", "Bob", "Cy", "Dee"])
    page.goto(base + four + "/hands/new")
    page.tap("label[for='call_0-1']")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    three = start("threechu", ["Tom", "Uma", "Vic"])
    six = start("tientsin", ["A1", "B1", "A2", "B2", "A3", "B3"])
    for seen, event in enumerate(("start", "grand:1", "dealt", "passed", "tichu:2", "wish::8",
                                  "bomb:3", "out:0"), start=1):  # followed (RULES.md §11)
        page.tap(f"button[name=event][value='{event}']")
        page.wait_for_selector(f"[data-seen][value='{seen}']", state="attached")
    lords = start("seigneur", ["P1", "P2", "P3", "P4", "P5"])
    page.goto(base + lords + "/hands/new")
    for seat in (4, 3, 2, 1):
        page.tap(f".out-btn[data-seat='{seat}']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    code = page.evaluate("fetch(location.pathname + '/share').then(r => r.text())")
    join_code = code.split('data-code="')[1].split('"')[0]
    return {
        "history": "/", "new match": "/matches/new",
        "new threechu": "/matches/new?variant=threechu",
        "new seigneur": "/matches/new?variant=seigneur", "match": four,
        "hand entry": four + "/hands/new", "edit hand": four + "/hands/1/edit",
        "log": four + "/log", "share": four + "/share",
        "share to score": four + "/share?to=score", "board": four + "/board",
        "threechu match": three, "threechu hand": three + "/hands/new",
        "tientsin hand": six + "/hands/new", "tientsin followed": six,
        "tientsin board": six + "/board", "seigneur match": lords,
        "seigneur hand": lords + "/hands/new", "viewer": f"/v/{join_code}", "stats": "/stats",
    }


@pytest.mark.parametrize("part", ["pages", "matches"])
def test_no_axe_violations_on_any_page(live_server, a11y_page, part):
    page = a11y_page
    page.goto(live_server + "/")
    background = {}
    for theme in THEMES:  # the switch of theme takes effect on a loaded page
        page.emulate_media(color_scheme=theme)
        background[theme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background["light"] != background["dark"]
    paths = PAGES if part == "pages" else build_site(page, live_server)
    found = {}
    for name, path in paths.items():
        page.goto(live_server + path)
        page.wait_for_load_state("networkidle")
        found[name] = violations(page)
    bad = {f"{name} ({theme})": v for name, themes in found.items()
           for theme, v in themes.items() if v}
    assert not bad, json.dumps(bad, indent=1)
    assert len(found) == len(paths) >= 10
    assert all(set(themes) == set(THEMES) for themes in found.values())


@pytest.mark.parametrize("path", ["/", "/matches/new", "/referee"])
def test_text_at_200_percent_still_fits(live_server, new_context, path):
    context = new_context(viewport={"width": 720, "height": 1280}, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server + path)
    page.add_style_tag(content="html { font-size: 200% !important; }")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.is_visible("main h1")
    context.close()
