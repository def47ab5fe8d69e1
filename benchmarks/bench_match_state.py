"""Building a match's state from its settings and recorded hands (`scoring.state`):
the target is at most 2 ms for a 200-hand match.

Usage: python benchmarks/bench_match_state.py [matches per variant] [hands] [seed]

For each points variant, seeded random matches of `hands` recorded hands (calls, double
victories, wish penalties, Threechu's shuffle) are built with `MatchState.of`; Grand
Seigneur's matches are finishing orders. Beside it, the old path the match page took
before the state: the stored per-hand side scores summed, the winner checked after each
hand (`old_totals`, a copy of the old `scoring.match.match_state`: no hand scored again).
Each match is timed seven times with the garbage collector off; its fastest run counts.
Reported per variant: median and max over the matches, in ms, by the wall clock and by
the process's CPU time. The load average is printed before and after.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN, Variant  # noqa: E402
from tichu_scorer.scoring import winner  # noqa: E402
from tichu_scorer.scoring.calls import Call  # noqa: E402
from tichu_scorer.scoring.hand import HandInput  # noqa: E402
from tichu_scorer.scoring.state import MatchState, Settings  # noqa: E402

TARGET_MS = 2.0
REPEATS = 7


def random_hand(rng: random.Random, setup: Settings, number: int) -> HandInput:
    """A hand the scoring accepts: an out-order (sometimes a sweep), calls, card points,
    now and then a wish penalty; in Grand Seigneur a finishing order."""
    variant = setup.variant
    if variant.ranked:
        order = list(range(setup.seats))
        rng.shuffle(order)
        return HandInput(tuple(order[:-1]), {}, (None, None))
    shuffler = variant.shuffler(number)
    layout = variant.layout(hand_number=number)
    seats = list(range(layout.seats))
    rng.shuffle(seats)
    calls = {}
    for seat in range(len(seats)):
        roll = rng.random()
        if roll < 0.15:
            calls[seat] = Call.TICHU
        elif roll < 0.2 and seat not in layout.no_grand_seats:
            calls[seat] = Call.GRAND
    if rng.random() < 0.03:
        offender = rng.choice([s for s in seats if s != layout.dummy])
        return HandInput((), calls, (None, None), offender, shuffler)
    if rng.random() < 0.1:
        first = seats[0]
        mates = [s for s in layout.members(layout.team_of(first)) if s != first]
        return HandInput((first, *mates), calls, (None, None), None, shuffler)
    points = rng.randrange(-5, 26) * 5
    return HandInput(tuple(seats[:2]), calls, (points, None), None, shuffler)


def names(variant: Variant, players: int) -> tuple[str, ...]:
    return tuple(f"P{s}" for s in range(players)) + (("Dummy",) if variant.has_dummy else ())


def settings(variant: Variant, hands: int) -> Settings:
    players = variant.fewest + (2 if variant.ranked else 0)
    if variant.lasts_hands:
        return Settings(variant, names(variant, players), None, hands - hands % 3 or 3)
    return Settings(variant, names(variant, players), 10 ** 6)


def old_totals(hand_scores: list[tuple[int, ...]], target: int) -> tuple[int, ...]:
    """What the match page did before the state: the stored side scores summed hand by
    hand, the winner looked for until found."""
    totals = [0] * len(hand_scores[0])
    running = []
    won = None
    for scores in hand_scores:
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        running.append(tuple(totals))
        if won is None:
            won = winner(totals, target)
    return tuple(totals)


def best(run: Callable[[], object], clock: Callable[[], float]) -> float:
    times = []
    for _ in range(REPEATS):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times) * 1000


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    hands = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    print(f"load before: {os.getloadavg()}; {matches} matches of {hands} hands per variant")
    print("ms per match, median / max; wall clock, and CPU time (process_time: what a busy "
          "machine's other work does not add)")
    print(f"{'variant':10} {'new wall':>13} {'new CPU':>13} {'old wall':>13} {'old CPU':>13}")
    worst = {"wall": 0.0, "cpu": 0.0}
    gc.disable()
    try:
        for variant in (NANKING, THREECHU, TIENTSIN, SEIGNEUR):
            figures: dict[str, list[float]] = {}
            for _ in range(matches):
                setup = settings(variant, hands)
                recorded = [random_hand(rng, setup, n) for n in range(1, hands + 1)]
                state = MatchState.of(setup, recorded)
                stored = [h.scores for h in state.hands]  # what the rows hold
                runs: dict[str, Callable[[], object]] = {
                    "new": lambda s=setup, r=recorded: MatchState.of(s, r)}
                if not variant.ranked:
                    runs["old"] = lambda st=stored: old_totals(st, 10 ** 6)
                for name, run in runs.items():
                    for clock_name, clock in (("wall", time.perf_counter),
                                              ("cpu", time.process_time)):
                        figures.setdefault(f"{name} {clock_name}", []).append(best(run, clock))
            for clock_name in ("wall", "cpu"):
                worst[clock_name] = max(worst[clock_name], *figures[f"new {clock_name}"])
            cells = []
            for key in ("new wall", "new cpu", "old wall", "old cpu"):
                found = figures.get(key)
                cells.append(f"{statistics.median(found):6.3f}/{max(found):6.3f}" if found
                             else f"{'-':>13}")
            print(f"{variant.key:10} " + " ".join(cells))
    finally:
        gc.enable()
    print(f"load after: {os.getloadavg()}")
    for clock_name, value in worst.items():
        print(f"worst new ({clock_name}) {value:.3f} ms against a target of {TARGET_MS} ms: "
              f"{'met' if value <= TARGET_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
