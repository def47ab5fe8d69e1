"""The 200-hand match page on the server: CPU time per request, p50 / p95 / max.

Usage: python benchmarks/bench_match_page.py [--requests N] [--profile KIND] [--hands H]

Seeds a SQLite file in a temporary folder (DATABASE_URL: that PostgreSQL database instead,
which must be empty) through the app's own import with one four-player match of H hands
(default 200; Tichu calls in about a third of them, a double victory now and then, the
generator of `bench_history.py`), and measures, with the Flask test client in this
process, the page as the table's scorer sees it:

  changed      the first view after a change: before each request (untimed) the last hand
               is undone or restored again, as a phone does, so the page has to be built
               from the hands (199 and 200 hands in turn); its table shows the
               latest 50 hands (`views.matches.LATEST`)
  every-hand   the same for the page with a row for every hand
  repeat       a view of an unchanged match (the page as the browser's first view asks for
               it, without a validator)
  viewer       the same through the read-only viewer link
  304          a repeat view that sends the ETag of its copy (If-None-Match), as a browser
               revalidating its cached page does

Each request's CPU time is the process's (time.process_time) from the request to the last
byte of the response: what the server spends, without the wait for a core on a busy
machine. Wall times are printed too. --profile changed|repeat|304 runs cProfile over
that kind instead and prints where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_history import export, match  # noqa: E402
from tichu_scorer import create_app
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.matches import corrections, roster, writes
from tichu_scorer.models import Match  # noqa: E402
from tichu_scorer.transfer import json_import  # noqa: E402


def seed(app, hands: int) -> tuple[str, str]:
    """One match of `hands` hands at a new table; its key and viewer code."""
    with app.test_request_context():
        db.create_all()
        table = roster.create_group("Bench")
        rng = random.Random(12)
        json_import.import_json(export([match(rng, [f"P{n}" for n in range(8)], hands,
                                           "2026-11-20")]), table)
        found = db.session.execute(db.select(Match)).scalar_one()
        return found.key, found.code


def flip(app, key: str) -> None:
    """Undo the last hand, or restore the hand undone last: a change of the match."""
    with app.test_request_context():
        held = writes.lock_match(key)
        assert held is not None
        gone = [h for h in held.all_hands if h.deleted_at is not None]
        if gone:
            corrections.restore_hand(held, gone[-1])
        else:
            corrections.undo_last(held, held.hands[-1].number)


def ms(values: list[float]) -> str:
    ordered = sorted(v * 1000 for v in values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"{statistics.median(ordered):7.2f} {p95:7.2f} {ordered[-1]:7.2f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--profile", choices=("changed", "repeat", "304"))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tichu-bench-page-"))
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'page.sqlite3'}"
    if url.startswith("postgres://") or url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False}, instance_path=str(folder / "instance"))
    key, code = seed(app, args.hands)
    scorer, viewer = app.test_client(), app.test_client()
    with app.test_request_context():
        group_id, generation = db.session.execute(db.text(
            "SELECT g.id, g.generation FROM tichu_group g")).one()
    with scorer.session_transaction() as session:
        session["tables"] = {str(group_id): ["scorer", generation]}
    page, shared = f"/matches/{key}", f"/v/{code}"
    assert viewer.get(shared).status_code == 200

    def request(client, path: str, etag: bool = False) -> tuple[float, float, int]:
        headers = {"Accept-Encoding": "br, gzip"}  # as a browser asks: compression counts
        if etag:
            headers["If-None-Match"] = client.get(path, headers=headers).headers.get("ETag", "")
        start, cpu = time.perf_counter(), time.process_time()
        response = client.get(path, headers=headers)
        response.get_data()
        used = time.process_time() - cpu
        return time.perf_counter() - start, used, response.status_code

    def changed() -> tuple[float, float, int]:
        flip(app, key)
        return request(scorer, page)

    def every() -> tuple[float, float, int]:
        flip(app, key)
        return request(scorer, page + "/every-hand")

    kinds = {"changed": changed, "every-hand": every, "repeat": lambda: request(scorer, page),
             "viewer": lambda: request(viewer, shared),
             "304": lambda: request(scorer, page, etag=True)}
    for run in kinds.values():  # warm up: templates compiled, caches filled
        for _ in range(10):
            run()
    if args.profile:
        profiler = cProfile.Profile()
        run = kinds[args.profile]
        for _ in range(args.requests):
            if args.profile == "changed":
                flip(app, key)
            profiler.enable()
            request(scorer, page, etag=args.profile == "304")
            profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)
        return 0
    print(f"{args.hands}-hand match, {url.split(':')[0]}, {args.requests} requests each, "
          f"load average {os.getloadavg()}")
    print(f"{'request':10} {'CPU p50':>7} {'p95':>7} {'max':>7}   {'wall p50':>7} {'p95':>7} "
          f"{'max':>7}  statuses (ms)")
    for name, run in kinds.items():
        wall, cpu, statuses = [], [], []
        for _ in range(args.requests):
            w, c, s = run()
            wall.append(w)
            cpu.append(c)
            statuses.append(s)
        counts = {s: statuses.count(s) for s in sorted(set(statuses))}
        print(f"{name:10} {ms(cpu)}   {ms(wall)}  {counts}")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
