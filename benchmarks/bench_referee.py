"""Referee speed: judging one play (verdict with its reason, wish search included) and
enumerating every legal play, over seeded random positions and the worst cases.

Usage: python benchmarks/bench_referee.py [positions per family] [seed]

Families of positions (each a 14-card hand unless said otherwise):
  random       a dealt hand, a random combination on the table (15 % leads), a wish 60 %
  lead+PH      a dealt hand holding the Phoenix, leading on an empty table, a wish 50 %
  runs+PH      13 consecutive ranks of mixed suits and the Phoenix, leading (issue 11)
  dense        three or four ranks in every suit plus specials; a lead or a follow
  bombs        the out-of-turn check: every bomb that beats the table (enumerate), and a
               bomb (or, for a hand without one, another play) thrown out of turn (judge)

What "enumerate" times: one `legal_plays` call, which returns a `Plays` sequence. When it
returns, every legal play's card set exists as a tuple of cards (in lists, one list per
group of plays that share a reading), and every play's kind, rank, length, Phoenix rank
and straight-flush mark is stored (per group, or per play where they differ within a
group); what it does not build is a `Combination` named tuple per play: those are made
when the sequence is indexed or iterated. "enumerate, then read" times
`list(legal_plays(...))`, every play built as a `Combination` too, so the cost that the
answer's format moves to its reader is printed beside it (it has no target).

"judge" reads the whole answer (`as_dict`, the reason written); "its rule read" stops at
the verdict's rule, as a caller that wants no prose does (the reason is written when read).

Each position is timed five times with the garbage collector off; its fastest run
counts (scheduling noise only ever adds time; the engine caches no result, so a repeat
costs what the first run did). Reported: median, p99 and max over the positions of each
family, then "all": the same over every position of every family pooled (the issue's
targets do not say which median they mean, so both are printed). The machine's load
average is printed before and after: the figures only mean something on an idle machine.
"""

from __future__ import annotations

import gc
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer.engine.cards import DECK, DR, MJ, PH, SUITS, Card  # noqa: E402
from tichu_scorer.engine.combos import Combination  # noqa: E402
from tichu_scorer.engine.plays import legal_plays  # noqa: E402
from tichu_scorer.engine.referee import Question, TrickPlay, judge  # noqa: E402

Position = tuple[list[Card], Combination | None, int | None]
TARGETS = {"enumerate": (30.0, 300.0, 2000.0), "judge": (15.0, 60.0, None)}


def _top_from(rng: random.Random, cards: list[Card]) -> Combination | None:
    options = [p for p in legal_plays(cards, None) if p.cards and p.cards != (PH,)]
    return rng.choice(options) if options else None


def random_position(rng: random.Random) -> Position:
    deck = list(DECK)
    rng.shuffle(deck)
    hand, other = deck[:14], deck[14:28]
    top = _top_from(rng, other) if rng.random() < 0.85 else None
    return hand, top, rng.randint(2, 14) if rng.random() < 0.6 else None


def lead_with_phoenix(rng: random.Random) -> Position:
    deck = [c for c in DECK if c != PH]
    rng.shuffle(deck)
    return deck[:13] + [PH], None, rng.randint(2, 14) if rng.random() < 0.5 else None


def runs_with_phoenix(rng: random.Random) -> Position:
    low = rng.choice((1, 2))  # from the Mah Jong or from the 2
    hand = [MJ if r == 1 else Card(r, rng.choice(SUITS)) for r in range(low, low + 13)]
    if len({c.suit for c in hand if c.suit}) == 1:
        hand[-1] = Card(hand[-1].rank, SUITS[(SUITS.index(hand[-1].suit) + 1) % 4])
    return hand + [PH], None, rng.randint(2, 14) if rng.random() < 0.3 else None


def dense(rng: random.Random) -> Position:
    ranks = rng.sample(range(2, 15), rng.choice((3, 4)))
    if len(ranks) == 3 or rng.random() < 0.5:  # consecutive ranks make the longest stairs
        start = rng.randint(2, 15 - len(ranks))
        ranks = list(range(start, start + len(ranks)))
    pool = [Card(r, s) for r in ranks for s in SUITS]
    hand = [PH] + pool[:13]
    for extra in (MJ, DR):
        if len(hand) < 14:
            hand.append(extra)
    rest = [c for c in DECK if c not in hand]
    rng.shuffle(rest)
    top = _top_from(rng, rest[:14]) if rng.random() < 0.5 else None
    return hand, top, rng.choice(ranks) if rng.random() < 0.5 else None


FAMILIES: dict[str, Callable[[random.Random], Position]] = {
    "random": random_position, "lead+PH": lead_with_phoenix, "runs+PH": runs_with_phoenix,
    "dense": dense, "bombs": random_position}


def judged_question(rng: random.Random, hand: list[Card], top: Combination | None,
                    wish: int | None) -> Question:
    """A random combination of the hand (lawful now or not), or a pass, as a question."""
    plays = legal_plays(hand, None)
    play = rng.choice(plays).cards if rng.random() < 0.8 else ()
    trick = (TrickPlay(top.cards),) if top is not None else ()
    return Question(play=play, trick=trick, hand=tuple(hand), wish=wish)


def out_of_turn_question(rng: random.Random, hand: list[Card], top: Combination | None,
                         wish: int | None) -> Question:
    """A bomb of the hand thrown out of turn on the table (another combination when the
    hand holds no bomb): the opponent's check, judged."""
    plays = legal_plays(hand, None)
    bombs = [p for p in plays if p.is_bomb]
    play = rng.choice(bombs or plays).cards
    trick = (TrickPlay(top.cards),) if top is not None else ()
    return Question(play=play, trick=trick, hand=tuple(hand), wish=wish, out_of_turn=True)


def fastest(fn: Callable[[], object], repeats: int = 5) -> int:
    clock = time.perf_counter_ns
    best = None
    for _ in range(repeats):
        t0 = clock()
        fn()
        elapsed = clock() - t0
        best = elapsed if best is None else min(best, elapsed)
    assert best is not None
    return best


def stats(ns: list[int]) -> tuple[float, float, float]:
    s = sorted(ns)
    return (s[len(s) // 2] / 1000, s[min(len(s) - 1, int(len(s) * 0.99))] / 1000,
            s[-1] / 1000)


def line(name: str, ns: list[int]) -> str:
    median, p99, most = stats(ns)
    return f"  {name:<10} median {median:7.1f} µs   p99 {p99:7.1f} µs   max {most:8.1f} µs"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    load_before = os.getloadavg()
    enum_ns: dict[str, list[int]] = {}
    judge_ns: dict[str, list[int]] = {}
    rule_ns: dict[str, list[int]] = {}
    read_ns: dict[str, list[int]] = {}
    every: dict[str, list[Position]] = {}
    worst: tuple[int, str, Position] | None = None
    for family, make in FAMILIES.items():
        rng = random.Random(f"{seed}-{family}")
        cases = [make(rng) for _ in range(n)]
        if family == "bombs":  # an opponent's check: bombs that beat the table, out of turn
            cases = [(h, t, None) for h, t, _ in cases if t is not None]
        ask = out_of_turn_question if family == "bombs" else judged_question
        questions = [ask(rng, *case) for case in cases]
        gc.collect()
        gc.disable()
        try:
            out_of_turn = family == "bombs"
            enum_ns[family] = [fastest(lambda c=c, o=out_of_turn: legal_plays(
                c[0], c[1], c[2], out_of_turn=o)) for c in cases]
            judge_ns[family] = [fastest(lambda q=q: judge(q).as_dict()) for q in questions]
            rule_ns[family] = [fastest(lambda q=q: judge(q).rule) for q in questions]
        finally:
            gc.enable()
        every[family] = cases
        slowest = max(range(len(cases)), key=enum_ns[family].__getitem__)
        if worst is None or enum_ns[family][slowest] > worst[0]:
            worst = (enum_ns[family][slowest], family, cases[slowest])
    # Reading last, after every family: building ~10^6 combinations before the other
    # timings slowed the judge timed after them by a third in this process.
    gc.collect()
    gc.disable()
    try:
        for family, cases in every.items():
            read_ns[family] = [fastest(lambda c=c, o=family == "bombs": list(legal_plays(
                c[0], c[1], c[2], out_of_turn=o))) for c in cases]
    finally:
        gc.enable()
    load = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(load_before, os.getloadavg(), strict=True))
    print(f"Python {platform.python_version()} on {platform.machine()} ({os.cpu_count()} "
          f"cores), {n} positions per family, seed {seed}; load average 1/5/15 min "
          f"before/after: {load}")
    for title, table in (("enumerate every legal play", enum_ns),
                         ("enumerate, then read every play as a Combination", read_ns),
                         ("judge one play (verdict with its reason)", judge_ns),
                         ("judge one play, its rule read (the reason not written)", rule_ns)):
        print(title)
        for family, ns in table.items():
            print(line(family, ns) + f"   ({len(ns)} positions)")
        everything = [t for ns in table.values() for t in ns]
        print(line("all", everything))
        if table is read_ns or table is rule_ns:
            continue
        median, p99, most = TARGETS["enumerate" if table is enum_ns else "judge"]
        print(f"  {'target':<10} median {median:7.1f} µs   p99 {p99:7.1f} µs   max "
              + (f"{most:8.1f} µs" if most else "       –"))
    if worst is not None:
        hand, top, wish = worst[2]
        print(f"slowest enumeration ({worst[0] / 1000:.0f} µs, {worst[1]}): hand "
              f"{' '.join(map(repr, hand))}, on {top!r}, wish {wish}")


if __name__ == "__main__":
    main()
