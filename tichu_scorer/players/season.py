"""A season: the standing of a table's players over a period (this year unless asked), across
its matches and its tournaments' tables. Pure: `season_sums` adds up the stored matches in
SQL and hands the sums here to be ranked.

What counts: every finished match started in the period (UTC dates, both ends included) of
a game with points (four players, Threechu, six players; Grand Seigneur keeps no points and
no winner). A match won gives 2 match points, a tie 1 (as a pairs tournament counts them,
`[TN3]`); a match played with victory points (`[R4]`: a tournament's tables, or a house
rule) adds its side's victory points; points are the side's total. A player is a name of
the table (without regard to case, `Player.key_of`), the Threechu dummy no one.

Ranking by match points (`MATCH`): match points, then victory points, then points; by
victory points (`VICTORY`): victory points, then match points, then points. Then the same
results in fewer matches rank first; still equal, players share a place, listed by name.

>>> a = Line("Ann", matches=3, won=2, tied=0, victory=20, points=2100)
>>> b = Line("Bob", matches=2, won=1, tied=1, victory=25, points=1500)
>>> [(line.name, line.place) for line in ranked([a, b], MATCH)]
[('Ann', 1), ('Bob', 2)]
>>> [(line.name, line.place) for line in ranked([a, b], VICTORY)]
[('Bob', 1), ('Ann', 2)]
>>> Period.read(None, None, date(2026, 6, 1))
Period(start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
>>> Period.read("2025-09-01", None, date(2026, 6, 1)).end
datetime.date(2025, 12, 31)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from flask_babel import gettext

WIN, TIE = 2, 1  # match points for a match won, tied
MATCH, VICTORY = "match_points", "victory_points"  # the rankings (`by`)
RANKINGS = (MATCH, VICTORY)
COLUMNS = ("place", "name", "matches", "won", "tied", "lost", "match_points",
           "victory_points", "points", "hands")  # the exports' columns, in order
DATE_MAX = 10  # characters of a date as asked (YYYY-MM-DD)


class BadQuery(ValueError):
    """A season asked as it cannot be: the field (`from`, `to`, `by`) and what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Period:
    """The days a season spans, both included (UTC dates, as matches are stored)."""

    start: date
    end: date

    @staticmethod
    def year(of: date) -> Period:
        return Period(date(of.year, 1, 1), date(of.year, 12, 31))

    @staticmethod
    def read(start: str | None, end: str | None, today: date) -> Period:
        """The period asked (`from`, `to` as YYYY-MM-DD, both included): without `from`,
        from the first of January of the year of `to` (or of `today`); without `to`, to
        the last of December of the year of `from` (or of `today`). BadQuery naming the
        field when one is no date or the end comes before the start."""
        first, last = _day("from", start), _day("to", end)
        period = Period(first or date((last or today).year, 1, 1),
                        last or date((first or today).year, 12, 31))
        if period.end < period.start:
            raise BadQuery("to", gettext("The end (“to”) comes before the start (“from”)."))
        return period

    def bounds(self) -> tuple[datetime, datetime | None]:
        """From the first day's start up to (not including) the day after the last (None:
        no end, for the last day there is)."""
        start = datetime.combine(self.start, time.min)
        if self.end == date.max:
            return start, None
        return start, datetime.combine(self.end + timedelta(days=1), time.min)

    @property
    def whole_year(self) -> int | None:
        """The year, when the period is one calendar year."""
        same = self.start.year == self.end.year
        return self.start.year if same and self == Period.year(self.start) else None


def _day(field: str, text: str | None) -> date | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        if len(text) != DATE_MAX:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise BadQuery(field, gettext(
            "“%(field)s” is not a date: write it as YYYY-MM-DD (for example 2026-01-31).",
            field=field)) from None


@dataclass(frozen=True)
class Line:
    """A player's season: finished matches, won and tied (the rest lost), victory points,
    points and hands played; `place` once ranked."""

    name: str
    matches: int = 0
    won: int = 0
    tied: int = 0
    victory: int = 0
    points: int = 0
    hands: int = 0
    place: int = 0

    @property
    def lost(self) -> int:
        return self.matches - self.won - self.tied

    @property
    def match_points(self) -> int:
        return WIN * self.won + TIE * self.tied

    def as_dict(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "matches": self.matches,
                "won": self.won, "tied": self.tied, "lost": self.lost,
                "match_points": self.match_points, "victory_points": self.victory,
                "points": self.points, "hands": self.hands}


def _results(line: Line, by: str) -> tuple[int, ...]:
    first = (line.match_points, line.victory) if by == MATCH else (line.victory,
                                                                    line.match_points)
    return (*first, line.points, -line.matches)


def ranked(lines: list[Line], by: str = MATCH) -> list[Line]:
    """`lines` best first by `by` (see the module), each with its place (equal results share
    one: 1, 1, 3)."""
    ordered = sorted(lines, key=lambda line: (tuple(-r for r in _results(line, by)),
                                              line.name.casefold(), line.name))
    out: list[Line] = []
    for index, line in enumerate(ordered):
        same = out and _results(out[-1], by) == _results(line, by)
        out.append(replace(line, place=out[-1].place if same else index + 1))
    return out
