"""Two app servers (gunicorn, two workers each) behind one address, sharing the database and
Redis: a client's creation limit holds in total, not per worker or server; behind a proxy
(PROXY_COUNT=1) each client has its own budget, and without one a forged X-Forwarded-For
buys none. A match page built by one server is used by the other (`kept_pages`' shared
store), never for another revision, and a store that fails only costs the build."""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.parse
from contextlib import contextmanager

import pytest
import redis

from benchmarks.harness import Session, free_port, kill, start_gunicorn
from tests.conftest import hand_form, make_app, new_match, post_hand, same_phone
from tests.frozen import redis_server
from tichu_scorer.extensions import db
from tichu_scorer.matches import kept_pages

pytestmark = [
    pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(os.sys.executable)) is None,
                       reason="gunicorn is installed with the app"),
    pytest.mark.skipif(shutil.which("redis-server") is None,
                       reason="redis-server is not installed (apt-get install redis-server; "
                              ".ci/run does): limits shared across servers cannot be tested"),
]

LIMIT = 5
NAMES = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as (url, _process):
        yield url


@contextmanager
def two_servers(tmp_path, redis_url: str, proxies: int):
    """Two gunicorn instances on loopback sharing one database (SQLite file, or PostgreSQL
    with TEST_DATABASE_URL) and one Redis, emptied first."""
    app = make_app(tmp_path)
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    redis.Redis.from_url(redis_url).flushall()
    env = {"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": "servers",
           "REDIS_URL": redis_url, "CREATE_RATE_LIMIT": f"{LIMIT} per hour",
           "PROXY_COUNT": str(proxies), "RATELIMIT_ENABLED": "true"}
    log = tmp_path / "gunicorn.log"
    procs = []
    try:
        for _ in range(2):
            port = free_port()
            procs.append((start_gunicorn(env, port, workers=2, threads=2, log=log), port))
        yield [f"http://127.0.0.1:{port}" for _, port in procs]
    finally:
        for proc, _ in procs:
            kill(proc)


def create(base: str, forwarded_for: str | None = None) -> int:
    """One attempt to start a match, on a fresh connection (so any worker may take it)."""
    phone = Session(base)
    if forwarded_for:
        phone.headers["X-Forwarded-For"] = forwarded_for
    try:
        fields = NAMES | {"csrf_token": phone.token("/matches/new"), "target": "1000"}
        status, _, _ = phone.request("POST", "/matches/new",
                                     urllib.parse.urlencode(fields).encode(),
                                     "application/x-www-form-urlencoded")
        return status
    finally:
        phone.close()


def test_the_limit_holds_across_workers_and_servers_and_ignores_a_forged_address(
        tmp_path, redis_url):
    with two_servers(tmp_path, redis_url, proxies=0) as servers:
        codes = [create(servers[i % 2]) for i in range(LIMIT + 3)]
        assert codes == [303] * LIMIT + [429] * 3
        # no proxy is trusted: a made-up X-Forwarded-For is still the same client
        assert [create(base, "203.0.113.9") for base in servers] == [429, 429]


def test_behind_one_proxy_each_client_has_its_own_budget(tmp_path, redis_url):
    with two_servers(tmp_path, redis_url, proxies=1) as servers:
        first = [create(servers[i % 2], "203.0.113.7") for i in range(LIMIT + 2)]
        assert first == [303] * LIMIT + [429] * 2
        assert [create(base, "203.0.113.8") for base in servers] == [303, 303]
        # the proxy appends the address it saw: only the last one counts
        assert create(servers[0], "198.51.100.1, 203.0.113.7") == 429


MARK = b"<!-- from the shared store -->"
MARKED_TITLE = "Stored, title"


def mark_stored_pages(client: redis.Redis, match: str) -> int:
    """Put MARK in every body the store holds for `match` and MARKED_TITLE as its title (as
    built, with its revision): a page that shows them was read from the store, not built,
    names included."""
    names = client.keys(f"tichu:page:*:{match}:*")
    for name in names:
        revision, _, rest = client.get(name).partition(b"\n")
        title, _, body = rest.partition(b"\n")
        assert json.loads(title) == "Ann, Bob, Cy, Dee"
        client.set(name, revision + b"\n" + json.dumps(MARKED_TITLE).encode() + b"\n"
                   + MARK + body)
    return len(names)


def test_a_page_built_by_one_server_is_used_by_the_other(tmp_path, redis_url):
    client = redis.Redis.from_url(redis_url)
    with two_servers(tmp_path, redis_url, proxies=0) as servers:
        phone = Session(servers[0])
        try:
            path = phone.new_match(["Ann", "Bob", "Cy", "Dee"])
            status, _ = phone.post_form(path + "/hands/new", {
                "csrf_token": phone.token(path + "/hands/new"), "place_1": "1",
                "place_2": "2", "card_a": "50", "number": "1"})
            assert status == 303
            phone.request("GET", path)  # its message shown
            status, first, _ = phone.request("GET", path)
            assert status == 200 and MARK not in first
            assert mark_stored_pages(client, path.rsplit("/", 1)[1]) == 1
            phone.close()  # the same phone, through the other server
            phone.port = urllib.parse.urlsplit(servers[1]).port
            status, page, _ = phone.request("GET", path)
            assert status == 200 and MARK in page
            assert f"<title>{MARKED_TITLE}".encode() in page
            # the body read from the store carries this phone's own token, which works
            token = page.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
            status, _ = phone.post_form(path + "/undo", {"csrf_token": token, "number": "1"})
            assert status == 303
            status, after, _ = phone.request("GET", path)  # a new revision: built again
            assert status == 200 and MARK not in after and b"0 hands played" in after
        finally:
            phone.close()


@pytest.fixture()
def sharing(tmp_path, redis_url):
    """Two app processes on one database that share match pages through Redis."""
    redis.Redis.from_url(redis_url).flushall()
    first = make_app(tmp_path / "a", PAGE_STORE_URI=redis_url)
    second = make_app(tmp_path / "b", PAGE_STORE_URI=redis_url,  # (empties PostgreSQL)
                      SQLALCHEMY_DATABASE_URI=first.config["SQLALCHEMY_DATABASE_URI"])
    with first.app_context():
        db.create_all()
    return first, second


def test_a_stored_page_serves_only_its_own_revision(sharing, redis_url):
    first, second = sharing
    phone = first.test_client()
    url = new_match(phone)
    assert phone.get(url).status_code == 200
    assert mark_stored_pages(redis.Redis.from_url(redis_url), url.rsplit("/", 1)[1]) == 1
    other = same_phone(phone, second)
    assert MARK in other.get(url).data  # read from the store
    # a save through the first process: the second reads the new revision, never the old
    assert post_hand(phone, url, hand_form([0, 1], a=60)).status_code == 303
    page = other.get(url)
    assert MARK not in page.data and b"1 hand played" in page.data


@pytest.mark.parametrize("garbage", [b'"unterminated\n<p>body', b'"a" "b"\n<p>body',
                                     b'["a list"]\n<p>body', b'"Ann"\n\xff\xfe not UTF-8'])
def test_a_stored_value_not_as_written_is_a_miss(sharing, redis_url, garbage):
    """Whatever else sits under a page's key in the store (another writer, a cut value),
    the page is built, never a 500."""
    first, second = sharing
    phone = first.test_client()
    url = new_match(phone)
    assert phone.get(url).status_code == 200
    client = redis.Redis.from_url(redis_url)
    names = client.keys(f"tichu:page:*:{url.rsplit('/', 1)[1]}:*")
    assert len(names) == 1
    revision = client.get(names[0]).partition(b"\n")[0]
    client.set(names[0], revision + b"\n" + garbage)
    page = same_phone(phone, second).get(url)
    assert page.status_code == 200 and b"Add hand 1" in page.data
    assert b"<title>Ann, Bob" in page.data


def test_a_failing_store_only_costs_the_build(tmp_path, caplog):
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    app = make_app(tmp_path, PAGE_STORE_URI=closed)
    with app.app_context():
        db.create_all()
    phone = app.test_client()
    url = new_match(phone)
    page = phone.get(url)
    assert page.status_code == 200 and b"Add hand 1" in page.data
    store = app.extensions["tichu_page_store"]
    assert store.paused_until > time.monotonic() + kept_pages.STORE_PAUSE / 2
    assert "Page store unreachable" in caplog.text
    # while paused the store is not asked (no wait on every page)
    store.client = None  # would fail with AttributeError if asked
    assert post_hand(phone, url, hand_form([0, 1], a=60)).status_code == 303
    assert b"1 hand played" in phone.get(url).data


def test_a_repeat_view_is_answered_by_any_server_only_while_the_page_holds(
        tmp_path, redis_url):
    """The validator one server gave is answered 304 by the other (before Flask: the same
    row read, the same key), and never once a save through the first changed the match."""
    with two_servers(tmp_path, redis_url, proxies=0) as servers:
        phone = Session(servers[0])
        try:
            path = phone.new_match(["Ann", "Bob", "Cy", "Dee"])
            phone.request("GET", path)  # the page's form gave the session its CSRF secret
            status, _, headers = phone.request("GET", path)
            tag = headers["etag"]
            assert status == 200 and tag
            phone.close()
            phone.port = urllib.parse.urlsplit(servers[1]).port
            phone.headers["If-None-Match"] = tag
            status, body, headers = phone.request("GET", path)
            assert (status, body, headers["etag"]) == (304, b"", tag)
            assert "set-cookie" not in headers
            phone.close()
            watching = phone.cookie  # a second phone of this session watches the match
            phone.port = urllib.parse.urlsplit(servers[0]).port
            del phone.headers["If-None-Match"]
            status, _ = phone.post_form(path + "/hands/new", {
                "csrf_token": phone.token(path + "/hands/new"), "place_1": "1",
                "place_2": "2", "card_a": "50", "number": "1"})
            assert status == 303
            phone.close()
            phone.port = urllib.parse.urlsplit(servers[1]).port
            phone.cookie = watching  # its cookie as when the tag was given
            phone.headers["If-None-Match"] = tag
            status, page, _ = phone.request("GET", path)
            assert status == 200 and b"1 hand played" in page
        finally:
            phone.close()
