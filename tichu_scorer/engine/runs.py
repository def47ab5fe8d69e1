"""Runs of adjacent ranks: straights ([C6]) and stairs ([C3]), in groups for `playlist`,
the Phoenix for one rank and each card set once, in its highest reading ([C9]).

>>> from .cards import parse_cards
>>> from .playlist import Plays
>>> h = Holding(parse_cards(["4j", "5s", "6t", "7t", "PH", "Kp"]))
>>> [c.describe() for c in Plays(straights(h))]  # not also as 3–7: the same cards read higher
['straight 4–8, Phoenix as 8']
>>> [c.describe() for c in Plays(stairs(Holding(parse_cards(["4j", "4s", "5t", "PH"]))))]
['stairs 4–5 (2 pairs), Phoenix as 5']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product, starmap
from operator import add

from .cards import ACE, MAHJONG, PH
from .combos import Kind
from .holding import _RANKS_HIGH, _RANKS_LOW, Holding
from .lines import HEADS_WITH, HEADS_WITHOUT, REACHING, WITH, WITHOUT, phoenix_table, rows
from .lines import lines as every_line
from .playlist import Cards, Group

_PH = (PH,)  # the Phoenix as the one choice at a rank of a run
_NATURAL_RANKS = (1 << ACE + 1) - 4  # bits 2..14: the ranks the Phoenix can stand for ([S3])
_WIDTH = ACE + 1  # a line's cards in `lines.lines`: ranks 0 to the Ace
_MANY = 12  # from this many plays on, itertools builds them faster than a comprehension
_STAIRS, _STRAIGHT = Kind.STAIRS, Kind.STRAIGHT
# _RANGE[a][b]: the ranks a..b, () when b < a
_RANGE = [[tuple(range(a, b + 1)) for b in range(ACE + 2)] for a in range(ACE + 2)]



def gap_and_reach(held: int, low: int, fill: int) -> tuple[int, int]:
    """From `low` up in the ranks `held` (bits): the first rank missing, which the Phoenix
    fills when it is of `fill` (else ACE + 1: none), and the highest rank reached. Every
    rank from `low` up to the gap (or to the highest, without one) reaches as far."""
    run = held >> low
    gap = low + (~run & (run + 1)).bit_length() - 1
    if fill >> gap & 1:
        run = held >> gap + 1
        return gap, gap + (~run & (run + 1)).bit_length() - 1
    return ACE + 1, gap - 1

def _starts(held: int, fill: int, length: int) -> int:
    """The ranks from which `length` ranks in a row are held, but for at most one rank of
    `fill` (the Phoenix's), as a bit mask."""
    if not fill:  # (runs of 2, 4, ... ranks, then of `length`)
        every, span = held, 1
        while span * 2 <= length:
            every &= every >> span
            span *= 2
        return every & every >> length - span if span < length else every
    ok = every = held | fill
    once, twice = fill, 0
    for i in range(1, length):
        every &= ok >> i
        shifted = fill >> i
        twice |= once & shifted
        once |= shifted
    return every & ~twice


def no_straight(held: int, phoenix: bool, length: int, above: float) -> bool:
    """No straight of `length` ranked above `above` in a hand holding the ranks `held`
    (`Holding.held`) and the Phoenix or not: `straights`' own first tests (too few ranks;
    no rank a run of `length` starts from, the Phoenix filling one missing rank). False
    tells nothing."""
    first, last = max(MAHJONG, int(above) - length + 2), ACE - length + 1
    if first > last or held.bit_count() + phoenix < length:
        return True
    fill = ~held & _NATURAL_RANKS if phoenix else 0
    return not _starts(held, fill, length) & (2 << last) - (1 << first)


def straights(h: Holding, length: int | None = None, must: int | None = None,
              above: float = 0) -> list[Group]:
    """[C6]: five or more consecutive ranks; the Mah Jong as the 1; the Phoenix for one.

    From each rank a run can start at: the runs with every rank held, then those with the
    Phoenix in the one rank missing (at the low end only up to the Ace: elsewhere the same
    cards read one rank higher); never the Phoenix for the `must` card."""
    shortest, longest = (length, length) if length else (5, ACE)
    first, last = max(MAHJONG, int(above) - shortest + 2), ACE - shortest + 1
    if must:
        first, last = max(first, must - longest + 1), min(last, must)
    if first > last:
        return []
    held = h.held
    if held.bit_count() + h.phoenix < shortest:  # too few ranks for one run
        return []
    fill = ~held & _NATURAL_RANKS if h.phoenix else 0
    lows = _starts(held, fill, shortest) & (2 << last) - (1 << first)
    if not lows:
        return []
    at = h.index()
    lost = must or 0
    floor = max(int(above) + 1, lost)
    out: list[Group] = []
    lines: list[Cards] = []  # [0]: `lines.lines`, made on first use
    flushes = list(h.flush_masks.values())  # (a natural run of one suit is a bomb)
    pairs, phoenix = h.pairs, h.phoenix
    if not flushes and not pairs >> first and shortest == 5 and longest == ACE and (
            floor <= MAHJONG and not lost):
        _lead_runs(at, phoenix, held, fill, lows, out)
        return out
    gap = reach = 0
    while lows:
        bit = lows & -lows
        lows ^= bit
        low = bit.bit_length() - 1
        if not low < gap or low > reach:  # (else the last low's gap and reach)
            gap, reach = gap_and_reach(held, low, fill)
        highest = low + longest - 1
        if highest > reach:
            highest = reach
        start = low + shortest - 1
        if start < floor:
            start = floor
        stop = highest if gap > highest else gap - 1  # the natural runs' last top
        if start <= stop:
            span = (2 << start) - (1 << low)  # (no flush up to `start`: none longer)
            if pairs & (2 << stop) - (1 << low) or flushes and low != MAHJONG and any(
                    m & span == span for m in flushes):
                _natural_runs(h, low, start, stop, lost, flushes, lines, out)
            else:  # one card a rank, none a bomb: rows of a table (`_natural_runs`'s first)
                if not lines:
                    lines.append(every_line(at, phoenix))
                table = (WITHOUT[low] if not phoenix else WITH[low] if lost < low
                         else phoenix_table(low, lost))
                rows(table, start, stop, None, lines[0], out)
            if gap > highest:
                continue
            start = gap
        elif gap > highest:
            continue
        elif gap == low and start < ACE:  # the Phoenix at the low end: only the Ace's run
            start = ACE
        if start > highest or gap == lost:
            continue
        # the runs low..top, top from `start` to `highest`, the Phoenix at `gap`
        if lines and not pairs & (2 << highest) - (1 << low):  # one card a rank, lines
            rows(WITHOUT[low], start, highest, gap, lines[0], out)  # made: of line 0
            continue
        choices = list(at[low:start + 1])
        choices[gap - low] = _PH
        n = start - low + 1
        out.append((_STRAIGHT, start, n, list(product(*choices)), gap, False))
        for top in range(start + 1, highest + 1):
            choices.append(at[top])
            n += 1
            out.append((_STRAIGHT, top, n, list(product(*choices)), gap, False))
    return out


def _lead_runs(at: Sequence[Cards], phoenix: bool, held: int, fill: int, lows: int,
               out: list[Group]) -> None:
    """A lead's `straights` from a hand holding no rank twice from its lowest `lows` up and
    no five ranks in a row of one suit: every play a slice of the hand's `lines.lines`, in
    the groups `straights` lists. Every run from a low reaches as far as the ranks held (or
    filled) go and its shortest ends at low + 4, the tables' first top: for each low, the
    runs with every rank held (and the Phoenix in a held rank's place), a precomputed head
    of the table's rows; then those with the Phoenix in the first rank missing, the natural
    runs' rows of line 0, which holds the Phoenix there."""
    every = every_line(at, phoenix)
    tables, heads = (WITH, HEADS_WITH) if phoenix else (WITHOUT, HEADS_WITHOUT)
    gap = reach = 0
    for low in _RANKS_LOW[lows & 0xFF] + _RANKS_HIGH[lows >> 8]:
        if not low < gap or low > reach:  # (else the last low's gap and reach)
            gap, reach = gap_and_reach(held, low, fill)
        if gap > reach:  # no rank missing: the natural runs (the Phoenix in a place)
            head = heads[low][reach]
            if head is not None:
                out.append((_STRAIGHT, head[0], head[1], head[2](every), head[3], False))
            else:
                rows(tables[low], low + 4, reach, None, every, out)
            continue
        if low + 4 < gap:  # the natural runs up to the gap, then the Phoenix at the gap
            if gap == reach:  # (its one run with them, in one group)
                head = REACHING[low][reach - 1]
                if head is not None:
                    out.append((_STRAIGHT, head[0], head[1], head[2](every), head[3],
                                False))
                    continue
            head = heads[low][gap - 1]
            if head is not None:
                out.append((_STRAIGHT, head[0], head[1], head[2](every), head[3], False))
            else:
                rows(tables[low], low + 4, gap - 1, None, every, out)
            start = gap
        else:  # the gap too low for a natural run (at `low`: only the Ace's run)
            start = ACE if gap == low else low + 4
        if start == reach:  # (one run: line 0's slice, the Phoenix at `gap`)
            out.append((_STRAIGHT, start, start - low + 1, [every[low:start + 1]], gap,
                        False))
        elif start < reach:
            rows(WITHOUT[low], start, reach, gap, every, out)


def _natural_runs(h: Holding, low: int, start: int, stop: int, lost: int,
                  flushes: list[int], lines: list[Cards], out: list[Group]) -> None:
    """The runs low..top, top from `start` to `stop`, of natural cards at every rank: the
    natural cards (not all of one suit: a bomb), then the Phoenix in the place of each
    rank's cards but the lowest's (the same cards read one rank higher) unless the run
    ends at the Ace, and never `lost`'s. `flushes`: the hand's suits with five ranks in a
    row (`Holding.flush_masks`)."""
    at, phoenix, pairs = h.at, h.phoenix, h.pairs
    if low == MAHJONG:  # (it has no suit)
        flushes = []
    choices = list(at[low:start])
    for top in range(start, stop + 1):
        choices.append(at[top])
        n, span = top - low + 1, (2 << top) - (1 << low)
        flush = bool(flushes) and any(m & span == span for m in flushes)
        places: Sequence[int] = ()
        if phoenix:
            a = low if top == ACE and low > MAHJONG else low + 1
            places = _RANGE[a][top]
            if a <= lost <= top:
                places = _RANGE[a][lost - 1] + _RANGE[lost + 1][top]
        if not pairs & span:  # one card at each rank: slices of one line
            if not lines:
                lines.append(every_line(at, phoenix))
            every = lines[0]
            runs = [every[p * _WIDTH + low:p * _WIDTH + top + 1] for p in places]
            if not flush:  # one group, a Phoenix's rank (or None) per play
                out.append((_STRAIGHT, top, n, [every[low:top + 1], *runs], [None, *places],
                            False))
            elif runs:
                out.append((_STRAIGHT, top, n, runs, list(places), False))
            continue
        runs = list(product(*choices))
        if flush:
            runs = [r for r in runs if len({c[1] for c in r}) > 1]
        if runs:
            out.append((_STRAIGHT, top, n, runs, None, False))
        for p in places:
            choices[p - low] = _PH
            out.append((_STRAIGHT, top, n, list(product(*choices)), p, False))
            choices[p - low] = at[p]


def joined(heads: Sequence[Cards], tails: Sequence[Cards]) -> list[Cards]:
    """Every head followed by every tail, heads first."""
    n = len(heads) * len(tails)
    if n == 1:
        return [heads[0] + tails[0]]
    if n < _MANY:
        return [h + t for h in heads for t in tails]
    return list(starmap(add, product(heads, tails)))


def no_stairs(h: Holding, length: int, above: float) -> bool:
    """No stairs of `length` cards ranked above `above` in the hand: `stairs`' own first
    tests (no two adjacent ranks, each a pair or, once, a card with the Phoenix, from
    which such stairs start). False tells nothing."""
    shortest = length // 2
    first, last = max(2, int(above) - shortest + 2), ACE - shortest + 1
    if first > last:
        return True
    doubled = h.pairs
    fill = h.held & ~doubled & _NATURAL_RANKS if h.phoenix else 0
    ends = doubled | fill
    return not ends & ends >> 1 & ~(fill & fill >> 1) & (2 << last) - (1 << first)


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
        if not (h.pairs >> must & 1 or h.phoenix and h.held >> must & 1):  # no pair of it
            return []
    if first > last:
        return []
    doubled = h.pairs
    fill = h.held & ~doubled & _NATURAL_RANKS if h.phoenix else 0
    ends = doubled | fill
    # two ranks in a row, one Phoenix at most, from `first` to `last`
    starts = ends & ends >> 1 & ~(fill & fill >> 1) & (2 << last) - (1 << first)
    if not starts:
        return []
    at = h.index()
    floor = max(int(above) + 1, must or 0)
    out: list[Group] = []
    twos, phoenix = h.twos, h.phoenix
    gap = reach = 0
    while starts:
        bit = starts & -starts
        starts ^= bit
        low = bit.bit_length() - 1
        if not low < gap or low > reach:  # (else the last low's gap and reach)
            gap, reach = gap_and_reach(doubled, low, fill)
        highest = low + longest - 1
        if highest > reach:
            highest = reach
        start = low + shortest - 1
        if start < floor:
            start = floor
        if highest != low + 1 or start != highest:
            if start <= highest:
                _stairs_from(h, low, start, highest, out)
            continue
        # the stairs of the ranks low and highest (the most frequent), as `_stairs_from`
        # lists them: the natural ones, then the Phoenix at the lower rank, at the higher
        below, over = twos[low], twos[highest]
        if below and over:
            out.append((_STAIRS, highest, 4, [below[0] + over[0]]
                        if len(below) == 1 == len(over) else joined(below, over), None, False))
        if phoenix:
            if over:
                out.append((_STAIRS, highest, 4, [(c, PH) + two for c in at[low]
                                                  for two in over], low, False))
            if below:
                out.append((_STAIRS, highest, 4, [two + (c, PH) for two in below
                                                  for c in at[highest]], highest, False))
    return out


def _stairs_from(h: Holding, low: int, start: int, stop: int, out: list[Group]) -> None:
    """The stairs low..top, top from `start` to `stop`: the natural ones, then those with
    the Phoenix, by its rank."""
    twos, at, phoenix = h.twos, h.at, h.phoenix
    nat = twos[low]
    held: list[tuple[int, list[Cards]]] = []  # (the Phoenix's rank, runs)
    if phoenix:
        held.append((low, [(c, PH) for c in at[low]]))
    for top in range(low + 1, stop + 1):
        two = twos[top]
        if two:
            if held:
                held = [(p, joined(runs, two)) for p, runs in held]
            if phoenix and nat:
                held.append((top, joined(nat, [(c, PH) for c in at[top]])))
            if nat:
                nat = joined(nat, two)
        else:  # the gap: the Phoenix's rank
            held = [(top, joined(nat, [(c, PH) for c in at[top]]))]
            nat = two  # (empty)
        if top >= start:
            n = (top - low + 1) * 2
            if nat:
                out.append((_STAIRS, top, n, nat, None, False))
            for p, runs in held:
                out.append((_STAIRS, top, n, runs, p, False))


__all__ = ["straights", "stairs", "joined", "no_straight", "no_stairs"]
