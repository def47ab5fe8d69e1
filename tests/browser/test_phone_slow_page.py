"""Lie-fi after a save: the server stored the hand, but the match page it then sends comes
after the service worker's wait (static/js/sw.js, PAGE_TIMEOUT). The phone shows its copy
first, then the page that came, with the hand and the server's "Hand 1 saved.": the page's
reload is that answer. It used to ask the server again, whose answer no longer had the
note (the server gives a one-time note once), so the player never saw the save said. The
answer is for that reload only: another tab's page, or a save's, is its own."""

from __future__ import annotations

import re
from contextlib import contextmanager

from benchmarks.harness import controlled
from tests.browser.conftest import held_answers, start_match, until, watched
from tests.browser.test_phone_companion import totals

MATCH_PAGE = re.compile(r"/matches/[\w-]+")  # a key has - and _


@contextmanager
def held_match_page(tmp_path):
    """The app, whose next match page asked for by a page (not a background copy) once
    `held` is armed waits until `release`; yields the base URL, `held` and `release`."""
    held: list[str] = []

    def armed(environ) -> bool:
        if (environ["REQUEST_METHOD"] != "GET" or held != ["armed"]
                or not MATCH_PAGE.fullmatch(environ["PATH_INFO"])
                or environ.get("HTTP_X_TICHU_PREFETCH")):  # not a background copy
            return False
        held[0] = "held"
        return True
    with held_answers(tmp_path, armed) as (base, release):
        yield base, held, release


def kept(page, match_url: str) -> None:
    """The service worker controls `page` and keeps the match page's copy."""
    controlled(page)
    page.goto(match_url)  # the page's copy is kept as it comes
    until(page, "async () => Boolean(await caches.match(location.pathname))",
          what="the match page's copy kept")


def hand_1(page) -> None:
    page.tap("text=/Add hand \\d+/")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")


def test_a_match_page_that_comes_late_after_a_save_shows_the_save(tmp_path, phone):
    with held_match_page(tmp_path) as (base, held, release):
        page = phone
        match_url = start_match(page, base)
        kept(page, match_url)
        hand_1(page)
        held.append("armed")
        try:
            page.tap("button[type=submit]")
            # the save went through; its match page is held: the phone shows its copy
            page.wait_for_url(match_url)
            page.wait_for_selector("[data-live-match]", state="attached", timeout=20000)
            assert held == ["held"] and totals(page) == [0, 0]
        finally:
            release.set()
        page.wait_for_selector("text=Hand 1 saved.", timeout=20000)
        assert totals(page) == [75, 25]
        assert page.errors == []


# A page of the phone that does not reload when told (offline.js never hears it)
DEAF = """navigator.serviceWorker && navigator.serviceWorker.addEventListener("message", (e) => {
  if (e.data && e.data.fresh) { window.toldFresh = true; e.stopImmediatePropagation(); }
});"""


def test_a_late_answer_is_only_for_the_reload_it_asked(tmp_path, phone):
    """Tab A of a phone is shown the match from its copy; the late answer comes, and A
    (busy, say) does not reload. Tab B then saves hand 1: B's page is its own answer, with
    the hand and "Hand 1 saved.", not A's older one (seen by the review)."""
    with held_match_page(tmp_path) as (base, held, release):
        a = phone
        match_url = start_match(a, base)
        kept(a, match_url)
        b = watched(a.context.new_page())
        b.goto(match_url)
        a.add_init_script(DEAF)
        held.append("armed")
        a.goto(match_url)  # held: A shows its copy
        assert held == ["held"]
        release.set()
        until(a, "() => window.toldFresh === true", what="tab A told of the late answer")
        hand_1(b)
        b.tap("button[type=submit]")
        b.wait_for_selector("text=Hand 1 saved.", timeout=20000)
        assert totals(b) == [75, 25]
        assert a.errors == [] and b.errors == []
