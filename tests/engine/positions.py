"""Seeded random positions for property tests and the benchmark."""

from __future__ import annotations

import random
from itertools import combinations

from tichu_scorer.engine.cards import DECK, Card
from tichu_scorer.engine.combos import Combination, Kind, beats, contains_rank, readings
from tichu_scorer.engine.holding import Holding
from tichu_scorer.engine.plays import DEFAULT_TABLE, candidates, legal_plays


def position(rng: random.Random, hand_size: int = 14):
    """(hand, top, wish): a dealt hand, a random combination on the table (or none), and a
    random wish (or none)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hand, rest = deck[:hand_size], deck[hand_size:]
    top = None
    if rng.random() < 0.85:
        other = rest[:14]
        options = [p for p in legal_plays(other, None) if p.cards]
        top = rng.choice(options)
        if top.phoenix_single and rng.random() < 0.7:
            under = Combination(top.kind, float(rng.randint(2, 14)), 1)
            top = Combination(top.kind, under.rank + 0.5, 1, top.cards)
    wish = rng.randint(2, 14) if rng.random() < 0.6 else None
    return hand, top, wish


def subsets(cards):
    for size in range(1, len(cards) + 1):
        yield from combinations(cards, size)


def brute_wish(hand: list[Card], wish: int, top) -> bool:
    """Exhaustive: some subset holding a natural `wish` card has a reading that beats `top`."""
    for subset in subsets(hand):
        if contains_rank(subset, wish) and any(beats(r, top) for r in readings(subset)):
            return True
    return False


def enumerated_wish_play(hand, wish, top, table=DEFAULT_TABLE):
    """The wish search before issue 26, kept to compare with: the first play the enumerator
    lists (exponential in the worst case: 10 s of CPU on a 13-card straight)."""
    wished = [c for c in hand if c.rank == wish]
    if not wished:
        return None
    if top is None or (top.kind is Kind.SINGLE and wish > top.rank):
        return (wished[0],)
    for group in candidates(Holding(hand), top, wish, table):
        return group[3][0]
    return None
