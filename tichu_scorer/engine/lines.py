"""Straights of one card a rank ([C6]), each play a slice of the hand's `lines`: the first
card at each rank, or the same with the Phoenix in one rank's place ([S3]), all of them
end to end in one tuple. For a run from `low` the plays of every top, in order, are rows
of a table made once per `low` at import: the slice of that tuple, the play's top rank,
its length and the Phoenix's rank. One group (`playlist.Group`) holds all the plays of one
`low`, a rank and a length a play.

>>> from .cards import parse_cards
>>> from .holding import Holding
>>> from .playlist import Plays
>>> h = Holding(parse_cards(["4j", "5s", "6t", "7t", "8j", "PH"]))
>>> out = []
>>> rows(phoenix_table(4, 0), 8, 8, None, lines(h.index()), out)
>>> [c.describe() for c in Plays(out)]
['straight 4–8', 'straight 4–8, Phoenix as 5', 'straight 4–8, Phoenix as 6', \
'straight 4–8, Phoenix as 7', 'straight 4–8, Phoenix as 8']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import islice, repeat
from operator import getitem, itemgetter
from typing import cast

from .cards import ACE, MAHJONG, PH
from .combos import Kind
from .playlist import Cards, Group

_STRAIGHT = Kind.STRAIGHT
Column = tuple[list[int], list[int], list[int | None]]  # tops, lengths, Phoenix ranks
Getters = list[Callable[[Cards], tuple[Cards, ...]] | None]  # by top: a range of rows' getter
Table = tuple[list[slice], list[int], list[int], list[int | None], list[int], list[Column],
              Getters, Getters]
# tops, lengths, the rows' getter, Phoenix ranks
Head = tuple[list[int], list[int], Callable[[Cards], tuple[Cards, ...]], list[int | None]]
_WIDTH = ACE + 1  # a line's cards: ranks 0 to the Ace
# a tuple's slice, in C (`operator.getitem`, typed for tuples of cards)
_cut = cast(Callable[[Cards, slice], Cards], getitem)
# where line p (p from 2 to the Ace) holds the Phoenix in the lines end to end: at
# p * _WIDTH + p, every (_WIDTH + 1)th place from line 2's
_PHOENIX_SPOTS = slice(2 * _WIDTH + 2, None, _WIDTH + 1)
_PHOENIXES = [PH] * (ACE - 1)


def _table(low: int, phoenix: bool, lost: int = 0) -> Table:
    """The rows for the runs from `low`, top from low + 4 to the Ace, and where each top's
    rows begin: the natural run, then (with the Phoenix) the Phoenix at each rank above
    `low` (at `low` itself the same cards read one rank higher, but for a run to the Ace:
    there from `low` up, unless `low` is the Mah Jong's) but `lost`; and without `lost`,
    for each top, the columns of the rows up to it, which a lead's group takes as they
    are; then the slices of the rows as `itemgetter`s (each row's slice taken in C, no call
    a row): for each top, of the rows up to it, and of its own rows (None for one row)."""
    cuts: list[slice] = []
    tops: list[int] = []
    lengths: list[int] = []
    stands: list[int | None] = []
    begin = [0] * (ACE + 2)
    for top in range(low + 4, ACE + 1):
        begin[top] = len(cuts)
        bottom = low if top == ACE and low > MAHJONG else low + 1
        places = [p for p in range(bottom, top + 1) if p != lost] if phoenix else ()
        for p in (0, *places):
            cuts.append(slice(p * _WIDTH + low, p * _WIDTH + top + 1))
            tops.append(top)
            lengths.append(top - low + 1)
            stands.append(p or None)
    begin[ACE + 1] = len(cuts)
    upto = [(tops[:begin[top + 1]], lengths[:begin[top + 1]], stands[:begin[top + 1]])
            for top in range(ACE + 1)] if not lost else []
    prefix: Getters = [itemgetter(*cuts[:begin[top + 1]]) if begin[top + 1] > 1 else None
              for top in range(ACE + 1)]
    single: Getters = [itemgetter(*cuts[begin[top]:begin[top + 1]])
              if top >= low + 4 and begin[top + 1] - begin[top] > 1 else None
              for top in range(ACE + 1)]
    return cuts, tops, lengths, stands, begin, upto, prefix, single


WITH = [_table(low, True) for low in range(ACE + 1)]  # [low]: the Phoenix in hand
# (low, lost): the same but for the Phoenix at `lost`, the wished rank, from `low` up;
# each made on first use (at most 76, none at import: 2 ms and 0.6 MB for all of them)
_LOST: dict[tuple[int, int], Table] = {}
WITHOUT = [_table(low, False) for low in range(ACE + 1)]


def _heads(table: Table) -> list[Head | None]:
    """[stop]: the group `rows` makes of a table's rows from its first top to `stop`, but
    its card sets: the columns and the rows' getter, the table's own (None: one row)."""
    upto, prefix = table[5], table[6]
    return [(upto[stop][0], upto[stop][1], get, upto[stop][2]) if get is not None and upto
            else None for stop, get in enumerate(prefix)]


# [low][stop]: `_heads` of WITH[low] and of WITHOUT[low] (no new rows: the tables' own)
HEADS_WITH = [_heads(table) for table in WITH]
HEADS_WITHOUT = [_heads(table) for table in WITHOUT]


def _reaching(low: int) -> list[Head | None]:
    """[stop]: `HEADS_WITH[low][stop]` followed by the run low..stop + 1 with the Phoenix
    at stop + 1, the rank missing (line 0's slice, the next top's first row): a lead's
    runs from `low` when the Phoenix fills the first rank missing and no rank above it is
    held (None where there is no such head)."""
    cuts, tops, lengths, stands, begin = WITH[low][:5]
    out: list[Head | None] = [None] * (ACE + 1)
    for stop in range(low + 4, ACE):
        end = begin[stop + 1]
        out[stop] = (tops[:end + 1], lengths[:end + 1], itemgetter(*cuts[:end + 1]),
                     [*stands[:end], stop + 1])
    return out


# [low][stop]: `_reaching(low)`, for the lows a run of five can start from
REACHING = [_reaching(low) if low <= ACE - 4 else [None] * (ACE + 1) for low in range(ACE + 1)]


def lines(at: Sequence[Cards], phoenix: bool = True) -> Cards:
    """For a hand with one card at each rank of a run, its lines end to end, which the
    tables slice: line 0, the first card at each rank (the Phoenix where there is none),
    twice, then for p from 2 to the Ace the same with the Phoenix at rank p; each line from
    rank 0 to the Ace (`_WIDTH` cards). Without the Phoenix in hand, line 0 alone (all
    that `WITHOUT`'s tables slice)."""
    line = [c[0] if c else PH for c in at[:_WIDTH]]
    if not phoenix:
        return tuple(line)
    every = line * _WIDTH
    every[_PHOENIX_SPOTS] = _PHOENIXES  # (one extended slice: line p's rank p)
    return tuple(every)


def rows(table: Table, start: int, stop: int, stand: int | None, cards: Cards,
          out: list[Group]) -> None:
    """The rows of the tops `start` to `stop`, slices of `cards`, as one group (`stand`:
    the Phoenix's rank for every play, when it is not the table's)."""
    cuts, tops, lengths, stands, begin, upto, prefix, single = table
    i, j = begin[start], begin[stop + 1]
    if i >= j:
        return
    if start == stop:  # one top: its rank and length for the whole group
        get = single[start]
        out.append((_STRAIGHT, start, lengths[i], [cards[cuts[i]]] if get is None else
                    get(cards), stand if stand is not None else stands[i] if j - i == 1
                    else stands[i:j], False))
        return
    if not i and upto:  # (the rows from the shortest run: never changed, so shared)
        tops, lengths, stands = upto[stop]
    else:
        tops, lengths, stands = tops[i:j], lengths[i:j], stands[i:j]
    get = prefix[stop] if not i else single[start] if start == stop else None
    played: Sequence[Cards]
    if get is not None:
        played = get(cards)
    else:  # (`getitem` in C: `cards.__getitem__` is a slot wrapper, a tuple a call)
        played = list(map(_cut, repeat(cards), islice(cuts, i, j)))
    out.append((_STRAIGHT, tops, lengths, played, stands if stand is None else stand, False))


def phoenix_table(low: int, lost: int) -> Table:
    """The table of the runs from `low` with the Phoenix in hand (each rank holding one
    card, no run of one suit): the natural run, then the Phoenix at each rank but the
    lowest (the same cards read one rank higher) unless the run ends at the Ace, and never
    at `lost` (the wished rank; 0: none). `WITHOUT[low]`: the natural runs alone, which
    also serve a run with the Phoenix in the one rank missing (line 0 holds it there)."""
    if lost < low:
        return WITH[low]
    table = _LOST.get((low, lost))
    if table is None:
        table = _LOST[low, lost] = _table(low, True, lost)
    return table


__all__ = ["HEADS_WITH", "HEADS_WITHOUT", "REACHING", "WITH", "WITHOUT", "lines", "phoenix_table",
           "rows"]
