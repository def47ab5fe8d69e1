"""The enumerator of another checkout against this one, play for play, on many positions.

Usage: python benchmarks/plays_against.py OLD_CHECKOUT [drawn positions] [seed]

Both engines are loaded in one process (the other under another package name, as
`bench_referee_pair` does) and asked `legal_plays` on the same positions: the seeded ones
of `tests/engine/plays_cases` (the referee's questions of every variant, deck and table,
dealt hands, leads with the Phoenix, 13 ranks in a row, dense hands, the worst-case hands
with four wishes; with another seed), then as many drawn here: one or two decks, 1 to 21
cards, cards equal to the deck's but not its own objects, now and then a card of no deck,
every wish from 0 to 16 or none, the three variants' flags, in turn or out of it. Each
answer is compared as every play, in order: kind, rank (its type too: 4 is not 4.0),
length, cards, Phoenix rank, straight-flush mark, and the answer's own type. Prints the
count of positions and of differences (the first few shown); exits 1 on any difference.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_referee_pair import load_engine  # noqa: E402
from tests.engine import plays_cases  # noqa: E402
from tichu_scorer.engine.cards import DECK, Card  # noqa: E402
from tichu_scorer.engine.combos import Combination, readings  # noqa: E402
from tichu_scorer.engine.plays import Table, legal_plays  # noqa: E402

Position = plays_cases.Position


def drawn(count: int, seed: int) -> Iterator[Position]:
    """Positions of every shape the enumerator takes (see the module's docstring)."""
    rng = random.Random(seed)
    for _ in range(count):
        deck = list(DECK) * (2 if rng.random() < 0.1 else 1)
        rng.shuffle(deck)
        n = rng.choice((14, 14, 14, rng.randint(1, 21)))
        hand = deck[:n]
        if rng.random() < 0.2:  # equal cards, not the deck's own objects
            hand = [Card(c.rank, c.suit) for c in hand]
        if rng.random() < 0.01:
            hand.append(Card(rng.randint(2, 14), "x"))
        top: Combination | None = None
        if rng.random() < 0.8:
            rest = deck[n:n + 14]
            options = readings(plays_cases.verdict_cases._combination(rng, rest))
            top = rng.choice(options) if options else None
        wish = rng.randint(0, 16) if rng.random() < 0.6 else None
        table = Table(distinct_suit_fours=rng.random() < 0.15,
                      dragon_beats_dragon=rng.random() < 0.15,
                      strict_wish=rng.random() < 0.2)
        yield hand, top, wish, table, rng.random() < 0.1


def answer(plays: Any) -> list[tuple[object, ...]]:
    """Every play, in order, as plain values (the rank with its type)."""
    return [(type(plays).__name__,)] + [
        (p.kind.value, p.rank, type(p.rank).__name__, p.length, tuple(map(tuple, p.cards)),
         p.phoenix_as, p.straight_flush) for p in plays]


def convert(old: Any, position: Position) -> tuple[Any, ...]:
    """The position in the other engine's own types."""
    plays, combos = old
    card = combos.parse_cards.__globals__["Card"]
    hand, top, wish, table, out_of_turn = position
    on = None
    if top is not None:
        on = combos.Combination(combos.Kind(top.kind.value), top.rank, top.length,
                                tuple(card(*c) for c in top.cards), top.phoenix_as,
                                top.straight_flush)
    return ([card(*c) for c in hand], on, wish,
            plays.Table(table.distinct_suit_fours, table.dragon_beats_dragon,
                        table.strict_wish), out_of_turn)


def asked(enumerate_plays: Any, position: tuple[Any, ...]) -> list[tuple[object, ...]]:
    """The answer, or the exception's type and text."""
    hand, top, wish, table, out_of_turn = position
    try:
        return answer(enumerate_plays(hand, top, wish, table, out_of_turn=out_of_turn))
    except Exception as error:  # noqa: BLE001 (compared, not hidden)
        return [(type(error).__name__, str(error))]


def main() -> None:
    other = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 38038
    _, plays, combos = load_engine(other)
    old = (plays, combos)
    cases = [*plays_cases.positions(plays_cases.COUNT, seed), *drawn(count, seed)]
    differ = []
    for i, position in enumerate(cases):
        hand, top, wish, table, out_of_turn = position
        mine = asked(legal_plays, position)
        theirs = asked(plays.legal_plays, convert(old, position))
        if mine != theirs:
            differ.append(i)
            if len(differ) <= 3:
                print("differs:", i, position)
    print(f"{len(cases)} positions, {len(differ)} differences")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
