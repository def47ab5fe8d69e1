"""Plays of each kind a hand can make (RULES.md §3–§5), for the enumerator and the wish
search in `plays`.

Every generator takes an optional `must` rank (only plays holding a natural card of that
rank) and an optional `above` rank (only plays ranked higher), and returns a list of
groups (`playlist.Group`): plays that share a reading, their card sets in a list, built
into combinations only when read. A card set that reads more than one way ([C9]) is
produced once, in its highest reading: the Phoenix is placed first (or not at all), then
the natural cards are multiplied out, by `itertools` where there are many.

>>> h = Holding(parse_cards(["4j", "5s", "6t", "7t", "PH", "Kp"]))
>>> [c.describe() for c in Plays(straights(h))]  # not also as 3–7: the same cards read higher
['straight 4–8, Phoenix as 8']
>>> [c.describe() for c in Plays(stairs(Holding(parse_cards(["4j", "4s", "5t", "PH"]))))]
['stairs 4–5 (2 pairs), Phoenix as 5']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations, product, repeat, starmap
from operator import add, itemgetter

from .cards import ACE, DOG, DOG_CARD, DRAGON, MAHJONG, MJ, PH, PHOENIX, SUITS, Card, parse_cards
from .combos import Kind
from .playlist import Cards, Group, Plays

_PH = (PH,)
_PH_ONLY = [PH]  # the Phoenix as the one choice at a rank of a straight
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_NATURAL_RANKS = (1 << ACE + 1) - 4  # bits 2..14: the ranks the Phoenix can stand for ([S3])
_NATURALS = range(2, ACE + 1)
_MANY = 12  # from this many plays on, itertools builds them faster than a comprehension
_rank_of = itemgetter(0)
_SINGLE, _PAIR, _TRIO, _STAIRS, _FULL, _STRAIGHT, _BOMB, _DOG = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STAIRS, Kind.FULL_HOUSE, Kind.STRAIGHT, Kind.BOMB,
    Kind.DOG)


class Holding:
    """A hand indexed by rank: `at[r]` the cards of rank r in the hand's order (the Dog at
    0, the Mah Jong at 1, the Dragons at 15, the Phoenix at 16), `ranks` the natural ranks
    held in order, and bit masks of the ranks held at least once (`held`, bit 1 for the
    Mah Jong), twice (`pairs`) and three times (`trios`); `flush_masks` built on first
    use."""

    __slots__ = ("cards", "ranks", "at", "held", "pairs", "trios", "_masks", "phoenix",
                 "mahjong", "dragons", "dog")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        at: list[list[Card]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [],
                                [], []]
        for c in cards:
            at[c[0]].append(c)
        self.at = at
        self.ranks = ranks = [r for r in _NATURALS if at[r]]
        held = pairs = trios = 0
        for r in ranks:
            bit = 1 << r
            held |= bit
            if len(at[r]) > 1:
                pairs |= bit
                if len(at[r]) > 2:
                    trios |= bit
        self.pairs, self.trios = pairs, trios
        self.mahjong = bool(at[MAHJONG])
        self.held = held | 2 if at[MAHJONG] else held
        self.phoenix = bool(at[PHOENIX])
        self.dog = bool(at[DOG])
        self.dragons = at[DRAGON]
        self._masks: dict[str, int] | None = None

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

    def ranks_above(self, above: float, must: int | None) -> list[int]:
        """The natural ranks above `above`, or only `must` when given."""
        if must:
            return [must] if must > above and 2 <= must <= ACE and self.at[must] else []
        if above < 2:
            return self.ranks
        return [r for r in self.ranks if r > above]


def _naturals(h: Holding, ranks: list[int]) -> list[Card]:
    """The natural cards at `ranks`, in rank order."""
    return list(chain.from_iterable(map(h.at.__getitem__, ranks)))


def singles(h: Holding, above: float = 0, must: int | None = None) -> list[Group]:
    """[C1], [S1]–[S5]: every single; with `must`, only the natural cards of that rank.
    The natural cards form one group, a rank per card."""
    cards = _naturals(h, h.ranks_above(above, must))
    out: list[Group] = [(_SINGLE, list(map(_rank_of, cards)), 1, list(zip(cards)), None,
                         False)] if cards else []
    if must:
        return out
    if h.mahjong and above < MAHJONG:
        out.append((_SINGLE, MAHJONG, 1, [(MJ,)], None, False))
    if h.dragons:
        out.append((_SINGLE, DRAGON, 1, list(zip(h.dragons)), None, False))
    if h.phoenix:
        out.append((_SINGLE, 1.5, 1, [_PH], None, False))
    if h.dog:
        out.append((_DOG, 0, 1, [(DOG_CARD,)], None, False))
    return out


def sets(h: Holding, size: int, must: int | None = None, above: float = 0) -> list[Group]:
    """Pairs (size 2) and trios (size 3), [C2], [C4]; the Phoenix for one card ([S3]).
    A pair of a card and the Phoenix: one group, a rank per play."""
    kind, at = (_PAIR if size == 2 else _TRIO), h.at
    ranks = h.ranks_above(above, must)
    full = h.pairs if size == 2 else h.trios
    out: list[Group] = [(kind, r, size, list(combinations(at[r], size)), None, False)
                        for r in ranks if full >> r & 1]
    if h.phoenix and ranks:
        if size == 2:
            cards = _naturals(h, ranks)
            stands: list[int] = list(map(_rank_of, cards))
            out.append((kind, stands, 2, list(zip(cards, repeat(PH))), stands, False))
        else:
            out += [(kind, r, 3, [two + _PH for two in combinations(at[r], 2)], r, False)
                    for r in ranks if h.pairs >> r & 1]
    return out


def _joined(heads: Sequence[Cards], tails: Sequence[Cards]
            ) -> list[Cards]:
    """Every head followed by every tail, heads first."""
    n = len(heads) * len(tails)
    if n == 1:
        return [heads[0] + tails[0]]
    if n < _MANY:
        return [h + t for h in heads for t in tails]
    return list(starmap(add, product(heads, tails)))


def full_houses(h: Holding, must: int | None = None, above: float = 0) -> list[Group]:
    """[C5]: a trio and a pair of another rank; the Phoenix in at most one of them.

    Two natural pairs and the Phoenix read as either full house: only the higher trio is
    produced ([C9])."""
    ph, at, doubled = h.phoenix, h.at, h.pairs
    if not h.trios and not (ph and doubled):
        return []
    every = [(p, pair) for p in h.ranks if doubled >> p & 1 for pair in combinations(at[p], 2)]
    pairs = [x for x in every if x[0] == must] if must else every  # `must` in the pair
    out: list[Group] = []
    for t in h.ranks_above(above, None):
        if not doubled >> t & 1:
            continue
        cards = at[t]
        pairs_t = every if t == must else pairs  # `must` in the trio: any pair
        if h.trios >> t & 1:
            trios = list(combinations(cards, 3))
            tails = [pair for p, pair in pairs_t if p != t]
            if tails:
                out.append((_FULL, t, 5, _joined(trios, tails), None, False))
            if ph:  # a card of another rank with the Phoenix: a rank per play
                ones = [c for c in h.cards
                        if c[1] and c[0] != t and (not must or must == t or must == c[0])]
                if ones:
                    out.append((_FULL, t, 5, _joined(trios, list(zip(ones, repeat(PH)))),
                                list(map(_rank_of, ones)) * len(trios), False))
        if ph:  # for p > t the same cards read higher as trio p over t
            tails = [pair for p, pair in pairs_t if p < t]
            if tails:
                heads = [two + _PH for two in combinations(cards, 2)]
                out.append((_FULL, t, 5, _joined(heads, tails), t, False))
    return out


def _runs(full: int, fill: int, low: int) -> int:
    """The highest top of a run from `low` over the ranks of `full`, bar one rank of
    `fill` (the Phoenix's)."""
    run = full >> low
    gap = low + (~run & (run + 1)).bit_length() - 1
    if fill >> gap & 1:
        run = full >> gap + 1
        return gap + (~run & (run + 1)).bit_length() - 1
    return gap - 1


def straights(h: Holding, length: int | None = None, must: int | None = None,
              above: float = 0) -> list[Group]:
    """[C6]: five or more consecutive ranks; the Mah Jong as the 1; the Phoenix for one.

    Each run low..top is the product of the cards at its ranks, the Phoenix in place of
    one rank's cards ([C9]: at the low end only below the Ace, where the same cards read
    one rank higher; never for the `must` card); a natural run of one suit is a bomb
    ([B6]), produced by `bombs`. With one card at each rank a run is a slice of a line."""
    shortest, longest = (length, length) if length else (5, ACE)
    first, last = max(MAHJONG, int(above) - shortest + 2), ACE - shortest + 1
    if must:
        first, last = max(first, must - longest + 1), min(last, must)
    held, phoenix, at = h.held, h.phoenix, h.at
    fill = ~held & _NATURAL_RANKS if phoenix else 0
    lost = must or 0
    floor = max(int(above) + 1, lost)
    out: list[Group] = []
    flushes = list(h.flush_masks.values())
    lines: list[Cards] = []
    for low in range(first, last + 1):
        run = held >> low  # (`_runs`, inline: the loop runs for every rank, and needs the gap)
        gap = low + (~run & (run + 1)).bit_length() - 1
        if fill >> gap & 1:
            run = held >> gap + 1
            highest = gap + (~run & (run + 1)).bit_length() - 1
        else:
            highest, gap = gap - 1, 99
        if highest - low >= longest:
            highest = low + longest - 1
        start = low + shortest - 1
        if start < floor:
            start = floor
        if start > highest:
            continue
        above_low = low + 1 if low > MAHJONG else 2  # the Phoenix's ranks but the low end
        for top in range(start, highest + 1):
            n, span = top - low + 1, (1 << top + 1) - (1 << low)
            natural = flush = False
            places: Sequence[int] = ()
            if gap <= top:  # the Phoenix fills the gap, nothing else
                if gap != lost and (gap != low or top == ACE):
                    places = (gap,)
            else:
                natural = True
                flush = bool(flushes) and low > MAHJONG and any(m & span == span for m in flushes)
                if phoenix:  # at the low end the same cards read higher, but for the Ace
                    places = range(low if top == ACE and low > MAHJONG else above_low, top + 1)
                    if lost in places:
                        places = [p for p in places if p != lost]
            if not h.pairs & span:  # one card at each rank: a flush is all one suit
                if not lines:
                    lines = _lines(at)
                cut = slice(low, top + 1)
                runs = [lines[p][cut] for p in places]
                if natural and not flush:  # one group, a Phoenix's rank (or None) per play
                    out.append((_STRAIGHT, top, n, [lines[0][cut], *runs], [None, *places],
                                False))
                elif runs:
                    out.append((_STRAIGHT, top, n, runs, list(places), False))
                continue
            choices = at[low:top + 1]
            if natural:
                runs = [r for r in product(*choices) if len({c[1] for c in r}) > 1] if flush \
                    else list(product(*choices))
                if runs:
                    out.append((_STRAIGHT, top, n, runs, None, False))
            for p in places:
                choices[p - low] = _PH_ONLY
                out.append((_STRAIGHT, top, n, list(product(*choices)), p, False))
                choices[p - low] = at[p]
    return out


def _lines(at: Sequence[Sequence[Card]]) -> list[Cards]:
    """For a hand with one card at each rank of a run: [0] the first card at each rank
    (the Phoenix where there is none), [p] the same with the Phoenix at rank p."""
    line = tuple(cs[0] if cs else PH for cs in at)
    return [line, line, *(line[:p] + _PH + line[p + 1:] for p in range(2, ACE + 1))]


def stairs(h: Holding, length: int | None = None, must: int | None = None,
           above: float = 0) -> list[Group]:
    """[C3]: two or more pairs of adjacent ranks; the Phoenix pairs one natural card.

    Each run from `low` grows one rank at a time from its runs one rank shorter: by a
    pair of the rank, or, once per run, by one of its cards with the Phoenix (the runs
    kept apart by the Phoenix's rank, in that order)."""
    shortest, longest = (length // 2, length // 2) if length else (2, 7)
    first, last = max(2, int(above) - shortest + 2), ACE - shortest + 1
    if must:
        first, last = max(first, must - longest + 1), min(last, must)
    if first > last:
        return []
    doubled, at, phoenix = h.pairs, h.at, h.phoenix
    fill = h.held & ~doubled & _NATURAL_RANKS if phoenix else 0
    ends = doubled | fill
    # two ranks in a row, one Phoenix at most, from `first` to `last`
    starts = ends & ends >> 1 & ~(fill & fill >> 1) & (2 << last) - (1 << first)
    if not starts:
        return []
    floor = max(int(above) + 1, must or 0)
    pairs: list[list[Cards] | None] = [None] * (ACE + 1)
    out: list[Group] = []
    append = out.append
    while starts:
        bit = starts & -starts
        starts ^= bit
        low = bit.bit_length() - 1
        highest = _runs(doubled, fill, low)
        if highest >= low + longest:
            highest = low + longest - 1
        start = low + shortest - 1
        if start < floor:
            start = floor
        if start > highest:
            continue
        nat = pairs[low]
        if nat is None:
            nat = pairs[low] = list(combinations(at[low], 2))
        held: list[tuple[int, list[Cards]]] = []  # (the Phoenix's rank, runs)
        if phoenix:
            held.append((low, list(zip(at[low], repeat(PH)))))
        for top in range(low + 1, highest + 1):
            two = pairs[top]
            if two is None:
                two = pairs[top] = list(combinations(at[top], 2))
            if two:
                if held:
                    held = [(p, _joined(runs, two)) for p, runs in held]
                if phoenix and nat:
                    held.append((top, _joined(nat, list(zip(at[top], repeat(PH))))))
                if nat:
                    nat = _joined(nat, two)
            else:  # the gap: the Phoenix's rank
                held = [(top, _joined(nat, list(zip(at[top], repeat(PH)))))]
                nat = []
            if top >= start:
                n = (top - low + 1) * 2
                if nat:
                    append((_STAIRS, top, n, nat, None, False))
                for p, runs in held:
                    append((_STAIRS, top, n, runs, p, False))
    return out


def fours(h: Holding, must: int | None, distinct_suits: bool) -> list[Group]:
    """[B1] four of a kind ([GS3]: of four different suits in Grand Seigneur)."""
    out: list[Group] = []
    if not h.trios:
        return out
    for r in [must] if must else [r for r in h.ranks if len(h.at[r]) >= 4]:
        found: list[Cards] = [four for four in combinations(h.at[r], 4)
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
    return fours(h, must, distinct_suits) + straight_flushes(h, must)


__all__ = ["Holding", "Plays", "singles", "sets", "full_houses", "straights", "stairs", "fours",
           "straight_flushes", "bombs", "parse_cards"]
