"""Seatings of the team games: how many seats, which seats form a team ([H1], [T6.1]).

Seats are numbered in turn order; in every team game team 0 holds the even seats and
team 1 the odd ones, so partners alternate around the table.

>>> NANKING.team_of(2), NANKING.members(1)
(0, (1, 3))
>>> threechu_hand(shuffler=1).members(0)
(1, 3)
>>> TIENTSIN.team_size, TIENTSIN.sweep_bonus
(3, 300)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .i18n import _

VARIANTS = ("nanking", "threechu", "tientsin", "seigneur")
# How many players each game takes (fewest, most): [H1], [T3.1], [T6.1], [GS1]
PLAYERS = {"nanking": (4, 4), "threechu": (3, 3), "tientsin": (6, 6), "seigneur": (5, 12)}


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


def threechu_shuffler(hand_number: int) -> int:
    """[T3.1]: the shuffle passes to the left each hand: seat 0, 1, 2, 0, …"""
    return (hand_number - 1) % 3


def threechu_hand(shuffler: int) -> Layout:
    """A Threechu match's seating for one hand: the shuffler and the dummy (seat 3) against
    the other two players; neither the shuffler nor the dummy may call Grand Tichu."""
    team_map = tuple(0 if s in (shuffler, DUMMY) else 1 for s in range(4))
    return Layout("threechu", seats=4, sweep_bonus=200, team_map=team_map,
                  no_grand_seats=frozenset({shuffler, DUMMY}), no_grand_rule="T3.3",
                  dummy=DUMMY)


def threechu(dummy: int) -> Layout:
    """Threechu seating for one hand: the dummy's partner shuffles ([T3.1]); neither the
    shuffler nor the dummy may call Grand Tichu ([T3.3])."""
    shuffler = (dummy + 2) % 4
    return Layout("threechu", seats=4, sweep_bonus=200,
                  no_grand_seats=frozenset({dummy, shuffler}), no_grand_rule="T3.3",
                  dummy=dummy)
