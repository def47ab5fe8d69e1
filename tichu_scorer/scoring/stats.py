"""Statistics across matches, per player and per partnership (pure: plain values in).

A match is given as a `MatchFacts`: the variant, the players' names by seat, the team of
each seat in each hand, the hands (out-order, calls, per-seat scores) and the winner.

>>> from tichu_scorer.scoring.variants import NANKING
>>> facts = MatchFacts(NANKING, ("Ann", "Bob", "Cy", "Dee"), winners=("Ann", "Cy"),
...     hands=(HandFacts((0, 2), {0: "tichu"}, (300, 0, 300, 0), (0, 1, 0, 1), True),))
>>> ann = player_stats([facts])["Ann"]
>>> ann.tichu_called, ann.tichu_made, ann.first_out, ann.double_victories, ann.won
(1, 1, 1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .variants import Variant


@dataclass(frozen=True)
class HandFacts:
    out_order: tuple[int, ...]
    calls: Mapping[int, str]  # seat -> "tichu" / "grand"
    seat_scores: tuple[int, ...]  # what the hand gave each seat (its side's score)
    teams: tuple[int, ...]  # team of each seat in this hand
    sweep: bool


@dataclass(frozen=True)
class MatchFacts:
    variant: Variant
    names: tuple[str, ...]
    hands: tuple[HandFacts, ...]
    winners: tuple[str, ...] = ()  # the winning team's players, or the winning player
    finished: bool = False


@dataclass
class Tally:
    """Counts for one player or one partnership."""

    matches: int = 0
    won: int = 0
    hands: int = 0
    points: int = 0
    first_out: int = 0
    double_victories: int = 0
    tichu_called: int = 0
    tichu_made: int = 0
    grand_called: int = 0
    grand_made: int = 0
    variants: set[str] = field(default_factory=set)

    @property
    def average_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def first_out_rate(self) -> float:
        return self.first_out / self.hands if self.hands else 0.0

    @property
    def tichu_rate(self) -> float | None:
        return self.tichu_made / self.tichu_called if self.tichu_called else None

    @property
    def grand_rate(self) -> float | None:
        return self.grand_made / self.grand_called if self.grand_called else None


def player_stats(matches: Iterable[MatchFacts]) -> dict[str, Tally]:
    """Per player name: matches played and won, calls made, first out, double victories,
    and the average hand score (of the player's side)."""
    out: dict[str, Tally] = {}
    for match in matches:
        for seat, name in enumerate(match.names):
            if seat == match.variant.dummy_seat:
                continue
            tally = out.setdefault(name, Tally())
            tally.matches += 1
            tally.variants.add(match.variant.key)
            tally.won += 1 if name in match.winners else 0
            for hand in match.hands:
                _count_hand(tally, hand, (seat,))
    return out


def partnership_stats(matches: Iterable[MatchFacts]) -> dict[tuple[str, ...], Tally]:
    """Per partnership of the team games (the same two or three players as a team)."""
    out: dict[tuple[str, ...], Tally] = {}
    for match in matches:
        if not match.variant.teams:
            continue
        for side in match.variant.sides(match.names):
            members = side.seats
            key = tuple(sorted(side.names))
            tally = out.setdefault(key, Tally())
            tally.matches += 1
            tally.variants.add(match.variant.key)
            tally.won += 1 if set(key) <= set(match.winners) and match.winners else 0
            for hand in match.hands:
                _count_hand(tally, hand, members)
    return out


def _count_hand(tally: Tally, hand: HandFacts, seats: tuple[int, ...]) -> None:
    tally.hands += 1
    tally.points += hand.seat_scores[seats[0]] if hand.seat_scores else 0
    first = hand.out_order[0] if hand.out_order else None
    if first in seats:
        tally.first_out += 1
    if hand.sweep and first is not None and hand.teams[first] == hand.teams[seats[0]]:
        tally.double_victories += 1
    for seat in seats:
        call = hand.calls.get(seat)
        if call == "tichu":
            tally.tichu_called += 1
            tally.tichu_made += 1 if first == seat else 0
        elif call == "grand":
            tally.grand_called += 1
            tally.grand_made += 1 if first == seat else 0
