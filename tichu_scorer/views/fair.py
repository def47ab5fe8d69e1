"""Fair partnerships on the director's page: the ratings a fair draw reads, and what it
tells the director once drawn (`tournaments.fair_draw`)."""

from __future__ import annotations

from collections.abc import Mapping

from flask import request
from flask_babel import format_percent, gettext

from .. import fairness
from ..game import variants
from ..models import Tournament, TournamentRound
from ..tables import access
from ..tournaments import formats
from .ratings import strengths


def asked(tournament: Tournament) -> Mapping[str, fairness.Strength] | None:
    """The players' four-player ratings when the director ticked "partners fair" for an
    individual tournament's round, over the tables this phone joined (the ratings page's
    scope); None for a random draw."""
    if request.form.get("fair") != "y" or not formats.of(tournament).fair_partners:
        return None
    return strengths(access.groups(), variants.NANKING)


def told(rnd: TournamentRound, rated: Mapping[str, fairness.Strength]) -> str:
    """The round's tables with each side's chance, as the director is told after the draw."""
    tables = []
    for match in sorted(rnd.tables, key=lambda m: m.board or 0):
        names = match.names
        shown = fairness.table(((names[0], names[2]), (names[1], names[3])), rated).percents
        tables.append(gettext("table %(board)d: %(a)s : %(b)s", board=match.board or 0,
                              a=format_percent(shown[0] / 100),
                              b=format_percent(shown[1] / 100)))
    return str(gettext("Partners drawn fair by the ratings, each side’s chance to win: %(tables)s.",
                       tables="; ".join(tables)))
