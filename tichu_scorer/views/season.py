"""The season: the standing of the device's tables (or one of them) over a period, ranked by
match points or victory points (`players.season`), on a page that prints, and exported."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..clock import utcnow
from ..limits import limit_exports, limit_reads
from ..matches import writes
from ..models import Group
from ..players import season, season_sums
from ..tables import access
from .downloads import ranking_file
from .errors import answer

bp = Blueprint("season", __name__)


class Asked:
    """What the page was asked: its tables, period and ranking, or the field that is wrong."""

    def __init__(self) -> None:
        self.error: season.BadQuery | None = None
        self.table = (request.args.get("table") or "").strip()[:24]
        self.groups = self._groups()
        self.by = request.args.get("by") or season.MATCH
        try:
            self.period = season.Period.read(request.args.get("from"), request.args.get("to"),
                                             utcnow().date())
        except season.BadQuery as exc:
            self.period, self.error = season.Period.year(utcnow().date()), exc
        if self.error is None and self.by not in season.RANKINGS:
            self.by, self.error = season.MATCH, season.BadQuery("by", _bad_ranking())

    def _groups(self) -> list[Group]:
        """The tables counted: the one asked (a 404 unless this device joined it), or every
        table this device joined."""
        joined = access.groups()
        if not self.table:
            return joined
        found = [g for g in joined if g.key == self.table]
        if not found:
            abort(404)
        return found

    def args(self, **changed: str | None) -> dict[str, str]:
        """The page's query, for its links (exports, the other ranking)."""
        values: dict[str, str | None] = {"table": self.table or None,
                                         "from": self.period.start.isoformat(),
                                         "to": self.period.end.isoformat(), "by": self.by}
        return {k: v for k, v in (values | changed).items() if v}


def _bad_ranking() -> str:
    return str(gettext("“by” is match_points or victory_points."))


@bp.get("/season")
@limit_reads
def index() -> tuple[str, int]:
    """The season's ranking list; a 400 naming the field for a bad date or ranking."""
    writes.reading()
    asked = Asked()
    lines = [] if asked.error else season.ranked(
        season_sums.lines(asked.groups, asked.period), asked.by)
    table = asked.groups[0] if asked.table else None
    return render_template("season/index.html", asked=asked, lines=lines, table=table,
                           this_year=utcnow().year), 400 if asked.error else 200


@bp.get("/season.<any(csv, json):kind>")
@limit_exports
def export(kind: str) -> Response:
    """The season's ranking list, to keep or publish."""
    writes.reading()
    asked = Asked()
    if asked.error is not None:  # answered in the file's own format
        return answer(400, asked.error.message, asked.error.field)
    lines = season.ranked(season_sums.lines(asked.groups, asked.period), asked.by)
    rows = [line.as_dict() for line in lines]
    return ranking_file(
        kind, f"season-{asked.period.start.isoformat()}-{asked.period.end.isoformat()}",
        season.COLUMNS, rows, lambda: {
            "period": {"from": asked.period.start.isoformat(),
                       "to": asked.period.end.isoformat()},
            "ranked_by": asked.by, "tables": [g.name for g in asked.groups], "standing": rows})
