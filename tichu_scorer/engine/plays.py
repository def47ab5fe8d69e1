"""Which plays a hand can make now: the enumeration of every lawful play, from the
generators by kind in `generate` (the wish search, which must not enumerate, is `wish`).
The enumeration answers a `Plays` sequence: the plays in groups that share a reading, each
built into a `Combination` when read (`playlist`).

>>> hand = parse_cards(["4j", "5s", "7t", "8t", "PH", "Kp"])
>>> top = readings(parse_cards(["2j", "3j", "4s", "5p", "6s"]))[0]
>>> [c.describe() for c in legal_plays(hand, top)]
['straight 4–8, Phoenix as 6', 'a pass']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from .cards import ACE, DR, DRAGON, PH, PHOENIX, Card, parse_cards
from .combos import PASS, Combination, Kind, beats, contains_rank, readings
from .generate import (
    BIT,
    Holding,
    bombs,
    full_houses,
    no_bomb,
    sets,
    singles,
    stairs,
    straights,
)
from .holding import naturals_above
from .playlist import Group, Plays, expand, item
from .runs import no_stairs, no_straight


@dataclass(frozen=True)
class Table:
    """How the rules of a variant change what may be played."""

    distinct_suit_fours: bool = False  # [GS3]
    dragon_beats_dragon: bool = False  # [GS3]
    strict_wish: bool = False  # [W5] house rule


DEFAULT_TABLE = Table()


_SINGLE, _PAIR, _TRIO, _STAIRS, _FULL, _STRAIGHT, _DOG, _BOMB = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STAIRS, Kind.FULL_HOUSE, Kind.STRAIGHT, Kind.DOG,
    Kind.BOMB)
_PASS_GROUP: Group = (PASS[0], 0, 0, [()], None, False)
_bit_of = BIT.__getitem__
_rank_of = itemgetter(0)
_DR_BIT, _PH_BIT = BIT[DR], BIT[PH]
_RANK_BITS = 0x0001_0001_0001_0001  # rank 0's bit in each suit's 16 (`holding.BIT`)
_RANKS = 0x7FFC  # a suit's natural ranks, bits 2..14 of its 16
_DRAGON_GROUP: Group = (_SINGLE, DRAGON, 1, [(DR,)], None, False)
_PHOENIX_GROUP: Group = (_SINGLE, 1.5, 1, [(PH,)], None, False)


def _every_kind(h: Holding, must: int | None) -> list[Group]:
    """A lead's plays of every kind but bombs (no trio, stairs nor full house without a
    rank held twice: the Phoenix makes one pair at most)."""
    out = singles(h, 0, must)
    out += sets(h, 2, must, 0)
    if h.pairs:
        out += sets(h, 3, must, 0)
        out += stairs(h, None, must, 0)
        out += full_houses(h, must, 0)
    out += straights(h, None, must, 0)
    return out


def _beating(groups: list[Group], top: Combination | None, ddd: bool) -> list[Group]:
    """The groups whose plays beat `top`. A group's first play speaks for the group: its
    plays share the kind, length, straight flush and, but for the natural singles, the
    rank, and the generators ranked every natural single above the table."""
    return [g for g in groups if beats(item(g, 0), top, ddd)]


def candidates(h: Holding, top: Combination | None, must: int | None = None,
               table: Table = DEFAULT_TABLE) -> list[Group]:
    """Every play that may follow `top` (any lead when None), bombs last, in groups. The
    generators keep the kind, length and rank of `top`, and the singles what beats a single
    ([S4], [S5]); `beats` decides only bombs."""
    if top is None:
        plays = _every_kind(h, must)
        if h.may_bomb:
            plays += bombs(h, must, table.distinct_suit_fours)
        return plays
    kind, above = top[0], top[1]  # the plays of its kind and length ranked above it
    if kind is _SINGLE:
        plays = singles(h, above, must, table.dragon_beats_dragon)
    elif kind is _PAIR or kind is _TRIO:
        plays = sets(h, top[2], must, above)
    elif kind is _STRAIGHT:
        plays = straights(h, top[2], must, above)
    elif kind is _STAIRS:
        plays = stairs(h, top[2], must, above)
    elif kind is _FULL:
        plays = full_houses(h, must, above)
    elif kind is _DOG:  # [S2]: nothing, not even a bomb
        return []
    else:
        plays = []  # a bomb on the table: only a higher bomb
    if h.may_bomb:
        plays += _beating(bombs(h, must, table.distinct_suit_fours), top,
                          table.dragon_beats_dragon)
    return plays


def _distinct(plays: list[Group], h: Holding) -> list[Group]:
    """Each card set once, in its highest reading. The generators already produce each set
    once from a hand of distinct cards; two decks ([GS2]) hold identical cards."""
    hand = h.cards
    if h.bits is not None or len(set(hand)) == len(hand):
        return plays
    best: dict[tuple[Card, ...], Combination] = {}
    for group in plays:
        for play in expand(group):
            key = tuple(sorted(play.cards))
            if key not in best or play.rank > best[key].rank:
                best[key] = play
    return [(p[0], p[1], p[2], [p[3]], p[4], p[5]) for p in best.values()]


def legal_plays(hand: Sequence[Card], top: Combination | None, wish: int | None = None,
                table: Table = DEFAULT_TABLE, out_of_turn: bool = False) -> Plays:
    """Every distinct lawful play from `hand` on `top` (each card set once, highest
    reading), the wish applied ([W2], [W5]); a pass is included when it is lawful.

    Out of turn only bombs that beat a combination on the table count ([B4], [B5]).
    """
    try:  # (`card_bits`, in place: its call is a tenth of reading a hand)
        bits: int | None = sum(map(_bit_of, hand))
    except KeyError:
        bits = None
    if bits is not None and bits.bit_count() != len(hand):
        bits = None
    if out_of_turn:
        if top is None:
            return Plays([])
        if no_bomb(bits):
            return Plays([_PASS_GROUP])
        h = Holding(hand, bits)
        plays = _beating(bombs(h, None, table.distinct_suit_fours), top,
                         table.dragon_beats_dragon)
        plays = _distinct(plays, h) if plays else plays
        plays.append(_PASS_GROUP)
        return Plays(plays)
    if top is not None and bits is not None:  # (a follow from one deck: the bits first)
        kind = top[0]
        if kind is _SINGLE:
            if top[1] >= 2 and (wish is None or 2 <= wish <= ACE) and no_bomb(bits):
                return _on_single(hand, bits, top[1], wish, table)
        elif kind is _STRAIGHT and no_bomb(bits) and no_straight(
                (bits | bits >> 16 | bits >> 32 | bits >> 48) & _RANKS | (bits & 1) << 1,
                bits & _PH_BIT != 0, top[2], top[1]):
            return Plays([_PASS_GROUP])  # (the ranks held, the Mah Jong's too: `held`)
    h = Holding(hand, bits)
    if top is not None and not h.may_bomb and _none_above(h, top):
        return Plays([_PASS_GROUP])  # (owed or not, a wish cannot be fulfilled)
    if wish is not None and (h.held >> wish & 1 if bits is not None and 2 <= wish <= ACE
                             else 0 <= wish <= PHOENIX and h.holds(wish)):
        return _wished(h, top, wish, table)
    return _unwished(h, top, table)


def _none_above(h: Holding, top: Combination) -> bool:
    """No play of `top`'s kind and length ranks above it in the hand, as the generators'
    first tests read the ranks held once, twice and three times (False tells nothing):
    nothing follows the Dog ([S2]), only a bomb a bomb ([B3]); a pair (trio) needs a rank
    above held twice (three times) or, with the Phoenix, once (twice) ([S3]); a full
    house a trio above; stairs a run starting where `no_stairs` finds one. A single or a
    straight is not told here (`legal_plays` tells a straight from the bits)."""
    kind = top[0]
    if kind is _PAIR:
        return not (h.pairs | h.held if h.phoenix else h.pairs) >> int(top[1]) + 1
    if kind is _TRIO or kind is _FULL:
        return not (h.trios | h.pairs if h.phoenix else h.trios) >> int(top[1]) + 1
    if kind is _STAIRS:
        return no_stairs(h, top[2], top[1])
    return kind is _DOG or kind is _BOMB


def _on_single(hand: Sequence[Card], bits: int, above: float, wish: int | None,
               table: Table) -> Plays:
    """`legal_plays` on a single ranked 2 or more (a natural card, a Phoenix single's half
    rank, the Dragon) from a one-deck hand holding no bomb (`bits`: its `card_bits`),
    with no wish or a wish of a natural rank, read from the bits without a `Holding`: as
    `singles` and `_wished` answer it. The natural cards above it ([S1]), then the Dragon
    ([S5]; on the Dragon only in Grand Seigneur, [GS3]) and the Phoenix on anything but
    the Dragon ([S4]), then a pass; but when the wished rank is held and ranks above the
    table, only the singles of that rank ([W2]), no pass."""
    if wish is not None and wish > above and bits >> wish & _RANK_BITS:
        owed = [c for c in hand if c[0] == wish]  # (the hand's order)
        return Plays([(_SINGLE, [wish] * len(owed), 1, list(zip(owed)), None, False)])
    cards = naturals_above(hand, bits, above)
    out: list[Group] = [(_SINGLE, list(map(_rank_of, cards)), 1, list(zip(cards)), None,
                         False)] if cards else []
    if bits & _DR_BIT and (above < DRAGON or table.dragon_beats_dragon and above == DRAGON):
        out.append(_DRAGON_GROUP)
    if bits & _PH_BIT and above < DRAGON:
        out.append(_PHOENIX_GROUP)
    out.append(_PASS_GROUP)
    return Plays(out)


def _unwished(h: Holding, top: Combination | None, table: Table) -> Plays:
    """`legal_plays` when no wish is owed: the candidates, and a pass on a trick."""
    plays = candidates(h, top, None, table)
    if h.bits is None:  # (one deck: each card set once already)
        plays = _distinct(plays, h)
    if top is not None:
        plays.append(_PASS_GROUP)
    return Plays(plays)


def _wished(h: Holding, top: Combination | None, wish: int, table: Table) -> Plays:
    """`legal_plays` when the hand holds the wished rank ([W2], [W5])."""
    if top is None:  # [W2]: the leader holding the wished rank must lead it
        return Plays(_distinct(candidates(h, None, wish, table), h))
    wished = candidates(h, top, wish, table)
    if wished:  # [W2]: owed; [W5]: a bomb that beats the table is exempt
        if not table.strict_wish and h.may_bomb:
            for b in _beating(bombs(h, None, table.distinct_suit_fours), top,
                              table.dragon_beats_dragon):
                free = [cards for cards in b[3] if not contains_rank(cards, wish)]
                if free:
                    wished.append((b[0], b[1], b[2], free, b[4], b[5]))
        return Plays(_distinct(wished, h))
    return _unwished(h, top, table)


__all__ = ["Holding", "Plays", "Table", "DEFAULT_TABLE", "candidates", "legal_plays",
           "parse_cards", "readings"]
