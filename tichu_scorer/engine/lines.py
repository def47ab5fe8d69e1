"""Straights of one card a rank ([C6]), each play a slice of one of the hand's `lines`: the
first card at each rank, or the same with the Phoenix in one rank's place ([S3]), all of
them also end to end in one tuple. For a run from `low` the plays of every top, in order,
are rows of a table made once per `low` at import: the slice of that tuple, the play's top
rank, its length and the Phoenix's rank. One group (`playlist.Group`) holds all the plays
of one `low`, a rank and a length a play.

>>> from .cards import parse_cards
>>> from .holding import Holding
>>> from .playlist import Plays
>>> h = Holding(parse_cards(["4j", "5s", "6t", "7t", "8j", "PH"]))
>>> out = []
>>> phoenix_runs(lines(h.at), 4, 8, 8, 0, out)
>>> [c.describe() for c in Plays(out)]
['straight 4–8', 'straight 4–8, Phoenix as 5', 'straight 4–8, Phoenix as 6', \
'straight 4–8, Phoenix as 7', 'straight 4–8, Phoenix as 8']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, islice, repeat
from operator import add, itemgetter

from .cards import ACE, MAHJONG, PH
from .combos import Kind
from .playlist import Cards, Group

_PH = (PH,)
_STRAIGHT = Kind.STRAIGHT
_first = itemgetter(0)
Column = tuple[list[int], list[int], list[int | None]]  # tops, lengths, Phoenix ranks
Table = tuple[list[slice], list[int], list[int], list[int | None], list[int], list[Column]]
_WIDTH = ACE + 1  # a line's cards: ranks 0 to the Ace


def _table(low: int, phoenix: bool, lost: int = 0) -> Table:
    """The rows for the runs from `low`, top from low + 4 to the Ace, and where each top's
    rows begin: the natural run, then (with the Phoenix) the Phoenix at each rank above
    `low` (at `low` itself the same cards read one rank higher) but `lost`; and without
    `lost`, for each top, the columns of the rows up to it, which a lead's group takes as
    they are."""
    cuts: list[slice] = []
    tops: list[int] = []
    lengths: list[int] = []
    stands: list[int | None] = []
    begin = [0] * (ACE + 2)
    for top in range(low + 4, ACE + 1):
        begin[top] = len(cuts)
        places = [p for p in range(low + 1, top + 1) if p != lost] if phoenix else ()
        for p in (0, *places):
            cuts.append(slice(p * _WIDTH + low, p * _WIDTH + top + 1))
            tops.append(top)
            lengths.append(top - low + 1)
            stands.append(p or None)
    begin[ACE + 1] = len(cuts)
    upto = [(tops[:begin[top + 1]], lengths[:begin[top + 1]], stands[:begin[top + 1]])
            for top in range(ACE + 1)] if not lost else []
    return cuts, tops, lengths, stands, begin, upto


_WITH = [_table(low, True) for low in range(ACE + 1)]  # [low]: the Phoenix in hand
# (low, lost): the same but for the Phoenix at `lost`, the wished rank, above `low`; each
# made on first use (at most 65, none at import: 2 ms and 0.6 MB for all of them)
_LOST: dict[tuple[int, int], Table] = {}
_WITHOUT = [_table(low, False) for low in range(ACE + 1)]
_ACE_STANDS = [[None, *range(low, ACE + 1)] for low in range(ACE + 1)]  # [low]: at the Ace


def lines(at: Sequence[Cards]) -> list[Cards]:
    """For a hand with one card at each rank of a run: [0] the first card at each rank
    (the Phoenix where there is none), [p] the same with the Phoenix at rank p; each line
    from rank 0 to the Ace; then [ACE + 1], lines 0 to ACE end to end, which the tables
    slice."""
    line = tuple(map(_first, map(add, at[:ACE + 1], repeat(_PH))))
    cards, found = list(line), [line, line]
    for p in range(2, ACE + 1):
        cards[p] = PH
        found.append(tuple(cards))
        cards[p] = line[p]
    found.append(tuple(chain.from_iterable(found)))
    return found


def _rows(table: Table, start: int, stop: int, stand: int | None, cards: Cards,
          out: list[Group]) -> None:
    """The rows of the tops `start` to `stop`, slices of `cards`, as one group (`stand`:
    the Phoenix's rank for every play, when it is not the table's)."""
    cuts, tops, lengths, stands, begin, upto = table
    i, j = begin[start], begin[stop + 1]
    if not i and upto:  # (the rows from the shortest run: never changed, so shared)
        tops, lengths, stands = upto[stop]
    else:
        tops, lengths, stands = tops[i:j], lengths[i:j], stands[i:j]
    if i < j:
        out.append((_STRAIGHT, tops, lengths, list(map(cards.__getitem__, islice(cuts, i, j))),
                    stands if stand is None else stand, False))


def phoenix_runs(lines: list[Cards], low: int, start: int, stop: int, lost: int,
                 out: list[Group]) -> None:
    """The runs low..top, top from `start` to `stop`, each rank holding one card and no run
    of one suit, with the Phoenix in hand: the natural run, then the Phoenix at each rank
    but the lowest (the same cards read one rank higher) unless the run ends at the Ace,
    and never at `lost` (the wished rank, from `low` to `start`)."""
    end = ACE - 1 if stop == ACE and low > MAHJONG else stop
    if start <= end:
        table = _WITH[low] if lost <= low else _LOST.get((low, lost))
        if table is None:
            table = _LOST[low, lost] = _table(low, True, lost)
        _rows(table, start, end, None, lines[ACE + 1], out)
    if end < stop:  # at the Ace the Phoenix also takes the lowest rank's place
        ranks, chosen = _ACE_STANDS[low], lines[low:ACE + 1]
        if low <= lost:
            ranks = ranks[:lost - low + 1] + ranks[lost - low + 2:]
            del chosen[lost - low]
        out.append((_STRAIGHT, ACE, ACE - low + 1, [c[low:] for c in [lines[0], *chosen]],
                    ranks, False))


def natural_runs(line: Cards, low: int, start: int, stop: int, stand: int | None,
                 out: list[Group]) -> None:
    """The runs low..top of `line`, top from `start` to `stop`, one card a rank, the Phoenix
    at `stand` (None: none)."""
    _rows(_WITHOUT[low], start, stop, stand, line, out)


__all__ = ["lines", "natural_runs", "phoenix_runs"]
