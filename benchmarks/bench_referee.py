"""Referee speed over seeded random positions: judging one play (wish search included) and
enumerating every legal play. Usage: python benchmarks/bench_referee.py [positions] [seed]"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer.engine.cards import DECK  # noqa: E402
from tichu_scorer.engine.plays import legal_plays  # noqa: E402
from tichu_scorer.engine.referee import Question, TrickPlay, judge  # noqa: E402


def positions(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(DECK)
        rng.shuffle(deck)
        hand, other = deck[:14], deck[14:28]
        top_options = [p for p in legal_plays(other, None) if p.cards and p.cards != ()]
        top = rng.choice(top_options)
        wish = rng.randint(2, 14)
        plays = [p for p in legal_plays(hand, None)]
        play = rng.choice(plays).cards if rng.random() < 0.8 else ()
        trick = (TrickPlay(top.cards),)
        out.append((Question(play=play, trick=trick, hand=tuple(hand), wish=wish),
                    hand, top, wish))
    return out


def percentile(sorted_ns: list[int], p: float) -> float:
    return sorted_ns[min(len(sorted_ns) - 1, int(len(sorted_ns) * p))] / 1000


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    cases = positions(n, seed)
    clock = time.perf_counter_ns
    judge_ns, enum_ns, counts = [], [], []
    for q, hand, top, wish in cases:
        t0 = clock()
        judge(q)
        t1 = clock()
        plays = legal_plays(hand, top, wish)
        t2 = clock()
        judge_ns.append(t1 - t0)
        enum_ns.append(t2 - t1)
        counts.append(len(plays))
    judge_ns.sort()
    enum_ns.sort()
    print(f"Python {platform.python_version()} on {platform.machine()}, {n} positions, seed {seed}")
    print(f"(a) judge one play incl. wish search: median {percentile(judge_ns, 0.5):.1f} µs, "
          f"p99 {percentile(judge_ns, 0.99):.1f} µs, max {judge_ns[-1] / 1000:.0f} µs")
    print(f"(b) enumerate every legal play:      median {percentile(enum_ns, 0.5):.1f} µs, "
          f"p99 {percentile(enum_ns, 0.99):.1f} µs, max {enum_ns[-1] / 1000:.0f} µs "
          f"(median {statistics.median(counts):.0f} plays)")


if __name__ == "__main__":
    main()
