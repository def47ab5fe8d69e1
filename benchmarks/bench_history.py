"""A long history: statistics, the match list and a long match page, measured on the server.

Usage: python benchmarks/bench_history.py [--db FILE | --url postgresql://…] [--requests N]
                                         [--reseed]

Seeds a SQLite file or a PostgreSQL database (once; --reseed starts again) through the
app's own import: 200 tables
with a match of 50 hands each (this week), one archive table with 10,000 older matches of
3 hands each among ten regular players (four-, three- and six-player games mixed) and one
match of 200 hands. The device measured has joined the archive table and 4 of the current
ones, so its home page and statistics cover 10,005 matches and 30,400 hands (the other
tables' 10,000 hands are in the same database).

Measured with the Flask test client in this process (the time from the request to the last
byte of the response, no network): N requests each of
  /stats            nothing changed since the last request (what a reload sees)
  /stats revalidated    the same, asked with the page's ETag as a browser's repeat view of
                    its kept copy (304 where the app validates the page)
  /stats after save a hand was saved at one of the device's small tables just before
  /stats after archive save   ... at the 10,000-match table
  /stats?period=month   the matches started this month (the saves' rematches)
  /stats by GROUP BY    all matches summed from the matches' rows at each request (the
                    design measured against the tables' sums; only where
                    `tichu_scorer.statistics` exists)
  /                 the home page (first page of the match list)
  /matches/<200>    the 200-hand match page
  save              a hand saved at the 10,000-match table (`hand_entry.add_hand`)
and reported as p50 / p95 / max in milliseconds, wall time and this process's CPU time,
with the machine's load average. The same script runs against an older tree (put its
folder first: PYTHONPATH=old python old/benchmarks/bench_history.py), so old and new are
measured side by side in one run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer import create_app, scoring
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.matches import creation, hand_entry, roster, writes
from tichu_scorer.models import Group, Match  # noqa: E402
from tichu_scorer.scoring.calls import Call  # noqa: E402
from tichu_scorer.scoring.hand import HandInput, score_hand  # noqa: E402
from tichu_scorer.transfer import json_export, json_import  # noqa: E402

CURRENT_TABLES, CURRENT_HANDS = 200, 50
OLD_MATCHES, OLD_HANDS, LONG_HANDS = 10_000, 3, 200
JOINED = 4  # current tables the measured device joined, besides the archive


def hand(rng: random.Random, variant: str, number: int, day: str) -> dict[str, object]:
    """A valid hand: who went out first and second (now and then a double victory), a
    Tichu call now and then, card points."""
    shuffler = (number - 1) % 3 if variant == "threechu" else None
    seats = {"nanking": 4, "threechu": 4, "tientsin": 6}[variant]
    team = ([0 if s in (shuffler, 3) else 1 for s in range(4)] if variant == "threechu"
            else [s % 2 for s in range(seats)])
    first = rng.randrange(seats)
    partners = [s for s in range(seats) if s != first and team[s] == team[first]]
    data: dict[str, object] = {"number": number, "shuffler": shuffler, "calls": {},
                               "created_at": f"{day}T20:00:00", "wish_offender": None}
    if variant == "nanking" and rng.random() < 0.1:
        second = partners[0]
        data["card_points"] = [None, None]
    else:
        second = rng.choice([s for s in range(seats) if team[s] != team[first]])
        data["card_points"] = [rng.randrange(-5, 26) * 5, None]
    data["out_order"] = [first, second]
    if rng.random() < 0.3 and not (variant == "threechu" and second == 3):
        data["calls"] = {str(first if rng.random() < 0.7 else second): "tichu"}
    return data


TARGET = 10_000  # of the team games: the farthest a match may be set to go


def lasting(rng: random.Random, variant: str, number: int, day: str,
            totals: list[int]) -> dict[str, object]:
    """A hand as `hand` makes it, scored by the core into `totals`; one that would bring a
    team near the target becomes a hand where a player of each team called Tichu and failed
    (both totals fall), so that the match lasts the hands asked for and no hand is played
    after its end ([E1]). Threechu matches last their number of hands."""
    data = hand(rng, variant, number, day)
    if variant == "threechu":
        return data
    layout = scoring.variant(variant).layout()
    gain = _scored(data, layout)
    if max(t + g for t, g in zip(totals, gain, strict=True)) >= TARGET - 100:
        first = cast("list[int]", data["out_order"])[0]
        seats = layout.seats
        data |= {"out_order": [first, (first + 1) % seats], "card_points": [50, None],
                 "calls": {str((first + 1) % seats): "tichu", str((first + 2) % seats): "tichu"}}
        gain = _scored(data, layout)
    totals[:] = [t + g for t, g in zip(totals, gain, strict=True)]
    return data


def _scored(data: dict[str, object], layout: scoring.Layout) -> tuple[int, ...]:
    said = cast("dict[str, str]", data["calls"])
    return score_hand(HandInput(tuple(cast("list[int]", data["out_order"])),
                                {int(seat): Call(call) for seat, call in said.items()},
                                cast("tuple[int | None, int | None]",
                                     tuple(cast("list[int | None]", data["card_points"])))),
                      layout).team_scores


def match(rng: random.Random, pool: list[str], hands: int, day: str,
          variant: str = "nanking") -> dict[str, object]:
    players = {"nanking": 4, "threechu": 3, "tientsin": 6}[variant]
    names: list[str | None] = list(rng.sample(pool, players))
    if variant == "threechu":
        names.append(None)
    totals = [0, 0]
    return {"variant": variant, "players": names, "started_at": f"{day}T19:00:00",
            "target": None if variant == "threechu" else TARGET,
            "hand_limit": 99 if variant == "threechu" else None,
            "hands": [lasting(rng, variant, n, day, totals) for n in range(1, hands + 1)],
            "log": []}


def export(matches: list[dict[str, object]]) -> dict[str, object]:
    return {"format": json_export.FORMAT, "version": json_export.VERSION, "matches": matches}


def seed(app, rng: random.Random) -> None:
    with app.test_request_context():
        db.create_all()
        archive = roster.create_group("Archive")
        variants = ("nanking",) * 6 + ("threechu", "tientsin")
        regulars = [f"Regular {n}" for n in range(10)]  # the archive's group of friends
        old = [match(rng, regulars, OLD_HANDS, f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}",
                     variants[i % len(variants)]) for i in range(OLD_MATCHES)]
        for start in range(0, len(old), 1500):
            json_import.import_json(export(old[start:start + 1500]), archive)
        json_import.import_json(export([match(rng, regulars, LONG_HANDS, "2026-11-01")]), archive)
        for t in range(CURRENT_TABLES):
            table = roster.create_group(f"Table {t}")
            json_import.import_json(export([match(rng, [f"T{t}-{s}" for s in range(4)],
                                                  CURRENT_HANDS, "2026-11-20")]), table)


def save(app, rng: random.Random, keys: list[str]) -> None:
    """A new hand in one of these matches (the first not over, else in a rematch of one,
    added to `keys`), as the hand form saves it."""
    with app.test_request_context():
        for key in rng.sample(keys, len(keys)):
            held = writes.lock_match(key)
            if held is None or held.finished:
                continue
            data = hand(rng, "nanking", 1, "2026-11-22")
            del data["number"]
            _hand, problems, _shown = hand_entry.add_hand(held, data, held.hand_count + 1)
            if not problems:
                return
        match = writes.match_by_key(keys[0])
        assert match is not None
        keys.append(creation.rematch(match).key)
    save(app, rng, keys[-1:])


def percentiles(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{statistics.median(ms):7.1f} {p95:7.1f} {ms[-1]:7.1f}"


CPU: dict[str, list[float]] = {}  # the process's CPU time per request, by path


ETAGS: dict[str, str] = {}  # the last validator of each path, as a browser keeps it


def timed(client, path: str, name: str = "", revalidate: bool = False) -> float:
    """Wall time of one request; its CPU time goes to CPU (on a busy machine the wall time
    includes waiting for a core, the CPU time does not). `revalidate`: sent with the
    path's last ETag, as a browser's repeat view of its kept copy (200 or 304)."""
    headers = {"If-None-Match": ETAGS[path]} if revalidate and path in ETAGS else {}
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(path, headers=headers)
    response.get_data()
    elapsed = time.perf_counter() - start
    CPU.setdefault(name or path, []).append(time.process_time() - cpu)
    assert response.status_code in ((200, 304) if revalidate else (200,)), (path,
                                                                           response.status_code)
    if response.headers.get("ETag"):
        ETAGS[path] = response.headers["ETag"]
    return elapsed


def _seeded(app, path: Path, postgres: bool) -> bool:
    if not postgres:
        return path.exists()
    with app.app_context():
        return db.inspect(db.engine).has_table("match")


def _summed_by_rows():
    """Where the statistics keep rows per match: a context in which /stats over all matches
    sums those rows with GROUP BY at each request, as the design without the tables' sums
    would (None for an older tree)."""
    try:
        from tichu_scorer.statistics import store
    except ImportError:
        return None
    from contextlib import contextmanager
    from datetime import datetime

    @contextmanager
    def by_rows():
        kept = store.table_sums
        store.table_sums = lambda ids: store.period_sums(ids, datetime(1970, 1, 1))
        try:
            yield
        finally:
            store.table_sums = kept
    return by_rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default="/tmp/tichu-bench-history.sqlite3")
    parser.add_argument("--url", default="", help="a PostgreSQL database instead (emptied "
                        "by --reseed)")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args()
    path = Path(args.db)
    url = ("postgresql+psycopg://" + args.url.split("://", 1)[1]) if args.url \
        else f"sqlite:///{path}"
    if args.reseed and not args.url:
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False},
                     instance_path=str(path.parent / "tichu-bench-instance"))
    if args.url and args.reseed:
        with app.app_context():
            db.drop_all()
    if not _seeded(app, path, bool(args.url)):
        start = time.perf_counter()
        seed(app, random.Random(12))
        print(f"seeded {args.url or path} in {time.perf_counter() - start:.0f} s")
    client = app.test_client()
    with app.test_request_context():
        groups = list(db.session.execute(db.select(Group).order_by(Group.id)).scalars())
        tables = {str(g.id): ["scorer", g.generation] for g in groups[:JOINED + 1]}
        long_key = db.session.execute(db.select(Match.key).where(
            Match.hand_count == LONG_HANDS)).scalars().first()
        archived = list(db.session.execute(db.select(Match.key).where(
            Match.group_id == groups[0].id, Match.variant == "nanking",
            Match.hand_count == OLD_HANDS).limit(50)).scalars())
        current = [db.session.execute(db.select(Match.key).where(Match.group_id == g.id))
                   .scalars().first() for g in groups[1:JOINED + 1]]
        seen = db.session.execute(db.select(db.func.count(Match.id)).where(
            Match.group_id.in_([int(i) for i in tables]))).scalar_one()
    with client.session_transaction() as session:
        session["tables"] = tables
    import tichu_scorer
    print(f"code: {Path(tichu_scorer.__file__).parent}; database: {url.split(':')[0]}")
    print(f"device sees {seen} matches; load average {os.getloadavg()}")
    first = timed(client, "/stats", "first /stats")
    print(f"first /stats after start: {first * 1000:.0f} ms")
    rng = random.Random(5)
    results: dict[str, list[float]] = {"/stats": [], "/stats revalidated": [],
                                       "/stats after save": [],
                                       "/stats after archive save": [],
                                       "/stats?period=month": [], "/": [],
                                       "/matches/<200 hands>": [], "save (archive)": []}
    by_rows = _summed_by_rows()
    if by_rows is not None:
        results["/stats by GROUP BY"] = []
    for _ in range(args.requests):
        results["/stats"].append(timed(client, "/stats"))
        results["/stats revalidated"].append(timed(client, "/stats", "/stats revalidated",
                                                   revalidate=True))
        results["/"].append(timed(client, "/"))
        results["/matches/<200 hands>"].append(timed(client, f"/matches/{long_key}",
                                                     "/matches/<200 hands>"))
        save(app, rng, current)
        results["/stats after save"].append(timed(client, "/stats", "/stats after save"))
        start, cpu = time.perf_counter(), time.process_time()
        save(app, rng, archived)
        results["save (archive)"].append(time.perf_counter() - start)
        CPU.setdefault("save (archive)", []).append(time.process_time() - cpu)
        results["/stats after archive save"].append(timed(client, "/stats",
                                                          "/stats after archive save"))
        results["/stats?period=month"].append(timed(client, "/stats?period=month"))
        if by_rows is not None:
            with by_rows():
                results["/stats by GROUP BY"].append(timed(client, "/stats",
                                                           "/stats by GROUP BY"))
    print(f"{'request':26} {'p50':>7} {'p95':>7} {'max':>7}  (wall ms, {args.requests} each)")
    for name, times in results.items():
        print(f"{name:26} {percentiles(times)}")
    print(f"{'path':26} {'p50':>7} {'p95':>7} {'max':>7}  (CPU ms of this process)")
    for path, times in CPU.items():
        print(f"{path[:26]:26} {percentiles(times)}")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
