"""Fair partnerships: from the players' ratings (`ratings`), each side's chance to win, and
the fairest way to seat the players present. Pure: no I/O.

A side's chance is OpenSkill's own `predict_win` (the same Plackett-Luce model the ratings
use, with each player's mu and sigma: an uncertain rating pulls a chance towards the middle);
a player never rated counts as a newcomer (mu 25, sigma 25/3). A seating's unfairness is how
far its least fair table is from an even match (|chance − 50 %|), then the sum over its
tables; among equals, the first found in the order the players are listed, so the same
players and ratings always give the same suggestion.

- four players: the three possible partnerships (`partnerships`), fairest first;
- a multiple of four: tables of four (`fairest_tables`), each with its fairest partnership,
  the tables chosen together (for eight players, 35 ways to split them, for twelve 5,775);
- six players for Tientsin: two teams of three (`teams_of_three`, ten ways).

>>> rated = {"ann": (35.0, 3.0), "bob": (30.0, 3.0), "cy": (20.0, 3.0), "dee": (15.0, 3.0)}
>>> best = partnerships(["Ann", "Bob", "Cy", "Dee"], rated)[0]
>>> best.sides, round(best.chances[0], 2)
((('Ann', 'Dee'), ('Bob', 'Cy')), 0.5)
>>> best.seats
('Ann', 'Bob', 'Dee', 'Cy')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from openskill.models import PlackettLuce

from .game import names

Strength = tuple[float, float]  # a player's mu and sigma
NEWCOMER: Strength = (25.0, 25.0 / 3)  # OpenSkill's defaults, as `ratings.model`
MOST = 12  # players one suggestion seats (three tables; the evening's most)


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def key_of(name: str) -> str:
    """A name's key, as the table's players have it (`game.names.key`)."""
    return names.key(name)


def strength(name: str, rated: Mapping[str, Strength]) -> Strength:
    """A player's mu and sigma, found by the name's key (case and spaces do not count); a
    newcomer's when never rated."""
    return rated.get(key_of(name), NEWCOMER)


def chances(sides: Sequence[Sequence[str]], rated: Mapping[str, Strength]) -> tuple[float, ...]:
    """Each side's chance to win against the others (they add up to 1)."""
    model = _model()
    teams = [[model.rating(*strength(n, rated)) for n in side] for side in sides]
    return tuple(float(p) for p in model.predict_win(teams))


@dataclass(frozen=True)
class Table:
    """A suggested table: its sides (names in the order they sit within a side) and each
    side's chance to win."""

    sides: tuple[tuple[str, ...], ...]
    chances: tuple[float, ...]

    @property
    def unfairness(self) -> float:
        """How far the table is from an even match: 0 is a coin toss."""
        return max(abs(c - 1 / len(self.chances)) for c in self.chances)

    @property
    def seats(self) -> tuple[str, ...]:
        """The names by seat, partners opposite (A1 B1 A2 B2 …), as the new-match form
        takes them."""
        return tuple(n for seat in zip(*self.sides, strict=True) for n in seat)

    @property
    def percents(self) -> tuple[int, ...]:
        """Each side's chance in whole percent, adding up to 100."""
        first = round(100 * self.chances[0])
        return (first, 100 - first) if len(self.chances) == 2 else tuple(
            round(100 * c) for c in self.chances)


def table(sides: Sequence[Sequence[str]], rated: Mapping[str, Strength]) -> Table:
    return Table(tuple(tuple(s) for s in sides), chances(sides, rated))


def _splits(names: Sequence[str], size: int) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every way to split the names into two sides of `size`, the first name always on the
    first side (so no split comes twice, mirrored)."""
    first, rest = names[0], list(names[1:])
    for mates in combinations(rest, size - 1):
        other = tuple(n for n in rest if n not in mates)
        yield (first, *mates), other


def partnerships(four: Sequence[str], rated: Mapping[str, Strength]) -> list[Table]:
    """The three ways four players make two partnerships, the fairest first."""
    if len(four) != 4:
        raise ValueError("four players make partnerships")
    return _fairest(four, 2, rated)


def teams_of_three(six: Sequence[str], rated: Mapping[str, Strength]) -> list[Table]:
    """The ten ways six players make two teams of three (Tientsin), the fairest first."""
    if len(six) != 6:
        raise ValueError("six players make two teams of three")
    return _fairest(six, 3, rated)


def _fairest(names: Sequence[str], size: int, rated: Mapping[str, Strength]) -> list[Table]:
    """Every split of `names` into two sides of `size`, as tables, the fairest first."""
    return sorted((table(s, rated) for s in _splits(names, size)), key=lambda t: t.unfairness)


def _groups(names: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every way to split the names (a multiple of four) into tables of four, in order."""
    if not names:
        yield ()
        return
    first, rest = names[0], names[1:]
    for mates in combinations(rest, 3):
        left = tuple(n for n in rest if n not in mates)
        for others in _groups(left):
            yield ((first, *mates), *others)


def fairest_tables(names: Sequence[str], rated: Mapping[str, Strength]) -> tuple[Table, ...]:
    """The players (a multiple of four, at most `MOST`) at tables of four, each table with
    its fairest partnership, the tables chosen so that the least fair of them is as fair as
    it can be (then the sum of their unfairness)."""
    players = tuple(dict.fromkeys(names))
    if not players or len(players) % 4 or len(players) > MOST:
        raise ValueError("tables of four need 4, 8 or 12 players")
    best: dict[tuple[str, ...], tuple[Table, float]] = {}  # a foursome, in listed order

    def fairest(four: tuple[str, ...]) -> float:
        found = best.get(four)
        if found is None:
            made = partnerships(four, rated)[0]
            found = best[four] = (made, made.unfairness)
        return found[1]

    chosen: tuple[tuple[str, ...], ...] = ()
    score = (2.0, 0.0)
    for grouping in _groups(players):
        unfair = [fairest(four) for four in grouping]
        this = (max(unfair), sum(unfair))
        if this < score:
            chosen, score = grouping, this
    return tuple(best[four][0] for four in chosen)


__all__: Sequence[str] = ("MOST", "NEWCOMER", "Strength", "Table", "chances", "fairest_tables",
                          "partnerships", "strength", "table", "teams_of_three")
