"""A hand indexed by rank, which every generator in `generate` and `runs` reads.

>>> h = Holding(parse_cards(["4j", "4s", "5t", "PH", "MJ"]))
>>> h.at[4], h.ranks, bin(h.held), bin(h.pairs), h.phoenix, h.mahjong
((4j, 4s), [4, 5], '0b110010', '0b10000', True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations

from .cards import ACE, DOG, DRAGON, MAHJONG, PHOENIX, SUITS, Card, parse_cards
from .playlist import Cards

_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_NATURALS = range(2, ACE + 1)
_NONE: list[Cards] = []  # (never changed)


class Holding:
    """A hand indexed by rank: `at[r]` the cards of rank r as a tuple in the hand's order
    (the Dog at 0, the Mah Jong at 1, the Dragons at 15, the Phoenix at 16; tuples, which
    `itertools` takes without a copy), `ranks` the natural ranks held in order, and bit
    masks of the ranks held at least once (`held`, bit 1 for the Mah Jong), twice (`pairs`)
    and three times (`trios`), `doubled` the ranks held twice in order; `flush_masks` and
    `twos` built on first use."""

    __slots__ = ("cards", "ranks", "at", "held", "pairs", "trios", "doubled", "_masks",
                 "_twos", "phoenix", "mahjong", "dragons", "dog")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        lists: list[list[Card]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [],
                                   [], []]
        for c in cards:
            lists[c[0]].append(c)
        self.at: list[Cards] = list(map(tuple, lists))
        at = self.at
        self.ranks = ranks = [r for r in _NATURALS if at[r]]
        held = pairs = trios = 0
        self.doubled: list[int] = []
        doubled = self.doubled
        for r in ranks:
            bit = 1 << r
            held |= bit
            if len(at[r]) > 1:
                pairs |= bit
                doubled.append(r)
                if len(at[r]) > 2:
                    trios |= bit
        self.pairs, self.trios = pairs, trios
        self.mahjong = bool(at[MAHJONG])
        self.held = held | 2 if at[MAHJONG] else held
        self.phoenix = bool(at[PHOENIX])
        self.dog = bool(at[DOG])
        self.dragons = at[DRAGON]
        self._masks: dict[str, int] | None = None
        self._twos: list[list[Cards]] | None = None

    @property
    def flush_masks(self) -> dict[str, int]:
        """suit -> the ranks held in that suit (bit r for rank r), for the suits holding
        five ranks in a row, which a straight flush needs."""
        if self._masks is None:
            held = self.held
            bits = [0, 0, 0, 0]  # per suit, bit r for rank r
            if held & held >> 1 & held >> 2 & held >> 3 & held >> 4:  # five ranks in a row
                at = self.at
                for r in self.ranks:
                    for c in at[r]:
                        bits[_SUIT_INDEX[c[1]]] |= 1 << r
            self._masks = {suit: m for suit, m in zip(SUITS, bits, strict=True)
                           if m & m >> 1 & m >> 2 & m >> 3 & m >> 4}
        return self._masks

    @property
    def twos(self) -> list[list[Cards]]:
        """[r]: every pair of rank r's cards (none for a rank held once): the lists that
        pairs, stairs and full houses are built of, which none of them changes."""
        twos = self._twos
        if twos is None:
            at = self.at
            twos = self._twos = [_NONE] * (ACE + 1)
            for r in self.doubled:
                twos[r] = list(combinations(at[r], 2))
        return twos

    def ranks_above(self, above: float, must: int | None) -> list[int]:
        """The natural ranks above `above`, or only `must` when given."""
        if must:
            return [must] if must > above and 2 <= must <= ACE and self.at[must] else []
        if above < 2:
            return self.ranks
        return [r for r in self.ranks if r > above]

    def naturals(self, ranks: list[int]) -> list[Card]:
        """The natural cards at `ranks`, in rank order."""
        return list(chain.from_iterable(map(self.at.__getitem__, ranks)))


__all__ = ["Holding", "parse_cards"]
