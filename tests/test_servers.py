"""Two app servers (gunicorn, two workers each) behind one address, sharing the database and
Redis: a client's creation limit holds in total, not per worker or server; behind a proxy
(PROXY_COUNT=1) each client has its own budget, and without one a forged X-Forwarded-For
buys none."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.parse
from contextlib import contextmanager

import pytest
import redis

from benchmarks.harness import Session, free_port, kill, start_gunicorn
from tests.conftest import make_app
from tichu_scorer.extensions import db

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
def redis_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, start_new_session=True)
    client = redis.Redis(host="127.0.0.1", port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline or proc.poll() is not None:
                kill(proc)
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    client.close()
    kill(proc)


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
