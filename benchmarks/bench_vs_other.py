"""Our referee beside another project's, frohlfing/tichu, on the same positions in one
process (issue 38, item 3): enumerating every legal play, and judging one play.

Usage: python benchmarks/bench_vs_other.py --other PATH [--positions N] [--seed S]

PATH is a folder outside this repository holding (part of) frohlfing/tichu: its
`src/lib/cards.py` and `src/lib/combinations.py`. That project is not part of Tichu
Scorer and nothing of it is copied here: its modules are imported from PATH when this
script runs. What of it is called:

  enumerate  `build_action_space(build_combinations(hand), trick, wish)`: every
             combination of the hand, then those playable on the trick under the wish
             (its hand is a list of (rank, suit) tuples sorted descending, as its game
             state keeps it; its trick is the (type, length, rank) its state keeps).
             "theirs cached" is `build_action_space` alone, the hand's combinations built
             before the timing (its `PrivateState.combinations` caches them per hand); on
             a lead that returns the cached list itself.
  judge      the steps its server takes to accept a play (`Peer.play`; its log validator
             does the same): the cards distinct and in hand, then the action space of the
             hand's combinations scanned for the played card set (set equality). The
             combinations built in the call (a hand not asked about before), or, "theirs
             cached", kept as its state keeps them: its cheapest path. No function or flag
             named "smart" was found in its source; the issue's "smart" path is taken to
             be this validation.

Ours: `legal_plays(hand, top, wish)` and `judge(Question(...)).legal` (the verdict's
reason not written: a caller that reads `legal` pays for no prose).

Positions: `bench_referee`'s families, `random` (dealt hands, a random combination of
another hand on the table or none, a wish 60 %) and the targeted `lead+PH`, `runs+PH`,
`dense`; each split by whether a wish is in force. A position whose table holds the Dog is
left out (counted): [S2] nothing is played on the Dog, the partner leads; frohlfing/tichu
represents that moment by the Dog's figure, which its action space treats as a lead.

Timing, garbage collector off: "rotated", five rounds per position, in each round one call
of each referee in a random order (each meets the caches the other left, as behind a web
server), the fastest of each referee's five counted; "warm", each call five times in a
row, the fastest counted. Printed: each referee's median and p95 (µs) and the median, 5th
and 95th percentile of the per-position ratios theirs / ours.

Differential check, every position: the card sets each lists must be the same under the
rules both implement, that is ours with the strict wish house rule ([W5]: frohlfing/tichu
exempts no bomb from the wish); differences are printed with the position. Ours under the
rule book differs from theirs where [W5] exempts a bomb: counted apart. The judge's
answers are compared the same way.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_referee as bench  # noqa: E402
from benchmarks.bench_referee_pair import percentile, turns  # noqa: E402
from tichu_scorer.engine.cards import Card  # noqa: E402
from tichu_scorer.engine.combos import Combination, Kind  # noqa: E402
from tichu_scorer.engine.plays import Table, legal_plays  # noqa: E402
from tichu_scorer.engine.referee import Question, TrickPlay, judge  # noqa: E402

# each call timed REPEATS times (bench_referee_pair.REPEATS), the fastest kept
STRICT = Table(strict_wish=True)
SUIT = {"s": 1, "p": 2, "j": 3, "t": 4}  # Sword, Pagoda, Jade, Star: its 1..4
KIND = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIO: 3, Kind.STAIRS: 4, Kind.FULL_HOUSE: 5,
        Kind.STRAIGHT: 6, Kind.BOMB: 7}
SETS = ("random", "lead+PH", "runs+PH", "dense")
Theirs = tuple[int, int]


def load_other(path: Path) -> Any:
    """frohlfing/tichu's `src.lib.combinations`, imported from `path`."""
    sys.path.insert(0, str(path))
    module = importlib.import_module("src.lib.combinations")
    if not Path(module.__file__).resolve().is_relative_to(path.resolve()):
        raise SystemExit(f"{module.__file__} is not under {path}")
    return module


def theirs(card: Card) -> Theirs:
    return (card.rank, SUIT.get(card.suit, 0))


def figure(top: Combination | None) -> tuple[int, int, int]:
    """The trick as frohlfing/tichu's state keeps it: (type, length, rank); a Phoenix
    single's half rank rounded down, as its engine stores it."""
    if top is None:
        return (0, 0, 0)
    return (KIND[top.kind], top.length, int(top.rank))


def their_judge(other: Any, hand: list[Theirs], play: list[Theirs],
                trick: tuple[int, int, int], wish: int,
                combis: list[Any] | None = None) -> bool:
    """The checks frohlfing/tichu's server makes before it accepts a play (Peer.play)."""
    if len(set(play)) != len(play):
        return False
    if any(card not in hand for card in play):
        return False
    if combis is None:
        combis = other.build_combinations(hand)
    wanted = set(play)
    return any(set(cards) == wanted
               for cards, _ in other.build_action_space(combis, trick, wish))


def _enumerate(other: Any, hand: list[Theirs], trick: tuple[int, int, int], wish: int) -> Any:
    return other.build_action_space(other.build_combinations(hand), trick, wish)


def _legal(q: Question) -> bool:
    return judge(q).legal


def shuffled(rng: random.Random, n: int) -> Callable[[], list[int]]:
    """The runners' order, drawn again each time it is asked."""
    def order() -> list[int]:
        found = list(range(n))
        rng.shuffle(found)
        return found
    return order


def positions(n: int, seed: int) -> dict[str, list[tuple[bench.Position, Question]]]:
    out: dict[str, list[tuple[bench.Position, Question]]] = {}
    for name in SETS:
        rng = random.Random(f"{seed}-{name}")
        cases = [bench.FAMILIES[name](rng) for _ in range(n)]
        out[name] = [(c, bench.judged_question(rng, *c)) for c in cases]
    return out


def differences(other: Any, cases: dict[str, list[tuple[bench.Position, Question]]],
                show: int = 5) -> dict[str, int]:
    """The differential check (see the module's docstring); prints what differs."""
    count = {"positions": 0, "dog on the table (left out, [S2])": 0,
             "enumeration differs (strict wish)": 0, "judge differs (strict wish)": 0,
             "their list holds a card set twice (the sets still compared)": 0,
             "rule book differs from strict ([W5], expected)": 0,
             "judge: rule book differs from strict ([W5], expected)": 0}
    for name, pairs in cases.items():
        for (hand, top, wish), q in pairs:
            if top is not None and top.kind is Kind.DOG:
                count["dog on the table (left out, [S2])"] += 1
                continue
            count["positions"] += 1
            mine = {frozenset(map(theirs, c)) for c in legal_plays(hand, top, wish,
                                                                   STRICT).cards()}
            book = {frozenset(map(theirs, c)) for c in legal_plays(hand, top, wish).cards()}
            h = sorted(map(theirs, hand), reverse=True)
            trick = figure(top)
            space = other.build_action_space(other.build_combinations(h), trick, wish or 0)
            their = {frozenset(cards) for cards, _ in space}
            if len(their) != len(space):
                count["their list holds a card set twice (the sets still compared)"] += 1
            if book != mine:
                count["rule book differs from strict ([W5], expected)"] += 1
            if their != mine:
                count["enumeration differs (strict wish)"] += 1
                if show > 0:
                    show -= 1
                    print(f"  DIFFERENCE {name}: hand {hand} top {top} wish {wish}\n"
                          f"    only ours: {sorted(map(sorted, mine - their))[:6]}\n"
                          f"    only theirs: {sorted(map(sorted, their - mine))[:6]}")
            trick_play = (TrickPlay(top.cards),) if top is not None else ()
            strict_q = Question(play=q.play, trick=trick_play, hand=q.hand, wish=wish,
                                strict_wish=True)
            ours_legal = judge(strict_q).legal
            their_legal = their_judge(other, h, [theirs(c) for c in q.play], trick, wish or 0)
            if ours_legal != their_legal:
                count["judge differs (strict wish)"] += 1
                if show > 0:
                    show -= 1
                    print(f"  JUDGE DIFFERENCE {name}: {q} ours {ours_legal} "
                          f"theirs {their_legal}")
            if judge(q).legal != ours_legal:
                count["judge: rule book differs from strict ([W5], expected)"] += 1
    return count


Timed = dict[tuple[str, str, str, str], list[tuple[int, int]]]


def measure(other: Any, cases: dict[str, list[tuple[bench.Position, Question]]],
            seed: int) -> Timed:
    """(what, mode, set, wish or not) -> [(ours ns, theirs ns)] per position."""
    rng = random.Random(f"{seed}-order")
    timed: Timed = {}
    build, space = other.build_combinations, other.build_action_space
    for name, pairs in cases.items():
        gc.collect()
        gc.disable()
        try:
            for (hand, top, wish), q in pairs:
                if top is not None and top.kind is Kind.DOG:
                    continue
                h = sorted(map(theirs, hand), reverse=True)
                trick, w = figure(top), wish or 0
                play = [theirs(c) for c in q.play]
                combis = build(h)
                question = Question(play=q.play, trick=q.trick, hand=q.hand, wish=wish)
                split = "wish" if wish is not None else "no wish"
                pass_no_wish = not q.play and (wish is None or all(c.rank != wish for c in hand))
                ours_enum = partial(legal_plays, hand, top, wish)
                ours_judge = partial(_legal, question)
                what: dict[str, list[Callable[[], object]]] = {
                    "enumerate": [ours_enum, partial(_enumerate, other, h, trick, w)],
                    "enumerate, theirs cached": [ours_enum, partial(space, combis, trick, w)],
                    "judge": [ours_judge, partial(their_judge, other, h, play, trick, w)],
                    "judge, theirs cached": [
                        ours_judge, partial(their_judge, other, h, play, trick, w, combis)]}
                for key, calls in what.items():
                    for mode in ("rotated", "warm"):
                        ours, their = turns(calls, mode == "rotated",
                                            shuffled(rng, len(calls)))
                        timed.setdefault((key, mode, name, split), []).append((ours, their))
                        if key == "judge" and pass_no_wish:
                            timed.setdefault(("pass, no wish owed", mode, name, "all"),
                                             []).append((ours, their))
        finally:
            gc.enable()
    return timed


def report(timed: Timed) -> None:
    print(f"{'what':<25}{'mode':<8}{'set':<10}{'wish':<8}{'n':>5}{'ours µs':>9}{'p95':>7}"
          f"{'theirs µs':>11}{'p95':>8}{'per position':>14}{'p5':>7}{'p95':>7}")
    keys = sorted({(w, m) for w, m, _, _ in timed}, key=lambda k: (
        ["enumerate", "enumerate, theirs cached", "judge", "judge, theirs cached",
         "pass, no wish owed"].index(k[0]), k[1]))
    for what, mode in keys:
        groups: list[tuple[str, str, list[tuple[int, int]]]] = []
        for name in SETS:
            per = [(s, timed[what, mode, name, s]) for s in ("no wish", "wish", "all")
                   if (what, mode, name, s) in timed]
            groups += [(name, s, p) for s, p in per]
            if len(per) > 1:
                groups.append((name, "all", [x for _, p in per for x in p]))
        targeted = [x for w, m, n, _ in timed if (w, m) == (what, mode) and n != "random"
                    for x in timed[w, m, n, _]]
        groups.append(("targeted", "all", targeted))
        for name, split, pairs in groups:
            ours = [o / 1000 for o, _ in pairs]
            their = [t / 1000 for _, t in pairs]
            ratios = [t / o for o, t in pairs]
            print(f"{what:<25}{mode:<8}{name:<10}{split:<8}{len(pairs):>5}"
                  f"{percentile(ours, 50):9.2f}{percentile(ours, 95):7.1f}"
                  f"{percentile(their, 50):11.2f}{percentile(their, 95):8.1f}"
                  f"{percentile(ratios, 50):13.2f}×{percentile(ratios, 5):6.2f}×"
                  f"{percentile(ratios, 95):6.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", type=Path, required=True,
                        help="a folder outside this repository holding frohlfing/tichu's src/")
    parser.add_argument("--positions", type=int, default=1000, help="positions per set")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    other = load_other(args.other)
    with open("/proc/loadavg") as f:
        before = f.read().strip()
    cases = positions(args.positions, args.seed)
    print(f"differential check, {args.positions} positions per set, seed {args.seed}:")
    for what, n in differences(other, cases).items():
        print(f"  {what}: {n}")
    timed = measure(other, cases, args.seed)
    with open("/proc/loadavg") as f:
        after = f.read().strip()
    print(f"ours (this tree) beside frohlfing/tichu from {args.other}; {os.cpu_count()} "
          f"cores; /proc/loadavg before: {before}; after: {after}")
    report(timed)


if __name__ == "__main__":
    main()
