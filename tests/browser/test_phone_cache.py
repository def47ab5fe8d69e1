"""A phone that opened a match before asks the server for one thing when it opens it again:
the page itself. Styles, scripts and icons come from its copies under hashed URLs."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from benchmarks.harness import controlled
from tests.browser.conftest import browser_app, serving, start_match, until

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core


class Counted:
    """WSGI middleware that remembers every path the server was asked for."""

    def __init__(self, app) -> None:
        self.app = app
        self.paths: list[str] = []

    def __call__(self, environ, start_response):
        self.paths.append(environ.get("PATH_INFO", ""))
        return self.app(environ, start_response)


@pytest.fixture()
def counted_server(tmp_path):
    app = browser_app(tmp_path)
    counter = Counted(app.wsgi_app)
    counter.flask_app = app
    app.wsgi_app = counter
    with serving(app) as base:
        yield base, counter


# The service worker's last answer to ready.js of what it keeps of the core (tichu:kept).
KEPT = """document.addEventListener("tichu:kept", (e) => { window.__kept = e.detail; });"""
# The match page's copies (offline.js) and the whole core (ready.js) kept by the service
# worker, as it last told ready.js once done; a page that names no core asks for none.
KEEPS = """async () => {
  const live = document.querySelector("[data-live-match][data-scorer]");
  const copies = [location.pathname, live && live.dataset.handUrl];
  if (!live || !(await Promise.all(copies.map((u) => caches.match(u)))).every(Boolean))
    return false;
  const kept = window.__kept;
  return !document.querySelector("[data-core]")
    || Boolean(kept && kept.done && kept.kept === kept.total);
}"""


def settle(page, counter) -> None:
    """The page loaded and what its load set off done: the service worker keeps the
    match's copies and the core, and live.js asked its first question since the page was
    asked for (the outbox, the copies and the core are seen to before it)."""
    page.wait_for_load_state("networkidle")
    until(page, KEEPS, what="the match's copies and the core kept")
    path = urlsplit(page.url).path
    for _ in range(200):
        paths = list(counter.paths)
        if path in paths and any(asked.startswith("/live/") for asked
                                 in paths[len(paths) - paths[::-1].index(path):]):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"live.js asked nothing after the page: {counter.paths}")


def test_a_repeat_view_of_the_match_page_is_one_request(counted_server, phone):
    base, counter = counted_server
    page = phone
    page.add_init_script(KEPT)
    match_url = start_match(page, base)
    page.goto(match_url)
    controlled(page)
    settle(page, counter)
    page.goto(match_url)  # the copies of the match and its hand form are made now
    settle(page, counter)

    counter.paths.clear()
    seen: list[str] = []
    page.context.on("request", lambda request: seen.append(request.url))
    page.goto(match_url)
    settle(page, counter)
    # the page, and besides it only live.js's questions whether it changed (its stream,
    # refused here with no live process, then a poll every 1.5 s): those of the page before
    # may still arrive after the count began, so they are told apart by path, not by order
    asked = [path for path in counter.paths if not path.startswith("/live/")]
    assert asked == [match_url.removeprefix(base)], (counter.paths, seen)
    after = counter.paths[counter.paths.index(asked[0]) + 1:]
    assert after and all(path.startswith("/live/") for path in after), counter.paths
    assert page.locator("a[data-next-hand]").is_visible()
    assert not page.errors


def test_a_deploy_replaces_the_static_cache_and_keeps_the_match_for_offline(
        counted_server, phone, monkeypatch):
    from dataclasses import replace

    from tichu_scorer.views import pages

    base, counter = counted_server
    app = counter.flask_app
    monkeypatch.setattr(pages, "SW_MAX_AGE", 0)  # the phone looks for a new worker at once
    page = phone
    page.add_init_script(KEPT)
    match_url = start_match(page, base)
    page.goto(match_url)
    controlled(page)
    settle(page, counter)
    caches = "caches.keys()"
    before = app.extensions["tichu_assets"]
    assert f"tichu-{before.version}-static" in page.evaluate(caches)

    # a deploy that changes app.css: a new hash for it, a new version for the worker
    deployed = replace(before, version="0123456789ab",
                       hashes=before.hashes | {"app.css": "ba9876543210"})
    app.extensions["tichu_assets"] = deployed
    page.goto(match_url)
    settle(page, counter)
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    after = {"tichu-pages", "tichu-0123456789ab-static"}  # the old static cache is gone
    kept = {"tichu-core"}  # the phone's copy of the core (if fetched yet) outlives a deploy
    for _ in range(100):
        if set(page.evaluate(caches)) - kept == after:
            break
        page.wait_for_timeout(100)
    assert set(page.evaluate(caches)) - kept == after
    page.goto(match_url)
    settle(page, counter)
    assert "app.css?v=ba9876543210" in page.content()

    # no signal: the match still opens, styled by the CSS its HTML names
    page.context.set_offline(True)
    page.goto(match_url)
    page.wait_for_selector("a[data-next-hand]")
    assert "app.css?v=ba9876543210" in page.content()
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 10
