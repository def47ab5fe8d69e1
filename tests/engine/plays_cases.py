"""Seeded enumerations of every kind, and a digest of each answer: the harness that holds
`legal_plays` to the enumerator before issue 38's item 3 (commit 1967ec7), whose digests are
kept in `plays_digests.txt`. An answer is every play, in order, as kind, rank, length,
cards, Phoenix rank and straight-flush mark.

The positions are drawn with the engine's constructors, `readings` and the referee's
`replay` only (never the enumerator, whose order is what is held): the questions of
`verdict_cases` (variants, two decks, house tables, wishes, out of turn), dealt hands with
a combination of the rest on the table, leads holding the Phoenix, 13 ranks in a row with
the Phoenix, dense hands, and the worst-case hands of `test_worst_cases`. To write the
digests of another checkout (run from this tree):

    PYTHONPATH=OTHER_CHECKOUT python tests/engine/plays_cases.py > digests.txt
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

if __name__ == "__main__":  # run as a script: the engine from PYTHONPATH, else this tree
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from tests.engine import verdict_cases
from tests.engine.test_worst_cases import HANDS
from tichu_scorer.engine.cards import DECK, DR, MJ, PH, SUITS, Card, parse_cards
from tichu_scorer.engine.combos import Combination, readings
from tichu_scorer.engine.plays import Table, legal_plays
from tichu_scorer.engine.questions import QuestionError, replay

COUNT = 3000  # drawn positions, besides the worst-case hands
SEED = 38
Position = tuple[list[Card], Combination | None, int | None, Table, bool]
WORST = HANDS


def _top(rng: random.Random, rest: list[Card]) -> Combination | None:
    options = readings(verdict_cases._combination(rng, rest[:14]))
    return options[0] if options and options[0].cards != (PH,) else None


def _dealt(rng: random.Random) -> tuple[list[Card], Combination | None]:
    kind = rng.random()
    if kind < 0.4:  # a dealt hand
        deck = list(DECK)
        rng.shuffle(deck)
        return deck[:14], _top(rng, deck[14:]) if rng.random() < 0.85 else None
    if kind < 0.6:  # a lead holding the Phoenix
        deck = [c for c in DECK if c != PH]
        rng.shuffle(deck)
        return deck[:13] + [PH], None
    if kind < 0.75:  # 13 ranks in a row and the Phoenix
        low = rng.choice((1, 2))
        hand = [MJ if r == 1 else Card(r, rng.choice(SUITS)) for r in range(low, low + 13)]
        return hand + [PH], None
    ranks = rng.sample(range(2, 15), rng.choice((3, 4)))  # dense: few ranks, every suit
    hand = ([PH] + [Card(r, s) for r in ranks for s in SUITS] + [MJ, DR])[:14]
    rest = [c for c in DECK if c not in hand]
    rng.shuffle(rest)
    return hand, _top(rng, rest) if rng.random() < 0.5 else None


def positions(count: int = COUNT, seed: int = SEED) -> Iterator[Position]:
    rng = random.Random(seed)
    for hand in WORST:
        for wish in (None, 4, 7, 14):
            yield parse_cards(hand.split()), None, wish, Table(), False
    for i in range(count):
        if i % 2:  # a referee's question: its hand, the top of its trick, its rules
            q = verdict_cases.draw(rng)
            try:
                top = replay(q.trick, q.table)[0]
            except QuestionError:
                top = None
            yield list(q.hand or q.play), top, q.wish, q.table, q.out_of_turn
        else:
            hand, top = _dealt(rng)
            wish = rng.randint(2, 14) if rng.random() < 0.6 else None
            yield hand, top, wish, Table(strict_wish=rng.random() < 0.1), rng.random() < 0.1


def digest(position: Position) -> str:
    hand, top, wish, table, out_of_turn = position
    plays = legal_plays(hand, top, wish, table, out_of_turn=out_of_turn)
    text = repr([(p.kind.value, p.rank, p.length, p.cards, p.phoenix_as, p.straight_flush)
                 for p in plays])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


if __name__ == "__main__":
    for position in positions():
        print(digest(position))
