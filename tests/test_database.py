"""The breaker that leaves a database alone after it did not answer in time (`database`),
on a clock the test moves: refused during the pause, then one request at a time tries, a
request meanwhile waits for that try's outcome, and an answer lets every request in."""

from __future__ import annotations

import threading

from tests.conftest import free_port
from tichu_scorer import create_app
from tichu_scorer.database import Breaker, Unreachable
from tichu_scorer.health import state_of


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_closed_breaker_lets_every_request_in():
    breaker = Breaker(pause=2, clock=Clock())
    assert all(breaker.allow(bound=2) for _ in range(5))
    breaker.answered()
    assert breaker.allow(bound=2)


def test_a_tripped_breaker_refuses_for_its_pause_then_one_request_tries():
    clock = Clock()
    breaker = Breaker(pause=2, patience=0, clock=clock)
    breaker.trip()
    assert not breaker.allow(bound=1)
    clock.now += 1.9
    assert not breaker.allow(bound=1)
    clock.now += 0.2
    assert breaker.allow(bound=1)  # the one that tries
    assert not breaker.allow(bound=1)  # meanwhile: refused (no patience here)
    clock.now += 1.1  # the try outlived its bound without an outcome: another may try
    assert breaker.allow(bound=1)
    breaker.trip()  # it failed: a new pause
    assert not breaker.allow(bound=1)
    clock.now += 2.1
    assert breaker.allow(bound=1)
    breaker.answered()
    assert all(breaker.allow(bound=1) for _ in range(3))


def test_a_request_during_a_try_waits_for_its_outcome():
    clock = Clock()
    breaker = Breaker(pause=2, patience=30, clock=clock)
    breaker.trip()
    clock.now += 3
    assert breaker.allow(bound=5)  # trying
    outcome: list[bool] = []
    waiting = threading.Thread(target=lambda: outcome.append(breaker.allow(bound=5)))
    waiting.start()
    while waiting.is_alive() and not breaker.changed._waiters:  # type: ignore[attr-defined]
        waiting.join(0.01)
    breaker.answered()
    waiting.join(5)
    assert outcome == [True]


def test_a_failure_older_than_the_last_answer_trips_nothing():
    """A connection attempt made while the database was frozen times out after it came
    back and another request was answered: the database is not left alone again."""
    clock = Clock()
    breaker = Breaker(pause=2, patience=0, clock=clock)
    frozen_attempt = clock()
    clock.now += 1.5
    breaker.answered()  # (thawed) another request got its answer
    clock.now += 0.5
    breaker.trip(frozen_attempt)  # the attempt's connect timeout, now
    assert breaker.allow(bound=1)
    breaker.trip(clock())  # a wait that began after the answer still trips it
    assert not breaker.allow(bound=1)


def test_a_refusal_reads_as_unreachable():
    refusal = Breaker(pause=2).refusal()
    assert isinstance(refusal, Unreachable)
    assert state_of(refusal) == "unreachable"


def test_a_database_that_refuses_connections_is_a_503_not_a_500(tmp_path):
    """A stopped database server (nothing listens): a passing outage, 503 with Retry-After."""
    uri = f"postgresql+psycopg://tichu@127.0.0.1:{free_port()}/tichu"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri},
                     instance_path=str(tmp_path / "instance"))
    r = app.test_client().get("/matches/kAAAAAAAAAAAAAAAAAAAAA")
    assert r.status_code == 503 and r.headers["Retry-After"]
    assert "nothing was saved" in r.get_data(as_text=True)


def test_a_forked_worker_opens_its_own_connections(tmp_path):
    """gunicorn makes the app once and forks its workers from it (`preload_app`): a worker
    never uses a connection the parent pooled (one socket, two processes' statements mixed);
    it opens its own, and the parent's stays the parent's."""
    import os

    from sqlalchemy import text

    from tests.conftest import make_app
    from tichu_scorer.extensions import db

    app = make_app(tmp_path, tables=True)
    with app.app_context():
        with db.engine.connect() as conn:  # pooled in the parent once given back
            parent = conn.connection.dbapi_connection
        assert db.engine.pool.checkedin() == 1
        child = os.fork()
        if child == 0:  # the worker: the parent's pool is not its own
            try:
                fresh = db.engine.pool.checkedin() == 0
                with db.engine.connect() as conn:
                    ours = conn.connection.dbapi_connection is not parent
                    works = conn.execute(text("SELECT 1")).scalar_one() == 1
                os._exit(0 if fresh and ours and works else 1)
            finally:
                os._exit(2)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        with db.engine.connect() as conn:  # the parent's, still open and its own
            assert conn.connection.dbapi_connection is parent
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
