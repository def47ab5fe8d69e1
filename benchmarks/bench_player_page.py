"""A player's page (`/players/<key>`, views/player_page.py) at a table of 10,000 matches.

Usage: python benchmarks/bench_player_page.py [matches] [requests] [players] [sqlite file]

One table, seeded through the app's import (as bench_ratings.py --page) with `matches`
Nanking matches of four hands ([R7]: over, and rated, after them) among `players` players
(8 by default: each plays about half of the matches, the heaviest page a table of that
size has), with calls, first outs, double victories and a missed wish here and there. The
device has joined the table.
Timed, with the Flask test client in process: the page of the player who played most, over
each period (all, this year, this month, tonight), `requests` times each; wall and CPU time,
median and p95. The first request of the run also recomputes the table's ratings (the
rating's line, kept per app process until a match changes: views/ratings.py); it is shown
apart. And the page's reads alone (`players.page.figures`), the same way. The load average
(/proc/loadavg) is printed before and after. A SQLite file named that exists already is
used as it is (seeding 10,000 matches takes a few minutes).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_ratings import sqlite_app  # noqa: E402
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.matches import roster  # noqa: E402
from tichu_scorer.models import Group, Match, MatchSeat, Player  # noqa: E402
from tichu_scorer.players import page as reads  # noqa: E402
from tichu_scorer.transfer import json_export, json_import  # noqa: E402
from tichu_scorer.views.player_page import since  # noqa: E402

PERIODS = ("all", "year", "month", "tonight")


def hands(rng: random.Random) -> list[dict[str, object]]:
    """Four hands: a double victory, a Tichu called, card points, a wish missed at times."""
    out: list[dict[str, object]] = []
    for number in range(1, 5):
        first = rng.randrange(4)
        if rng.random() < 0.2:
            hand: dict[str, object] = {"out_order": [first, (first + 2) % 4],
                                       "card_points": [None, None]}
        else:
            second = rng.choice([s for s in range(4) if s != first and s != (first + 2) % 4])
            points = rng.randrange(0, 101, 5)
            hand = {"out_order": [first, second, (second + 2) % 4],
                    "card_points": [points, 100 - points]}
        calls = {str(first): "tichu"} if rng.random() < 0.3 else {}
        hand |= {"number": number, "calls": calls, "shuffler": None,
                 "wish_offender": rng.randrange(4) if rng.random() < 0.05 else None}
        out.append(hand)
    return out


def seed(app: object, matches: int, players: int) -> None:
    rng = random.Random(7)
    names = [f"Player {i}" for i in range(players)]
    table = roster.create_group("Club")
    today = time.strftime("%Y-%m-%d")
    for first in range(0, matches, 1000):
        batch = [{"variant": "nanking", "players": rng.sample(names, 4), "target": None,
                  "hand_limit": 4,  # [R7]: over after its four hands, so rated
                  # the last hundred tonight, the others over the last years
                  "started_at": (f"{today}T00:{n % 60:02d}:00" if n >= matches - 100 else
                                 f"{2020 + n * 6 // matches}-{1 + n % 12:02d}-"
                                 f"{1 + n % 28:02d}T{n % 24:02d}:00:00"),
                  "log": [], "hands": hands(rng)}
                 for n in range(first, min(first + 1000, matches))]
        json_import.import_json({"format": json_export.FORMAT, "version": json_export.VERSION,
                                 "matches": batch}, table)


def timed(run: Callable[[], object], times: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(times):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def shown(walls: list[float], cpus: list[float]) -> str:
    return (f"wall p50 {statistics.median(walls):.1f} ms, p95 {p95(walls):.1f} ms; "
            f"CPU p50 {statistics.median(cpus):.1f} ms, p95 {p95(cpus):.1f} ms")


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    app, seeded = sqlite_app("bench-player-", sys.argv[4] if len(sys.argv) > 4 else None)
    start = time.perf_counter()
    with app.test_request_context():
        if not seeded:
            seed(app, matches, players)
        table = db.session.execute(db.select(Group)).scalars().one()
        matches = db.session.execute(db.select(db.func.count(Match.id))).scalar_one()
        busiest, played = db.session.execute(
            db.select(MatchSeat.player_id, db.func.count()).group_by(MatchSeat.player_id)
            .order_by(db.func.count().desc()).limit(1)).one()
        player = db.session.get(Player, busiest)
        assert player is not None
        key, joined = player.key, {table.key: ["member", table.generation]}
    print(f"{'found' if seeded else 'seeded'} {matches} matches in "
          f"{time.perf_counter() - start:.0f} s; the page of {player.name} ({played} matches)")
    client = app.test_client()
    with client.session_transaction() as session:
        session["tables"] = joined
    print("load before:", loadavg())
    first_wall, first_cpu = timed(lambda: client.get(f"/players/{key}"), 1)
    print(f"first request (ratings recomputed): wall {first_wall[0]:.0f} ms, "
          f"CPU {first_cpu[0]:.0f} ms")
    for period in PERIODS:
        url = f"/players/{key}" + ("" if period == "all" else f"?period={period}")

        def get(url: str = url) -> None:
            response = client.get(url)
            assert response.status_code == 200 and b"data-player" in response.data

        print(f"page, {period}, {requests} requests: {shown(*timed(get, requests))}")
    with app.test_request_context():
        found = db.session.get(Player, busiest)
        assert found is not None
        for period in PERIODS:
            begin = since(period)

            def read(begin: object = begin) -> None:
                reads.figures(found, begin)  # type: ignore[arg-type]

            print(f"reads alone, {period}: {shown(*timed(read, requests))}")
    print("load after:", loadavg())


if __name__ == "__main__":
    main()
