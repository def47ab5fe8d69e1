"""Which plays a hand can make: generation by kind, the wish search ([W2]), enumeration.

Generators take an optional `must` rank: only plays holding a natural card of that rank
are produced, which makes "could this hand have fulfilled the wish?" a short search, and
an optional `above` rank: only plays ranked higher are produced. A card set that reads
more than one way ([C9]) is produced once, in its highest reading: the Phoenix is placed
first (or not at all), then the natural cards are multiplied out.

>>> hand = parse_cards(["4j", "5s", "7t", "8t", "PH", "Kp"])
>>> top = readings(parse_cards(["2j", "3j", "4s", "5p", "6s"]))[0]
>>> [c.describe() for c in legal_plays(hand, top)]
['straight 4–8, Phoenix as 6', 'a pass']
>>> wish_play(hand, 7, top)
(4j, 5s, PH, 7t, 8t)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .cards import DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, Card, parse_cards
from .combos import PASS, Combination, Kind, beats, contains_rank, readings

Option = tuple[Card, ...]
ACE = 14


@dataclass(frozen=True)
class Table:
    """How the rules of a variant change what may be played."""

    distinct_suit_fours: bool = False  # [GS3]
    dragon_beats_dragon: bool = False  # [GS3]
    strict_wish: bool = False  # [W5] house rule


DEFAULT_TABLE = Table()


class Holding:
    """A hand indexed by rank and suit for fast generation."""

    __slots__ = ("cards", "by_rank", "phoenix", "mahjong", "dragons", "dog", "_suit_ranks")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        self.by_rank: dict[int, list[Card]] = {}
        self._suit_ranks: dict[str, dict[int, list[Card]]] | None = None
        self.phoenix = PH in cards
        self.mahjong = MJ in cards
        self.dragons = [c for c in cards if c == DR]
        self.dog = DOG_CARD in cards
        by_rank = self.by_rank
        for c in cards:
            if c.suit:
                if c.rank in by_rank:
                    by_rank[c.rank].append(c)
                else:
                    by_rank[c.rank] = [c]

    @property
    def suit_ranks(self) -> dict[str, dict[int, list[Card]]]:
        """suit -> rank -> cards, built on first use (only bombs need it)."""
        if self._suit_ranks is None:
            self._suit_ranks = {}
            for c in self.cards:
                if c.suit:
                    self._suit_ranks.setdefault(c.suit, {}).setdefault(c.rank, []).append(c)
        return self._suit_ranks

    def ranks_above(self, above: float, must: int | None) -> list[int]:
        """The natural ranks above `above`, or only `must` when given."""
        if must:
            return [must] if must > above and must in self.by_rank else []
        return sorted(r for r in self.by_rank if r > above)


def singles(h: Holding, above: float = 0) -> Iterator[Combination]:
    for rank in h.ranks_above(above, None):
        for c in h.by_rank[rank]:
            yield Combination(Kind.SINGLE, rank, 1, (c,))
    if h.mahjong and above < MAHJONG:
        yield Combination(Kind.SINGLE, MAHJONG, 1, (MJ,))
    for d in h.dragons:
        yield Combination(Kind.SINGLE, DRAGON, 1, (d,))
    if h.phoenix:
        yield Combination(Kind.SINGLE, 1.5, 1, (PH,))
    if h.dog:
        yield Combination(Kind.DOG, 0, 1, (DOG_CARD,))


def sets(h: Holding, size: int, must: int | None = None,
         above: float = 0) -> Iterator[Combination]:
    """Pairs (size 2) and trios (size 3), [C2], [C4]; the Phoenix for one card ([S3])."""
    kind = Kind.PAIR if size == 2 else Kind.TRIO
    for rank in h.ranks_above(above, must):
        cards = h.by_rank[rank]
        for combo in combinations(cards, size):
            yield Combination(kind, rank, size, combo)
        if h.phoenix:
            for combo in combinations(cards, size - 1):
                yield Combination(kind, rank, size, combo + (PH,), rank)


def full_houses(h: Holding, must: int | None = None,
                above: float = 0) -> Iterator[Combination]:
    """[C5]: a trio and a pair of another rank; the Phoenix in at most one of them.

    Two natural pairs and the Phoenix read as either full house: only the higher trio is
    produced ([C9])."""
    ph = h.phoenix
    by_rank = h.by_rank
    for t in h.ranks_above(above, None):
        trios = list(combinations(by_rank[t], 3))
        ph_trios = [p + (PH,) for p in combinations(by_rank[t], 2)] if ph else []
        if not trios and not ph_trios:
            continue
        for p, cards in by_rank.items():
            if p == t or (must and must not in (t, p)):
                continue
            pairs = list(combinations(cards, 2))
            for trio in trios:
                for pair in pairs:
                    yield Combination(Kind.FULL_HOUSE, t, 5, trio + pair)
                if ph:
                    for c in cards:
                        yield Combination(Kind.FULL_HOUSE, t, 5, trio + (c, PH), p)
            if p < t:  # for p > t the same cards read higher as trio p over pair t
                for trio in ph_trios:
                    for pair in pairs:
                        yield Combination(Kind.FULL_HOUSE, t, 5, trio + pair, t)


def _places(h: Holding, low: int, top: int, gap: int, must: int | None,
            straight: bool) -> list[int]:
    """Where the Phoenix may stand in the run low..top (0: nowhere), `gap` being the one
    rank short of natural cards. [C9]: a straight with the Phoenix at its low end reads
    higher with it above the top, so that card set is left to the run one rank up; a
    straight loses the `must` card where the Phoenix stands in for it."""
    if gap:
        if straight and (gap == must or (gap == low and top < ACE)):
            return []
        return [gap]
    if not h.phoenix:
        return [0]
    first = low + 1 if straight and top < ACE else max(low, 2)
    return [0] + [r for r in range(first, top + 1) if not (straight and r == must)]


def _straight_runs(h: Holding, low: int, top: int, must: int | None) -> Iterator[Combination]:
    """Every straight low..top: the Phoenix placed first (or not at all), then the natural
    cards of every rank multiplied out."""
    naturals: list[Sequence[Card]] = []
    gap = 0
    for rank in range(low, top + 1):
        cards = ([MJ] if h.mahjong else []) if rank == MAHJONG else h.by_rank.get(rank, [])
        if not cards:
            if rank == MAHJONG:
                return
            gap = rank
        naturals.append(cards)
    length = top - low + 1
    for place in _places(h, low, top, gap, must, True):
        pieces = naturals
        if place:
            pieces = list(naturals)
            pieces[place - low] = (PH,)
        if place or low == MAHJONG or not set.intersection(
                *({c.suit for c in cards} for cards in pieces)):
            stand = place or None
            yield from [Combination(Kind.STRAIGHT, top, length, run, stand)
                        for run in product(*pieces)]
        else:  # one suit is a straight flush: a bomb, generated by `bombs` ([B6])
            yield from [Combination(Kind.STRAIGHT, top, length, run)
                        for run in product(*pieces) if len({c.suit for c in run}) > 1]


def _stair_runs(h: Holding, low: int, top: int, must: int | None) -> Iterator[Combination]:
    """Every stairs low..top: the Phoenix placed first (or not at all), then the natural
    pairs of every rank multiplied out."""
    naturals: list[Sequence[Option]] = []
    gap = 0
    for rank in range(low, top + 1):
        pairs = list(combinations(h.by_rank.get(rank, []), 2))
        if not pairs:
            gap = rank
        naturals.append(pairs)
    length = (top - low + 1) * 2
    for place in _places(h, low, top, gap, must, False):
        pieces = naturals
        if place:
            pieces = list(naturals)
            pieces[place - low] = [(c, PH) for c in h.by_rank.get(place, [])]
        runs: list[Option] = [()]
        for options in pieces:  # each prefix built once, then extended
            runs = [run + pair for run in runs for pair in options]
        stand = place or None
        yield from [Combination(Kind.STAIRS, top, length, run, stand) for run in runs]


def _spans(h: Holding, widths: Sequence[int], need: int, must: int | None, above: float,
           lowest: int) -> Iterator[tuple[int, int]]:
    """(low, top) of every run of `widths` consecutive ranks whose natural cards, `need`
    per rank, fall short at one rank at most, and only where the Phoenix can make it up."""
    by_rank = h.by_rank
    shorts = [0] * (ACE + 2)  # shorts[r + 1]: ranks below r + 1 short of natural cards
    last_short = [0] * (ACE + 1)  # the highest short rank up to r (0: none)
    for r in range(1, ACE + 1):
        held = (1 if h.mahjong else 0) if r == MAHJONG else len(by_rank.get(r, ()))
        short = held < need
        shorts[r + 1] = shorts[r] + short
        last_short[r] = r if short else last_short[r - 1]
    for width in widths:
        for top in range(max(lowest + width - 1, int(above) + 1), ACE + 1):
            low = top - width + 1
            if must and not low <= must <= top:
                continue
            missing = shorts[top + 1] - shorts[low]
            if missing == 0:
                yield low, top
            elif missing == 1 and h.phoenix:
                gap = last_short[top]
                if gap >= 2 and len(by_rank.get(gap, ())) >= need - 1:
                    yield low, top


def straights(h: Holding, length: int | None = None, must: int | None = None,
              above: float = 0) -> Iterator[Combination]:
    """[C6]: five or more consecutive ranks; the Mah Jong as the 1; the Phoenix for one."""
    for low, top in _spans(h, [length] if length else range(5, 15), 1, must, above, MAHJONG):
        yield from _straight_runs(h, low, top, must)


def stairs(h: Holding, length: int | None = None, must: int | None = None,
           above: float = 0) -> Iterator[Combination]:
    """[C3]: two or more pairs of adjacent ranks."""
    for low, top in _spans(h, [length // 2] if length else range(2, 8), 2, must, above, 2):
        yield from _stair_runs(h, low, top, must)


def bombs(h: Holding, must: int | None = None,
          table: Table = DEFAULT_TABLE) -> Iterator[Combination]:
    """[B1]: four of a kind and straight flushes."""
    if must:
        yield from _bombs_with(h, must, table)
        return
    if len(h.cards) < 4:
        return
    for rank in sorted(h.by_rank):
        for four in combinations(h.by_rank[rank], 4):
            if table.distinct_suit_fours and len({c.suit for c in four}) < 4:
                continue
            yield Combination(Kind.BOMB, rank, 4, four)
    for ranks in h.suit_ranks.values():
        if len(ranks) < 5:  # a straight flush needs five ranks of the suit
            continue
        present = sorted(ranks)
        for i, low in enumerate(present):
            top = low
            for nxt in present[i + 1:]:
                if nxt != top + 1:
                    break
                top = nxt
                if top - low + 1 >= 5:
                    picks = [ranks[r] for r in range(low, top + 1)]
                    for run in product(*picks):
                        yield Combination(Kind.BOMB, top, top - low + 1, tuple(run),
                                          straight_flush=True)


def _bombs_with(h: Holding, must: int, table: Table) -> Iterator[Combination]:
    """Bombs holding a card of rank `must`: found by walking the suit up and down from it,
    without indexing the whole hand by suit (the wish search's hot path)."""
    cards: Sequence[Card] = h.by_rank.get(must, [])
    for four in combinations(cards, 4):
        if not table.distinct_suit_fours or len({c.suit for c in four}) == 4:
            yield Combination(Kind.BOMB, must, 4, four)
    held = set(h.cards)
    for suit in {c.suit for c in cards}:
        low = must
        while low > 2 and Card(low - 1, suit) in held:
            low -= 1
        high = must
        while high < ACE and Card(high + 1, suit) in held:
            high += 1
        for top in range(high, must - 1, -1):
            for bottom in range(low, min(must, top - 4) + 1):
                run = tuple(Card(r, suit) for r in range(bottom, top + 1))
                yield Combination(Kind.BOMB, top, len(run), run, straight_flush=True)


def candidates(h: Holding, top: Combination | None, must: int | None = None,
               table: Table = DEFAULT_TABLE) -> Iterator[Combination]:
    """Plays of the kind and length of `top` ranked above it (any kind when leading), then
    bombs; `beats` still decides (a Phoenix single, bombs, the Dragon)."""
    if top is not None and top.kind is Kind.DOG:
        return
    above = top.rank if top is not None else 0
    kind = top.kind if top is not None else None
    if kind is None or kind is Kind.SINGLE:
        if must:
            for c in h.by_rank.get(must, []) if must > above else ():
                yield Combination(Kind.SINGLE, must, 1, (c,))
        else:
            yield from singles(h, above)
    if kind is None or kind is Kind.PAIR:
        yield from sets(h, 2, must, above)
    if kind is None or kind is Kind.TRIO:
        yield from sets(h, 3, must, above)
    if kind is None or kind is Kind.STAIRS:
        yield from stairs(h, top.length if top else None, must, above)
    if kind is None or kind is Kind.FULL_HOUSE:
        yield from full_houses(h, must, above)
    if kind is None or kind is Kind.STRAIGHT:
        yield from straights(h, top.length if top else None, must, above)
    yield from bombs(h, must, table)


def wish_play(hand: Sequence[Card], wish: int, top: Combination | None,
              table: Table = DEFAULT_TABLE) -> tuple[Card, ...] | None:
    """[W2]: a lawful play holding a natural card of the wished rank, or None ([W3]).

    Bombs and Phoenix-assisted combinations count; the Phoenix alone does not ([W4]).
    """
    wished = [c for c in hand if c.rank == wish]
    if not wished:
        return None
    if top is None or (top.kind is Kind.SINGLE and wish > top.rank):
        return (wished[0],)  # a lead, or a single that beats the table: the card itself
    h = Holding(hand)
    for play in candidates(h, top, wish, table):
        if beats(play, top, table.dragon_beats_dragon):
            return play.cards
    return None


def _distinct(plays: list[Combination], hand: Sequence[Card]) -> list[Combination]:
    """Each card set once, in its highest reading. The generators already produce each set
    once from a hand of distinct cards; two decks ([GS2]) hold identical cards."""
    if len(set(hand)) == len(hand):
        return plays
    best: dict[tuple[Card, ...], Combination] = {}
    for play in plays:
        key = tuple(sorted(play.cards))
        if key not in best or play.rank > best[key].rank:
            best[key] = play
    return list(best.values())


def legal_plays(hand: Sequence[Card], top: Combination | None, wish: int | None = None,
                table: Table = DEFAULT_TABLE, out_of_turn: bool = False) -> list[Combination]:
    """Every distinct lawful play from `hand` on `top` (each card set once, highest
    reading), the wish applied ([W2], [W5]); a pass is included when it is lawful.

    Out of turn only bombs that beat a combination on the table count ([B4], [B5]).
    """
    h = Holding(hand)
    ddd = table.dragon_beats_dragon
    if out_of_turn:
        if top is None:
            return []
        return _distinct([b for b in bombs(h, None, table) if beats(b, top, ddd)],
                         hand) + [PASS]
    if wish is not None and contains_rank(hand, wish):
        wished = [p for p in candidates(h, top, wish, table) if beats(p, top, ddd)]
        if wished:  # [W2]: owed; [W5]: a bomb that beats the table is exempt, a lead is not
            if top is not None and not table.strict_wish:
                wished += [b for b in bombs(h, None, table)
                           if beats(b, top, ddd) and not contains_rank(b.cards, wish)]
            return _distinct(wished, hand)
    if top is None:  # every combination may be led: no need to ask `beats`
        plays = [*singles(h), *sets(h, 2), *sets(h, 3), *stairs(h), *full_houses(h),
                 *straights(h), *bombs(h, None, table)]
        return _distinct(plays, hand)
    plays = [p for p in candidates(h, top, None, table) if beats(p, top, ddd)]
    return _distinct(plays, hand) + [PASS]


__all__ = ["Holding", "Table", "DEFAULT_TABLE", "candidates", "wish_play", "legal_plays",
           "singles", "sets", "full_houses", "straights", "stairs", "bombs", "parse_cards",
           "readings"]
