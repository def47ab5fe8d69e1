"""Client-side bounds on every wait for PostgreSQL, so that a database that stops answering
(a frozen VM, a storage stall, a SIGSTOPped server) costs a request a bounded wait and then
a 503, never a hung worker.

The server's own bounds (statement and lock timeouts) are enforced by the part that
stopped, and TCP's (`tcp_user_timeout`, keepalives) fire only when the far kernel stops
acknowledging, which a stopped process on a live host never does. So the client bounds
each wait itself:

- every round trip on a connection (a statement, a commit, a rollback) waits
  `DB_REPLY_TIMEOUT_MS` for the answer; past it the server is asked on a new socket whether
  it is there (`PROBE_TIMEOUT`): if not, the connection is closed (SQLAlchemy then
  discards it and every connection pooled before it, so none is reused broken); if it is
  (a lock wait, a slow statement), the wait goes on until its statement timeout and 1 s;
- a new connection waits at most `DB_CONNECT_TIMEOUT` seconds (libpq's minimum is 2);
- a request waits at most `DB_POOL_TIMEOUT` seconds for a pooled connection;
- a database that did not answer in time is left alone for `DB_PAUSE_MS` (the `Breaker`):
  meanwhile each request that needs it fails at once instead of waiting the bound again, so
  that waiting requests never fill every worker thread and pages that need no database
  keep answering. After the pause one request at a time tries it again.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import threading
import time
import weakref
from contextlib import suppress
from typing import Any, NoReturn

import psycopg
from psycopg.errors import _WaitTimeout  # what `Connection.wait` raises past its timeout
from sqlalchemy import event
from sqlalchemy.engine import Engine

from .extensions import db

log = logging.getLogger(__name__)

UNREACHABLE = "database unreachable"  # health.state_of reads failures with these words
PROBE_TIMEOUT = 0.5  # seconds a server asked whether it is there may take to answer
SSL_REQUEST = struct.pack("!ii", 8, 80877103)  # the protocol's first message, 8 bytes


class Unreachable(psycopg.OperationalError):
    """The database did not answer within a client-side bound, or was left alone after
    it did not (`Breaker`)."""


class Breaker:
    """Whether the database may be asked now. Tripped when it failed to answer in time:
    for `pause` seconds every request is refused at once; then one request at a time tries
    it (its wait bounded as any other), and a request that comes meanwhile waits up to
    `patience` for that try's outcome, so that the requests of the moment a database comes
    back are not refused for the one that found it back. A failure of a wait that began
    before the database last answered is old news (a connection attempt made while it was
    frozen, timing out after it was back) and trips nothing."""

    def __init__(self, pause: float, patience: float = 0.5,
                 clock: Any = time.monotonic) -> None:
        self.pause = pause
        self.patience = patience
        self.clock = clock
        self.changed = threading.Condition()
        self.closed_until = 0.0  # no request before this moment
        self.trying_until = 0.0  # one request is trying the database until this moment
        self.answered_at = float("-inf")  # when it last answered

    def allow(self, bound: float) -> bool:
        """May a request ask the database now (`bound`: how long it may wait at most)?"""
        with self.changed:
            now = self.clock()
            if self.trying_until > now:
                self.changed.wait(min(self.patience, self.trying_until - now))
                now = self.clock()
            if not self.closed_until:
                return True
            if now < self.closed_until or now < self.trying_until:
                return False
            self.trying_until = now + bound  # this request is the one that tries
            return True

    def trip(self, began: float | None = None) -> None:
        """A wait that began at `began` (this clock) got no answer in time."""
        with self.changed:
            if began is not None and self.answered_at >= began:
                return  # it answered another request since: this failure is older news
            self.closed_until = self.clock() + self.pause
            self.trying_until = 0.0
            self.changed.notify_all()

    def answered(self) -> None:
        """The database answered: every request may ask it again."""
        self.answered_at = self.clock()
        if self.closed_until:  # (no lock on the common path: nothing was tripped)
            with self.changed:
                self.closed_until = self.trying_until = 0.0
                self.changed.notify_all()

    def holding_off(self) -> bool:
        """Did a wait fail with no answer since (the pause, or one request trying)? Code
        that may leave a request to another path (`matches.repeat_views`) leaves it then,
        rather than wait here twice."""
        return bool(self.closed_until)

    def refusal(self) -> Unreachable:
        return Unreachable(f"{UNREACHABLE}: it did not answer in time and is left alone "
                           f"for {self.pause:g} s")


class BoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection whose every wait for the server is bounded: past
    `reply_timeout` the server is asked on a new socket whether it is there at all
    (`server_answers`); a stopped one is given up at once, a live one (a lock wait, a slow
    statement) is asked again every `busy_timeout` (by when a single statement's own
    timeout has ended it), up to `longest` in all."""

    reply_timeout: float = 1.5
    busy_timeout: float = 6.0
    longest: float = 20.0  # seconds a live server's reply is waited for at most
    breaker: Breaker | None = None

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        if timeout is not None:  # psycopg's own bounded waits (cancelling) stay as they are
            return super().wait(gen, interval=interval, timeout=timeout)
        began = self.breaker.clock() if self.breaker is not None else 0.0
        try:
            result = super().wait(gen, interval=interval, timeout=self.reply_timeout)
        except _WaitTimeout:
            # A live server is waited for while it answers the probe: one round trip may
            # carry many statements (a pipeline, an import's executemany), each within its
            # own statement timeout; `longest` bounds the whole wait below gunicorn's
            # worker timeout.
            waited = self.reply_timeout
            while True:
                if not self.server_answers():
                    self.give_up(waited, began)
                try:  # the generator goes on where it waited (it yields its wait again)
                    result = super().wait(gen, interval=interval, timeout=self.busy_timeout)
                    break
                except _WaitTimeout:
                    waited += self.busy_timeout
                    if waited >= self.longest:
                        self.give_up(waited, began)
        if self.breaker is not None:
            self.breaker.answered()
        return result

    def give_up(self, waited: float, began: float) -> NoReturn:
        # The server may answer this request later: the connection is closed, so that
        # nothing reads that answer as another one's (SQLAlchemy discards it)
        self.pgconn.finish()
        if self.breaker is not None:
            self.breaker.trip(began)
        raise Unreachable(f"{UNREACHABLE}: no answer within {waited * 1000:.0f} ms") from None

    def server_answers(self, within: float = PROBE_TIMEOUT) -> bool:
        """Does the server accept a new connection and answer its first message (an
        SSLRequest, which a live postmaster answers at once) within `within` seconds?"""
        host, port = self.info.hostaddr or self.info.host, int(self.info.port)
        family, address = ((socket.AF_UNIX, f"{host}/.s.PGSQL.{port}") if host.startswith("/")
                           else (socket.AF_INET6 if ":" in host else socket.AF_INET,
                                 (host, port)))
        try:
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.settimeout(within)
                probe.connect(address)
                probe.sendall(SSL_REQUEST)
                return probe.recv(1) in (b"S", b"N")
        except OSError:
            return False


def client_options(config: Any) -> dict[str, Any]:
    """libpq options for a connection to PostgreSQL: TCP's own bounds, which hold where the
    server's host stops acknowledging (a host gone or a network cut), not where only the
    server stopped (see the module's docstring), and the server-side bounds."""
    return {"connect_timeout": int(config["DB_CONNECT_TIMEOUT"]),
            # unacknowledged data for this long ends the connection (milliseconds)
            "tcp_user_timeout": int(config["DB_TCP_USER_TIMEOUT_MS"]),
            # an idle pooled connection to a host gone is found within 5 + 3 * 1 s
            "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 1,
            "keepalives_count": 3,
            "options": f"-c statement_timeout={int(config['DB_STATEMENT_TIMEOUT_MS'])}"}


def bound(engine: Engine, config: Any) -> Breaker:
    """Bound every wait of `engine` (PostgreSQL through psycopg) as the module says."""
    breaker = Breaker(int(config["DB_PAUSE_MS"]) / 1000)
    reply = int(config["DB_REPLY_TIMEOUT_MS"]) / 1000
    connect = max(int(config["DB_CONNECT_TIMEOUT"]), 2)

    @event.listens_for(engine, "do_connect")
    def connect_bounded(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        if not breaker.allow(connect):
            raise breaker.refusal()
        began = breaker.clock()
        try:
            conn = BoundedConnection.connect(*cargs, **cparams)
        except psycopg.errors.ConnectionTimeout:
            breaker.trip(began)
            raise
        conn.reply_timeout = reply
        conn.busy_timeout = int(config["DB_STATEMENT_TIMEOUT_MS"]) / 1000 + 1 - reply
        conn.breaker = breaker
        breaker.answered()
        return conn

    @event.listens_for(engine, "checkout")
    def checkout(_dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if not breaker.allow(reply):
            raise breaker.refusal()

    return breaker


def end_session(_error: BaseException | None = None) -> None:
    """End the request's database session, also when its connection died under it (a
    PostgreSQL restart between the answer and the end of the request): closing rolls back
    on that connection, which then raises out of the request's teardown, and the worker
    would answer 500 for a request already answered. The dead connection is dropped
    instead; Flask-SQLAlchemy's own teardown, run after this one, finds nothing left."""
    try:
        db.session.remove()
    except Exception:  # noqa: BLE001  # the connection is gone: the pool must not keep it
        log.warning("Database connection lost at the end of a request", exc_info=True)
        with suppress(Exception):  # nothing more can be done with it
            db.session().invalidate()
        db.session.registry.clear()


# Engines whose pooled connections a forked child must not use: gunicorn makes the app once
# and forks its workers from it (`preload_app`), and a socket two processes share mixes their
# statements. Held weakly: a test's app and its engine go when nothing uses them.
_PER_PROCESS: weakref.WeakSet[Engine] = weakref.WeakSet()


def per_process(engines: Any) -> None:
    """Have a forked child open its own connections for each of `engines`."""
    _PER_PROCESS.update(engines)


def _forked() -> None:
    """In a forked child: forget the connections pooled by the parent without closing them
    (the parent still uses them), as SQLAlchemy advises for a pool across a fork."""
    for engine in list(_PER_PROCESS):
        engine.dispose(close=False)


os.register_at_fork(after_in_child=_forked)
