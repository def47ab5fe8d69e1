"""Export (JSON, CSV) of one match or the whole history, and JSON import."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from .. import access, records, transfer
from ..extensions import db, limit_writes
from ..models import Match
from . import jsonbody
from .errors import body_limit

bp = Blueprint("transfer", __name__)
# An export of a long history is far larger than any form (MAX_CONTENT_LENGTH, 64 KiB);
# the import alone takes up to IMPORT_MAX_BYTES.
IMPORT_MAX_BYTES = 8 * 1024 * 1024


def _download(body: str, name: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/matches/<int:match_id>/export.<any(json, csv):kind>")
def match_export(match_id: int, kind: str) -> Response:
    db.get_or_404(Match, match_id)
    if kind == "json":
        return _download(json.dumps(transfer.export_json([match_id]), indent=1,
                                    ensure_ascii=False),
                         f"tichu-match-{match_id}.json", "application/json")
    return _download(transfer.export_csv([match_id]), f"tichu-match-{match_id}.csv",
                     "text/csv")


@bp.get("/export.<any(json, csv):kind>")
def history_export(kind: str) -> Response:
    if kind == "json":
        return _download(json.dumps(transfer.export_json(), indent=1, ensure_ascii=False),
                         "tichu-history.json", "application/json")
    return _download(transfer.export_csv(), "tichu-history.csv", "text/csv")


@bp.post("/import")
@body_limit("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
@limit_writes
def import_json() -> Response | tuple[str, int]:
    """Add the matches of a JSON export to this history."""
    upload = request.files.get("file")
    error = None
    if upload is None or not upload.filename:
        error = gettext("Choose a JSON export file to import.")
    else:
        try:
            data = jsonbody.loads(upload.read(), max_number=jsonbody.MAX_NUMBER)
            created = transfer.import_json(data)
        except jsonbody.BadRequest as exc:
            error = gettext("The file is not a JSON export of Tichu Scorer: %(why)s",
                            why=exc.message)
        except transfer.ImportError_ as exc:
            error = str(exc)
        else:
            # after the commit; each grant reads its match again, so only what is kept
            for match in created[-access.REMEMBERED:]:
                access.grant(match)
            flash(ngettext("Imported %(num)d match.", "Imported %(num)d matches.",
                           len(created)))
            return redirect(url_for("matches.history"), code=303)
    return render_template("matches/history.html", matches=records.history(),
                           labels=records.VARIANT_LABELS, import_error=error), 422
