"""Tournament formats (RULES.md §10.2): one object per format that every layer asks, as the
games are (`game/variants.py`): `INDIVIDUAL` (`[TN1]`), `PAIRS_SWISS` and `PAIRS_ALL`
(`[TN3]`), each a `Format` with the same hooks: its entries' problems (`check_entries`,
`read_entry`, `known_names`), its draw (`ground`: what a round's draw rests on, whose
`seating` searches it; `draws`: the stage that draws a round, a `Knockout` after a pairs
tournament's rounds), the standing (`sides`, `standing`, `columns`) and what the pages
show (`title`, `entry_label`, `entries_title`, `arrival_hint`, `match_points`; a round's
`stage_title` and `target`). Nothing outside this package compares a format's stored word
(`tests/tournaments/formats/test_words.py` reads the package and the templates). Pure.

>>> named("pairs", "all").title, named("pairs", None) is PAIRS_SWISS
('Pairs tournament, all against all (TN3)', True)
>>> [kind for kind, _label in kinds()], [p for p, _label in pairings()]
(['individual', 'pairs'], ['swiss', 'all'])
"""

from __future__ import annotations

from typing import Protocol

from .base import (
    HOUSE,
    MOST_ENTRIES,
    MOST_HANDS,
    MOST_ROUNDS,
    Entered,
    Entry,
    Format,
    Ground,
    Past,
    Refused,
    Seating,
    Stage,
    TableRules,
    clean,
    pair_name,
    pair_names,
    playing,
)
from .individual import INDIVIDUAL
from .knockout import SIZES as KNOCKOUT_SIZES
from .knockout import Knockout
from .knockout import changed as knockout_changed
from .pairs import PAIRS_ALL, PAIRS_SWISS

__all__ = ["HOUSE", "INDIVIDUAL", "KNOCKOUT_SIZES", "MOST_ENTRIES", "MOST_HANDS",
           "MOST_ROUNDS", "PAIRS_ALL", "PAIRS_SWISS", "Entered", "Entry", "Format", "Ground",
           "Knockout", "Past", "Refused", "Seating", "Stage", "TableRules", "clean",
           "kinds", "knockout_changed", "named", "of", "pair_name", "pair_names",
           "pairings", "playing"]

FORMATS: tuple[Format, ...] = (INDIVIDUAL, PAIRS_SWISS, PAIRS_ALL)


class HasFormat(Protocol):
    """A tournament as stored: its kind and pairing."""

    @property
    def kind(self) -> str: ...
    @property
    def pairing(self) -> str | None: ...


def named(kind: str, pairing: str | None = None) -> Format:
    """The format of a kind and a pairing as stored or chosen: a pairs tournament of no
    known pairing is paired the Swiss way; ValueError for an unknown kind (a bug, not
    input: the form offers `kinds()`)."""
    found = [f for f in FORMATS if f.kind == kind]
    if not found:
        raise ValueError(f"no tournament format {kind!r}")
    return next((f for f in found if f.pairing == pairing), found[0])


def of(tournament: HasFormat) -> Format:
    """A stored tournament's format."""
    return named(tournament.kind, tournament.pairing)


def kinds() -> list[tuple[str, str]]:
    """The kinds the new tournament's form offers: each word and its message id."""
    return list(dict((f.kind, f.choice) for f in FORMATS).items())


def pairings() -> list[tuple[str, str]]:
    """The pairings a pairs tournament may have: each word and its message id."""
    return [(f.pairing, f.pairing_choice) for f in FORMATS
            if f.pairing is not None and f.pairing_choice is not None]
