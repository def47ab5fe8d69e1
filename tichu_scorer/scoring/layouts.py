"""Seatings of the team games: how many seats, which seats form a team ([H1], [T6.1]).

Seats are numbered in turn order; in every team game team 0 holds the even seats and
team 1 the odd ones, so partners alternate around the table.

>>> NANKING.team_of(2), NANKING.partners(1)
(0, (1, 3))
>>> TIENTSIN.team_size, TIENTSIN.sweep_bonus
(3, 300)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

VARIANTS = ("nanking", "threechu", "tientsin", "seigneur")


@dataclass(frozen=True)
class Layout:
    """The shape of a team game's table."""

    variant: str
    seats: int
    sweep_bonus: int  # [P2] double victory 200, [T6.6] triple victory 300
    names: tuple[str, ...] = ()
    no_grand_seats: frozenset[int] = frozenset()
    no_grand_rule: str = "P3"

    @property
    def team_size(self) -> int:
        return self.seats // 2

    def team_of(self, seat: int) -> int:
        return seat % 2

    def partners(self, team_or_seat: int) -> tuple[int, ...]:
        team = team_or_seat % 2
        return tuple(s for s in range(self.seats) if s % 2 == team)

    def seat_name(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"Seat {seat}"

    def named(self, names: tuple[str, ...]) -> Layout:
        """The same layout whose messages use the players' names."""
        return replace(self, names=names)


NANKING = Layout("nanking", seats=4, sweep_bonus=200)
TIENTSIN = Layout("tientsin", seats=6, sweep_bonus=300)


def threechu(dummy: int) -> Layout:
    """Threechu seating for one hand: the dummy's partner shuffles ([T3.1]); neither the
    shuffler nor the dummy may call Grand Tichu ([T3.3])."""
    shuffler = (dummy + 2) % 4
    return Layout("threechu", seats=4, sweep_bonus=200,
                  no_grand_seats=frozenset({dummy, shuffler}), no_grand_rule="T3.3")
