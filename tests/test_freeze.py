"""A frozen database or Redis (every process of it SIGSTOPped, as a frozen VM or a storage
stall would leave it) never freezes the site: behind real gunicorn workers, a request that
needs the database answers 503 with Retry-After within 3 s, /healthz says the database is
unreachable within 1 s, what needs no database (the service worker, static files, the
referee) keeps answering even after many requests piled up, and after SIGCONT everything
answers again by itself. The bounds are the client's (`tichu_scorer/database.py`): the
server's own ones stop with it. Rate limits and the page store in a frozen Redis cost a
request at most their socket timeouts."""

from __future__ import annotations

import os
import re
import shutil
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from benchmarks.harness import Session, start_gunicorn
from tests.conftest import close_app, free_port, make_app, stop_server
from tests.frozen import NO_POSTGRES, NO_REDIS, PG_BIN, postgres, redis_server
from tichu_scorer.extensions import db

pytestmark = [
    pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(os.sys.executable)) is None,
                       reason="gunicorn is installed with the app"),
    # a connection the client gave up is closed by psycopg without `close()`
    pytest.mark.filterwarnings("ignore:<tichu_scorer.database.BoundedConnection object at "
                               "0x[0-9a-f]+> was deleted while still open:ResourceWarning"),
]
needs_postgres = pytest.mark.skipif(PG_BIN is None, reason=NO_POSTGRES)

DB_ANSWER = 3.0  # seconds: a request that needs the database gets its 503 within this
HEALTH_ANSWER = 1.0
NO_DB_ANSWER = 1.2  # a page that needs no database, once the freeze was found
RECOVERY = 8.0  # seconds after SIGCONT: DB_PAUSE_MS (2 s), one try, a loaded machine
REDIS_ANSWER = 2.5  # its socket timeouts (0.5 s, 0.25 s) and the work (redis-py alone: 5 s)
VERDICT = "/referee/verdict?trick=4j&play=&hand=8s+Kj&wish=8"


@pytest.fixture(scope="module")
def frozen_postgres():
    if PG_BIN is None:
        pytest.skip(NO_POSTGRES)
    with postgres() as found:
        yield found


def timed(base: str, method: str, path: str,
          fields: dict[str, str] | None = None) -> tuple[int, float, dict[str, str], bytes]:
    """One request on a connection of its own: (status, seconds, headers, body)."""
    phone = Session(base, timeout=30)
    started = time.monotonic()
    try:
        if fields is None:
            status, body, headers = phone.request(method, path)
        else:
            status, body, headers = phone.request(
                method, path, urllib.parse.urlencode(fields).encode(),
                "application/x-www-form-urlencoded")
    finally:
        phone.close()
    return status, time.monotonic() - started, headers, body


@contextmanager
def server(tmp_path, env: dict[str, str], threads: int = 4):
    port = free_port()
    proc = start_gunicorn({"SECRET_KEY": "freeze", "RATELIMIT_ENABLED": "false",
                           "PAGE_STORE_URI": ""} | env, port, workers=2, threads=threads,
                          log=tmp_path / "gunicorn.log")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def assert_no_db_pages_answer(base: str, within: float) -> float:
    """The longest of their answers (seconds)."""
    longest = 0.0
    for path in ("/sw.js", "/static/app.css", VERDICT):
        status, took, _, body = timed(base, "GET", path)
        assert status == 200 and took < within, (path, status, took)
        longest = max(longest, took)
    assert b"Not legal" in body  # the referee judged
    return longest


@needs_postgres
def test_a_frozen_postgresql_gives_503s_in_time_and_recovers_alone(tmp_path, frozen_postgres):
    """(The times measured are printed: `pytest -rP` shows them.)"""
    url, postmaster = frozen_postgres
    figures: dict[str, float] = {}

    def record_property(name: str, value: float) -> None:
        figures[name] = max(value, figures.get(name, 0.0))
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=url.replace(
        "postgresql://", "postgresql+psycopg://"))
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    with server(tmp_path, {"DATABASE_URL": url}) as base:
        phone = Session(base)
        match = phone.new_match(["Ann", "Bob", "Cy", "Dee"])
        token = phone.token(f"{match}/hands/new")
        cookie = phone.cookie
        phone.close()
        hand = {"csrf_token": token, "place_1": "1", "place_2": "2", "card_a": "50",
                "number": "1"}

        def needs_db(i: int) -> tuple[int, float, dict[str, str], bytes]:
            own = Session(base, timeout=30)
            own.cookie = cookie
            started = time.monotonic()
            try:
                if i % 2:
                    status, _, headers = own.request("GET", match)
                else:
                            status, _, headers = own.request(
                        "POST", f"{match}/hands/new", urllib.parse.urlencode(hand).encode(),
                        "application/x-www-form-urlencoded")
            finally:
                own.close()
            return status, time.monotonic() - started, headers, b""

        with postmaster.frozen():
            status, took, headers, _ = needs_db(1)
            assert status == 503 and int(headers["retry-after"]) > 0 and took < DB_ANSWER, (
                status, took)
            record_property("first_503_s", round(took, 2))
            status, took, _, body = timed(base, "GET", "/healthz")
            assert status == 503 and b'"database":"unreachable"' in body.replace(b" ", b"")
            assert took < HEALTH_ANSWER, took
            record_property("healthz_s", round(took, 2))
            # many at once, while pages that need no database are asked for meanwhile
            with ThreadPoolExecutor(max_workers=24) as pool:
                piled = [pool.submit(needs_db, i) for i in range(20)]
                time.sleep(0.2)  # (only so that the others come after these)
                free = [pool.submit(timed, base, "GET", path)
                        for path in ("/sw.js", "/static/app.css", VERDICT)]
                answers = [f.result() for f in piled]
                others = [f.result() for f in free]
            assert [a[0] for a in answers] == [503] * 20
            assert max(a[1] for a in answers) < DB_ANSWER, [a[1] for a in answers]
            assert all(a[2]["retry-after"] for a in answers)
            assert [o[0] for o in others] == [200] * 3
            assert max(o[1] for o in others) < DB_ANSWER
            record_property("piled_503_max_s", round(max(a[1] for a in answers), 2))
            record_property("no_db_during_pile_max_s", round(max(o[1] for o in others), 2))
            # found frozen: what needs no database answers at once, through the pauses
            for _ in range(2):
                with ThreadPoolExecutor(max_workers=8) as pool:
                    piled = [pool.submit(needs_db, i) for i in range(8)]
                    record_property("no_db_after_s", round(
                        assert_no_db_pages_answer(base, NO_DB_ANSWER), 2))
                    assert all(f.result()[1] < DB_ANSWER for f in piled)
        # continued: every worker answers again by itself within its pause and one try,
        # on fresh connections (one that hung and were used again would fail)
        # A round of 200s may come from one worker alone while the other still waits out a
        # pause that began as the database came back (a connect timed out just after the
        # thaw): 503s are allowed until RECOVERY, none after, and three rounds in a row of
        # 200s (48 requests, spread over both workers) end it.
        thawed = time.monotonic()
        in_a_row = 0
        with ThreadPoolExecutor(max_workers=8) as pool:
            while in_a_row < 3:
                statuses = [a[0] for a in pool.map(needs_db, [1] * 16)]
                if statuses == [200] * 16:
                    in_a_row += 1
                    if in_a_row == 1:
                        record_property("recovered_s", round(time.monotonic() - thawed, 2))
                else:
                    in_a_row = 0
                    assert time.monotonic() - thawed < RECOVERY, (
                        "not recovered after SIGCONT", statuses)
        assert needs_db(0)[0] == 303  # the hand is saved
        status, _, _, body = timed(base, "GET", "/healthz")
        assert status == 200, body
    print("seconds:", figures, "load:", Path("/proc/loadavg").read_text().split()[:3])


@pytest.mark.skipif(shutil.which("redis-server") is None, reason=NO_REDIS)
def test_a_frozen_redis_costs_a_request_at_most_its_socket_timeouts(tmp_path):
    """Rate limits and the page store live in Redis; frozen, each worker counts the limits
    in memory (they still hold, per worker) and builds pages itself, until it is back."""
    app = make_app(tmp_path)
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    with redis_server() as (redis_url, redis), server(tmp_path, {
            "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "REDIS_URL": redis_url,
            "RATELIMIT_ENABLED": "true", "CREATE_RATE_LIMIT": "3 per hour"}) as base:
        phone = Session(base)
        match = phone.new_match(["Ann", "Bob", "Cy", "Dee"])  # one creation counted in Redis
        assert phone.get(match)[0] == 200  # its page kept in Redis
        token = phone.token(f"{match}/hands/new")
        code = re.search(rb'data-code="([^"]+)"', phone.get(f"{match}/share")[1]).group(1)
        shared = f"/v/{code.decode()}"  # the viewer link: its join limits counted in Redis
        assert [phone.get(shared)[0] for _ in range(3)] == [200] * 3  # the last before Flask
        phone.close()

        def step(method: str, path: str, fields: dict[str, str] | None = None) -> int:
            own = Session(base)
            own.cookie = phone.cookie
            started = time.monotonic()
            try:
                body = None if fields is None else urllib.parse.urlencode(
                    fields | {"csrf_token": token}).encode()
                status, _, _ = own.request(method, path, body,
                                           None if body is None else
                                           "application/x-www-form-urlencoded")
            finally:
                own.close()
            took = time.monotonic() - started
            assert took < REDIS_ANSWER, (method, path, status, took)
            return status

        names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])} | {
            "target": "1000"}
        with redis.frozen():
            for number in (1, 2):
                assert step("POST", f"{match}/hands/new", {
                    "place_1": "1", "place_2": "2", "card_a": "50",
                    "number": str(number)}) == 303
                assert step("GET", match) == 200
                assert step("GET", shared) == 200  # before Flask, limits counted in memory
            # the creation limit still holds, counted by each worker (2 workers x 3)
            created = [step("POST", "/matches/new", names) for _ in range(8)]
            # (which worker takes which request is gunicorn's choice: at most 6 get through)
            assert set(created) <= {303, 429} and created.count(303) <= 6, created
        for number in (3, 4):
            assert step("POST", f"{match}/hands/new", {
                "place_1": "1", "place_2": "2", "card_a": "50", "number": str(number)}) == 303
            assert step("GET", match) == 200


@needs_postgres
def test_healthz_answers_within_its_bound_even_when_it_must_connect(tmp_path, frozen_postgres):
    """A fresh process has no pooled connection: libpq waits 2 s at least for a new one,
    /healthz answers before that, and the requests after it are refused at once."""
    url, postmaster = frozen_postgres
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=url.replace(
        "postgresql://", "postgresql+psycopg://"))
    with app.app_context():
        db.create_all()
        db.engine.dispose()  # nothing pooled
    client = app.test_client()
    with postmaster.frozen():
        started = time.monotonic()
        r = client.get("/healthz")
        took = time.monotonic() - started
        assert r.status_code == 503 and r.get_json()["database"] == "unreachable"
        assert took < HEALTH_ANSWER, took
        print(f"healthz with no pooled connection: {took:.2f} s")
        # the write goes on in the background until the connect timeout, then the database
        # is left alone: a request now is refused without waiting
        deadline = time.monotonic() + 5
        while not app.extensions["tichu_breaker"].closed_until:
            assert time.monotonic() < deadline, "the connect timeout did not trip the breaker"
            time.sleep(0.05)
        started = time.monotonic()
        r = client.get("/matches/kAAAAAAAAAAAAAAAAAAAAA")
        assert r.status_code == 503 and r.headers["Retry-After"]
        assert time.monotonic() - started < 1.2  # not the 2 s of a connect
    deadline = time.monotonic() + RECOVERY
    while client.get("/healthz").status_code != 200:
        assert time.monotonic() < deadline, "not recovered after SIGCONT"
        time.sleep(0.05)
    close_app(app)  # once the writes that outlived their /healthz are done


@needs_postgres
def test_a_live_server_is_waited_for_past_the_reply_bound(frozen_postgres):
    """A lock wait longer than the reply bound on a server that is there is not taken for a
    frozen server: the server answers a new socket, so the wait goes on; stopped, it does
    not, and the wait ends at the bound and the probe."""
    import threading

    import psycopg

    from tichu_scorer.database import PROBE_TIMEOUT, BoundedConnection, Unreachable
    url, postmaster = frozen_postgres
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS held (id int PRIMARY KEY)")
        setup.execute("INSERT INTO held VALUES (1) ON CONFLICT DO NOTHING")
    with psycopg.connect(url) as holder, BoundedConnection.connect(url) as waiter:
        waiter.reply_timeout, waiter.busy_timeout = 0.5, 20.0
        holder.execute("SELECT * FROM held FOR UPDATE")
        release = threading.Timer(1.5, holder.rollback)  # three reply bounds later
        release.start()
        try:
            assert waiter.execute("SELECT * FROM held FOR UPDATE").fetchall() == [(1,)]
        finally:
            release.join()
        waiter.rollback()
        with postmaster.frozen():
            started = time.monotonic()
            with pytest.raises(Unreachable):
                waiter.execute("SELECT 1")
            assert time.monotonic() - started < 0.5 + PROBE_TIMEOUT + 1.0


@needs_postgres
def test_a_live_server_is_waited_for_across_many_bounds_then_given_up(frozen_postgres):
    """One round trip may carry many statements (an import's pipeline), each within the
    statement timeout but longer together than the reply and busy bounds: a server that
    answers the probe is asked again and waited for, up to `longest` in all."""
    import psycopg

    from tichu_scorer.database import BoundedConnection, Unreachable
    url, _postmaster = frozen_postgres
    with BoundedConnection.connect(url) as waiter:
        waiter.reply_timeout, waiter.busy_timeout, waiter.longest = 0.3, 0.4, 10.0
        started = time.monotonic()
        assert waiter.execute("SELECT pg_sleep(1.6), 1").fetchone()[1] == 1  # four bounds
        assert time.monotonic() - started >= 1.6
        waiter.rollback()
        waiter.longest = 1.1
        started = time.monotonic()
        with pytest.raises(Unreachable):
            waiter.execute("SELECT pg_sleep(5)")
        assert time.monotonic() - started < 1.1 + 0.4 + 1.0
    with psycopg.connect(url, autocommit=True) as check:  # the server itself is fine
        assert check.execute("SELECT 1").fetchone() == (1,)


@needs_postgres
def test_a_read_before_flask_that_lost_its_connection_drops_the_pool(tmp_path, frozen_postgres):
    """The reads before Flask (the live poll's, a repeat view's: `poll.read`) meet a stopped
    server with the bounds of every other read, and a connection given up there is dropped
    with every one pooled before it, as SQLAlchemy drops the ORM's: none of them is asked
    again (each costing a request the bound once more) once the server is found stopped."""
    import psycopg
    from sqlalchemy import event

    from tichu_scorer.live import poll
    url, postmaster = frozen_postgres
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=url.replace(
        "postgresql://", "postgresql+psycopg://"))
    with app.app_context():
        engine = db.engine
    engine.dispose()
    pooled = [engine.raw_connection() for _ in range(2)]
    for connection in pooled:
        connection.close()  # two pooled connections
    connects: list[int] = []
    frozen: list[int] = []

    def freeze_once(*_args) -> None:  # stopped between the checkout and the statement
        if not frozen:
            frozen.append(1)
            postmaster.freeze()
    event.listen(engine, "connect", lambda *_args: connects.append(1))
    event.listen(engine, "checkout", freeze_once)
    started = time.monotonic()
    try:
        with pytest.raises(psycopg.OperationalError, match="database unreachable"):
            poll.read(engine, "SELECT 1", [])
        assert time.monotonic() - started < DB_ANSWER
    finally:
        postmaster.thaw()
        event.remove(engine, "checkout", freeze_once)
    app.extensions["tichu_breaker"].answered()  # (as after its pause, the server back)
    assert poll.read(engine, "SELECT 1", []) == [(1,)]
    assert connects == [1]  # a new connection: the other one pooled before was dropped
    engine.dispose()
