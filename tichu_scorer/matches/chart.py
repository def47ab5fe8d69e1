"""The score-progression chart of a match page (the geometry: `tichu_scorer/core/progression`,
shared with the phone's copy of the core)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from .. import scoring
from ..core.progression import Chart, build, call_marks, relative_path
from .match_view import MatchPage

__all__ = ["Chart", "build", "chart_inputs", "match_chart", "relative_path"]


def chart_words() -> tuple[str, dict[bool, str], dict[str, str]]:
    """The chart's words in the reader's language: the marker's tooltip, a call made or
    failed, each call's name."""
    return (str(gettext("hand %(n)s: %(what)s")),
            {True: str(gettext("%(name)s: %(call)s made")),
             False: str(gettext("%(name)s: %(call)s failed"))},
            {c.value: str(gettext(c.label)) for c in scoring.Call})


def match_chart(page: MatchPage) -> Chart | None:
    """Running totals per side with every call marked."""
    match = page.match
    if not page.rows:
        return None
    names = match.names
    side_of = {seat: side.index for side in match.game.variant.sides(names) for seat in side.seats}
    mark, outcome, said = chart_words()
    calls = call_marks(side_of, names, [(row.hand.calls, row.hand.out_order)
                                        for row in page.rows], outcome, said)
    classes = [side.css for side in page.sides]
    target = match.target if match.target else None
    return build([row.running for row in page.rows], classes, target, calls, mark)


def chart_inputs(page: MatchPage) -> dict[str, Any]:
    """What the phone's core draws the chart from when hands wait on the phone: the stored
    hands' running totals and calls (answers.waiting adds the waiting ones)."""
    return {"running": [list(row.running) for row in page.rows],
            "hands": [[{str(k): str(getattr(v, "value", v)) for k, v in row.hand.calls.items()},
                       list(row.hand.out_order)] for row in page.rows]}
