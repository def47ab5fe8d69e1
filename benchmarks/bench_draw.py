"""The individual tournament draw (tichu_scorer/tournaments/draw.py, issue 25): the time of
one whole draw, in CPU and wall seconds, over several seeds.

Usage: python benchmarks/bench_draw.py [seeds] [first seed]

Cases: the issue's 64 players over six rounds (target: at most 1 s), the endpoint's largest
request (256 players, 20 rounds), the same after 20 rounds of history, the slowest request
found (41 players, 20 rounds after 20: new partners run short, so the draw spends its whole
allowance of swaps and restarts), a tight case where
every round must find new partners (20 players, 19 rounds), and one where partners must
meet again (9 players, 20 rounds: each has 8 partners). Each draw runs once per seed (a
draw is deterministic, so a repeat costs the same), with the garbage collector off; the
median and the maximum over the seeds are printed with the partner and opponent repeats,
and the POST through the app (test client, JSON in and out) for the largest request. The
machine's load average is printed before and after.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer.tournaments.draw import Draw, draw  # noqa: E402

TARGET = 1.0  # seconds for 64 players, six rounds (issue 25)


def names(n: int) -> list[str]:
    return [f"Player {i}" for i in range(n)]


def timed(n: int, rounds: int, seed: int, history: tuple = ()) -> tuple[float, float, Draw]:
    gc.disable()
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        made = draw(names(n), rounds, seed, history)
        return time.process_time() - cpu, time.perf_counter() - wall, made
    finally:
        gc.enable()


def case(label: str, n: int, rounds: int, seeds: range, history: tuple = ()) -> None:
    runs = [timed(n, rounds, seed, history) for seed in seeds]
    cpu = [r[0] for r in runs]
    wall = [r[1] for r in runs]
    partners = max(r[2].partner_repeats for r in runs)
    opponents = statistics.median(r[2].opponent_repeats for r in runs)
    target = f"  (target {TARGET:g} s: {'met' if max(wall) <= TARGET else 'MISSED'})" \
        if (n, rounds) == (64, 6) else ""
    print(f"{label:<28} CPU {statistics.median(cpu):6.3f} / {max(cpu):6.3f} s   wall "
          f"{statistics.median(wall):6.3f} / {max(wall):6.3f} s   partner repeats <= "
          f"{partners}, opponent repeats median {opponents:g}{target}")


def endpoint(seeds: range) -> None:
    from tichu_scorer import create_app
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SECRET_KEY": "bench",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://", "PAGE_STORE_URI": ""})
    client = app.test_client()
    walls = []
    for seed in seeds:
        wall = time.perf_counter()
        r = client.post("/api/v1/tournaments/draw",
                        json={"players": names(256), "rounds": 20, "seed": seed})
        walls.append(time.perf_counter() - wall)
        assert r.status_code == 200, r.get_json()
    print(f"{'POST, 256 players x 20':<28} wall {statistics.median(walls):6.3f} / "
          f"{max(walls):6.3f} s")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    seeds = range(first, first + count)
    before = os.getloadavg()
    print(f"{count} seeds from {first}; median / max")
    case("64 players x 6 rounds", 64, 6, seeds)
    case("256 players x 20 rounds", 256, 20, seeds)
    history = draw(names(256), 20, 12345).rounds
    case("256 x 20 after 20 rounds", 256, 20, seeds, history)
    history = draw(names(41), 20, 12345).rounds
    case("41 x 20 after 20 (slowest)", 41, 20, seeds, history)
    case("20 players x 19 rounds", 20, 19, seeds)
    case("9 players x 20 rounds", 9, 20, seeds)
    endpoint(seeds)
    load = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(before, os.getloadavg(), strict=True))
    print(f"load average before/after (1, 5, 15 min): {load}")


if __name__ == "__main__":
    main()
