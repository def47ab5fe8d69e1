"""What bounds a wait on a frozen PostgreSQL or Redis on loopback (every process SIGSTOPped)?
Figures for docs/security-faults.md: `python benchmarks/freeze_bounds.py [rounds]` (needs
PostgreSQL and redis-server installed; starts throwaway ones, as tests/frozen.py does)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402
import redis  # noqa: E402
from limits.storage import storage_from_string  # noqa: E402

from tests.frozen import Frozen, postgres, redis_server  # noqa: E402
from tichu_scorer.database import BoundedConnection  # noqa: E402

WATCH = 8.0  # seconds a wait is watched before it is called unbounded
LIBPQ = {"connect_timeout": 2, "tcp_user_timeout": 1000, "keepalives": 1,
         "keepalives_idle": 1, "keepalives_interval": 1, "keepalives_count": 2,
         "options": "-c statement_timeout=500"}


def timed(call: Callable[[], object]) -> str:
    """How the call ended and after how long, watched for WATCH seconds on a thread."""
    out: dict[str, object] = {}

    def run() -> None:
        started = time.monotonic()
        try:
            call()
            out["how"] = "answered"
        except Exception as exc:  # noqa: BLE001  # what ended it is the figure
            out["how"] = type(exc).__name__
        out["took"] = time.monotonic() - started

    threading.Thread(target=run, daemon=True).start()
    deadline = time.monotonic() + WATCH
    while "took" not in out and time.monotonic() < deadline:
        time.sleep(0.01)
    if "took" not in out:
        return f"still waiting after {WATCH:g} s"
    return f"{out['how']} after {out['took']:.2f} s"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def one_round(n: int, url: str, server: Frozen, redis_url: str, store: Frozen) -> None:
    plain = psycopg.connect(url, **LIBPQ)
    bounded = BoundedConnection.connect(url, **LIBPQ)
    bounded.reply_timeout = 2.0
    pages = redis.Redis.from_url(redis_url, socket_timeout=0.25, socket_connect_timeout=0.25)
    limits = storage_from_string(redis_url, socket_timeout=0.5, socket_connect_timeout=0.5)
    pages.ping()
    limits.check()
    with server.frozen(), store.frozen():
        figures = {
            "query, libpq tcp_user_timeout 1 s + keepalives 1+2x1 s":
                timed(lambda: plain.execute("SELECT 1").fetchall()),
            "new connection, connect_timeout 2":
                timed(lambda: psycopg.connect(url, **LIBPQ).close()),
            "query, BoundedConnection reply_timeout 2 s":
                timed(lambda: bounded.execute("SELECT 1").fetchall()),
            "redis GET, socket_timeout 0.25 s (page store)": timed(lambda: pages.get("x")),
            "limits incr, socket_timeout 0.5 s (rate limits)":
                timed(lambda: limits.incr("k", 60)),
        }
    for what, figure in figures.items():
        print(f"{n}: {what}: {figure}")
    print(f"{n}: after SIGCONT, new connection and query: "
          + timed(lambda: psycopg.connect(url, **LIBPQ).execute("SELECT 1")))
    print(f"load {load()}", flush=True)
    pages.close()


def main(rounds: int) -> None:
    print(f"load {load()}")
    with postgres() as (url, server), redis_server() as (redis_url, store):
        for n in range(rounds):
            one_round(n + 1, url, server, redis_url, store)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
