"""Behind PROXY_COUNT proxies the client is the address the last proxy saw; with none
trusted (the default) X-Forwarded-For is ignored, so a forged one buys no new budget.
(Across workers and servers, with Redis: tests/test_servers.py.)"""

from __future__ import annotations

import http.client
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.harness import Session, start_gunicorn
from tests.conftest import NAMES, free_port, make_app, stop_server
from tichu_scorer.extensions import db

ROOT = Path(__file__).resolve().parent.parent
FORM = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"}


def creations(app, forwarded_for: str, n: int) -> list[int]:
    client = app.test_client()
    return [client.post("/matches/new", data=FORM, headers={
        "X-Forwarded-For": forwarded_for}).status_code for _ in range(n)]


@pytest.mark.parametrize("proxies", [0, 1])
def test_forwarded_for_counts_only_behind_a_trusted_proxy(tmp_path, proxies):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, CREATE_RATE_LIMIT="2 per hour",
                   PROXY_COUNT=proxies, RATELIMIT_STORAGE_URI="memory://")
    with app.app_context():
        db.create_all()
    assert creations(app, "203.0.113.7", 3) == [303, 303, 429]
    other = creations(app, "203.0.113.8", 1)
    assert other == ([303] if proxies else [429])
    # a client naming an address before the proxy's own entry gains nothing
    if proxies:
        assert creations(app, "198.51.100.1, 203.0.113.7", 1) == [429]
    with app.app_context():
        db.engine.dispose()


def gunicorn_on_a_new_database(tmp_path, env: dict[str, str], threads: int):
    """One gunicorn worker with the project's config on a free loopback port, over a new
    database (the test's): the server and its port."""
    app = make_app(tmp_path)
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    port = free_port()
    env = {"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"]} | env
    return start_gunicorn(env, port, workers=1, threads=threads), port


@pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(sys.executable)) is None,
                    reason="gunicorn is installed with the app")
@pytest.mark.parametrize("proxies", [0, 1])
def test_a_client_reaching_the_app_server_directly_names_its_address_only_if_told_to_trust(
        tmp_path, proxies):
    """docs/DEPLOY.md's warning, over a real socket: with PROXY_COUNT=1 a client that talks
    to gunicorn's port itself (no proxy in between) picks the address it is counted by
    with X-Forwarded-For, a fresh budget each time; with the default it cannot."""
    server, port = gunicorn_on_a_new_database(
        tmp_path, {"SECRET_KEY": "direct", "PROXY_COUNT": str(proxies),
                   "RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": "memory://",
                   "REDIS_URL": "", "JOIN_RATE_LIMIT": "2 per minute"}, threads=2)
    try:
        client = Session(f"http://127.0.0.1:{port}")
        tries = []
        for n in range(5):
            client.headers["X-Forwarded-For"] = f"203.0.113.{n + 1}"
            tries.append(client.get(f"/join?code=ZZZZ{n:04d}")[0])
        client.close()
    finally:
        stop_server(server)
    assert tries == ([404] * 5 if proxies else [404, 404, 429, 429, 429])


def test_the_app_server_listens_on_loopback_unless_told_otherwise(monkeypatch):
    """What docs/DEPLOY.md asks for behind a proxy on the same host is the default."""
    monkeypatch.delenv("BIND", raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["bind"].startswith("127.0.0.1:")
    deploy = (ROOT / "docs" / "DEPLOY.md").read_text()
    assert "## Behind a reverse proxy" in deploy and "PROXY_COUNT" in deploy


@pytest.mark.skipif(shutil.which("caddy") is None,
                    reason="no caddy: apt-get install caddy (.ci/run does)")
@pytest.mark.parametrize("name, site, internal", [("Caddyfile", "tichu.example", False),
                                                  ("Caddyfile.home", "192.168.1.20", True)])
def test_the_sample_caddyfiles_are_valid_and_proxy_to_make_serve(name, site, internal):
    """docs/DEPLOY.md's recipes: Caddy reads each sample as it is, and sends the site to
    gunicorn's default address (127.0.0.1:8000); the home one with Caddy's own CA."""
    adapted = subprocess.run(["caddy", "adapt", "--adapter", "caddyfile", "--config",
                              str(ROOT / "deploy" / name)], capture_output=True, text=True,
                             check=True, env=os.environ | {"HOME": "/nonexistent"})
    config = json.loads(adapted.stdout)
    servers = config["apps"]["http"]["servers"]
    text = json.dumps(servers)
    assert '"dial": "127.0.0.1:8000"' in text and f'"host": ["{site}"]' in text
    # the live pages' streams go to the live process, never buffered
    assert '"path": ["/live/s/*"]' in text and '"dial": "127.0.0.1:8001"' in text
    assert '"flush_interval": -1' in text
    assert ('"module": "internal"' in json.dumps(config["apps"].get("tls", {}))) == internal
    assert '"logs"' not in text  # no access log keeping scorer keys (see the sample)
    deploy = (ROOT / "docs" / "DEPLOY.md").read_text()
    assert f"deploy/{name}" in deploy


@pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(sys.executable)) is None,
                    reason="gunicorn is installed with the app")
def test_gunicorn_runs_the_live_process_beside_itself_and_stops_it(tmp_path):
    """`make serve` (LIVE_BIND): gunicorn's master starts the live process, which holds a
    page's stream on the path the page names, and stops it with itself."""
    live_port = free_port()
    server, port = gunicorn_on_a_new_database(
        tmp_path, {"SECRET_KEY": "beside", "LIVE_BIND": f"127.0.0.1:{live_port}",
                   "REDIS_URL": "", "RATELIMIT_STORAGE_URI": "memory://"}, threads=2)
    try:
        phone = Session(f"http://127.0.0.1:{port}")
        page = phone.get(phone.new_match(["Ann", "Bob", "Cy", "Dee"]))[1].decode()
        phone.close()
        path, tag = re.search(r'data-live="([^"]+)" data-live-tag="([^"]+)"', page).groups()
        deadline = time.monotonic() + 60  # the live process starts beside the workers
        while True:
            try:
                stream = http.client.HTTPConnection("127.0.0.1", live_port, timeout=10)
                stream.request("GET", path.replace("/live/", "/live/s/", 1) + f"?tag={tag}")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        answer = stream.getresponse()
        assert answer.status == 200
        assert answer.getheader("Content-Type").startswith("text/event-stream")
        assert answer.readline() == b"retry: 2000\n" and answer.readline() == b"event: hello\n"
        stream.close()
        live = [int(p) for p in subprocess.run(["pgrep", "-f", "tichu_scorer.live.stream", "-P",
                                                str(server.pid)], capture_output=True,
                                               text=True, check=False).stdout.split()]
        assert len(live) == 1
    finally:
        stop_server(server)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{live[0]}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{live[0]}"), "the live process outlived gunicorn"
