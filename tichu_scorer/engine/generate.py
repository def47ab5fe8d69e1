"""Plays of each kind a hand can make (RULES.md §3–§5), for the enumerator and the wish
search in `plays`.

Every generator takes an optional `must` rank (only plays holding a natural card of that
rank) and an optional `above` rank (only plays ranked higher), and returns a list. A card
set that reads more than one way ([C9]) is produced once, in its highest reading: the
Phoenix is placed first (or not at all), then the natural cards are multiplied out, each
run extended from its shorter prefix. Combinations are built with `tuple.__new__`, which
skips the named tuple's Python-level constructor: the enumerator builds thousands.

>>> h = Holding(parse_cards(["4j", "5s", "6t", "7t", "PH", "Kp"]))
>>> [c.describe() for c in straights(h)]  # not also as 3–7: the same cards read higher
['straight 4–8, Phoenix as 8']
>>> [c.describe() for c in stairs(Holding(parse_cards(["4j", "4s", "5t", "PH"])))]
['stairs 4–5 (2 pairs), Phoenix as 5']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from .cards import ACE, DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, SUITS, Card, parse_cards
from .combos import Combination, Kind

_new = tuple.__new__
_C = Combination
_PH = (PH,)
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_SINGLE, _PAIR, _TRIO, _STAIRS, _FULL, _STRAIGHT, _BOMB, _DOG = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STAIRS, Kind.FULL_HOUSE, Kind.STRAIGHT, Kind.BOMB,
    Kind.DOG)


class Holding:
    """A hand indexed by rank: `at[r]` the natural cards of rank r (the Mah Jong at 1),
    `by_rank` the same for the ranks held, in rank order; `flush_masks` built on first use."""

    __slots__ = ("cards", "by_rank", "at", "_bits", "_masks", "phoenix", "mahjong", "dragons",
                 "dog")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        at: list[list[Card]] = [[] for _ in range(ACE + 1)]
        specials = []
        bits = [0, 0, 0, 0]  # per suit, bit r for rank r
        for c in cards:
            rank, suit = c
            if suit:  # a natural card
                at[rank].append(c)
                bits[_SUIT_INDEX[suit]] |= 1 << rank
            else:
                specials.append(c)
        self._bits = bits
        self.by_rank = {r: cs for r, cs in enumerate(at) if cs}  # in rank order
        self.phoenix = PH in specials
        self.mahjong = MJ in specials
        self.dog = DOG_CARD in specials
        self.dragons = [c for c in specials if c == DR]
        if self.mahjong:
            at[MAHJONG] = [MJ]
        self.at = at
        self._masks: dict[str, int] | None = None

    @property
    def flush_masks(self) -> dict[str, int]:
        """suit -> the ranks held in that suit (bit r for rank r), for the suits holding
        five ranks in a row, which a straight flush needs."""
        if self._masks is None:
            self._masks = {suit: m for suit, m in zip(SUITS, self._bits, strict=True)
                           if m & m >> 1 & m >> 2 & m >> 3 & m >> 4}
        return self._masks

    def ranks_above(self, above: float, must: int | None) -> list[int]:
        """The natural ranks above `above`, or only `must` when given."""
        if must:
            return [must] if must > above and must in self.by_rank else []
        return [r for r in self.by_rank if r > above]  # by_rank is built in rank order


def singles(h: Holding, above: float = 0, must: int | None = None) -> list[Combination]:
    """[C1], [S1]–[S5]: every single; with `must`, only the natural cards of that rank."""
    out = [_new(_C, (_SINGLE, r, 1, (c,), None, False))
           for r in h.ranks_above(above, must) for c in h.by_rank[r]]
    if must:
        return out
    if h.mahjong and above < MAHJONG:
        out.append(_new(_C, (_SINGLE, MAHJONG, 1, (MJ,), None, False)))
    out += [_new(_C, (_SINGLE, DRAGON, 1, (d,), None, False)) for d in h.dragons]
    if h.phoenix:
        out.append(_new(_C, (_SINGLE, 1.5, 1, _PH, None, False)))
    if h.dog:
        out.append(_new(_C, (_DOG, 0, 1, (DOG_CARD,), None, False)))
    return out


def sets(h: Holding, size: int, must: int | None = None, above: float = 0) -> list[Combination]:
    """Pairs (size 2) and trios (size 3), [C2], [C4]; the Phoenix for one card ([S3])."""
    kind, by_rank = (_PAIR if size == 2 else _TRIO), h.by_rank
    ranks = h.ranks_above(above, must)
    out = [_new(_C, (kind, r, size, combo, None, False))
           for r in ranks if len(by_rank[r]) >= size for combo in combinations(by_rank[r], size)]
    if h.phoenix:
        out += [_new(_C, (kind, r, size, combo + _PH, r, False))
                for r in ranks for combo in combinations(by_rank[r], size - 1)]
    return out


def full_houses(h: Holding, must: int | None = None, above: float = 0) -> list[Combination]:
    """[C5]: a trio and a pair of another rank; the Phoenix in at most one of them.

    Two natural pairs and the Phoenix read as either full house: only the higher trio is
    produced ([C9])."""
    ph, by_rank = h.phoenix, h.by_rank
    every = [(p, pair) for p, cs in by_rank.items() if len(cs) > 1
             for pair in combinations(cs, 2)]
    pairs = [x for x in every if x[0] == must] if must else every  # `must` in the pair
    out: list[Combination] = []
    for t in h.ranks_above(above, None):
        cards = by_rank[t]
        pairs_t = every if t == must else pairs  # `must` in the trio: any pair
        if len(cards) >= 3:
            trios = list(combinations(cards, 3))
            out += [_new(_C, (_FULL, t, 5, trio + pair, None, False))
                    for trio in trios for p, pair in pairs_t if p != t]
            if ph:
                out += [_new(_C, (_FULL, t, 5, trio + (c, PH), c.rank, False))
                        for trio in trios for c in h.cards
                        if c.suit and c.rank != t and (not must or must in (t, c.rank))]
        if ph and len(cards) >= 2:  # for p > t the same cards read higher as trio p over t
            out += [_new(_C, (_FULL, t, 5, two + _PH + pair, t, False))
                    for two in combinations(cards, 2) for p, pair in pairs_t if p < t]
    return out


def _reach(h: Holding, need: int, first: int) -> list[int]:
    """reach[low] for every low from `first`: the highest top of a run from `low` with
    `need` natural cards at every rank, bar one rank one card short that the Phoenix makes
    up (never the Mah Jong's 1, [S3]); below `low` when there is none."""
    at = h.at
    short = [ACE + 1] * (ACE + 2)  # short[r]: the lowest rank >= r with too few cards
    for r in range(ACE, first - 1, -1):
        short[r] = short[r + 1] if len(at[r]) >= need else r
    reach = [0] * (ACE + 1)
    for low in range(first, ACE + 1):
        gap = short[low]
        filled = gap <= ACE and h.phoenix and gap != MAHJONG and len(at[gap]) == need - 1
        reach[low] = short[gap + 1] - 1 if filled else gap - 1
    return reach


def _grow(options: Sequence[Sequence[tuple[Card, ...]]],
          phoenix: Sequence[Sequence[tuple[Card, ...]]], low: int, highest: int,
          shortest: int) -> Iterator[tuple[int, list[tuple[Card, ...]],
                                           list[tuple[Card, ...]]]]:
    """(top, natural runs, Phoenix runs) of the runs low..top for every top from the
    `shortest` on: each run is its prefix one rank shorter extended by one of the rank's
    `options`, or, once per run, by one of its `phoenix` options (the Phoenix placed at
    that rank). A rank with neither ends every run."""
    nat: list[tuple[Card, ...]] = [()]
    ph: list[tuple[Card, ...]] = []
    for top in range(low, highest + 1):
        opts, fresh = options[top], phoenix[top]
        placed = [r + o for r in nat for o in fresh] if fresh else []
        ph = [r + o for r in ph for o in opts] + placed if opts and ph else placed
        nat = [r + o for r in nat for o in opts] if opts else []
        if not nat and not ph:
            return
        if top - low + 1 >= shortest:
            yield top, nat, ph


def straights(h: Holding, length: int | None = None, must: int | None = None,
              above: float = 0) -> list[Combination]:
    """[C6]: five or more consecutive ranks; the Mah Jong as the 1; the Phoenix for one."""
    shortest, longest = (length, length) if length else (5, ACE)
    first, last = max(MAHJONG, int(above) - shortest + 2), ACE - shortest + 1
    if must:
        first, last = max(first, must - longest + 1), min(last, must)
    reach = _reach(h, 1, first)
    lows = [low for low in range(first, last + 1) if reach[low] - low + 1 >= shortest]
    if not lows:
        return []
    tops = [min(reach[low], low + longest - 1) for low in lows]
    options: list[list[tuple[Card, ...]]] = [[]] * (ACE + 1)
    for r in range(lows[0], max(tops) + 1):
        options[r] = list(zip(h.at[r]))  # each card as a one-card piece of a run
    places = [[], [], *[[_PH]] * (ACE - 1)] if h.phoenix else [[]] * (ACE + 1)
    flushes = list(h.flush_masks.values())
    out: list[Combination] = []
    for low, top in zip(lows, tops, strict=True):
        _straights_from(low, top, shortest, must, above, options, places, flushes, out)
    return out


def _straights_from(low: int, highest: int, shortest: int, must: int | None, above: float,
                    options: Sequence[Sequence[tuple[Card, ...]]],
                    places: Sequence[Sequence[tuple[Card, ...]]], flushes: list[int],
                    out: list[Combination]) -> None:
    """Straights from `low`. [C9]: a Phoenix at the low end reads higher above the top, so
    that card set is left to the run one rank up unless the top is the Ace; a run loses
    the `must` card where the Phoenix stands in for it; a run of one suit is a bomb
    ([B6]), produced by `bombs` (`flushes`: the suits holding five ranks in a row)."""
    if highest < ACE and places[low]:
        places = list(places)
        places[low] = []
    masks = [] if low == MAHJONG else flushes
    k = must - low if must else -1  # where the `must` card stands in a run
    for top, nat, ph in _grow(options, places, low, highest, shortest):
        if top <= above or (must and must > top):
            continue
        n, span = top - low + 1, (1 << top + 1) - (1 << low)
        if masks and nat and any(m & span == span for m in masks):  # one suit holds it all
            nat = [r for r in nat if len({c.suit for c in r}) > 1]
        out += [_new(_C, (_STRAIGHT, top, n, r, None, False)) for r in nat]
        out += [_new(_C, (_STRAIGHT, top, n, r, low + r.index(PH), False)) for r in ph
                if (r[0] is not PH or top == ACE) and (k < 0 or r[k] is not PH)]


def stairs(h: Holding, length: int | None = None, must: int | None = None,
           above: float = 0) -> list[Combination]:
    """[C3]: two or more pairs of adjacent ranks; the Phoenix pairs one natural card."""
    shortest, longest = (length // 2, length // 2) if length else (2, 7)
    first, last = max(2, int(above) - shortest + 2), ACE - shortest + 1
    if must:
        first, last = max(first, must - longest + 1), min(last, must)
    at, reach = h.at, _reach(h, 2, first)
    lows = [low for low in range(first, last + 1) if reach[low] - low + 1 >= shortest]
    if not lows:
        return []
    tops = [min(reach[low], low + longest - 1) for low in lows]
    pairs: list[list[tuple[Card, ...]]] = [[]] * (ACE + 1)
    places: list[list[tuple[Card, ...]]] = [[]] * (ACE + 1)
    for r in range(lows[0], max(tops) + 1):
        pairs[r] = list(combinations(at[r], 2))
        if h.phoenix:
            places[r] = [(c, PH) for c in at[r]]
    out: list[Combination] = []
    for low, highest in zip(lows, tops, strict=True):
        for top, nat, ph in _grow(pairs, places, low, highest, shortest):
            if top <= above or (must and must > top):
                continue
            n = (top - low + 1) * 2
            out += [_new(_C, (_STAIRS, top, n, r, None, False)) for r in nat]
            out += [_new(_C, (_STAIRS, top, n, r, low + r.index(PH) // 2, False)) for r in ph]
    return out


def fours(h: Holding, must: int | None, distinct_suits: bool) -> list[Combination]:
    """[B1] four of a kind ([GS3]: of four different suits in Grand Seigneur)."""
    out: list[Combination] = []
    for r in [must] if must else [r for r, cs in h.by_rank.items() if len(cs) >= 4]:
        for four in combinations(h.at[r], 4):
            if not distinct_suits or len({c.suit for c in four}) == 4:
                out.append(_new(_C, (_BOMB, r, 4, four, None, False)))
    return out


def straight_flushes(h: Holding, must: int | None = None) -> list[Combination]:
    """[B1] straight flushes: runs of five or more ranks in one suit (two decks: either
    copy of a card)."""
    out: list[Combination] = []
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
                _flushes(h, suit, low, high, must, out)
            low = high + 1
    return out


def _flushes(h: Holding, suit: str, low: int, high: int, must: int | None,
             out: list[Combination]) -> None:
    """Every straight flush inside the run low..high of `suit`."""
    picks = [[c for c in h.at[r] if c.suit == suit] for r in range(low, high + 1)]
    for bottom in range(low, high - 3):
        if must and must < bottom:
            break
        for top in range(max(bottom + 4, must or 0), high + 1):
            out += [_new(_C, (_BOMB, top, top - bottom + 1, run, None, True))
                    for run in product(*picks[bottom - low:top - low + 1])]


def bombs(h: Holding, must: int | None = None, distinct_suits: bool = False
          ) -> list[Combination]:
    """[B1]: four of a kind and straight flushes (with `must`: holding that rank)."""
    if len(h.cards) < 4:
        return []
    return fours(h, must, distinct_suits) + straight_flushes(h, must)


__all__ = ["Holding", "singles", "sets", "full_houses", "straights", "stairs", "fours",
           "straight_flushes", "bombs", "parse_cards"]
