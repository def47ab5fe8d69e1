"""Statistics across all matches, or those of a period (tonight, this month)."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, current_app, render_template, request
from flask_babel import get_locale, gettext
from werkzeug.wrappers import Response

from .. import statistics
from ..clock import utcnow
from ..extensions import db
from ..limits import limit_reads
from ..live import poll
from ..matches import kept_pages
from ..models import Group
from ..tables import access
from ..tables.evening_reads import TONIGHT

bp = Blueprint("stats", __name__)
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
def index() -> Response | str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories; as a table (one row per player) or as cards; over all matches of the
    device's tables or a period's (?period=tonight, month). An unknown period or view is
    the default. A repeat view of an unchanged page is answered 304 (`_validator`)."""
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    view = request.args.get("view", "table")
    view = view if view in VIEWS else "table"
    groups = access.groups()
    since = _since(period)
    tag = _validator(groups, period, view, since)
    unchanged = kept_pages.not_modified(tag) if tag else None
    if unchanged is not None:
        return unchanged
    messages = kept_pages.messages_waiting()
    response = current_app.make_response(render_template(
        "stats/index.html", period=period, view=view,
        variants=statistics.for_tables(groups, since), words=_words()))
    response.headers["Cache-Control"] = kept_pages.CACHE_CONTROL
    if tag and not messages:
        response.set_etag(tag)
    return response


def _validator(groups: list[Group], period: str, view: str,
               since: datetime | None) -> str | None:
    """The validator of the page as this session would see it: the version of its tables'
    matches (the one live pages compare: count, revisions, newest id and change stamps of
    their matches, and their names; every change of a match raises its revision in its
    transaction), the period, the view and the language, with the app's build and the
    session's CSRF secret (`kept_pages.etag`). None for "tonight", whose window moves with
    the clock, and for a phone that joined no table."""
    keys = [g.key for g in groups]
    if not keys or period == "tonight":
        return None
    version = poll.tables_tag(current_app, poll.table_sums(db.engine, keys), keys)
    if version is None:
        return None
    return kept_pages.etag(("stats", version, tuple(keys), period, view, str(get_locale()),
                            since.isoformat() if since else None))


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "played": gettext("%(n)s played, %(won)s won"),
            "won": gettext("won %(n)s"), "tichu": gettext("Tichu"),
            "grand": gettext("Grand Tichu"), "first_out": gettext("First out"),
            "double": gettext("Double victories"), "average": gettext("Average hand"),
            "player": gettext("Player"), "partnership": gettext("Partnership")}
