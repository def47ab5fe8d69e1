"""A stalled, locked or unreachable database makes /healthz answer 503 with the reason,
within its bound, while the rule book and static files, which need no database, still
answer; requests that do need it are bounded by the connect and statement timeouts."""

from __future__ import annotations

import gc
import socket
import sqlite3
import threading
import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from tests.conftest import TEST_DATABASE_URL, close_app, make_app
from tichu_scorer import create_app, health
from tichu_scorer.config import database_url
from tichu_scorer.extensions import db
from tichu_scorer.health import heartbeat

# A connection cancelled by a statement or connect timeout is invalidated by SQLAlchemy and
# dropped by psycopg without an explicit close: a ResourceWarning (also when the garbage
# collector meets it later, in another test of this module), not a leak of the app.
pytestmark = [
    pytest.mark.filterwarnings("ignore:<psycopg.Connection object at 0x[0-9a-f]+> was "
                               "deleted while still open:ResourceWarning"),
    pytest.mark.filterwarnings("ignore:Exception ignored in. <function BaseConnection.__del__"
                               ":pytest.PytestUnraisableExceptionWarning"),
]

BOUND_MS = 400


def fresh(tmp_path, **config):
    """An app whose pages have each been served once: the timings below measure the
    database's hold, not a first request's set-up (templates compiled, files read), which
    alone took over 1.5 s at a load of 20."""
    app = make_app(tmp_path, HEALTH_TIMEOUT_MS=BOUND_MS, **config)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    for path in ("/healthz", "/rules", "/static/app.css"):
        client.get(path).close()
    return app


def timed(client, path):
    started = time.monotonic()
    response = client.get(path)
    return response, time.monotonic() - started


def assert_still_serving(client):
    """The rule book and a static file need no database."""
    for path in ("/rules", "/static/app.css"):
        response, took = timed(client, path)
        response.close()  # a static file is streamed from disk: let it go
        assert response.status_code == 200 and took < 1.5, (path, took)


def test_healthy_means_the_database_took_a_write(tmp_path):
    app = fresh(tmp_path)
    client = app.test_client()
    for _ in range(2):  # the second one updates the row the first one wrote
        r = client.get("/healthz")
        assert r.status_code == 200 and r.get_json() == {"status": "ok", "database": "ok"}
    with app.app_context():
        rows = db.session.execute(db.select(heartbeat)).all()
        db.engine.dispose()
    assert len(rows) == 1


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's write lock; PostgreSQL below")
def test_a_held_sqlite_write_lock_is_reported_busy_within_the_bound(tmp_path):
    app = fresh(tmp_path)
    client = app.test_client()
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        r, took = timed(client, "/healthz")
        assert r.status_code == 503, r.get_json()
        assert r.get_json()["database"] == "busy" and r.get_json()["status"] == "degraded"
        assert took < BOUND_MS / 1000 + 1.5
        assert_still_serving(client)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.get("/healthz").status_code == 200
    with app.app_context():
        db.engine.dispose()


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs PostgreSQL (TEST_DATABASE_URL)")
def test_a_stalled_postgresql_is_reported_within_the_bound(tmp_path):
    app = fresh(tmp_path, DB_STATEMENT_TIMEOUT_MS=500)
    client = app.test_client()
    locker = create_engine(database_url(str(tmp_path)))
    try:
        with locker.connect() as conn:
            conn.execute(text("BEGIN"))
            conn.execute(text("LOCK TABLE heartbeat IN ACCESS EXCLUSIVE MODE"))
            r, took = timed(client, "/healthz")
            assert r.status_code == 503, r.get_json()
            assert r.get_json()["database"] == "timeout"
            assert took < BOUND_MS / 1000 + 1.5
            assert_still_serving(client)
            conn.execute(text("ROLLBACK"))
        assert client.get("/healthz").status_code == 200
        # every statement of a request is bounded too
        with app.app_context():
            started = time.monotonic()
            with pytest.raises(OperationalError, match="statement timeout"):
                db.session.execute(text("SELECT pg_sleep(5)"))
            assert time.monotonic() - started < 2
            db.session.rollback()
            db.engine.dispose()
    finally:
        locker.dispose()
        gc.collect()  # the connection the timeout invalidated is dropped here, not later


@pytest.fixture()
def black_hole():
    """A port that takes connections and never says a word (a stalled database server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        yield s.getsockname()[1]


def test_an_unanswering_database_server_is_reported_within_the_connect_timeout(
        tmp_path, black_hole):
    uri = f"postgresql+psycopg://tichu@127.0.0.1:{black_hole}/tichu"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri,
                      "DB_CONNECT_TIMEOUT": 1, "HEALTH_TIMEOUT_MS": BOUND_MS},
                     instance_path=str(tmp_path / "instance"))
    client = app.test_client()
    r, took = timed(client, "/healthz")
    assert r.status_code == 503 and r.get_json()["database"] in ("timeout", "unreachable")
    assert took < 1 + 1.5, took
    assert_still_serving(client)
    # a page that needs the database answers 503 (try again), not a hang or a 500
    r, took = timed(client, "/matches/kAAAAAAAAAAAAAAAAAAAAA")
    assert r.status_code == 503 and r.headers["Retry-After"] and took < 1 + 1.5


def test_a_write_that_outlived_its_healthz_gives_its_connection_back_before_the_app_closes(
        tmp_path, monkeypatch):
    """/healthz answers within its bound while its write goes on, holding a pooled
    connection. A test's app closed meanwhile waits for that write: disposed at once, the
    connection came back to the pool after it was dropped and stayed open until the
    collector met it, in a later test (a PostgreSQL connection's ResourceWarning, seen in
    test_layout.py in CI: docs/TESTING.md)."""
    app = make_app(tmp_path, tables=True, HEALTH_ANSWER_MS=50)
    holding, release, given_back = threading.Event(), threading.Event(), threading.Event()
    held = []

    def slow_beat(app_) -> None:  # a write the database keeps waiting past the bound
        with app_.app_context(), db.engine.connect() as conn:
            held.append(conn.connection.dbapi_connection)
            holding.set()
            release.wait(10)
        given_back.set()
    monkeypatch.setattr(health, "_beat", slow_beat)
    assert app.test_client().get("/healthz").status_code == 503  # answered before the write
    assert holding.wait(10)
    threading.Timer(0.3, release.set).start()
    close_app(app)
    assert given_back.wait(10)
    import psycopg
    with pytest.raises((sqlite3.ProgrammingError, psycopg.OperationalError), match="closed"):
        held[0].execute("SELECT 1")  # closed with the app, not left open
