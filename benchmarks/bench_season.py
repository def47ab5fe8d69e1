"""The season at 10,000 matches, measured on the server.

Usage: python benchmarks/bench_season.py [--url postgresql://…] [--matches N] [--requests N]

Seeds an empty database (a temporary SQLite file unless --url names one, which is emptied)
with one table (SINGLE_TABLE: the measuring client is its scorer) and N finished matches
(10,000 by default) among twelve players over two years, four-player ones with victory
points now and then, written as rows (the season reads only the matches' rows and seats,
never their hands). Then /season (this year's half) and /season?from=…&to=… over both years
are asked N times each with the Flask test client: p50 / p95 / max in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer import create_app  # noqa: E402
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.models import Group, Match, MatchSeat, Player, new_code, new_key  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def seed(matches: int, rng: random.Random) -> int:
    """The rows of `matches` finished four-player matches; returns this year."""
    db.drop_all()
    db.create_all()
    group = Group(name="Archive")
    db.session.add(group)
    db.session.flush()
    players = [Player(group_id=group.id, name=n, name_key=n.casefold()) for n in NAMES]
    db.session.add_all(players)
    db.session.flush()
    now = datetime.utcnow().replace(microsecond=0)  # noqa: DTZ003 (stored as UTC)
    match_rows, seat_rows = [], []
    for number in range(1, matches + 1):
        a, b = rng.randrange(1000, 1600, 5), rng.randrange(0, 1000, 5)
        winner = rng.randrange(2)
        totals = [a, b] if winner == 0 else [b, a]
        vp = rng.random() < 0.2
        match_rows.append({
            "id": number, "key": new_key(), "group_id": group.id, "variant": "nanking",
            "target": None if vp else 1000, "hand_limit": 4 if vp else None,
            "started_at": now - timedelta(hours=rng.randrange(2 * 365 * 24)),
            "finished_at": now, "winner_team": winner, "totals": totals,
            "victory": ([9, 3] if winner == 0 else [3, 9]) if vp else None,
            "hand_count": rng.randrange(4, 12), "code": new_code(8),
            "scorer_key": new_code(12), "revision": 1, "stamp": number})
        for seat, player in enumerate(rng.sample(players, 4)):
            seat_rows.append({"match_id": number, "seat": seat, "team": seat % 2,
                              "player_id": player.id})
    db.session.execute(db.insert(Match), match_rows)
    db.session.execute(db.insert(MatchSeat), seat_rows)
    db.session.commit()
    return now.year


def measure(client, path: str, requests: int) -> str:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return (f"{path:42} p50 {statistics.median(times):6.1f}  p95 {p95:6.1f}  "
            f"max {times[-1]:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{folder}/season.db"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SINGLE_TABLE": True,
                          "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                          "PAGE_STORE_URI": ""}, instance_path=folder)
        with app.app_context():
            year = seed(args.matches, random.Random(36))
            client = app.test_client()
            print(f"{args.matches} matches, {db.engine.dialect.name}")
            print(measure(client, "/season", args.requests))
            print(measure(client, f"/season?from={year - 1}-01-01&to={year}-12-31",
                          args.requests))
            print(measure(client, f"/season.csv?from={year - 1}-01-01&to={year}-12-31",
                          args.requests))
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
