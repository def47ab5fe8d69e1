"""Plays of each kind a hand can make (RULES.md §3–§5), for the enumerator and the wish
search in `plays`; the runs (straights, stairs) are in `runs`.

Every generator takes an optional `must` rank (only plays holding a natural card of that
rank) and an optional `above` rank (only plays ranked higher), and returns a list of
groups (`playlist.Group`): plays that share a reading, their card sets in a list, built
into combinations only when read. A card set that reads more than one way ([C9]) is
produced once, in its highest reading: the Phoenix is placed first (or not at all), then
the natural cards are multiplied out, by `itertools` where there are many.

>>> [c.describe() for c in Plays(full_houses(Holding(parse_cards(["4j", "4s", "5t", "5j",
...                                                                "PH"]))))]
['full house of 5s over 4s, Phoenix as 5']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product, repeat
from operator import itemgetter

from .cards import ACE, DOG_CARD, DRAGON, MAHJONG, MJ, PH, Card, parse_cards
from .combos import Kind
from .holding import BIT, Holding, card_bits, no_bomb
from .playlist import Cards, Group, Plays
from .runs import joined, stairs, straights

_PH = (PH,)
_rank_of = itemgetter(0)
_SINGLE, _PAIR, _TRIO, _FULL, _BOMB, _DOG = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.FULL_HOUSE, Kind.BOMB, Kind.DOG)


def singles(h: Holding, above: float = 0, must: int | None = None,
            dragon_beats_dragon: bool = False) -> list[Group]:
    """[C1], [S1]–[S5]: every single that beats a single of rank `above` (0: every single,
    a lead), as `beats` says: the natural cards above it, the Mah Jong below 1, the Dragon
    (on the Dragon only in Grand Seigneur, [GS3]) and the Phoenix below the Dragon, the
    Dog leading; with `must`, only the natural cards of that rank. The natural cards form
    one group, a rank per card."""
    cards: Sequence[Card]
    if must or above < 2:
        cards, ranks = h.naturals(above, must)
    else:  # a follow: the cards above, without indexing the hand
        cards = h.singles_above(above)
        ranks = list(map(_rank_of, cards))
    out: list[Group] = [(_SINGLE, ranks, 1, list(zip(cards)), None, False)] if cards else []
    if must:
        return out
    if h.mahjong and above < MAHJONG:
        out.append((_SINGLE, MAHJONG, 1, [(MJ,)], None, False))
    if h.dragons and (above < DRAGON or dragon_beats_dragon and above == DRAGON):
        out.append((_SINGLE, DRAGON, 1, list(zip(h.dragons)), None, False))
    if h.phoenix and above < DRAGON:
        out.append((_SINGLE, 1.5, 1, [_PH], None, False))
    if h.dog and not above:
        out.append((_DOG, 0, 1, [(DOG_CARD,)], None, False))
    return out


def sets(h: Holding, size: int, must: int | None = None, above: float = 0) -> list[Group]:
    """Pairs (size 2) and trios (size 3), [C2], [C4]; the Phoenix for one card ([S3]).
    A pair of a card and the Phoenix: one group, a rank per play."""
    doubled = h.doubled if above < 2 and not must else h.doubled_above(above, must)
    at = h.index() if doubled else h.at  # (no index when no rank is held twice)
    if size == 2:  # a lead's pairs are the table the stairs and full houses share
        out: list[Group]
        if not doubled:  # (a comprehension is a call)
            out = []
        elif above < 2:
            twos = h.twos
            out = [(_PAIR, r, 2, twos[r], None, False) for r in doubled]
        else:
            out = [(_PAIR, r, 2, list(combinations(at[r], 2)), None, False) for r in doubled]
        if h.phoenix:
            cards, ranks = h.naturals(above, must)
            if cards:
                out.append((_PAIR, ranks, 2, list(zip(cards, repeat(PH))), ranks, False))
        return out
    if not doubled:
        return []
    trios = h.trios
    out = [(_TRIO, r, 3, list(combinations(at[r], 3)), None, False)
           for r in doubled if trios >> r & 1] if trios else []
    if h.phoenix:
        if above < 2:
            with_phoenix = h.phoenix_trios(must)
            out += [(_TRIO, r, 3, with_phoenix[r], r, False) for r in doubled]
        else:  # following a trio: the ranks above it only
            out += [(_TRIO, r, 3, [two + _PH for two in combinations(at[r], 2)], r, False)
                    for r in doubled]
    return out


def full_houses(h: Holding, must: int | None = None, above: float = 0) -> list[Group]:
    """[C5]: a trio and a pair of another rank; the Phoenix in at most one of them.

    Two natural pairs and the Phoenix read as either full house: only the higher trio is
    produced ([C9]). The pairs of every rank, in order, are one list: those of the ranks
    below the trio's are a slice of it."""
    ph, trios = h.phoenix, h.trios
    if not trios and not (ph and h.pairs):
        return []
    at = h.index()
    doubled = h.doubled
    if must and not h.pairs >> must & 1:  # one `must`: with the Phoenix under a trio
        out: list[Group] = []
        if ph:
            for t in doubled:
                if t > above and trios >> t & 1:
                    _with_one(h, t, list(combinations(at[t], 3)), must, out)
        return out
    twos = h.twos
    begin = [0] * len(twos)
    every: list[Cards] = []
    if not must or h.pairs >> must & 1:  # (else `must` is in no trio)
        for p in doubled:
            begin[p] = len(every)
            every += twos[p]
    out = []
    with_phoenix: list[list[Cards]] | None = None  # `phoenix_trios`, when first needed
    for t in doubled:
        if t <= above:
            continue
        if not must or must == t:  # (`must` in the trio: any pair)
            below = every[:begin[t]]
            others = below + every[begin[t] + len(twos[t]):] if trios >> t & 1 else below
        else:  # `must` in the pair
            others = twos[must]
            below = others if must < t else []
        if trios >> t & 1:
            heads = list(combinations(at[t], 3))
            if others:
                out.append((_FULL, t, 5, joined(heads, others), None, False))
            if ph:  # a card of another rank with the Phoenix: a rank per play
                _with_one(h, t, heads, must, out)
        if ph and below:  # for p > t the same cards read higher as trio p over t
            if with_phoenix is None:
                with_phoenix = h.phoenix_trios(must)
            out.append((_FULL, t, 5, joined(with_phoenix[t], below), t, False))
    return out


def _with_one(h: Holding, t: int, heads: Sequence[Cards], must: int | None,
              out: list[Group]) -> None:
    """The full houses of the trios `heads` of rank t over one card of another rank (of
    `must`'s when it is not t) and the Phoenix: a rank per play."""
    if must and must != t:
        ones: Sequence[Card] = h.at[must]
    else:
        ones = [c for c in h.cards if c[1] and c[0] != t]
    if ones:
        out.append((_FULL, t, 5, joined(heads, list(zip(ones, repeat(PH)))),
                    list(map(_rank_of, ones)) * len(heads), False))


def fours(h: Holding, must: int | None, distinct_suits: bool) -> list[Group]:
    """[B1] four of a kind ([GS3]: of four different suits in Grand Seigneur)."""
    out: list[Group] = []
    four, at = h.fours, h.index()
    for r in [must] if must else [r for r in h.doubled if four >> r & 1]:
        found: list[Cards] = [four for four in combinations(at[r], 4)
                 if not distinct_suits or len({c.suit for c in four}) == 4]
        if found:
            out.append((_BOMB, r, 4, found, None, False))
    return out


def straight_flushes(h: Holding, must: int | None = None) -> list[Group]:
    """[B1] straight flushes: runs of five or more ranks in one suit (two decks: either
    copy of a card)."""
    out: list[Group] = []
    for suit, mask in h.flush_masks.items():
        low = 2
        while low <= ACE - 4:
            if not mask >> low & 1:
                low += 1
                continue
            high = low
            while high < ACE and mask >> (high + 1) & 1:
                high += 1
            if high - low >= 4:
                h.index()
                _flushes(h, suit, low, high, must, out)
            low = high + 1
    return out


def _flushes(h: Holding, suit: str, low: int, high: int, must: int | None,
             out: list[Group]) -> None:
    """Every straight flush inside the run low..high of `suit`."""
    picks = [[c for c in h.at[r] if c.suit == suit] for r in range(low, high + 1)]
    for bottom in range(low, high - 3):
        if must and must < bottom:
            break
        for top in range(max(bottom + 4, must or 0), high + 1):
            out.append((_BOMB, top, top - bottom + 1,
                        list(product(*picks[bottom - low:top - low + 1])), None, True))


def bombs(h: Holding, must: int | None = None, distinct_suits: bool = False
          ) -> list[Group]:
    """[B1]: four of a kind and straight flushes (with `must`: holding that rank)."""
    if len(h.cards) < 4:
        return []
    out = fours(h, must, distinct_suits) if h.fours else []
    if h.flush_masks:
        out += straight_flushes(h, must)
    return out


__all__ = ["BIT", "Holding", "Plays", "card_bits", "no_bomb", "singles", "sets", "full_houses",
           "straights", "stairs", "fours", "straight_flushes", "bombs", "parse_cards"]
