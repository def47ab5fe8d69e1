"""Statistics across matches, per player and per partnership (pure: plain values in).

A match is given as a `MatchFacts`: the variant, the players' names by seat, the team of
each seat in each hand, the hands (out-order, calls, per-seat scores) and the winner.

>>> from tichu_scorer.game.variants import NANKING
>>> facts = MatchFacts(NANKING, ("Ann", "Bob", "Cy", "Dee"), winners=("Ann", "Cy"),
...     hands=(HandFacts((0, 2), {0: "tichu"}, (300, 0, 300, 0), (0, 1, 0, 1), True),))
>>> ann = tally_match(facts).players["Ann"]
>>> ann.tichu_called, ann.tichu_made, ann.first_out, ann.double_victories, ann.won
(1, 1, 1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game.variants import Variant
from .hand import call_made


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
    def first_out_percent(self) -> int | None:
        return percent(self.first_out, self.hands)

    @property
    def tichu_percent(self) -> int | None:
        return percent(self.tichu_made, self.tichu_called)

    @property
    def grand_percent(self) -> int | None:
        return percent(self.grand_made, self.grand_called)


COUNTS = ("matches", "won", "hands", "points", "first_out", "double_victories",
          "tichu_called", "tichu_made", "grand_called", "grand_made")


def percent(part: int, whole: int) -> int | None:
    """`part` of `whole` as a whole percentage, halves rounded up (one rule for every
    rate shown); None when there is nothing to count.

    >>> percent(1, 8), percent(1, 3), percent(2, 3), percent(0, 0)
    (13, 33, 67, None)
    """
    return (200 * part + whole) // (2 * whole) if whole else None


@dataclass
class MatchTallies:
    """The tallies of one match (or a sum of matches of one variant): per player name and
    per partnership. Stored with its match, so statistics add these up instead of reading
    every hand; `as_json`/`from_json` give the stored form."""

    variant: str
    players: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, ...], Tally] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {"variant": self.variant,
                "players": [[name, _counts(t)] for name, t in self.players.items()],
                "pairs": [[list(names), _counts(t)] for names, t in self.pairs.items()]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchTallies:
        variant = str(data["variant"])
        players, pairs = data.get("players") or [], data.get("pairs") or []
        return cls(variant, {str(n): _tally(c, variant) for n, c in players},
                   {tuple(n): _tally(c, variant) for n, c in pairs})

    def add(self, other: MatchTallies) -> None:
        """Add another match's (or sum's) tallies to these."""
        for mine, theirs in ((self.players, other.players), (self.pairs, other.pairs)):
            for key, tally in theirs.items():
                _merge(mine.setdefault(key, Tally()), tally)  # type: ignore[arg-type]


Counts = dict[str, dict[Any, list[int]]]  # "players"/"pairs" -> key -> COUNTS in order


def add_stored(into: dict[str, Counts], stored: Iterable[Mapping[str, Any]],
               sign: int = 1) -> None:
    """Add stored tallies (`MatchTallies.as_json`) into plain per-variant sums (or take them
    out again, `sign=-1`): a loop over lists of numbers, the fast way to add up thousands of
    matches."""
    for data in stored:
        sums = into.setdefault(data["variant"], {"players": {}, "pairs": {}})
        for part in ("players", "pairs"):
            table = sums[part]
            for key, counts in data[part]:
                key = tuple(key) if isinstance(key, list) else key
                held = table.get(key) or [0] * len(counts)
                table[key] = [a + sign * b for a, b in zip(held, counts, strict=True)]


def merged(parts: Iterable[dict[str, Counts]]) -> dict[str, Counts]:
    """Plain sums of several tables added up."""
    out: dict[str, Counts] = {}
    for part in parts:
        add_stored(out, ({"variant": variant, "players": list(sums["players"].items()),
                          "pairs": list(sums["pairs"].items())}
                         for variant, sums in part.items()))
    return out


def as_tallies(variant: str, sums: Counts) -> MatchTallies:
    """Plain sums as tallies; a player or partnership left with no match is left out."""
    return MatchTallies(variant,
                        {k: _tally(c, variant) for k, c in sums["players"].items() if c[0]},
                        {k: _tally(c, variant) for k, c in sums["pairs"].items() if c[0]})


def tally_match(match: MatchFacts, earlier: MatchTallies | None = None) -> MatchTallies:
    """The tallies of one match. With `earlier` (the stored tallies of the hands before),
    only `match.hands` (the new ones) are counted again; who won is set afresh."""
    out = MatchTallies(match.variant.key)
    if earlier is not None:
        out.add(earlier)
    seats = [s for s in range(len(match.names)) if s != match.variant.dummy_seat]
    for seat in seats:
        name = match.names[seat]
        tally = out.players.setdefault(name, Tally())
        tally.matches, tally.variants = 1, {match.variant.key}
        tally.won = 1 if name in match.winners else 0
        for hand in match.hands:
            _count_hand(tally, hand, (seat,))
    if match.variant.teams:
        for side in match.variant.sides(match.names):
            key = tuple(sorted(side.names))
            tally = out.pairs.setdefault(key, Tally())
            tally.matches, tally.variants = 1, {match.variant.key}
            tally.won = 1 if match.winners and set(key) <= set(match.winners) else 0
            for hand in match.hands:
                _count_hand(tally, hand, side.seats)
    return out


def _counts(tally: Tally) -> list[int]:
    return [getattr(tally, name) for name in COUNTS]


def _tally(counts: Sequence[int], variant: str) -> Tally:
    return Tally(**dict(zip(COUNTS, counts, strict=True)), variants={variant})


def _merge(into: Tally, other: Tally) -> None:
    for name in COUNTS:
        setattr(into, name, getattr(into, name) + getattr(other, name))
    into.variants |= other.variants


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
            tally.tichu_made += call_made(seat, hand.out_order)
        elif call == "grand":
            tally.grand_called += 1
            tally.grand_made += call_made(seat, hand.out_order)
