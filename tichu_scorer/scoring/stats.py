"""Statistics across matches, per player and per partnership (pure: plain values in).

A match is given as a `CountedMatch`: the variant, the players' names by seat, the team of
each seat in each hand, the hands (out-order, calls, per-seat scores) and the winner.

>>> from tichu_scorer.game.variants import NANKING
>>> facts = CountedMatch(NANKING, ("Ann", "Bob", "Cy", "Dee"), winners=("Ann", "Cy"),
...     hands=(CountedHand((0, 2), {0: "tichu"}, (300, 0, 300, 0), (0, 1, 0, 1), True),))
>>> ann = tally_match(facts).players["Ann"]
>>> ann.tichu_called, ann.tichu_made, ann.first_out, ann.double_victories, ann.won
(1, 1, 1, 1, 1)
>>> ann.hands_won, tally_match(facts).players["Bob"].hands_won
(1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..game.variants import Variant
from .calls import Call, read_call
from .hand import call_made


@dataclass(frozen=True)
class CountedHand:
    out_order: tuple[int, ...]
    calls: Mapping[int, str]  # seat -> its call word ("tichu", "grand", an own call [R9])
    seat_scores: tuple[int, ...]  # what the hand gave each seat (its side's score)
    teams: tuple[int, ...]  # team of each seat in this hand
    sweep: bool
    bombs: tuple[int, ...] = ()  # bombs played per seat, when counted


@dataclass(frozen=True)
class CountedMatch:
    variant: Variant
    names: tuple[str, ...]
    hands: tuple[CountedHand, ...]
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
    bombs: int = 0
    hands_won: int = 0  # hands whose side scored more than every other side (`won_hand`)
    variants: set[str] = field(default_factory=set)

    @property
    def average_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def hands_won_percent(self) -> int | None:
        return percent(self.hands_won, self.hands)

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
          "tichu_called", "tichu_made", "grand_called", "grand_made", "bombs", "hands_won")


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
    per partnership. Stored with its match as rows (`tichu_scorer.statistics`), so
    statistics add these up instead of reading every hand."""

    variant: str
    players: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, ...], Tally] = field(default_factory=dict)

    def add(self, other: MatchTallies) -> None:
        """Add another match's (or sum's) tallies to these."""
        for mine, theirs in ((self.players, other.players), (self.pairs, other.pairs)):
            for key, tally in theirs.items():
                _merge(mine.setdefault(key, Tally()), tally)  # type: ignore[arg-type]


def tally_match(match: CountedMatch, earlier: MatchTallies | None = None) -> MatchTallies:
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


def won_hand(hand: CountedHand, seat: int) -> bool:
    """Whether the seat's side won the hand: it scored more than every other side of that
    hand (a tie wins nobody the hand). Nanking and Tientsin: the team with the higher hand
    score. Threechu: the seat's own score ([T3.4]: its side's, the shuffler's with the
    dummy's) against the other side's. A hand without scores (Grand Seigneur's, never
    counted) is won by nobody.

    >>> won_hand(CountedHand((0,), {}, (150, -50, 150, -50), (0, 1, 0, 1), False), 2)
    True
    >>> won_hand(CountedHand((1,), {}, (50, 50, 50, 50), (0, 1, 0, 1), False), 0)
    False
    """
    if not hand.seat_scores or not hand.teams:
        return False
    mine = hand.teams[seat]
    others = [score for s, score in enumerate(hand.seat_scores) if hand.teams[s] != mine]
    return bool(others) and hand.seat_scores[seat] > max(others)


def _merge(into: Tally, other: Tally) -> None:
    for name in COUNTS:
        setattr(into, name, getattr(into, name) + getattr(other, name))
    into.variants |= other.variants


def _count_hand(tally: Tally, hand: CountedHand, seats: tuple[int, ...]) -> None:
    tally.hands += 1
    tally.points += hand.seat_scores[seats[0]] if hand.seat_scores else 0
    first = hand.out_order[0] if hand.out_order else None
    if first in seats:
        tally.first_out += 1
    if hand.sweep and first is not None and hand.teams[first] == hand.teams[seats[0]]:
        tally.double_victories += 1
    if won_hand(hand, seats[0]):
        tally.hands_won += 1
    for seat in seats:
        if seat < len(hand.bombs):
            tally.bombs += hand.bombs[seat]
        call = read_call(hand.calls.get(seat))  # a match's own call ([R9]) is neither
        if call is Call.TICHU:
            tally.tichu_called += 1
            tally.tichu_made += call_made(seat, hand.out_order)
        elif call is Call.GRAND:
            tally.grand_called += 1
            tally.grand_made += call_made(seat, hand.out_order)
