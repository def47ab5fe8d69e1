"""The wish search ([W2]): whether a hand can fulfil the wish with a lawful play now, and
with which play.

Built from the rules kind by kind rather than by listing plays: a play that follows the
table has the table's kind and length ([C1]–[C6]) or is a bomb ([B3]), so the search
tries each window of ranks that holds the wished rank (at most 13 a kind) and looks at
each rank of it once, the Phoenix standing in for one missing card ([S3]). Its work
grows with the number of ranks, never with the hand's subsets: at most `MAX_STEPS`
windows for any hand (issue 26; the enumerator it replaced took 10 s of CPU on a
13-card straight).

The play it names is the one the enumerator (`plays.candidates`) lists first: the lowest
play of the table's kind, natural cards before the Phoenix, the cards of each rank in the
hand's order; then the bombs, four of a kind before straight flushes (by suit, lowest
first). tests/engine/test_wish.py compares the two, and both with every subset.

>>> from .combos import readings
>>> hand = parse_cards(["4j", "5s", "7t", "8t", "PH", "Kp"])
>>> top = readings(parse_cards(["2j", "3j", "4s", "5p", "6s"]))[0]
>>> wish_play(hand, 7, top)
(4j, 5s, PH, 7t, 8t)
>>> wish_play(parse_cards(["8j", "8s", "8p", "8t", "3s"]), 8, readings(parse_cards(["Aj"]))[0])
(8j, 8s, 8p, 8t)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .budget import Budget
from .cards import ACE, MAHJONG, PH, Card, parse_cards
from .combos import Combination, Kind, beats
from .holding import Holding
from .plays import DEFAULT_TABLE, Table

Play = tuple[Card, ...]
_PH = (PH,)
_SINGLE, _PAIR, _TRIO, _STAIRS, _FULL, _STRAIGHT, _BOMB, _DOG = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STAIRS, Kind.FULL_HOUSE, Kind.STRAIGHT, Kind.BOMB,
    Kind.DOG)
# the most windows one search looks at: the table's kind (13 ranks), four of a kind, and
# the straight flushes of four suits (13 lowest ranks each)
MAX_STEPS = 13 + 1 + 4 * 13


def wish_play(hand: Sequence[Card], wish: int, top: Combination | None,
              table: Table = DEFAULT_TABLE, budget: Budget | None = None) -> Play | None:
    """[W2]: a lawful play holding a natural card of the wished rank, or None ([W3]).

    Bombs and Phoenix-assisted combinations count; the Phoenix alone does not ([W4]).
    `budget` is checked (and counted) once a window; OutOfTime when it is spent.
    """
    wished = [c for c in hand if c[0] == wish]
    if not wished:
        return None
    if top is None or (top[0] is _SINGLE and wish > top[1]):
        return (wished[0],)  # a lead, or a single that beats the table: the card itself
    if top[0] is _DOG:  # [S2]: nothing, not even a bomb
        return None
    budget = budget if budget is not None else Budget()
    h = Holding(hand)
    return _same_kind(h, wish, top, budget) or _bomb(h, wish, top, table, budget)


def _same_kind(h: Holding, m: int, top: Combination, budget: Budget) -> Play | None:
    """The lowest play of the table's kind and length that holds an `m` and beats `top`."""
    kind, above, length = top[0], top[1], top[2]
    if kind is _PAIR or kind is _TRIO:
        return _set(h, m, length, above)
    if kind is _STAIRS:
        return _stairs(h, m, length // 2, above, budget)
    if kind is _FULL:
        return _full_house(h, m, above, budget)
    if kind is _STRAIGHT:
        return _straight(h, m, length, above, budget)
    return None  # a single ranked at or above the wish, or a bomb: only a bomb beats it


def _set(h: Holding, m: int, size: int, above: float) -> Play | None:
    """[C2], [C4]: a pair or trio of `m`s, the Phoenix for one card ([S3])."""
    cards = h.at[m]
    if m <= above or not cards:
        return None
    if len(cards) >= size:
        return cards[:size]
    if h.phoenix and len(cards) == size - 1:
        return cards + _PH
    return None


def _stairs(h: Holding, m: int, pairs: int, above: float, budget: Budget) -> Play | None:
    """[C3]: `pairs` adjacent pairs, one of them at most a card and the Phoenix."""
    at, phoenix = h.at, h.phoenix
    for low in range(max(2, int(above) - pairs + 2, m - pairs + 1), min(ACE - pairs + 1, m) + 1):
        budget.check()
        cards: list[Card] = []
        filled = False
        for r in range(low, low + pairs):
            got = at[r]
            if len(got) >= 2:
                cards += got[:2]
            elif got and phoenix and not filled:
                filled = True
                cards += (got[0], PH)
            else:
                break
        else:
            return tuple(cards)
    return None


def _full_house(h: Holding, m: int, above: float, budget: Budget) -> Play | None:
    """[C5]: a trio over a pair, the `m` in either, the Phoenix in at most one of them. A
    Phoenix trio goes only over a lower pair: over a higher one the same cards read as the
    higher trio ([C9])."""
    at, phoenix, doubled = h.at, h.phoenix, h.doubled
    pair_of_m = at[m][:2] if len(at[m]) >= 2 else None
    for t in doubled:
        if t <= above:
            continue
        budget.check()
        trio = at[t][:3] if len(at[t]) >= 3 else None
        if t == m:  # the wished rank in the trio: over any pair, the lowest first
            if trio:
                pair = next((at[r][:2] for r in doubled if r != t), None)
                if pair is not None:
                    return trio + pair
                one = (next((c for c in h.cards if c[1] and c[0] != t), None)
                       if phoenix else None)
                if one is not None:
                    return trio + (one, PH)
            if phoenix and doubled[0] < t:
                return at[t][:2] + _PH + at[doubled[0]][:2]
            continue
        if trio:  # the wished rank in the pair
            if pair_of_m is not None:
                return trio + pair_of_m
            if phoenix:
                return trio + (at[m][0], PH)
        if phoenix and pair_of_m is not None and m < t:
            return at[t][:2] + _PH + pair_of_m
    return None


def _straight(h: Holding, m: int, length: int, above: float, budget: Budget) -> Play | None:
    """[C6]: `length` consecutive ranks from the Mah Jong up, the Phoenix for one missing
    rank: not at the low end but below the Ace, where the same cards read one higher."""
    at, phoenix = h.at, h.phoenix
    flushes = list(h.flush_masks.values())
    for low in range(max(MAHJONG, int(above) - length + 2, m - length + 1),
                     min(ACE - length + 1, m) + 1):
        budget.check()
        top = low + length - 1
        missing = [r for r in range(low, top + 1) if not at[r]]
        if not missing:
            play = _natural_straight(h, low, top, m, flushes)
            if play is not None:
                return play
        elif (len(missing) == 1 and phoenix and missing[0] > MAHJONG
              and (missing[0] != low or top == ACE)):
            gap = missing[0]
            return tuple(PH if r == gap else at[r][0] for r in range(low, top + 1))
    return None


def _natural_straight(h: Holding, low: int, top: int, m: int,
                      flushes: list[int]) -> Play | None:
    """The ranks low..top, each held: the first card of each rank, unless the straight is
    then all one suit ([B6]: a bomb): then the last rank that holds a card of another suit
    takes it, or else the Phoenix replaces a card (not the wished one, and not the lowest
    but at the Ace, where the same cards read one higher)."""
    at = h.at
    cards = [at[r][0] for r in range(low, top + 1)]
    span = (2 << top) - (1 << low)
    suit = cards[0][1]
    if (low == MAHJONG or not any(mask & span == span for mask in flushes)
            or any(c[1] != suit for c in cards)):
        return tuple(cards)
    for i in range(len(cards) - 1, -1, -1):
        other = next((c for c in at[low + i] if c[1] != suit), None)
        if other is not None:
            cards[i] = other
            return tuple(cards)
    if not h.phoenix:
        return None
    first = low if top == ACE else low + 1
    place = next((p for p in range(first, top + 1) if p != m), None)
    if place is None:
        return None
    cards[place - low] = PH
    return tuple(cards)


def _bomb(h: Holding, m: int, top: Combination, table: Table, budget: Budget) -> Play | None:
    """[B1]: a bomb holding an `m` that beats `top` ([B2], [B3]): four `m`s (of four suits
    in Grand Seigneur, [GS3]), else the first straight flush through the `m`, by suit."""
    if len(h.cards) < 4:
        return None
    at = h.at
    budget.check()
    four = next((cards for cards in combinations(at[m], 4) if not table.distinct_suit_fours
                 or len({c[1] for c in cards}) == 4), None)  # (at most 8 cards: two decks)
    if four is not None and beats(Combination(_BOMB, m, 4), top):
        return four
    for suit, mask in h.flush_masks.items():
        if not mask >> m & 1:
            continue
        low = high = m  # the run of this suit's ranks through m
        while mask >> (low - 1) & 1:
            low -= 1
        while high < ACE and mask >> (high + 1) & 1:
            high += 1
        for bottom in range(low, min(m, high - 4) + 1):
            budget.check()
            for end in range(max(bottom + 4, m), high + 1):
                if beats(Combination(_BOMB, end, end - bottom + 1, (), None, True), top):
                    return tuple(next(c for c in at[r] if c[1] == suit)
                                 for r in range(bottom, end + 1))
    return None


__all__ = ["wish_play", "MAX_STEPS", "parse_cards"]
