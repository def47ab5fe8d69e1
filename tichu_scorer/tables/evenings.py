"""An evening at a table: tonight's matches added up per player and per partnership, and,
with five or six players for a four-player game, who plays the next match and who sits
out, so that everyone plays as often as possible and partners change. Pure: the table's
page (`views/tables.py`) hands it tonight's matches and who is here.

Who plays next: the players who played fewest matches tonight; among equals, the one who
sat out longest (who played least recently), then the order they are listed in (who came
first). How they sit: of the three ways four players split into two partnerships, the one
whose pairs partnered least often tonight (the first of equals), as A1 B1 A2 B2.

>>> played = [Evening.Match(("Ann", "Bob", "Cy", "Dee"), ((0, 2), (1, 3)), (300, 700), 1)]
>>> nxt = next_match(["Ann", "Bob", "Cy", "Dee", "Eve"], played)
>>> nxt.seats, nxt.sitting_out
(('Ann', 'Cy', 'Bob', 'Eve'), ('Dee',))
>>> standing = tally(played)
>>> standing.players["Bob"], standing.pairs[("Bob", "Dee")]
(Line(matches=1, won=1, points=700), Line(matches=1, won=1, points=700))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

SEATS = 4  # the game a rotation fills: four players, partners opposite ([H1])


class Evening:
    """Namespace for what the functions below read."""

    class Match(NamedTuple):
        """One match of tonight, in the order played: the names by seat, the seats of each
        side, the sides' totals and the winning side (None while open or tied)."""

        names: tuple[str, ...]
        sides: tuple[tuple[int, ...], ...]
        totals: tuple[int, ...]
        winner: int | None


class Line(NamedTuple):
    """A player's or a partnership's evening: matches played, won, and points (its side's
    totals added up)."""

    matches: int = 0
    won: int = 0
    points: int = 0


@dataclass(frozen=True)
class Standing:
    """Tonight per player and per partnership (names sorted), best first when listed."""

    players: dict[str, Line] = field(default_factory=dict)
    pairs: dict[tuple[str, ...], Line] = field(default_factory=dict)

    def ranked_players(self) -> list[tuple[str, Line]]:
        return sorted(self.players.items(), key=lambda kv: (-kv[1].won, -kv[1].points, kv[0]))

    def ranked_pairs(self) -> list[tuple[tuple[str, ...], Line]]:
        return sorted(self.pairs.items(), key=lambda kv: (-kv[1].won, -kv[1].points, kv[0]))


def _add(line: Line, won: bool, points: int) -> Line:
    return Line(line.matches + 1, line.won + int(won), line.points + points)


def tally(matches: Sequence[Evening.Match]) -> Standing:
    """Tonight's matches added up per player and, where a side is a partnership, per pair."""
    standing = Standing()
    for match in matches:
        for index, seats in enumerate(match.sides):
            won = match.winner == index
            points = match.totals[index] if index < len(match.totals) else 0
            names = [match.names[s] for s in seats if s < len(match.names)]
            for name in names:
                standing.players[name] = _add(standing.players.get(name, Line()), won, points)
            if len(names) > 1:
                key = tuple(sorted(names))
                standing.pairs[key] = _add(standing.pairs.get(key, Line()), won, points)
    return standing


class Next(NamedTuple):
    """The next match: four names by seat (A1 B1 A2 B2) and who sits it out."""

    seats: tuple[str, ...]
    sitting_out: tuple[str, ...]


def playing_order(here: Sequence[str], matches: Sequence[Evening.Match]) -> list[str]:
    """The players here in the order they play next: who played fewest matches tonight
    first; among equals, who sat out longest, then who is listed first.

    >>> played = [Evening.Match(("Ann", "Bob", "Cy", "Dee"), ((0, 2), (1, 3)), (0, 0), None)]
    >>> playing_order(["Ann", "Bob", "Cy", "Dee", "Eve"], played)
    ['Eve', 'Ann', 'Bob', 'Cy', 'Dee']
    """
    present = list(dict.fromkeys(n for n in here if n))
    played = {name: 0 for name in present}
    last = {name: -1 for name in present}  # the match each last played in
    for number, match in enumerate(matches):
        for seats in match.sides:
            for name in (match.names[s] for s in seats if s < len(match.names)):
                if name in played:
                    played[name] += 1
                    last[name] = number
    order = {name: i for i, name in enumerate(present)}
    return sorted(present, key=lambda n: (played[n], last[n], order[n]))


def next_match(here: Sequence[str], matches: Sequence[Evening.Match]) -> Next | None:
    """Who plays the next four-player match of the evening, and how they sit (see the
    module's docstring); None with fewer than four players here.

    >>> next_match(["Ann", "Bob", "Cy"], []) is None
    True
    >>> next_match(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], []).sitting_out
    ('Eve', 'Fay')
    """
    present = list(dict.fromkeys(n for n in here if n))
    if len(present) < SEATS:
        return None
    partnered: dict[tuple[str, ...], int] = {}
    for match in matches:
        for seats in match.sides:
            names = [match.names[s] for s in seats if s < len(match.names)]
            if len(names) == 2:
                key = tuple(sorted(names))
                partnered[key] = partnered.get(key, 0) + 1
    order = {name: i for i, name in enumerate(present)}
    chosen = playing_order(present, matches)[:SEATS]
    chosen.sort(key=order.__getitem__)
    first = chosen[0]
    splits = []  # the three ways to split four players into two pairs, in order
    for mate in chosen[1:]:
        others = [n for n in chosen if n not in (first, mate)]
        pairs = (tuple(sorted((first, mate))), tuple(sorted(others)))
        splits.append((sum(partnered.get(p, 0) for p in pairs),
                       (first, others[0], mate, others[1])))
    seating = min(splits, key=lambda split: split[0])[1]  # the first of the fewest repeats
    return Next(seating, tuple(n for n in present if n not in chosen))
