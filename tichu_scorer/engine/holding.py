"""A hand indexed by rank, which every generator in `generate` and `runs` reads.

>>> h = Holding(parse_cards(["4j", "4s", "5t", "PH", "MJ"]))
>>> h.at[4], h.doubled, bin(h.held), bin(h.pairs), h.phoenix, h.mahjong
((4j, 4s), [4], '0b110010', '0b10000', True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import Never

from .cards import (
    ACE,
    DOG,
    DR,
    DRAGON,
    MAHJONG,
    NORMALS,
    PH,
    PHOENIX,
    SPECIALS,
    SUITS,
    Card,
    parse_cards,
)
from .playlist import Cards

# a natural card's bit in a hand's suits, 16 bits a suit: rank r of suit i at bit r + 16 i;
# keyed by the deck's own cards (`NORMALS`), so that a hand dealt from the deck finds its
# cards by identity, without comparing them (an equal card still finds its bit)
_LANE = {c: 1 << c[0] + 16 * SUITS.index(c[1]) for c in NORMALS}
_RANKS = 0x7FFC  # bits 2..14 of a lane
_LANES = _RANKS * 0x0001_0001_0001_0001  # the natural cards' bits of the four lanes
# a card's bit in `card_bits`: a natural card's lane bit, a special card's one of the bits
# 0 and 1 of the first two lanes, which no rank takes (all below 2 ** 63: the sum of a
# hand's bits stays a machine integer)
BIT = _LANE | dict(zip(SPECIALS, (1, 2, 1 << 16, 1 << 17), strict=True))
_NATURALS = range(2, ACE + 1)
_NO_CARDS: Cards = ()
_EMPTY: tuple[Cards, ...] = (_NO_CARDS,) * (PHOENIX + 1)
# the ranks of the bits of a byte: of bits 0-7 of a mask, and of bits 8-15
_RANKS_LOW = [[r for r in range(8) if byte >> r & 1] for byte in range(256)]
_RANKS_HIGH = [[r + 8 for r in range(8) if byte >> r & 1] for byte in range(256)]
_NONE: list[Cards] = []  # (never changed)
_NO_FLUSH: dict[str, int] = {}  # (never changed)
# the lowest natural rank above a rank (a whole rank, or a Phoenix single's half rank)
FIRST_ABOVE = {r + half: max(2, r + 1) for r in range(PHOENIX + 1) for half in (0, 0.5)}
_PH = (PH,)
_DR = (DR,)
_PH_BIT, _DR_BIT = BIT[PH], BIT[DR]
# the bits of the cards ranked below r: ranks 2..r-1 of each lane, the Mah Jong and the Dog
_BELOW = [((1 << r) - 1) * 0x0001_0001_0001_0001 & ~(3 << 16) for r in range(ACE + 2)]
# the bits of the natural cards ranked r or higher
_FROM = [_LANES & ~below for below in _BELOW]
_rank_of = itemgetter(0)


class _Unindexed(list[Cards]):
    """`Holding.at` before `Holding.index` made it: reading it is a fault, loudly."""

    def __getitem__(self, key: object) -> Never:
        raise AssertionError("Holding.at read before Holding.index()")


_UNINDEXED: list[Cards] = _Unindexed()


def card_bits(cards: Sequence[Card]) -> int | None:
    """The cards as one bit each (16 bits a suit, rank r of suit i at bit r + 16 i; the
    special cards in bits no rank takes): None when a card is given twice ([GS2]: two
    decks) or is no card of the deck. One look-up a card, and no set.

    >>> bin(card_bits(parse_cards(["2j", "3s", "MJ"]))), card_bits(parse_cards(["2j", "2j"]))
    ('0b10000000000000000101', None)
    """
    try:
        bits: int = sum(map(BIT.__getitem__, cards))
    except KeyError:
        return None
    return bits if bits.bit_count() == len(cards) else None


def naturals_above(cards: Sequence[Card], bits: int, above: float) -> Sequence[Card]:
    """The natural cards of a one-deck hand (`bits` its `card_bits`) ranked above `above`
    (2 or more), in rank order, the hand's order within a rank: the hand sorted by rank (a
    stable sort: the hand's order kept within a rank), sliced at the counts of the cards
    below and above the naturals wanted, read from the bits (no index of the hand)."""
    low = FIRST_ABOVE.get(above)
    if low is None:
        low = max(2, int(above) + 1)
    if low > ACE or not bits & _FROM[low]:  # (no natural card from `low` up)
        return _NO_CARDS
    below = (bits & _BELOW[low]).bit_count()  # (the Dog and the Mah Jong among them)
    return sorted(cards, key=_rank_of)[below:len(cards) - (bits >> 16 & 3).bit_count()]


def no_bomb(bits: int | None) -> bool:
    """The hand of these `card_bits` holds no four of a kind and no five ranks in a row of
    one suit, so no bomb ([B1]); False for None (two decks), which this does not tell."""
    if bits is None:
        return False
    lanes = bits & _LANES
    return not (lanes & lanes >> 1 & lanes >> 2 & lanes >> 3 & lanes >> 4
                or lanes & lanes >> 16 & lanes >> 32 & lanes >> 48)


class Holding:
    """A hand indexed by rank: `at[r]` the cards of rank r as a tuple in the hand's order
    (made by `index()`, which a generator calls before reading it: one deck's is made only
    then, two decks' at once; the Dog at 0, the Mah Jong at 1, the Dragons at 15, the
    Phoenix at 16; tuples, which `itertools` takes without a copy), bit masks of the ranks
    held at least once (`held`, bit 1 for the Mah Jong), twice (`pairs`) and three times
    (`trios`), and `may_bomb`, False when the hand holds no bomb (read from the bits of a
    one-deck hand; always True for two decks, not told). What several generators need
    (`doubled`, the ranks held twice, in order; `twos`, `phoenix_trios`, a lead's
    `naturals`, `flush_masks`) is built on first use, once for the one call: a Holding
    lives as long as one `legal_plays` or `wish_play` call."""

    __slots__ = ("cards", "bits", "at", "held", "pairs", "trios", "fours", "_doubled", "phoenix",
                 "mahjong", "dragons", "dog", "may_bomb", "_masks", "_twos", "_phoenix_trios",
                 "_trios_from", "_naturals")

    def __init__(self, cards: Sequence[Card], bits: int | None = None) -> None:
        """`bits`: the hand's `card_bits`, when the caller has them (None: a card twice)."""
        self.cards, self.bits = cards, bits
        self._twos: list[list[Cards]] | None = None
        self._phoenix_trios: list[list[Cards]] | None = None
        self._trios_from = 0
        self._naturals: tuple[Sequence[Card], list[int]] | None = None
        if bits is not None:  # one deck: the specials and the ranks held once, twice, ...
            self.at = _UNINDEXED  # (`index` makes it on first use)
            mahjong = self.mahjong = bits & 1 != 0
            self.dog = bits & 2 != 0
            self.phoenix = bits & _PH_BIT != 0
            self.dragons = _DR if bits & _DR_BIT else _NO_CARDS
            s0, s1, s2, s3 = (bits & _RANKS, bits >> 16 & _RANKS, bits >> 32 & _RANKS,
                              bits >> 48 & _RANKS)
            both, either, both2, either2 = s0 & s1, s0 | s1, s2 & s3, s2 | s3
            self.pairs = pairs = both | both2 | either & either2
            self.trios, self.fours = both & either2 | both2 & either, both & both2
            self._doubled: list[int] | None = None  # (on first use: a follow seldom needs it)
            held = either | either2
            self.held = held | 2 if mahjong else held
            # five ranks in a row of one suit (a lane's bits 15, 16 and 17 hold no rank, so
            # no run crosses from one suit to the next), or four of a kind: a bomb ([B1])
            lanes = bits & _LANES
            run = lanes & lanes >> 1
            run &= run >> 2
            if run & lanes >> 4:
                self._masks: dict[str, int] | None = None
                self.may_bomb = True
            else:
                self._masks = _NO_FLUSH
                self.may_bomb = self.fours != 0
            return
        at = self.at = self._index()  # two decks: the index now, the specials from it
        self.dragons = at[DRAGON]
        # (a rank not held keeps `_EMPTY`'s own empty tuple: told apart by identity)
        self.mahjong = at[MAHJONG] is not _NO_CARDS
        self.phoenix, self.dog = at[PHOENIX] is not _NO_CARDS, at[DOG] is not _NO_CARDS
        held = pairs = trios = fours = 0
        doubled: list[int] = []
        for r in _NATURALS:
            n = len(at[r])
            if n:
                bit = 1 << r
                held |= bit
                if n > 1:
                    pairs |= bit
                    doubled.append(r)
                    if n > 2:
                        trios |= bit
                        if n > 3:
                            fours |= bit
        self.pairs, self.trios, self.fours, self._doubled = pairs, trios, fours, doubled
        self._masks = None
        self.may_bomb = True  # (two decks: not told from the bits)
        self.held = held | 2 if self.mahjong else held

    def _index(self) -> list[Cards]:
        """[r]: the cards of rank r, in the hand's order."""
        at: list[Cards] = list(_EMPTY)
        for c in self.cards:  # (a rank read once: `at[c[0]] += (c,)` reads it twice, slower)
            r = c[0]
            at[r] = at[r] + (c,)
        return at

    def index(self) -> list[Cards]:
        """`at`, made now if it was not: the generators call this before they read `at`
        (a follow that finds nothing above the table, or a single's, needs no index)."""
        at = self.at
        if at is _UNINDEXED:  # (one deck)
            if self.pairs:
                at = self.at = self._index()
            else:  # no rank held twice: each rank's one card (no tuples joined)
                at = self.at = list(_EMPTY)
                for c in self.cards:
                    at[c[0]] = (c,)
        return at

    def holds(self, r: int) -> bool:
        """The hand holds a card of rank r (0 to 16)."""
        if self.at is not _UNINDEXED or not 2 <= r <= ACE:
            return self.index()[r] != ()
        return self.held >> r & 1 == 1

    def singles_above(self, above: float) -> Sequence[Card]:
        """The natural cards ranked above `above` (2 or more), in rank order, the hand's
        order within a rank: from the index once made, else as `naturals_above` reads
        them from the hand and its bits."""
        at, bits = self.at, self.bits
        if at is not _UNINDEXED or bits is None:
            low = FIRST_ABOVE.get(above)
            if low is None:
                low = max(2, int(above) + 1)
            return sum(at[low:ACE + 1], ())
        return naturals_above(self.cards, bits, above)

    @property
    def doubled(self) -> list[int]:
        """The ranks held twice or more, in order."""
        doubled = self._doubled
        if doubled is None:
            pairs = self.pairs
            doubled = self._doubled = _RANKS_LOW[pairs & 0xFF] + _RANKS_HIGH[pairs >> 8]
        return doubled

    @property
    def flush_masks(self) -> dict[str, int]:
        """suit -> the ranks held in that suit (bit r for rank r), for the suits holding
        five ranks in a row, which a straight flush needs."""
        if self._masks is None:
            held = self.held
            self._masks = {}
            if held & held >> 1 & held >> 2 & held >> 3 & held >> 4:  # five ranks in a row
                lanes = self.bits
                if lanes is None:
                    lanes, lane = 0, _LANE.get  # the natural cards, 16 bits a suit
                    for c in self.cards:
                        lanes |= lane(c, 0)
                lanes &= _LANES
                if lanes & lanes >> 1 & lanes >> 2 & lanes >> 3 & lanes >> 4:
                    for i, suit in enumerate(SUITS):
                        m = lanes >> 16 * i & 0xFFFF
                        if m & m >> 1 & m >> 2 & m >> 3 & m >> 4:
                            self._masks[suit] = m
        return self._masks

    @property
    def twos(self) -> list[list[Cards]]:
        """[r]: every pair of rank r's cards (none for a rank held once): the lists that
        pairs, stairs and full houses are built of, which none of them changes."""
        twos = self._twos
        if twos is None:
            at = self.index()
            twos = self._twos = [_NONE] * len(at)
            for r in self.doubled:
                twos[r] = list(combinations(at[r], 2))
        return twos

    def phoenix_trios(self, must: int | None) -> list[list[Cards]]:
        """[r]: each pair of rank r's cards with the Phoenix, for trios and full houses;
        with `must`, only for the ranks from `must` up, all that those need then."""
        floor = must or 0
        trios = self._phoenix_trios
        if trios is None or self._trios_from > floor:
            twos = self.twos
            trios = self._phoenix_trios = [_NONE] * len(twos)
            self._trios_from = floor
            for r in self.doubled:
                if r >= floor:
                    trios[r] = [two + _PH for two in twos[r]]
        return trios

    def naturals(self, above: float, must: int | None) -> tuple[Sequence[Card], list[int]]:
        """The natural cards ranked above `above` (of rank `must` only, when given), in rank
        order, and their ranks; a lead's (every natural card) kept for the next caller."""
        cards: Sequence[Card]
        if must:
            cards = self.index()[must] if must > above and 2 <= must <= ACE else ()
            return cards, [must] * len(cards)
        if above >= 2:  # a follow's: without the index, when not made
            cards = self.singles_above(above)
            return cards, list(map(_rank_of, cards))
        if self._naturals is None:
            # (the ranks' tuples joined: a hand's few, short tuples join faster than chained)
            cards = sum(self.index()[2:ACE + 1], ())
            self._naturals = cards, list(map(_rank_of, cards))
        return self._naturals

    def doubled_above(self, above: float, must: int | None) -> list[int]:
        """The ranks held twice or more above `above` (only `must`, when given)."""
        if must:
            return [must] if must > above and self.pairs >> must & 1 else []
        if above < 2:
            return self.doubled
        pairs = self.pairs >> int(above) + 1 << int(above) + 1  # (the ranks above it)
        return _RANKS_LOW[pairs & 0xFF] + _RANKS_HIGH[pairs >> 8]


__all__ = ["BIT", "Holding", "card_bits", "naturals_above", "no_bomb", "parse_cards"]
