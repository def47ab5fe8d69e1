"""A result to share (`results`): a match's final sheet, a table's evening and a
tournament's standing, as plain text (`result.txt`) or a PNG image (`result.png`), in the
reader's language, for whoever may read the match, the table or the tournament. The pages
offer them through the phone's share sheet (static/js/share.js)."""

from __future__ import annotations

from flask import Blueprint, abort
from werkzeug.wrappers import Response

from ..extensions import db
from ..limits import limit_exports
from ..matches import writes
from ..models import Group
from ..results import build, drawing
from ..results.sheet import Result
from ..tables import access
from ..tournaments import director
from .matches import visible

bp = Blueprint("results", __name__)
KINDS = "<any(txt, png):kind>"


def _sent(result: Result, kind: str) -> Response:
    if kind == "png":
        response = Response(drawing.png(result), mimetype="image/png")
    else:
        response = Response(result.text(), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'inline; filename="{result.filename}.{kind}"'
    response.headers["Cache-Control"] = "private, no-cache"  # it changes with every hand
    response.vary.add("Cookie")  # the reader's language
    return response


@bp.get(f"/matches/<match_id>/result.{KINDS}")
@limit_exports
def match(match_id: str, kind: str) -> Response:
    writes.reading()
    return _sent(build.of_match(visible(match_id)), kind)


@bp.get(f"/tables/<key>/tonight/result.{KINDS}")
@limit_exports
def evening(key: str, kind: str) -> Response:
    writes.reading()
    group = db.session.execute(db.select(Group).filter_by(key=key[:24])).scalar_one_or_none()
    return _sent(build.of_evening(access.require_group(group)), kind)


@bp.get(f"/tournaments/<key>/result.{KINDS}")
@limit_exports
def tournament(key: str, kind: str) -> Response:
    writes.reading()
    found = director.by_key(key)
    if found is None:
        abort(404)
    access.require_group(found.group)
    return _sent(build.of_tournament(found), kind)
