"""Combinations (RULES.md §3, §5) and what beats what (§3–§5).

`readings` lists every way a set of cards can be read, each Phoenix reading included
([C9]); `beats` says whether one reading beats the combination on the table.

>>> [c.describe() for c in readings(parse_cards(["9j", "9s", "5p", "5t", "PH"]))]
['full house of 9s over 5s, Phoenix as 9', 'full house of 5s over 9s, Phoenix as 5']
>>> readings(parse_cards(["3j", "3s", "3p", "3t", "PH"]))
[]
>>> readings(parse_cards(["4j", "5j", "6j", "7j", "8j"]))[0].describe()
'straight flush bomb 4–8'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from operator import itemgetter
from typing import NamedTuple

from ..game.i18n import _
from .cards import (
    ACE,
    DOG,
    DOG_CARD,
    DR,
    DRAGON,
    MAHJONG,
    MJ,
    PH,
    PHOENIX,
    Card,
    parse_cards,
    rank_text,
)


class Kind(str, Enum):
    SINGLE = "single"
    PAIR = "pair"
    STAIRS = "stairs"
    TRIO = "trio"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    BOMB = "bomb"
    DOG = "dog"
    PASS = "pass"  # nosec B105: the name of a move, not a password


_KIND_TEXT = {kind: kind.value for kind in Kind}  # (an Enum's .value is a slow look-up)
# The members as module constants: in Python 3.11 `Kind.X` goes through the Enum class's
# __getattr__ hook, several times slower than a global, in the referee's hottest paths.
_SINGLE, _PAIR, _TRIO, _STAIRS, _FULL, _STRAIGHT, _BOMB, _DOG, _PASS = (
    Kind.SINGLE, Kind.PAIR, Kind.TRIO, Kind.STAIRS, Kind.FULL_HOUSE, Kind.STRAIGHT, Kind.BOMB,
    Kind.DOG, Kind.PASS)
# a rank as the API writes it ("8", "DR"); a Phoenix single's 8.5 is not in it
_TEXT_OF_RANK: dict[float, str] = {float(r): str(r) for r in range(PHOENIX + 1)}
_TEXT_OF_RANK[DRAGON] = "DR"

# The rule that defines each kind, cited when a play does not match the table.
KIND_RULE = {Kind.SINGLE: "C1", Kind.PAIR: "C2", Kind.STAIRS: "C3", Kind.TRIO: "C4",
             Kind.FULL_HOUSE: "C5", Kind.STRAIGHT: "C6", Kind.BOMB: "B2", Kind.DOG: "S2",
             Kind.PASS: "H5"}


class Combination(NamedTuple):
    """One reading of a play. `rank` is the top rank (the trio's for a full house; a
    Phoenix single's value, e.g. 8.5, once it lies on the table). Immutable; a named tuple
    because the enumerator creates thousands of them."""

    kind: Kind
    rank: float
    length: int
    cards: tuple[Card, ...] = ()
    phoenix_as: int | None = None
    straight_flush: bool = False

    @property
    def is_bomb(self) -> bool:
        return self[0] is _BOMB

    @property
    def bomb_key(self) -> tuple[int, int, float]:
        """[B2]: straight flushes above fours; then length; then top rank."""
        return (1 if self.straight_flush else 0, self.length, self.rank)

    @property
    def phoenix_single(self) -> bool:
        return self[0] is _SINGLE and self[3] == _PH

    def __repr__(self) -> str:
        return f"<{self.describe()}: {' '.join(repr(c) for c in self.cards)}>"

    def rank_text(self) -> str:
        text = _TEXT_OF_RANK.get(self[1])  # (an int rank, or a float like 8.0, looks it up)
        return text if text is not None else f"{self[1]:.1f}"

    def value_text(self) -> str:
        """A Phoenix single's value as a player says it: "1½", "8½", "A½"."""
        whole = int(self.rank)
        return (rank_text(whole) if whole > 1 else "1") + ("½" if self.rank != whole else "")

    def as_dict(self) -> dict[str, object]:
        """The docs/API.md shape: kind, rank, length, phoenix_as."""
        out: dict[str, object] = {"kind": _KIND_TEXT[self.kind], "rank": self.rank_text(),
                                  "length": self.length}
        if self.phoenix_as is not None:
            out["phoenix_as"] = rank_text(self.phoenix_as)
        return out

    def describe(self) -> str:
        """How the play reads, for a player: "straight 4–8, Phoenix as 6"."""
        k, top = self[0], int(self[1])
        ph = _(", Phoenix as {rank}").format(rank=rank_text(self.phoenix_as)) \
            if self.phoenix_as else ""
        if k is _PASS:
            return _("a pass")
        if k is _DOG:
            return _("the Dog")
        if k is _SINGLE:
            if self.phoenix_single:
                return _("Phoenix single (worth {value})").format(value=self.value_text())
            name = _("Dragon") if top == DRAGON else _("Mah Jong") if top == MAHJONG \
                else rank_text(top)
            return _("single {card}").format(card=name)
        if k is _PAIR:
            return _("pair of {rank}s").format(rank=rank_text(top)) + ph
        if k is _TRIO:
            return _("trio of {rank}s").format(rank=rank_text(top)) + ph
        if k is _FULL:
            pair = self.phoenix_as  # the pair's rank: its first natural card's, or the Phoenix's
            for rank, suit in self[3]:
                if suit and rank != top:
                    pair = rank
                    break
            return _("full house of {trio}s over {pair}s").format(
                trio=rank_text(top), pair=rank_text(pair or 0)) + ph
        low = top - (self.length // 2 if k is _STAIRS else self.length) + 1
        span = f"{rank_text(low) if low > 1 else '1'}–{rank_text(top)}"
        if k is _STAIRS:
            return _("stairs {span} ({pairs} pairs)").format(span=span,
                                                             pairs=self.length // 2) + ph
        if k is _STRAIGHT:
            return _("straight {span}").format(span=span) + ph
        if self.straight_flush:
            return _("straight flush bomb {span}").format(span=span)
        return _("bomb: four {rank}s").format(rank=rank_text(top))


PASS = Combination(_PASS, 0, 0)


# A reading of a rank pattern: kind, top rank, and the rank the Phoenix stands for.
Pattern = tuple[Kind, int, int | None]


def _natural_patterns() -> dict[tuple[int, ...], tuple[Kind, int]]:
    """Every combination of natural cards by its sorted ranks (the Mah Jong as 1):
    pairs, trios, fours ([B1]), full houses, stairs and straights ([C2]–[C6])."""
    found: dict[tuple[int, ...], tuple[Kind, int]] = {}
    for r in range(2, ACE + 1):
        found[(r,) * 2], found[(r,) * 3], found[(r,) * 4] = \
            (Kind.PAIR, r), (Kind.TRIO, r), (Kind.BOMB, r)
        for p in range(2, ACE + 1):
            if p != r:
                found[tuple(sorted((r,) * 3 + (p,) * 2))] = (Kind.FULL_HOUSE, r)
    for low in range(2, ACE):
        for top in range(low + 1, ACE + 1):
            found[tuple(sorted([*range(low, top + 1)] * 2))] = (Kind.STAIRS, top)
    for low in range(MAHJONG, ACE - 3):
        for top in range(low + 4, ACE + 1):
            found[tuple(range(low, top + 1))] = (Kind.STRAIGHT, top)
    return found


def _reading_table() -> dict[tuple[int, ...], list[Pattern]]:
    """Sorted ranks -> every reading, highest first. The Phoenix (rank 16, sorted last)
    reads as rank r where putting an r in its place makes a natural combination; it
    stands for 2..A only and is never part of a bomb ([S3], [B1], [S7])."""
    table: dict[tuple[int, ...], list[Pattern]] = {}
    for key, (kind, top) in _natural_patterns().items():
        table.setdefault(key, []).append((kind, top, None))
        if kind is Kind.BOMB:
            continue
        for r in sorted(set(key) - {MAHJONG}):
            i = key.index(r)
            table.setdefault(key[:i] + key[i + 1:] + (PHOENIX,), []).append((kind, top, r))
    for options in table.values():
        options.sort(key=lambda o: -o[1])
    return table


_READINGS = _reading_table()
_new = tuple.__new__
_PH = (PH,)
_rank_of, _suit_of = itemgetter(0), itemgetter(1)


def readings(cards: Sequence[Card], distinct_suit_fours: bool = False) -> list[Combination]:
    """Every reading of `cards` as one combination, highest first; [] when there is none.

    A straight flush reads only as a bomb ([B6]); a Phoenix single reads as 1½ (its value
    on the table is set by `on_table`). The readings come from a table of rank patterns.
    """
    n = len(cards)
    if n < 2:
        return [_single(cards[0])] if n else [PASS]
    options = _READINGS.get(tuple(sorted(map(_rank_of, cards))))
    if options is None:
        return []
    tcards = tuple(cards)
    kind, top, stand = options[0]
    if kind is _BOMB:  # four of a kind; [GS3]: of four suits in Grand Seigneur
        if distinct_suit_fours and len(set(map(_suit_of, cards))) < 4:
            return []
    elif kind is _STRAIGHT and stand is None and top - n + 1 > MAHJONG \
            and len(set(map(_suit_of, cards))) == 1:
        return [_new(Combination, (_BOMB, top, n, tcards, None, True))]  # [B6]
    if len(options) == 1:
        return [_new(Combination, (kind, top, n, tcards, stand, False))]
    return [_new(Combination, (kind, top, n, tcards, stand, False))
            for kind, top, stand in options]


def _single(c: Card) -> Combination:
    if c == DOG_CARD:
        return _new(Combination, (_DOG, 0, 1, (c,), None, False))
    if c == PH:
        return _new(Combination, (_SINGLE, 1.5, 1, (c,), None, False))
    return _new(Combination, (_SINGLE, c[0], 1, (c,), None, False))


def on_table(play: Combination, top: Combination | None) -> Combination:
    """The play as it lies once played: a Phoenix single is worth ½ above what it beat ([S4])."""
    if top is not None and top[0] is _SINGLE and play[0] is _SINGLE and play[3] == _PH:
        return Combination(_SINGLE, top[1] + 0.5, 1, play[3])
    return play


def beats(play: Combination, top: Combination | None, dragon_beats_dragon: bool = False) -> bool:
    """Whether `play` may follow `top` (None: an empty table, so any lead).

    >>> single = lambda t: readings(parse_cards([t]))[0]
    >>> beats(single("PH"), single("DR")), beats(single("2j"), single("PH"))
    (False, True)
    """
    kind = play[0]
    if top is None:
        return kind is not _PASS
    on = top[0]
    if on is _DOG:  # [S2]: nothing, not even a bomb
        return False
    if kind is _BOMB:
        return on is not _BOMB or play.bomb_key > top.bomb_key  # [B2], [B3]
    if on is _BOMB or kind is not on or play[2] != top[2]:
        return False
    if kind is _SINGLE:
        if play[3] == _PH:  # [S4]: on anything but the Dragon
            return top[1] < DRAGON
        if top[1] == DRAGON:  # [S5]; [GS3] in Grand Seigneur
            return dragon_beats_dragon and play[1] == DRAGON
    return play[1] > top[1]


def contains_rank(cards: Sequence[Card], rank: int) -> bool:
    """A natural card of `rank` (2–A) is in the play (a Phoenix standing in does not count,
    [W1]); special cards have ranks outside 2–14, so the rank alone decides."""
    for c in cards:
        if c[0] == rank:
            return True
    return False


__all__ = ["Kind", "Combination", "PASS", "KIND_RULE", "readings", "on_table", "beats",
           "contains_rank", "MJ", "PH", "DR", "DOG_CARD", "DOG", "PHOENIX", "parse_cards"]
