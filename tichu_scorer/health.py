"""Is this server fit to take traffic? The database must accept a write, within a bound.

`/healthz` writes one row of `heartbeat` (an upsert, committed) under a short lock and
statement timeout (PostgreSQL) or busy timeout (SQLite), so that a stalled, locked or
read-only database is reported within `HEALTH_TIMEOUT_MS` (plus, at worst, the connect
timeout) instead of hanging with it. Nothing else in the app reads the table."""

from __future__ import annotations

import time
from datetime import datetime, timezone

from flask import current_app
from sqlalchemy import Column, DateTime, Integer, Table, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from .extensions import db

heartbeat = Table("heartbeat", db.metadata,
                  Column("id", Integer, primary_key=True, autoincrement=False),
                  Column("beat_at", DateTime, nullable=False))

BEAT = text("INSERT INTO heartbeat (id, beat_at) VALUES (1, :now) "
            "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at")
SQLITE_BUSY_MS = 5000  # the app's own busy timeout (see _sqlite_pragmas), restored after

# what a failure says -> the state reported (first match wins)
STATES = (("timeout", ("statement timeout", "lock timeout", "timeout expired",
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
    """(healthy, what to report): the database took a write, or why not."""
    bound = int(current_app.config["HEALTH_TIMEOUT_MS"])
    started = time.monotonic()
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    try:
        with db.engine.connect() as conn:
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
    except (DBAPIError, SQLAlchemyError, OSError) as exc:
        elapsed = round((time.monotonic() - started) * 1000)
        state = state_of(exc)
        current_app.logger.warning("Health check: the database is %s after %d ms: %s", state,
                                   elapsed, (str(exc).splitlines() or [""])[0][:200])
        return False, {"status": "degraded", "database": state,
                       "reason": f"the database did not accept a write ({state})",
                       "elapsed_ms": elapsed}
    return True, {"status": "ok", "database": "ok"}
