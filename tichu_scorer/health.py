"""Is this server fit to take traffic? The database must accept a write, within a bound.

`/healthz` writes one row of `heartbeat` (an upsert, committed) under a short lock and
statement timeout (PostgreSQL) or busy timeout (SQLite), so that a stalled, locked or
read-only database is reported within `HEALTH_TIMEOUT_MS`. The write runs on a thread of
its own and /healthz waits for it at most `HEALTH_ANSWER_MS`: a database that answers
nothing at all (frozen, or a new connection that the server never accepts, which libpq
waits 2 s for at least) is reported unreachable then, while the write's own wait ends
within the client-side bounds (`database`). Nothing else in the app reads the table."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late

from flask import Flask, current_app
from sqlalchemy import Column, DateTime, Integer, Table, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from .clock import utcnow
from .database import UNREACHABLE
from .extensions import db

heartbeat = Table("heartbeat", db.metadata,
                  Column("id", Integer, primary_key=True, autoincrement=False),
                  Column("beat_at", DateTime, nullable=False))

BEAT = text("INSERT INTO heartbeat (id, beat_at) VALUES (1, :now) "
            "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at")
SQLITE_BUSY_MS = 5000  # the app's own busy timeout (see _sqlite_pragmas), restored after

# what a failure says -> the state reported (first match wins)
STATES = (("unreachable", (UNREACHABLE,)),
          ("timeout", ("statement timeout", "lock timeout", "timeout expired",
                       "timed out", "canceling statement")),
          ("busy", ("database is locked", "database table is locked")),
          ("read-only", ("readonly", "read-only")),
          ("full", ("disk is full", "no space left")))


def state_of(error: Exception) -> str:
    message = str(getattr(error, "orig", None) or error).lower()
    for state, words in STATES:
        if any(word in message for word in words):
            return state
    return "unreachable"


def check() -> tuple[bool, dict[str, object]]:
    """(healthy, what to report): the database took a write, or why not, within
    HEALTH_ANSWER_MS."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    started = time.monotonic()
    writes = app.extensions.get("tichu_health")
    if writes is None:  # made on first use: in the worker, not in a process forked later
        writes = app.extensions["tichu_health"] = ThreadPoolExecutor(
            max_workers=2, thread_name_prefix="healthz")
    beat = writes.submit(_beat, app)
    try:
        beat.result(timeout=int(app.config["HEALTH_ANSWER_MS"]) / 1000)
    except Late:
        return _failed(started, "unreachable", f"no answer within "
                                               f"{app.config['HEALTH_ANSWER_MS']} ms")
    except (DBAPIError, SQLAlchemyError, OSError) as exc:
        return _failed(started, state_of(exc), (str(exc).splitlines() or [""])[0][:200])
    return True, {"status": "ok", "database": "ok"}


def finish(app: Flask) -> None:
    """Wait for the heartbeat writes still on their way (one that outlived its /healthz holds
    a pooled connection): before the app's engine is disposed, as a test's app is, so that
    no connection comes back to a pool already dropped and is left to the collector."""
    writes = app.extensions.pop("tichu_health", None)
    if writes is not None:
        writes.shutdown(wait=True)


def _failed(started: float, state: str, why: str) -> tuple[bool, dict[str, object]]:
    elapsed = round((time.monotonic() - started) * 1000)
    current_app.logger.warning("Health check: the database is %s after %d ms: %s", state,
                               elapsed, why)
    return False, {"status": "degraded", "database": state,
                   "reason": f"the database did not accept a write ({state})",
                   "elapsed_ms": elapsed}


def _beat(app: Flask) -> None:
    """Write the heartbeat under the health bound (raises what the database raised)."""
    bound = int(app.config["HEALTH_TIMEOUT_MS"])
    now = utcnow()
    with app.app_context(), db.engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        try:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={bound}")
                conn.commit()
            with conn.begin():
                if not sqlite:
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {bound}")
                    conn.exec_driver_sql(f"SET LOCAL statement_timeout = {bound}")
                conn.execute(BEAT, {"now": now})
        finally:
            if sqlite and not conn.invalidated:
                conn.rollback()
                conn.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
                conn.commit()
