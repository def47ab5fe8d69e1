"""Ratings over a club's history (`tichu_scorer.ratings`): the full recompute that every
view of the ratings page does, over 10,000 matches by default.

Usage: python benchmarks/bench_ratings.py [matches] [players] [seed] [repeats]
       python benchmarks/bench_ratings.py --page [matches] [requests] [sqlite file]

A seeded club of `players` players plays `matches` matches: 70 % Nanking (two random
pairs, a random winner, totals to 1000), 10 % each Tientsin, Threechu (three players and
the dummy, a fixed length, random totals) and Grand Seigneur (five to eight players, a few
random finishing orders). Timed separately: making the outcomes from the matches' plain
data (`outcome_of`, with the Grand Seigneur hands' ranking) and rating them per variant
(`rate`, as the page does). Each is run `repeats` times with the garbage collector off; the
fastest run counts (and the median is shown). The load average is printed before and after.

--page: the whole page, `/stats/ratings`, with the Flask test client on a SQLite file in a
temporary folder, seeded through the app's import with `matches` finished Nanking matches
of four hands among 40 players (the device has joined their table); p50 and max over
`requests` requests, wall and CPU time: the first recomputes, the others find it kept. A
SQLite file named that exists already is used as it is (seeding 10,000 takes minutes).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN  # noqa: E402
from tichu_scorer.ratings import outcome_of, rate  # noqa: E402
from tichu_scorer.scoring.state import Settings  # noqa: E402


def club(matches: int, players: int, seed: int) -> list[tuple[Any, ...]]:
    """(settings, totals, winner, rankings) per match, oldest first."""
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(players)]
    out: list[tuple[Any, ...]] = []
    for _ in range(matches):
        roll = rng.random()
        if roll < 0.7:
            seated = tuple(rng.sample(names, 4))
            won = rng.randrange(2)
            totals = [rng.randrange(-200, 990, 5), rng.randrange(-200, 990, 5)]
            totals[won] = 1000 + rng.randrange(0, 300, 5)
            out.append((Settings(NANKING, seated), tuple(totals), won, ()))
        elif roll < 0.8:
            seated = tuple(rng.sample(names, 6))
            won = rng.randrange(2)
            totals = [rng.randrange(0, 990, 5), rng.randrange(0, 990, 5)]
            totals[won] = 1000
            out.append((Settings(TIENTSIN, seated), tuple(totals), won, ()))
        elif roll < 0.9:
            seated = (*rng.sample(names, 3), "Dummy")
            scores = tuple(rng.randrange(-200, 800, 5) for _ in range(4))
            top = max(scores[:3])
            leader = scores.index(top) if scores[:3].count(top) == 1 else None
            out.append((Settings(THREECHU, seated, None, 10), scores, leader, ()))
        else:
            seated = tuple(rng.sample(names, rng.randint(5, 8)))
            hands = []
            for _hand in range(rng.randint(3, 12)):
                order = list(range(len(seated)))
                rng.shuffle(order)
                hands.append(tuple(order))
            out.append((Settings(SEIGNEUR, seated), (), None, tuple(hands)))
    return out


def timed(run: Callable[[], object], repeats: int) -> tuple[float, float, float]:
    """Fastest and median wall-clock time of `run`, and its fastest CPU time, in seconds
    (on a busy machine the wall time includes waiting for a core, the CPU time does not)."""
    times, cpus = [], []
    gc.disable()
    try:
        for _ in range(repeats):
            start, cpu = time.perf_counter(), time.process_time()
            run()
            times.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
    finally:
        gc.enable()
    return min(times), statistics.median(times), min(cpus)


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    print("load before:", " ".join(f"{v:.2f}" for v in os.getloadavg()))
    history = club(matches, players, seed)

    def outcomes() -> dict[str, list[Any]]:
        found: dict[str, list[Any]] = {}
        for n, (settings, totals, won, rankings) in enumerate(history):
            found.setdefault(settings.variant.key, []).append(
                outcome_of(settings, totals, won, rankings, str(n)))
        return found

    per_variant = outcomes()

    def rated() -> list[Any]:
        return [rate(found) for found in per_variant.values()]

    made, made_median, made_cpu = timed(outcomes, repeats)
    done, done_median, done_cpu = timed(rated, repeats)
    counts = ", ".join(f"{key} {len(found)}" for key, found in per_variant.items())
    print(f"{matches} matches ({counts}), {players} players")
    print(f"outcomes: wall {made * 1000:.0f} ms (median {made_median * 1000:.0f} ms), "
          f"CPU {made_cpu * 1000:.0f} ms")
    print(f"ratings (openskill PlackettLuce): wall {done * 1000:.0f} ms "
          f"(median {done_median * 1000:.0f} ms), CPU {done_cpu * 1000:.0f} ms, "
          f"{done_cpu / matches * 1e6:.0f} us CPU a match")
    print(f"full recompute: wall {(made + done) * 1000:.0f} ms, "
          f"CPU {(made_cpu + done_cpu) * 1000:.0f} ms")
    print("load after:", " ".join(f"{v:.2f}" for v in os.getloadavg()))


def sqlite_app(prefix: str, path: str | None) -> tuple[Any, bool]:
    """The app, without rate limits, over the SQLite file `path` (else a new one in a new
    temporary folder named `prefix`…), its tables made; and whether the file was there
    already (seeded by an earlier run)."""
    import tempfile

    from tichu_scorer import create_app
    from tichu_scorer.extensions import db

    folder = tempfile.mkdtemp(prefix=prefix)
    path = path or f"{folder}/bench.sqlite3"
    seeded = Path(path).exists()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False},
                     instance_path=f"{folder}/instance")
    with app.app_context():
        db.create_all()
    return app, seeded


def page(matches: int, requests: int, path: str | None = None) -> None:
    from tichu_scorer.extensions import db
    from tichu_scorer.matches import roster
    from tichu_scorer.models import Group, Match
    from tichu_scorer.transfer import json_export, json_import

    rng = random.Random(3)
    names = [f"Player {i}" for i in range(40)]
    win = {"out_order": [0, 2], "calls": {"0": "tichu"}, "card_points": [None, None],
           "wish_offender": None, "shuffler": None}
    app, seeded = sqlite_app("bench-ratings-", path)
    start = time.perf_counter()
    with app.test_request_context():
        if seeded:
            table = db.session.execute(db.select(Group)).scalars().first()
            assert table is not None
            matches = db.session.execute(db.select(db.func.count(Match.id))).scalar_one()
        else:
            table = roster.create_group("Club")
        for first in range(0, 0 if seeded else matches, 1000):
            batch = [{"variant": "nanking", "players": rng.sample(names, 4), "target": 1000,
                      "started_at": f"2026-01-01T{n % 24:02d}:00:00", "log": [],
                      "hands": [win | {"number": h} for h in range(1, 5)]}
                     for n in range(first, min(first + 1000, matches))]
            json_import.import_json({"format": json_export.FORMAT, "version": json_export.VERSION,
                                  "matches": batch}, table)
        joined = {table.key: ["member", table.generation]}
    print(f"{'found' if seeded else 'seeded'} {matches} matches in "
          f"{time.perf_counter() - start:.0f} s")
    client = app.test_client()
    with client.session_transaction() as session:
        session["tables"] = joined
    print("load before:", " ".join(f"{v:.2f}" for v in os.getloadavg()))
    from tichu_scorer.matches import listing
    from tichu_scorer.ratings import outcome_of as outcome
    from tichu_scorer.views.ratings import outcomes
    with app.test_request_context():
        groups = list(db.session.execute(db.select(Group)).scalars())
        for name, read in (
                ("old read: the match list's objects (listing.history)", lambda: [
                    outcome(m.settings, m.totals, m.winner_team, (), m.key)
                    for m in reversed(listing.history(groups, limit=None)) if m.finished]),
                ("new read: columns, three queries (views.ratings.outcomes)",
                 lambda: outcomes(groups))):
            db.session.expunge_all()
            wall, cpu = time.perf_counter(), time.process_time()
            read()
            print(f"{name}: wall {(time.perf_counter() - wall) * 1000:.0f} ms, CPU "
                  f"{(time.process_time() - cpu) * 1000:.0f} ms")
    walls, cpus = [], []
    for _ in range(requests):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get("/stats/ratings")
        assert response.status_code == 200 and b"Player 1" in response.data
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"/stats/ratings over {matches} matches: first request (full recompute) "
          f"wall {walls[0] * 1000:.0f} ms, CPU {cpus[0] * 1000:.0f} ms; then, kept "
          f"(nothing changed), {requests - 1} requests: wall p50 "
          f"{statistics.median(walls[1:] or [0]) * 1000:.0f} ms, CPU p50 "
          f"{statistics.median(cpus[1:] or [0]) * 1000:.0f} ms")
    print("load after:", " ".join(f"{v:.2f}" for v in os.getloadavg()))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--page"]:
        page(int(sys.argv[2]) if len(sys.argv) > 2 else 2000,
             int(sys.argv[3]) if len(sys.argv) > 3 else 5,
             sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        main()
