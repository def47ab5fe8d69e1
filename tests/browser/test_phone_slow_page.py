"""Lie-fi after a save: the server stored the hand, but the match page it then sends comes
after the service worker's wait (static/js/sw.js, PAGE_TIMEOUT). The phone shows its copy
first, then the page that came, with the hand and the server's "Hand 1 saved.": the page's
reload is that answer. It used to ask the server again, whose answer no longer had the
note (the server gives a one-time note once), so the player never saw the save said."""

from __future__ import annotations

import re
import threading

from benchmarks.harness import controlled
from tests.browser.conftest import browser_app, serving, start_match, until
from tests.browser.test_phone_companion import totals

MATCH_PAGE = re.compile(r"/matches/[\w-]+")  # a key has - and _


def test_a_match_page_that_comes_late_after_a_save_shows_the_save(tmp_path, phone):
    app = browser_app(tmp_path)
    inner = app.wsgi_app
    held, release = [], threading.Event()

    def slow(environ, start_response):
        if (environ["REQUEST_METHOD"] == "GET" and MATCH_PAGE.fullmatch(environ["PATH_INFO"])
                and not environ.get("HTTP_X_TICHU_PREFETCH")):  # not a background copy
            if held == ["armed"]:
                held[0] = "held"
                release.wait(30)  # until the phone shows its copy
        return inner(environ, start_response)
    app.wsgi_app = slow
    with serving(app) as base:
        page = phone
        match_url = start_match(page, base)
        controlled(page)
        page.goto(match_url)  # the page's copy is kept as it comes
        until(page, "async () => Boolean(await caches.match(location.pathname))",
              what="the match page's copy kept")
        page.tap("text=/Add hand \\d+/")
        page.wait_for_selector(".out-buttons:not([hidden])")
        page.tap(".out-btn[data-seat='0']")
        page.tap(".out-btn[data-seat='1']")
        page.tap(".quick button[data-set='75']")
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

