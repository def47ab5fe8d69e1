"""A phone that opened a match before asks the server for one thing when it opens it again:
the page itself. Styles, scripts and icons come from its copies under hashed URLs."""

from __future__ import annotations

import pytest

from benchmarks.harness import controlled
from tests.browser.conftest import browser_app, serving, start_match


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
    app.wsgi_app = counter
    with serving(app) as base:
        yield base, counter


def settle(page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the outbox and the service worker have had their say


def test_a_repeat_view_of_the_match_page_is_one_request(counted_server, phone):
    base, counter = counted_server
    page = phone
    match_url = start_match(page, base)
    page.goto(match_url)
    controlled(page)
    settle(page)
    page.goto(match_url)  # the copies of the match and its hand form are made now
    settle(page)

    counter.paths.clear()
    seen: list[str] = []
    page.context.on("request", lambda request: seen.append(request.url))
    page.goto(match_url)
    settle(page)
    assert counter.paths == [match_url.removeprefix(base)], (counter.paths, seen)
    assert page.locator("a[data-next-hand]").is_visible()
    assert not page.errors
