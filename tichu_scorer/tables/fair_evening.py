"""Tonight's fairest partnerships (`fairness`) for the players here: which players play
next is the evening's rotation (`evenings.playing_order`: who played fewest tonight first),
as many tables of four as they fill (at most `fairness.MOST` players), and how they sit is
the fairest by the ratings; with six players here, Tientsin's two fairest teams of three
besides. Pure: the table's page hands it tonight's matches, who is here and the ratings.

>>> rated = {"ann": (35.0, 3.0), "bob": (30.0, 3.0), "cy": (20.0, 3.0), "dee": (15.0, 3.0)}
>>> [s.tables[0].seats for s in suggest(["Ann", "Bob", "Cy", "Dee"], [], rated, {})]
[('Ann', 'Bob', 'Dee', 'Cy')]
>>> [(s.variant, s.sitting_out) for s in suggest(list("ABCDEF"), [], {}, {})]
[('nanking', ('E', 'F')), ('tientsin', ())]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import fairness
from .evenings import SEATS, Evening, playing_order

TIENTSIN_PLAYERS = 6


@dataclass(frozen=True)
class Suggestion:
    """One way to seat the players here: the game (a variant's key), its tables and who
    sits out."""

    variant: str
    tables: tuple[fairness.Table, ...]
    sitting_out: tuple[str, ...] = ()


def suggest(here: Sequence[str], matches: Sequence[Evening.Match],
            fours: Mapping[str, fairness.Strength],
            sixes: Mapping[str, fairness.Strength]) -> list[Suggestion]:
    """The fairest tables of four for the players here (`fours`: the ratings of the
    four-player game), and with six here the fairest two teams of three (`sixes`: the
    ratings of Tientsin); none with fewer than four."""
    present = list(dict.fromkeys(n for n in here if n))
    if len(present) < SEATS:
        return []
    count = min(len(present) // SEATS * SEATS, fairness.MOST)
    chosen = set(playing_order(present, matches)[:count])
    playing = [n for n in present if n in chosen]
    out = [Suggestion("nanking", fairness.fairest_tables(playing, fours),
                      tuple(n for n in present if n not in chosen))]
    if len(present) == TIENTSIN_PLAYERS:
        out.append(Suggestion("tientsin", (fairness.teams_of_three(present, sixes)[0],)))
    return out
