"""Which plays a hand can make: generation by kind, the wish search ([W2]), enumeration.

Generators take an optional `must` rank: only plays holding a natural card of that rank
are produced, which makes "could this hand have fulfilled the wish?" a short search.

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

from .cards import DOG_CARD, DR, MJ, PH, Card, parse_cards
from .combos import PASS, Combination, Kind, beats, contains_rank, readings

Option = tuple[Card, ...]


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



def _groups(h: Holding, rank: int, size: int, allow_ph: bool) -> Iterator[tuple[Option, bool]]:
    """Ways to take `size` cards of `rank`, the Phoenix standing for at most one ([S3])."""
    cards = h.by_rank.get(rank, [])
    for combo in combinations(cards, size):
        yield combo, False
    if allow_ph and h.phoenix and size >= 2:
        for combo in combinations(cards, size - 1):
            yield combo + (PH,), True


def singles(h: Holding) -> Iterator[Combination]:
    for rank in sorted(h.by_rank):
        for c in h.by_rank[rank]:
            yield Combination(Kind.SINGLE, rank, 1, (c,))
    if h.mahjong:
        yield Combination(Kind.SINGLE, 1, 1, (MJ,))
    for d in h.dragons:
        yield Combination(Kind.SINGLE, 15, 1, (d,))
    if h.phoenix:
        yield Combination(Kind.SINGLE, 1.5, 1, (PH,))
    if h.dog:
        yield Combination(Kind.DOG, 0, 1, (DOG_CARD,))


def sets(h: Holding, size: int, must: int | None = None) -> Iterator[Combination]:
    """Pairs (size 2) and trios (size 3), [C2], [C4]."""
    kind = Kind.PAIR if size == 2 else Kind.TRIO
    for rank in ([must] if must else sorted(h.by_rank)):
        for cards, ph in _groups(h, rank, size, True):
            if cards and any(c.is_normal for c in cards):
                yield Combination(kind, rank, size, cards, rank if ph else None)


def full_houses(h: Holding, must: int | None = None) -> Iterator[Combination]:
    """[C5]: a trio and a pair of another rank; the Phoenix in at most one of them."""
    ranks = sorted(h.by_rank)
    for trio_rank in ranks:
        for pair_rank in ranks:
            if pair_rank == trio_rank or (must and must not in (trio_rank, pair_rank)):
                continue
            for trio, ph1 in _groups(h, trio_rank, 3, True):
                for pair, ph2 in _groups(h, pair_rank, 2, not ph1):
                    stand = trio_rank if ph1 else pair_rank if ph2 else None
                    yield Combination(Kind.FULL_HOUSE, trio_rank, 5, trio + pair, stand)


def _runs(h: Holding, low: int, top: int, per_rank: int, must: int | None,
          straight: bool) -> Iterator[Combination]:
    """Every way to take `per_rank` cards of each rank low..top, the Phoenix for one card."""
    options: list[list[tuple[Option, bool]]] = []
    missing = 0
    for rank in range(low, top + 1):
        if rank == 1:
            opts: list[tuple[Option, bool]] = [((MJ,), False)] if h.mahjong else []
        else:
            opts = list(combinations(h.by_rank.get(rank, []), per_rank))  # type: ignore[arg-type]
            opts = [(o, False) for o in opts]  # type: ignore[misc]
            if h.phoenix:
                partial = combinations(h.by_rank.get(rank, []), per_rank - 1)
                opts += [(o + (PH,), True) for o in partial]
        if not opts:
            return
        if all(ph for _, ph in opts):
            missing += 1
            if missing > 1:
                return
        options.append(opts)
    kind = Kind.STRAIGHT if straight else Kind.STAIRS
    length = (top - low + 1) * per_rank
    for choice in product(*options):
        if sum(ph for _, ph in choice) > 1:
            continue
        cards = tuple(c for opt, _ in choice for c in opt)
        if must and not contains_rank(cards, must):
            continue
        stand = next((low + i for i, (_, ph) in enumerate(choice) if ph), None)
        if straight and stand is None and len({c.suit for c in cards}) == 1:
            continue  # [B6]: a straight flush is a bomb, generated by `bombs`
        yield Combination(kind, top, length, cards, stand)


def straights(h: Holding, length: int | None = None, must: int | None = None,
              above: float = 0) -> Iterator[Combination]:
    """[C6]: five or more consecutive ranks; the Mah Jong as the 1; the Phoenix for one."""
    lengths = [length] if length else range(5, 15)
    for n in lengths:
        for top in range(max(n, int(above) + 1), 15):
            low = top - n + 1
            if must and not low <= must <= top:
                continue
            yield from _runs(h, low, top, 1, must, True)


def stairs(h: Holding, length: int | None = None, must: int | None = None,
           above: float = 0) -> Iterator[Combination]:
    """[C3]: two or more pairs of adjacent ranks."""
    pair_counts = [length // 2] if length else range(2, 8)
    for pairs in pair_counts:
        for top in range(max(pairs + 1, int(above) + 1), 15):
            low = top - pairs + 1
            if must and not low <= must <= top:
                continue
            yield from _runs(h, low, top, 2, must, False)


def bombs(h: Holding, must: int | None = None,
          table: Table = DEFAULT_TABLE) -> Iterator[Combination]:
    """[B1]: four of a kind and straight flushes."""
    if must:
        yield from _bombs_with(h, must, table)
        return
    for rank in sorted(h.by_rank):
        cards = h.by_rank.get(rank, [])
        for four in combinations(cards, 4):
            if table.distinct_suit_fours and len({c.suit for c in four}) < 4:
                continue
            yield Combination(Kind.BOMB, rank, 4, four)
    for ranks in h.suit_ranks.values():
        present = sorted(ranks)
        for i, low in enumerate(present):
            top = low
            for nxt in present[i + 1:]:
                if nxt != top + 1:
                    break
                top = nxt
                if top - low + 1 >= 5 and (not must or low <= must <= top):
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
        while high < 14 and Card(high + 1, suit) in held:
            high += 1
        for top in range(high, must - 1, -1):
            for bottom in range(low, min(must, top - 4) + 1):
                run = tuple(Card(r, suit) for r in range(bottom, top + 1))
                yield Combination(Kind.BOMB, top, len(run), run, straight_flush=True)


def candidates(h: Holding, top: Combination | None, must: int | None = None,
               table: Table = DEFAULT_TABLE) -> Iterator[Combination]:
    """Plays that might beat `top`, of its kind and length, then bombs (not yet checked)."""
    if top is not None and top.kind is Kind.DOG:
        return
    if top is None:
        if must:
            for c in h.by_rank.get(must, []):
                yield Combination(Kind.SINGLE, must, 1, (c,))
        else:
            yield from singles(h)
        yield from sets(h, 2, must)
        yield from sets(h, 3, must)
        yield from stairs(h, None, must)
        yield from full_houses(h, must)
        yield from straights(h, None, must)
    elif top.kind is Kind.SINGLE:
        if must:
            for c in h.by_rank.get(must, []):
                yield Combination(Kind.SINGLE, must, 1, (c,))
        else:
            yield from singles(h)
    elif top.kind in (Kind.PAIR, Kind.TRIO):
        yield from sets(h, top.length, must)
    elif top.kind is Kind.FULL_HOUSE:
        yield from full_houses(h, must)
    elif top.kind is Kind.STAIRS:
        yield from stairs(h, top.length, must, top.rank)
    elif top.kind is Kind.STRAIGHT:
        yield from straights(h, top.length, must, top.rank)
    yield from bombs(h, must, table)


def _beats(play: Combination, top: Combination | None, table: Table) -> bool:
    return beats(play, top, table.dragon_beats_dragon)


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
        if _beats(play, top, table):
            return play.cards
    return None


def legal_plays(hand: Sequence[Card], top: Combination | None, wish: int | None = None,
                table: Table = DEFAULT_TABLE, out_of_turn: bool = False) -> list[Combination]:
    """Every distinct lawful play from `hand` on `top` (each card set once, highest
    reading), the wish applied ([W2], [W5]); a pass is included when it is lawful."""
    h = Holding(hand)
    best: dict[frozenset[Card] | tuple[Card, ...], Combination] = {}
    for play in candidates(h, top, None, table):
        if out_of_turn and not play.is_bomb:
            continue
        if _beats(play, top, table):
            key = tuple(sorted(play.cards))
            if key not in best or play.rank > best[key].rank:
                best[key] = play
    plays = list(best.values())
    obliged = (wish is not None and not out_of_turn
               and contains_rank(hand, wish)
               and any(contains_rank(p.cards, wish) for p in plays))
    if obliged and wish is not None:
        plays = [p for p in plays if contains_rank(p.cards, wish)
                 or (p.is_bomb and not table.strict_wish)]
    if top is not None and not obliged:
        plays.append(PASS)
    return plays


__all__ = ["Holding", "Table", "DEFAULT_TABLE", "candidates", "wish_play", "legal_plays",
           "singles", "sets", "full_houses", "straights", "stairs", "bombs", "parse_cards",
           "readings"]
