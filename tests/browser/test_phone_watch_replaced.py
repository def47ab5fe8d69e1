"""A screen whose watch code was replaced (the table's "Make new links"): it says so, and
that a new code must be scanned, not "Offline" as for a lost network (360×640, English and
light, German and dark; and at a TV's 1280×720)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, browser_app, serving, shot
from tests.conftest import hand_form, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Tournament

SOON = 15000  # ms: a loaded machine may take long
GONE = {"en": "This screen no longer updates: its code was replaced (new links were made). "
              "Scan the new code to watch again.",
        "de": "Dieser Bildschirm wird nicht mehr aktualisiert: Sein Code wurde ersetzt (neue "
              "Links wurden erstellt). Scannt den neuen Code, um weiter zuzuschauen."}
OFFLINE = {"en": "Offline: the standing may be behind.",
           "de": "Offline: der Stand ist vielleicht nicht aktuell."}


def a_table(app, client, kind: str) -> tuple[str, str]:
    """A table with a hand saved (Tonight), or a tournament with its first round drawn (the
    board): its key and watch code."""
    if kind == "tonight":
        post_hand(client, new_match(client), hand_form([0, 1], a=60))
    else:
        made = client.post("/tournaments/new", data={
            "name": "Club cup", "kind": "individual", "pairing": "swiss", "rounds": 2,
            "hands": 2, "entries": "Ann\nBob\nCy\nDee"})
        assert made.status_code == 303
        assert client.post(made.headers["Location"] + "/draw",
                           data={"round": 1}).status_code == 303
    with app.app_context():
        if kind == "tonight":
            group = db.session.execute(db.select(Group)).scalar_one()
        else:
            group = db.session.execute(db.select(Tournament)).scalar_one().group
        return group.key, group.watch_code


@pytest.mark.parametrize("kind", ["tonight", "board"])
@pytest.mark.parametrize("theme, locale", [("light", "en"), ("dark", "de")])
def test_a_screen_whose_code_was_replaced_says_so(tmp_path, new_context, kind, theme,
                                                  locale):
    app = browser_app(tmp_path)
    app.config["WTF_CSRF_ENABLED"] = False  # the scorer's phone: a test client
    client = app.test_client()
    key, code = a_table(app, client, kind)
    with serving(app) as base:
        screen = new_context(**PHONE, color_scheme=theme, locale=locale).new_page()
        screen.goto(f"{base}/w/{code}")
        screen.wait_for_selector("[data-watching]")
        status = "[data-live-status]"
        assert screen.get_attribute(status, "data-offline") == OFFLINE[locale]
        # live: it has asked the server at least once
        screen.wait_for_function(
            "s => /\\d/.test(document.querySelector(s).textContent)", arg=status,
            timeout=SOON)
        assert client.post(f"/tables/{key}/rotate").status_code == 303
        screen.wait_for_selector(f"{status}[role=alert]", timeout=SOON)
        assert screen.inner_text(status) == GONE[locale]
        assert screen.get_attribute(status, "class") == "problem"
        assert screen.evaluate(  # on top, seen before the standing
            "s => document.querySelector('main').firstElementChild"
            " === document.querySelector(s)", status)
        assert screen.locator("[data-watching]").count() == 1  # what it showed stays
        assert screen.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shot(screen, f"watch-replaced-{kind}-{theme}-{locale}")
        # it stays so: no "Offline" over it when the network comes and goes
        screen.context.set_offline(True)
        screen.wait_for_function("() => navigator.onLine === false")
        assert screen.inner_text(status) == GONE[locale]
        screen.context.set_offline(False)
        screen.wait_for_function("() => navigator.onLine === true")
        assert screen.inner_text(status) == GONE[locale]
        screen.set_viewport_size({"width": 1280, "height": 720})  # a club's TV
        shot(screen, f"watch-replaced-{kind}-{theme}-{locale}-tv")
        screen.context.close()
