"""The standing of a tournament (RULES.md `[TN1]`–`[TN4]`): what each entry (a player, or a
pair) has after the rounds played, ranked. Pure: the caller hands it each round's tables
as the matches' states read them.

Each table has two sides; a side lists the entries it credits: in an individual tournament
the two partners, in a pairs tournament the pair. Every entry of a side is credited with
the side's victory points (`[R4]`) and points, and, in a pairs tournament, with 2 match
points for a win and 1 for a tie (`[TN3]`) once the table's match is over.

`[TN2]`: an entry that sits a round out is credited with the average victory points and
points per player of the hands played in that round (each hand's average over the players
who played it, added up over the round's hands: for tables that played alike, the round's
per-player average). In a pairs tournament a bye also counts as a win (2 match points),
once the round is complete.

Ranking: individual by victory points, then points, then the result between them; pairs
by match points, then victory points, then points difference, then the result between
them. "The result between them" (`[TN1]`, `[TN3]`): among entries still equal, the victory
points (then points) each won minus what it gave away in the tables where they met as
opponents; entries still equal share a place, listed by name.

>>> t1 = Table(1, (("Ann", "Cy"), ("Bob", "Di")), victory=(5, 3), points=(500, 300),
...            hands=4, over=True, winner=0)
>>> s = standing([Round(1, (t1,), byes=("Ed",))], individual=True)
>>> [(l.name, l.place, shown(l.victory), shown(l.points)) for l in s]
[('Ann', 1, 5, 500), ('Cy', 1, 5, 500), ('Ed', 3, 4, 400), ('Bob', 4, 3, 300), ('Di', 4, 3, 300)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

WIN, TIE = 2, 1  # match points ([TN3])


class Table(NamedTuple):
    """One table of a round: its number, the entries of each side, what each side has (the
    match's victory points, `()` without them, and points), the hands played, whether its
    match is over and its winning side (None: a tie, or not over), as the match state
    says."""

    board: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    victory: tuple[int, ...]
    points: tuple[int, int]
    hands: int
    over: bool
    winner: int | None = None


class Round(NamedTuple):
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    knockout: bool = False  # a knockout stage ([TN3]): it decides the top places instead

    @property
    def complete(self) -> bool:
        """`[TN4]`: every table has entered its last hand."""
        return all(t.over for t in self.tables)


@dataclass(frozen=True)
class Line:
    """An entry's standing. Victory points and points may be fractions (a bye's average),
    shown rounded to one decimal."""

    name: str
    place: int
    match_points: int
    victory: Fraction
    points: Fraction
    difference: Fraction  # points won minus points given away
    played: int  # tables played (a table counts from its first hand)
    byes: int
    between: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))

    def as_dict(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "match_points": self.match_points,
                "victory_points": shown(self.victory), "points": shown(self.points),
                "difference": shown(self.difference), "played": self.played,
                "byes": self.byes}


def shown(value: Fraction) -> int | float:
    """A whole number as it is, else rounded to one decimal.

    >>> shown(Fraction(7, 2)), shown(Fraction(4))
    (3.5, 4)
    """
    return int(value) if value.denominator == 1 else round(float(value), 1)


class _Sum:
    """An entry's sums: whole numbers from the tables played, fractions only from byes."""

    __slots__ = ("match_points", "victory", "points", "difference", "played", "byes",
                 "bye_victory", "bye_points")

    def __init__(self) -> None:
        self.match_points = self.victory = self.points = self.difference = 0
        self.played = self.byes = 0
        self.bye_victory = self.bye_points = Fraction(0)


def _bye_credit(tables: Sequence[Table]) -> tuple[Fraction, Fraction]:
    """`[TN2]`: the victory points and points per player of the round's hands, added up:
    per table, what its players won on average per hand, times the round's most hands, so
    that a table that played fewer hands counts by what it played."""
    hands = max((t.hands for t in tables), default=0)
    played = [t for t in tables if t.hands]
    if not played or not hands:
        return Fraction(0), Fraction(0)
    victory = sum((Fraction(sum(t.victory), 2 * t.hands) for t in played if t.victory),
                  Fraction(0)) / len(played)
    points = sum((Fraction(sum(t.points), 2 * t.hands) for t in played),
                 Fraction(0)) / len(played)
    return victory * hands, points * hands


def standing(rounds: Iterable[Round], individual: bool,
             entries: Iterable[str] = ()) -> list[Line]:
    """Every entry's line, best first (`entries`: also those that have not played yet)."""
    rounds = list(rounds)
    sums: dict[str, _Sum] = {name: _Sum() for name in entries}
    met: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for rnd in rounds:
        if rnd.knockout:
            continue
        for table in rnd.tables:
            victory = table.victory or (0, 0)
            for side, names in enumerate(table.sides):
                other = 1 - side
                vp, gap = victory[side], victory[side] - victory[other]
                points, lead = table.points[side], table.points[side] - table.points[other]
                won = 0
                if table.over and not individual:
                    won = TIE if table.winner is None else WIN if table.winner == side else 0
                for name in names:
                    line = sums.get(name) or sums.setdefault(name, _Sum())
                    line.victory += vp
                    line.points += points
                    line.difference += lead
                    line.played += 1 if table.hands else 0  # a table drawn, not yet played
                    line.match_points += won
                    for rival in table.sides[other]:
                        gained = met[name, rival]
                        gained[0] += gap
                        gained[1] += lead
        bye_victory, bye_points = _bye_credit(rnd.tables)
        for name in rnd.byes:
            line = sums.get(name) or sums.setdefault(name, _Sum())
            line.byes += 1
            line.bye_victory += bye_victory
            line.bye_points += bye_points
            if not individual and rnd.complete:
                line.match_points += WIN
    return _ranked(sums, met, individual)


def _ranked(sums: dict[str, _Sum], met: dict[tuple[str, str], list[int]],
            individual: bool) -> list[Line]:
    keys: dict[str, tuple[Any, ...]] = {}
    for name, s in sums.items():
        victory, points = s.victory + s.bye_victory, s.points + s.bye_points
        keys[name] = ((victory, points) if individual
                      else (s.match_points, victory, s.difference))
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for name, key in keys.items():
        groups[key].append(name)
    lines: list[Line] = []
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        between = {n: tuple(Fraction(sum(met[n, r][i] for r in tied if (n, r) in met))
                            for i in (0, 1)) for n in tied}
        tied.sort(key=lambda n: (tuple(-x for x in between[n]), n.casefold(), n))
        for name in tied:
            s = sums[name]
            place = len(lines) + 1
            if lines and keys[lines[-1].name] == key and lines[-1].between == between[name]:
                place = lines[-1].place
            lines.append(Line(name, place, s.match_points, s.victory + s.bye_victory,
                              s.points + s.bye_points, Fraction(s.difference), s.played,
                              s.byes, between[name]))  # type: ignore[arg-type]
    return lines


def with_knockout(lines: Sequence[Line], rounds: Iterable[Round]) -> list[Line]:
    """The ranking after a knockout stage ([TN3]): the winner of the final first, then its
    loser, then those who lost in the semi-finals (sharing 3rd), then in the quarter-finals
    (sharing 5th), each group in the order of the standing before the knockout; everyone
    else after them, as they stood. A knockout still being played changes nothing yet.

    >>> line = lambda name, place: Line(name, place, 0, Fraction(0), Fraction(0), Fraction(0), 1, 0)
    >>> final = Round(3, (Table(1, (("B",), ("A",)), (), (1000, 400), 9, True, 0),), knockout=True)
    >>> ranked = with_knockout([line("A", 1), line("B", 2), line("C", 3)], [final])
    >>> [(l.name, l.place) for l in ranked]
    [('B', 1), ('A', 2), ('C', 3)]
    """
    stages = [r for r in rounds if r.knockout]
    if not stages or not all(t.over and t.winner is not None for t in stages[-1].tables) \
            or len(stages[-1].tables) != 1:
        return list(lines)
    by_name = {line.name: line for line in lines}
    order = {line.name: i for i, line in enumerate(lines)}
    final = stages[-1].tables[0]
    won = final.winner or 0  # (not None: checked above)
    groups = [[final.sides[won][0]], [final.sides[1 - won][0]]]
    for stage in reversed(stages[:-1]):
        groups.append(sorted((t.sides[1 - t.winner][0] for t in stage.tables
                              if t.winner is not None), key=lambda n: order.get(n, 0)))
    placed: list[Line] = []
    done: set[str] = set()  # a stage corrected after the next was drawn: each line once
    for group in groups:
        place = len(placed) + 1
        for name in group:
            if name in by_name and name not in done:
                placed.append(replace(by_name[name], place=place))
                done.add(name)
    rest = [line for line in lines if line.name not in done]
    shift = len(placed)
    for line in rest:
        placed.append(replace(line, place=max(line.place, shift + 1)))
    return placed
