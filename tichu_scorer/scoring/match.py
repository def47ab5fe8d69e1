"""The rules of a match's end ([E1], [E2]): who has won and whether the top is shared.
`state.MatchState` applies them hand by hand; which targets and lengths a match may have
is `settings`'.

>>> winner((1020, 990), 1000), leader((30, 40, 40)), tied_at_top((1050, 1050), 1000)
(0, None, 1050)
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_TARGET = 1000


def leader(totals: Sequence[int]) -> int | None:
    """The side with strictly more points than every other, None when the top is shared.

    >>> leader((30, 20, 30)), leader((10, 40, 20)), leader(())
    (None, 1, None)
    """
    if not totals:
        return None
    top = max(totals)
    return None if totals.count(top) > 1 else totals.index(top)


def winner(totals: Sequence[int], target: int = DEFAULT_TARGET) -> int | None:
    """[E1]: the side that reached the target with strictly more points than every other;
    [E2]: None when no side reached it or the leaders are tied. The one place a match's
    winner is decided (a fixed-length match's target is the lowest total, [T3.5]).

    >>> winner((1000, 1000)), winner((1100, 1050)), winner((990, 900))
    (None, 0, None)
    """
    if not totals or max(totals) < target:
        return None
    return leader(totals)


def tied_at_top(totals: Sequence[int], target: int = DEFAULT_TARGET) -> int | None:
    """[E2]: the total that two or more sides share at the top at or above the target (play
    goes on until one side leads alone), None otherwise.

    >>> tied_at_top((1050, 1050)), tied_at_top((1050, 990)), tied_at_top((950, 950))
    (1050, None, None)
    """
    if not totals:
        return None
    top = max(totals)
    return top if top >= target and list(totals).count(top) > 1 else None
