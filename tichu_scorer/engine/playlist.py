"""The enumerator's answer: every lawful play, stored in groups that share a reading and
built into a `Combination` only when one is read.

A group is a plain tuple laid out like a `Combination`, with a list (or a tuple, never
changed) of card tuples in the place of the cards: (kind, rank, length, [cards, ...],
phoenix_as, straight_flush). The
rank, the length and the Phoenix's rank are each either one value for the whole group or a
list with one value a play. A dense lead has 1,500 plays; creating a named tuple for each costs more
than finding them, so `Plays` keeps the groups the generators produce and builds a
combination per item read (`plays[i]`, iteration). The card sets and every play's
reading exist when `legal_plays` returns; `Plays.cards()` lists the card sets alone.

>>> from .cards import parse_cards
>>> hand = parse_cards(["4j", "4s"])
>>> group = (Kind.SINGLE, 4, 1, [(hand[0],), (hand[1],)], None, False)
>>> plays = Plays([group, (Kind.PAIR, 4, 2, [tuple(hand)], None, False)])
>>> len(plays), [p.describe() for p in plays], plays[-1].cards
(3, ['single 4', 'single 4', 'pair of 4s'], (4j, 4s))
>>> plays[2] in plays, plays == list(plays)
(True, True)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain, repeat
from operator import eq
from typing import overload

from .cards import Card
from .combos import Combination, Kind

Cards = tuple[Card, ...]
# kind, rank, length (one, or one a play), card sets, phoenix_as (one, or one a play), flush
Group = tuple[Kind, "float | list[int]", "int | list[int]", Sequence[Cards],
              "int | None | list[int] | list[int | None]", bool]

_new = tuple.__new__
_C = Combination


def expand(group: Group) -> Iterator[Combination]:
    """The group's plays as combinations, in order."""
    kind, rank, length, cards, stand, flush = group
    ranks = rank if rank.__class__ is list else repeat(rank)
    lengths = length if length.__class__ is list else repeat(length)
    stands = stand if stand.__class__ is list else repeat(stand)
    return map(_new, repeat(_C), zip(repeat(kind), ranks, lengths, cards, stands,
                                     repeat(flush)))


def item(group: Group, j: int) -> Combination:
    """The group's play number `j` as a combination."""
    kind, rank, length, cards, stand, flush = group
    if isinstance(rank, list):
        rank = rank[j]
    if isinstance(length, list):
        length = length[j]
    if isinstance(stand, list):
        stand = stand[j]
    result: Combination = _new(_C, (kind, rank, length, cards[j], stand, flush))
    return result


class Plays(Sequence[Combination]):
    """An immutable sequence of plays kept in groups (see the module's docstring): `len`,
    indexing, iteration and `in` answer as a list of the `Combination`s would, and `==`
    compares with a list or tuple of combinations play by play."""

    __slots__ = ("_groups", "_ends")

    def __init__(self, groups: list[Group]) -> None:
        self._groups = groups
        self._ends: list[int] | None = None  # each group's end in the sequence, on first use

    def _offsets(self) -> list[int]:
        if self._ends is None:
            self._ends = list(accumulate(len(g[3]) for g in self._groups))
        return self._ends

    def __len__(self) -> int:
        ends = self._offsets()
        return ends[-1] if ends else 0

    @overload
    def __getitem__(self, index: int) -> Combination: ...

    @overload
    def __getitem__(self, index: slice) -> list[Combination]: ...

    def __getitem__(self, index: int | slice) -> Combination | list[Combination]:
        if isinstance(index, slice):
            return list(self)[index]
        ends = self._offsets()
        size = ends[-1] if ends else 0
        i = index + size if index < 0 else index
        if not 0 <= i < size:
            raise IndexError("play index out of range")
        k = bisect_right(ends, i)
        return item(self._groups[k], i - ends[k - 1] if k else i)

    def __iter__(self) -> Iterator[Combination]:
        return chain.from_iterable(map(expand, self._groups))

    def __contains__(self, play: object) -> bool:
        if not isinstance(play, Combination):
            return False
        cards = play[3]
        for group in self._groups:
            if group[0] is play[0] and (group[2] == play[2] or isinstance(group[2], list)):
                for j, held in enumerate(group[3]):
                    if held == cards and item(group, j) == play:
                        return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Plays | list | tuple):
            return len(self) == len(other) and all(map(eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (equal to lists, which are unhashable)

    def __repr__(self) -> str:
        return f"Plays({list(self)!r})"

    def cards(self) -> list[Cards]:
        """Every play's cards, in order, without building the combinations."""
        return list(chain.from_iterable(g[3] for g in self._groups))


__all__ = ["Cards", "Group", "Plays", "expand", "item"]
