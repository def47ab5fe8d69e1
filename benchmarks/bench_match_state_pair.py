"""The match state of another checkout against this one, alternating in one process, on
the same seeded matches as `bench_match_state.py` (old and new meet the same moments of a
shared machine, which a run of each in turn does not give them).

Usage: python benchmarks/bench_match_state_pair.py OLD_TREE [matches per variant]

OLD_TREE is a checkout of the project (for instance `git worktree add /tmp/old <commit>`,
or `git archive <commit> | tar -x -C /tmp/old`); its package is copied under another name
so that both load side by side. Each match is built 40 times by each code in turn, with
the garbage collector off; each code's fastest run counts. Reported per variant: median
and max over the matches in ms (wall clock), and the median of new / old per match.
"""

from __future__ import annotations

import gc
import importlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_match_state as bench  # noqa: E402

ROUNDS = 40


def code(package: str) -> tuple[Any, Any, Any]:
    return tuple(importlib.import_module(f"{package}.{name}") for name in (  # type: ignore
        "game.variants", "scoring.state", "scoring.hand"))


def matches(modules: tuple[Any, Any, Any], key: str, seed: int) -> tuple[Any, Any, list[Any]]:
    """One seeded match of `bench_match_state`, in this code's own types."""
    variants, state, hand = modules
    variant = variants.VARIANTS[key]
    rng = random.Random(seed)
    setup = bench.settings(variant, 200)
    setup = state.Settings(variant, setup.names, setup.target, setup.hand_limit)
    hands = []
    for number in range(1, 201):
        h = bench.random_hand(rng, setup, number)
        hands.append(hand.HandInput(h.out_order, {s: hand.Call(c.value)
                                                  for s, c in h.calls.items()},
                                    h.card_points, h.wish_offender, h.shuffler))
    return state.MatchState.of, setup, hands


@contextmanager
def beside(old_tree: Path, what: str) -> Iterator[None]:
    """The old checkout's package importable as `tichu_old` beside this one, the garbage
    collector off, and the load average printed before and after."""
    folder = Path(tempfile.mkdtemp())
    shutil.copytree(old_tree / "tichu_scorer", folder / "tichu_old",
                    ignore=shutil.ignore_patterns("__pycache__", "translations"))
    sys.path.insert(0, str(folder))
    print(f"load before: {os.getloadavg()}; {what}")
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        shutil.rmtree(folder)
    print(f"load after: {os.getloadavg()}")


def main() -> None:
    old_tree = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    with beside(old_tree, f"{count} matches of 200 hands per variant, ms"):
        codes = {"old": code("tichu_old"), "new": code("tichu_scorer")}
        for key in ("nanking", "threechu", "tientsin", "seigneur"):
            found: dict[str, list[float]] = {"old": [], "new": []}
            for seed in range(count):
                built = {name: matches(modules, key, seed) for name, modules in codes.items()}
                best = dict.fromkeys(built, float("inf"))
                for _ in range(ROUNDS):
                    for name, (of, setup, hands) in built.items():
                        start = time.perf_counter()
                        of(setup, hands)
                        best[name] = min(best[name], time.perf_counter() - start)
                for name in found:
                    found[name].append(best[name] * 1000)
            pairs = zip(found["new"], found["old"], strict=True)
            ratio = statistics.median(new / old for new, old in pairs)
            print(f"{key:9} old {statistics.median(found['old']):.3f} / "
                  f"{max(found['old']):.3f}  new {statistics.median(found['new']):.3f} / "
                  f"{max(found['new']):.3f}  new/old {ratio:.2f}")


if __name__ == "__main__":
    main()
