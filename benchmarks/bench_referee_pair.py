"""The referee of another checkout beside this one, in one process, on the same positions.

Usage: python benchmarks/bench_referee_pair.py OLD_CHECKOUT [positions per family] [seed]

The other checkout's `engine` is loaded under another package name (it imports nothing
absolute), each question and position converted to its own types. For every position the
two referees take turns, five turns each, the order swapped from one position to the
next, each turn one call: "rotated" (a call meets caches the other referee left, as
behind a web server); then each call five times in a row: "warm". The fastest of a
referee's five counts, garbage collector off. Printed per family of `bench_referee` and
pooled: the median of each, and the median, 5th and 95th percentile of the per-position
ratios old / new (below 1: the new referee slower at that position). Timed:
`legal_plays` ("enumerate"), `judge` with its verdict's rule read ("judge"), the same with
the whole answer read (`as_dict`, "judge+text"), and, apart, passes that owe no wish.
"""

from __future__ import annotations

import gc
import importlib
import os
import random
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_referee as bench  # noqa: E402
from tichu_scorer.engine import plays as new_plays  # noqa: E402
from tichu_scorer.engine import referee as new_referee  # noqa: E402

REPEATS = 5


def load_engine(checkout: Path, name: str = "old_tichu_scorer") -> tuple[Any, Any, Any]:
    """The checkout's engine modules (referee, plays, combos) under package `name`."""
    package = types.ModuleType(name)
    package.__path__ = [str(checkout / "tichu_scorer")]
    sys.modules[name] = package
    return tuple(importlib.import_module(f"{name}.engine.{m}")  # type: ignore[return-value]
                 for m in ("referee", "plays", "combos"))


def convert(engine: tuple[Any, Any, Any], case: bench.Position, q: Any) -> tuple[Any, Any]:
    """(enumerate, judge) calls of the position and the question in `engine`'s own types."""
    referee, plays, combos = engine
    card = combos.parse_cards.__globals__["Card"]
    hand, top, wish = case
    cards = [card(*c) for c in hand]
    on = None
    if top is not None:
        on = combos.Combination(combos.Kind(top.kind.value), top.rank, top.length,
                                tuple(card(*c) for c in top.cards), top.phoenix_as,
                                top.straight_flush)
    out_of_turn = q.out_of_turn
    question = referee.Question(
        play=tuple(card(*c) for c in q.play), hand=tuple(cards), wish=q.wish,
        trick=tuple(referee.TrickPlay(tuple(card(*c) for c in t.cards), t.seat)
                    for t in q.trick), out_of_turn=out_of_turn)
    return ((plays.legal_plays, (cards, on, wish), {"out_of_turn": out_of_turn}),
            (referee.judge, question))


def turns(calls: list[Callable[[], object]], rotated: bool,
          order: Callable[[], list[int]]) -> list[int]:
    """The fastest of REPEATS runs of each call: in turns (the calls in `order()`, asked
    again each round), or each REPEATS times in a row (in `order()` asked once)."""
    clock = time.perf_counter_ns
    best = [1 << 62] * len(calls)
    if rotated:
        for _ in range(REPEATS):
            for i in order():
                t0 = clock()
                calls[i]()
                best[i] = min(best[i], clock() - t0)
    else:
        for i in order():
            for _ in range(REPEATS):
                t0 = clock()
                calls[i]()
                best[i] = min(best[i], clock() - t0)
    return best


def median(values: list[float]) -> float:
    return percentile(values, 50)


def percentile(values: list[float], p: int) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, len(s) * p // 100)] if s else float("nan")


def main() -> None:
    old_checkout = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    engines = (load_engine(old_checkout), (new_referee, new_plays, new_plays))
    load = [os.getloadavg()]
    # (what, mode, family) -> [(old ns, new ns)]
    timed: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    for family, make in bench.FAMILIES.items():
        rng = random.Random(f"{seed}-{family}")
        cases = [make(rng) for _ in range(n)]
        if family == "bombs":
            cases = [(h, t, None) for h, t, _ in cases if t is not None]
        ask = bench.out_of_turn_question if family == "bombs" else bench.judged_question
        questions = [ask(rng, *case) for case in cases]
        gc.collect()
        gc.disable()
        try:
            for k, (case, q) in enumerate(zip(cases, questions, strict=True)):
                (eo, jo), (en, jn) = (convert(e, case, q) for e in engines)
                what: dict[str, list[Callable[[], object]]] = {
                    "enumerate": [lambda c=eo: c[0](*c[1], **c[2]),
                                  lambda c=en: c[0](*c[1], **c[2])],
                    "judge": [lambda c=jo: c[0](c[1]).rule, lambda c=jn: c[0](c[1]).rule],
                    "judge+text": [lambda c=jo: c[0](c[1]).as_dict(),
                                   lambda c=jn: c[0](c[1]).as_dict()]}
                pass_no_wish = not q.play and not q.out_of_turn and (
                    q.wish is None or all(c.rank != q.wish for c in q.hand or ()))
                for name, calls in what.items():
                    for mode in ("rotated", "warm"):
                        first = k % 2
                        order = list(range(first, len(calls))) + list(range(first))
                        old, new = turns(calls, mode == "rotated", lambda o=order: o)
                        timed.setdefault((name, mode, family), []).append((old, new))
                        if name == "judge" and pass_no_wish:
                            timed.setdefault(("pass, no wish", mode, "all"), []).append(
                                (old, new))
        finally:
            gc.enable()
    load.append(os.getloadavg())
    print(f"{old_checkout} (old) beside this tree (new), {n} positions per family, seed "
          f"{seed}; load average before/after: "
          + ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(*load, strict=True)))
    print(f"{'what':<14}{'mode':<9}{'family':<9}{'old µs':>8}{'new µs':>8}{'old/new':>9}"
          f"{'per position':>14}{'p5':>7}{'p95':>7}")
    names = sorted({(w, m) for w, m, _ in timed}, key=lambda x: (list(
        ("enumerate", "judge", "judge+text", "pass, no wish")).index(x[0]), x[1]))
    for name, mode in names:
        families = [f for w, m, f in timed if (w, m) == (name, mode)]
        rows = [(f, timed[name, mode, f]) for f in families]
        if len(rows) > 1:
            rows.append(("all", [p for _, pairs in rows for p in pairs]))
        for family, pairs in rows:
            before = median([o / 1000 for o, _ in pairs])
            after = median([w / 1000 for _, w in pairs])
            ratios = [o / w for o, w in pairs]
            print(f"{name:<14}{mode:<9}{family:<9}{before:8.2f}{after:8.2f}{before / after:8.2f}×"
                  f"{median(ratios):12.2f}×{percentile(ratios, 5):6.2f}×"
                  f"{percentile(ratios, 95):6.2f}×")


if __name__ == "__main__":
    main()
