"""Seatings of the team games: how many seats, which seats form a team ([H1], [T6.1]).

Seats are numbered in turn order; in every team game team 0 holds the even seats and
team 1 the odd ones, so partners alternate around the table.

>>> NANKING.team_of(2), NANKING.members(1)
(0, (1, 3))
>>> threechu(dummy=3, shuffler=1).members(0)
(1, 3)
>>> TIENTSIN.team_size, TIENTSIN.sweep_bonus
(3, 300)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from .i18n import _

TEAM_LETTERS = ("A", "B")  # how the pages and messages name team 0 and team 1

@dataclass(frozen=True)
class Layout:
    """The shape of a team game's table."""

    variant: str
    seats: int
    sweep_bonus: int  # [P2] double victory 200, [T6.6] triple victory 300
    names: tuple[str, ...] = ()
    no_grand_seats: frozenset[int] = frozenset()
    no_grand_rule: str = "P3"
    team_map: tuple[int, ...] = ()  # team of each seat when not simply alternating
    dummy: int | None = None  # Threechu: the dummy's seat, which never owes the wish ([T3.3])

    @property
    def team_size(self) -> int:
        return self.seats // 2

    def team_of(self, seat: int) -> int:
        return self.team_map[seat] if self.team_map else seat % 2

    @cached_property
    def teams(self) -> tuple[int, ...]:
        """The team of each seat, in seat order."""
        return tuple(self.team_of(s) for s in range(self.seats))

    def members(self, team: int) -> tuple[int, ...]:
        """The seats of a team."""
        return tuple(s for s in range(self.seats) if self.team_of(s) == team)

    def seat_name(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return _("Seat {seat}").format(seat=seat)

    def named(self, names: tuple[str, ...]) -> Layout:
        """The same layout whose messages use the players' names."""
        return replace(self, names=names)


NANKING = Layout("nanking", seats=4, sweep_bonus=200)
TIENTSIN = Layout("tientsin", seats=6, sweep_bonus=300)


DUMMY = 3  # in a Threechu match the dummy hand holds seat 3; the players seats 0–2


def threechu(dummy: int, shuffler: int | None = None) -> Layout:
    """A Threechu seating for one hand ([T3.1]): the shuffler plays the dummy, so the two
    are partners against the other two players; neither may call Grand Tichu ([T3.3]).
    Without a shuffler, the dummy's partner sits opposite and the teams alternate as in the
    four-player game (the API's seating); with one, the shuffler's team is team 0.

    >>> threechu(dummy=1).members(1), threechu(dummy=3, shuffler=0).members(0)
    ((1, 3), (0, 3))
    """
    team_map: tuple[int, ...] = ()
    if shuffler is None:
        shuffler = (dummy + 2) % 4
    else:
        team_map = tuple(0 if s in (shuffler, dummy) else 1 for s in range(4))
    return Layout("threechu", seats=4, sweep_bonus=200, team_map=team_map,
                  no_grand_seats=frozenset({shuffler, dummy}), no_grand_rule="T3.3",
                  dummy=dummy)
