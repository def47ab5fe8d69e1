"""The app's one wall clock: every date and time the app stores, compares or sends comes from
here (a test that scans the package for other readings fails, `tests/test_clock.py`).

Stored times are naive UTC (the columns have no time zone on SQLite); the date a device's
rights are renewed by is the server's local date. Intervals (timeouts, budgets, pauses) are
measured with `time.monotonic` or `time.perf_counter` where they are taken, since a wall clock
that steps would stretch or cut them. Tests move this clock with time-machine, which moves
every reading of the process (Flask's cookie expiry included), never by patching a module."""

from __future__ import annotations

import time
from datetime import date, datetime, timezone


def utcnow() -> datetime:
    """Now, in UTC, without a time zone (as the database stores it)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def today() -> date:
    """The server's local date."""
    return date.today()


def timestamp() -> float:
    """Seconds since the epoch (what rate-limit windows are counted in)."""
    return time.time()
