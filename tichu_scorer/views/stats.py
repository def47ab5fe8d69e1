"""Statistics across all matches, or those of a period (tonight, this month)."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import Blueprint, render_template, request
from flask_babel import gettext

from .. import access, statistics
from ..extensions import limit_reads
from ..models import utcnow

bp = Blueprint("stats", __name__)
# "Tonight" is the matches started in the last 12 hours: an evening's play, however late
# it ends, without knowing the table's time zone (times are stored in UTC).
TONIGHT = timedelta(hours=12)
PERIODS = ("all", "month", "tonight")
VIEWS = ("table", "cards")


def _since(period: str) -> datetime | None:
    """Where a period starts (UTC): the last 12 hours, the first of this month, or None."""
    now = utcnow()
    if period == "tonight":
        return now - TONIGHT
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


@bp.get("/stats")
@limit_reads
def index() -> str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories; as a table (one row per player) or as cards; over all matches of the
    device's tables or a period's (?period=tonight, month). An unknown period or view is
    the default."""
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    view = request.args.get("view", "table")
    view = view if view in VIEWS else "table"
    variants = statistics.for_tables(access.groups(), _since(period))
    return render_template("stats/index.html", period=period, view=view,
                           variants=variants, words=_words())


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "played": gettext("%(n)s played, %(won)s won"),
            "won": gettext("won %(n)s"), "tichu": gettext("Tichu"),
            "grand": gettext("Grand Tichu"), "first_out": gettext("First out"),
            "double": gettext("Double victories"), "average": gettext("Average hand"),
            "player": gettext("Player"), "partnership": gettext("Partnership")}
