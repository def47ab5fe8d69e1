"""Statistics across all matches, or those of a period (tonight, this month)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import get_locale, gettext
from markupsafe import Markup

from .. import access, insights, tallies
from ..cache import LRU, lru
from ..extensions import limit_reads
from ..models import utcnow

bp = Blueprint("stats", __name__)
PAGES_KEPT = 256  # rendered statistics an app process keeps
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
    victories; as a table (one row per player) or as cards. All matches: the cards are
    rendered again only when one of the tables changed (their checksums) or for another
    language, and kept under the checksums of what they show (a change that came in
    between the request's checksums and the sums is in the cards: they must not be shown
    for the checksums read before it). A period (?period=tonight, month) is summed afresh
    from its matches' tallies. An unknown period or view is the default."""
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    view = request.args.get("view", "table")
    view = view if view in VIEWS else "table"
    groups = access.groups()
    since = _since(period)
    if since is not None:
        return render_template("stats/index.html", period=period, view=view, cards=Markup(  # nosec B704
            render_template("stats/_cards.html", words=_words(), view=view,
                            variants=insights.stats_since(groups, since))))
    marks = tallies.checksums(groups) if groups else {}
    locale = str(get_locale())
    pages: LRU[Any, Markup] = lru("tichu_stats_pages", PAGES_KEPT)
    kept = pages.get((locale, view, tuple(sorted(marks.items()))))
    if kept is None:
        variants, read = insights.stats_as_of(groups, marks)
        kept = Markup(render_template(  # nosec B704: our own template, autoescaped
            "stats/_cards.html", words=_words(), variants=variants, view=view))
        pages.put((locale, view, tuple(sorted(read.items()))), kept)
    return render_template("stats/index.html", cards=kept, period=period, view=view)


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "played": gettext("%(n)s played, %(won)s won"),
            "won": gettext("won %(n)s"), "tichu": gettext("Tichu"),
            "grand": gettext("Grand Tichu"), "first_out": gettext("First out"),
            "double": gettext("Double victories"), "average": gettext("Average hand"),
            "player": gettext("Player"), "partnership": gettext("Partnership")}
