"""An individual tournament's round drawn fair: the director's choice at the draw. The draw
(`draw`) chooses who meets at which table and who sits out, as always ([TN1], [TN2]); then
each table's four players are partnered the fairest way their ratings allow
(`fairness.partnerships`), among the partnerships that repeat no more partners than the
draw's own did (history counted), so a fair draw never brings back a partner the random one
avoided. It may bring back an opponent: at one table, fair partners come first. Pure and
deterministic: the same tables, history and ratings give the same seating.

>>> rated = {"ann": (35.0, 3.0), "bob": (30.0, 3.0), "cy": (20.0, 3.0), "dee": (15.0, 3.0)}
>>> fair_tables((("Ann", "Bob", "Dee", "Cy"),), (), rated)[0].seats
('Ann', 'Bob', 'Dee', 'Cy')
>>> met = (draw.Round((("Ann", "Bob", "Dee", "Cy"),)),)  # Ann and Dee partnered in round 1
>>> fair_tables((("Ann", "Cy", "Bob", "Dee"),), met, rated)[0].sides
(('Ann', 'Cy'), ('Bob', 'Dee'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .. import fairness
from . import draw


def partnered(history: Sequence[draw.Round]) -> Counter[tuple[str, str]]:
    """How often each two players were partners (seats 0 and 2, 1 and 3), by their keys."""
    met: Counter[tuple[str, str]] = Counter()
    for rnd in history:
        for table in rnd.tables:
            for a, b in ((0, 2), (1, 3)):
                if b < len(table):
                    met[_pair(table[a], table[b])] += 1
    return met


def _pair(a: str, b: str) -> tuple[str, str]:
    first, second = sorted((draw.key(a), draw.key(b)))
    return first, second


def fair_tables(tables: Sequence[Sequence[str]], history: Sequence[draw.Round],
                rated: Mapping[str, fairness.Strength]) -> tuple[fairness.Table, ...]:
    """Each table of four (by seat, as drawn) partnered the fairest way that repeats no
    more partners than the draw's own partnership."""
    met = partnered(history)

    def repeats(sides: Sequence[Sequence[str]]) -> int:
        return sum(met[_pair(*side)] for side in sides)

    out = []
    for table in tables:
        drawn = repeats(((table[0], table[2]), (table[1], table[3])))
        choices = [t for t in fairness.partnerships(table, rated) if repeats(t.sides) <= drawn]
        out.append(choices[0])  # the draw's own partnership is always among them
    return tuple(out)
