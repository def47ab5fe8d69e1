"""The readings search as it was before the table in `combos` replaced it: every rank the
Phoenix could stand for is tried against the definitions of [C1]–[C7] and [B1]. Kept as
the tests' oracle for `readings`."""

from __future__ import annotations

from collections.abc import Sequence

from tichu_scorer.engine.cards import DOG_CARD, MAHJONG, PH, PHOENIX, Card
from tichu_scorer.engine.combos import PASS, Combination, Kind


def _classify(counts: dict[int, int], n: int) -> tuple[Kind, int] | None:
    """The kind and top rank of natural cards given as rank -> count, or None ([C1]–[C7])."""
    ranks = sorted(counts)
    if n == 2 and len(ranks) == 1:
        return (Kind.PAIR, ranks[0]) if ranks[0] >= 2 else None
    if n == 3 and len(ranks) == 1:
        return (Kind.TRIO, ranks[0]) if ranks[0] >= 2 else None
    if n == 5 and len(ranks) == 2 and ranks[0] >= 2:
        a, b = ranks
        if counts[a] == 3 and counts[b] == 2:
            return Kind.FULL_HOUSE, a
        if counts[b] == 3 and counts[a] == 2:
            return Kind.FULL_HOUSE, b
        return None
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        return None
    if n >= 4 and n % 2 == 0 and ranks[0] >= 2 and all(counts[r] == 2 for r in ranks):
        return Kind.STAIRS, ranks[-1]
    if n >= 5 and len(ranks) == n:
        return Kind.STRAIGHT, ranks[-1]
    return None


def _natural_reading(cards: tuple[Card, ...], suits: set[str],
                     distinct_suit_fours: bool) -> list[Combination]:
    """The one reading of four or more natural cards, or [] ([C3], [C5], [C6], [B1])."""
    n = len(cards)
    ranks = sorted(c.rank for c in cards)
    low, high = ranks[0], ranks[-1]
    if low == high:
        if n == 4 and (not distinct_suit_fours or len(suits) == 4):
            return [Combination(Kind.BOMB, low, 4, cards)]
        return []
    if n >= 5 and high - low == n - 1 and len(set(ranks)) == n:
        if len(suits) == 1:
            return [Combination(Kind.BOMB, high, n, cards, straight_flush=True)]
        return [Combination(Kind.STRAIGHT, high, n, cards)]
    if n == 5:
        if ranks[1] == low and ranks[3] == high and ranks[2] in (low, high):
            return [Combination(Kind.FULL_HOUSE, ranks[2], 5, cards)]
        return []
    if n % 2 == 0 and high - low == n // 2 - 1 and ranks[0::2] == ranks[1::2] \
            and len(set(ranks)) == n // 2:
        return [Combination(Kind.STAIRS, high, n, cards)]
    return []


def brute_readings(cards: Sequence[Card], distinct_suit_fours: bool = False) -> list[Combination]:
    """Every reading of `cards` as one combination, highest first; [] when there is none.

    A straight flush reads only as a bomb ([B6]); a Phoenix single reads as 1½ (its value
    on the table is set by `on_table`).
    """
    n = len(cards)
    if n == 0:
        return [PASS]
    if n == 1:
        c = cards[0]
        if c == DOG_CARD:
            return [Combination(Kind.DOG, 0, 1, (c,))]
        if c == PH:
            return [Combination(Kind.SINGLE, 1.5, 1, (c,))]
        return [Combination(Kind.SINGLE, c.rank, 1, (c,))]
    if n <= 3 and PH not in cards:  # the common short plays, without the general search
        rank = cards[0].rank
        if cards[0].suit and all(c.rank == rank and c.suit for c in cards):
            return [Combination(Kind.PAIR if n == 2 else Kind.TRIO, rank, n, tuple(cards))]
        return []
    suits = {c.suit for c in cards}
    if "" not in suits:  # natural cards only: the common long plays, read directly
        return _natural_reading(tuple(cards), suits, distinct_suit_fours)
    counts: dict[int, int] = {}
    suits = set()
    phoenixes = 0
    specials = False
    for rank, suit in cards:  # one pass: ranks, suits, special cards
        if suit:
            counts[rank] = counts.get(rank, 0) + 1
            suits.add(suit)
        elif rank == PHOENIX:
            phoenixes += 1
            specials = True
        elif rank == MAHJONG:
            counts[1] = counts.get(1, 0) + 1
            specials = True
        else:
            return []  # [C8], [S5]: the Dog and the Dragon only ever play alone
    if not specials:  # [B1]: bombs hold no special card
        if n == 4 and len(counts) == 1 and (not distinct_suit_fours or len(suits) == 4):
            return [Combination(Kind.BOMB, cards[0].rank, 4, tuple(cards))]
        if n >= 5 and len(suits) == 1 and len(counts) == n \
                and max(counts) - min(counts) == n - 1:
            return [Combination(Kind.BOMB, max(counts), n, tuple(cards), straight_flush=True)]
    if phoenixes > 1 or not counts:
        return []
    tcards = tuple(cards)
    found: list[Combination] = []
    if not phoenixes:
        kind = _classify(counts, n)
        if kind and (MAHJONG not in counts or kind[0] is Kind.STRAIGHT):
            found.append(Combination(kind[0], kind[1], n, tcards))
        return found
    low, high = min(counts), max(counts)
    # [S3]: the Phoenix stands for 2..A, never the Mah Jong; any reading has it next to or
    # among the natural ranks, so only those ranks need trying.
    for stand in range(max(2, low - 1), min(14, high + 1) + 1):
        trial = dict(counts)
        trial[stand] = trial.get(stand, 0) + 1
        kind = _classify(trial, n)
        if kind and (MAHJONG not in trial or kind[0] is Kind.STRAIGHT):
            found.append(Combination(kind[0], kind[1], n, tcards, phoenix_as=stand))
    found.sort(key=lambda c: -c.rank)
    return found
