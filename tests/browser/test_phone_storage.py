"""What the phone keeps stays bounded and never hangs a save: the service worker keeps at
most a bound of page copies (fewer referee verdicts), the copy used longest ago going
first; navigations use the navigation preload; the outbox's database gives way to a newer
version opened in another tab, and an outbox that does not answer says so."""

from __future__ import annotations

import pytest

from benchmarks.harness import controlled
from tests.browser.conftest import browser_app, serving, shot, start_match
from tichu_scorer.views import pages

KEYS = """name => caches.open(name).then((c) => c.keys())
  .then((keys) => keys.map((k) => { const u = new URL(k.url); return u.pathname + u.search; }))"""

OPEN = """version => new Promise((resolve) => {
  const req = indexedDB.open("tichu-scorer", version);
  req.onblocked = () => resolve("blocked");
  req.onsuccess = () => { window.__db = req.result; resolve("opened " + req.result.version); };
  req.onerror = () => resolve("error " + req.error.name);
})"""


def kept_copies(page, name: str, expected: list[str]) -> list[str]:
    """The paths kept in the cache `name`, once they are `expected` (the worker stores a
    copy after the page has arrived)."""
    found: list[str] = []
    for _ in range(100):
        found = page.evaluate(KEYS, name)
        if sorted(found) == sorted(expected):
            break
        page.wait_for_timeout(100)
    return found


def test_page_copies_are_bounded_the_least_recently_used_going_first(
        live_server, phone, monkeypatch):
    monkeypatch.setattr(pages, "SW_PAGES_KEPT", 3)
    monkeypatch.setattr(pages, "SW_VERDICTS_KEPT", 2)
    page = phone
    page.goto(live_server + "/")
    controlled(page)
    for path in ("/rules", "/stats", "/join", "/rules", "/referee"):
        page.goto(live_server + path)
    # "/rules" was opened again after "/stats": "/stats" and the start page went
    assert kept_copies(page, "tichu-pages", ["/join", "/rules", "/referee"]) == [
        "/join", "/rules", "/referee"]
    asked = [f"/referee?trick=&play={card}" for card in ("5j", "6j", "7j")]
    for path in asked:
        page.goto(live_server + path)
    assert sorted(kept_copies(page, "tichu-verdicts", asked[1:])) == sorted(asked[1:])
    assert sorted(page.evaluate(KEYS, "tichu-pages")) == ["/join", "/referee", "/rules"]


class Headers:
    """WSGI middleware that remembers the preload header of every page request."""

    def __init__(self, app) -> None:
        self.app = app
        self.seen: list[tuple[str, str]] = []

    def __call__(self, environ, start_response):
        self.seen.append((environ.get("PATH_INFO", ""),
                          environ.get("HTTP_SERVICE_WORKER_NAVIGATION_PRELOAD", "")))
        return self.app(environ, start_response)


@pytest.fixture()
def watched_server(tmp_path):
    app = browser_app(tmp_path)
    app.wsgi_app = watcher = Headers(app.wsgi_app)
    with serving(app) as base:
        yield base, watcher


def test_a_navigation_uses_the_navigation_preload(watched_server, phone):
    base, watcher = watched_server
    page = phone
    page.goto(base + "/")
    controlled(page)
    state = page.evaluate("navigator.serviceWorker.ready"
                          ".then((r) => r.navigationPreload.getState())")
    assert state["enabled"] is True
    watcher.seen.clear()
    page.goto(base + "/rules")
    assert page.is_visible("main h1")
    asked = [preload for path, preload in watcher.seen if path == "/rules"]
    assert asked == ["true"], asked  # asked once, by the preload, not again by the worker
    assert page.errors == []


def outbox(page):
    """`page` once its outbox script has run: a page's text (the hand form's buttons, the
    note that a hand was saved) shows before its deferred scripts have run (seen under load:
    `window.tichuOutbox` not yet there)."""
    page.wait_for_function("() => Boolean(window.tichuOutbox)")
    return page


def test_a_newer_database_in_another_tab_is_not_blocked_and_saving_goes_on(
        live_server, phone):
    page = phone
    start_match(page, live_server)
    page.tap("text=Add hand 1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    outbox(page).evaluate("window.tichuOutbox.all().then(() => true)")  # its connection is open
    other = page.context.new_page()
    other.goto(live_server + "/manifest.webmanifest")  # the same site, without a script
    assert other.evaluate(OPEN, 3) == "opened 3"  # the first tab closed its connection
    page.tap(".out-btn[data-seat='0']")
    page.tap(".out-btn[data-seat='1']")
    page.tap(".quick button[data-set='75']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Hand 1 saved.")
    assert outbox(page).evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    assert page.errors == []


def test_an_outbox_that_does_not_answer_says_so_and_recovers(live_server, phone):
    """An older tab holds the database at version 1 and never lets go: the page's
    connection waits, and the page says so instead of hanging; once the tab lets go, the
    outbox works again."""
    page = phone
    other = page.context.new_page()
    other.goto(live_server + "/manifest.webmanifest")
    assert other.evaluate(OPEN, 1) == "opened 1"
    start_match(page, live_server)
    note = page.locator("#storage-note")
    note.wait_for(timeout=15000)
    assert "did not answer" in note.text_content()
    shot(page, "storage-not-answering")
    other.evaluate("window.__db.close()")
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    assert note.count() == 0
