"""Export (JSON, CSV) of one match or the whole history, and JSON import."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from .. import access, records, transfer
from ..extensions import limit_creation, limit_writes
from .matches import visible

bp = Blueprint("transfer", __name__)


def _download(body: str, name: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/matches/<match_id>/export.<any(json, csv):kind>")
def match_export(match_id: str, kind: str) -> Response:
    match = visible(match_id)
    if kind == "json":
        return _download(json.dumps(transfer.export_json([match.id]), indent=1,
                                    ensure_ascii=False),
                         f"tichu-match-{match_id}.json", "application/json")
    return _download(transfer.export_csv([match.id]), f"tichu-match-{match_id}.csv",
                     "text/csv")


@bp.get("/export.<any(json, csv):kind>")
def history_export(kind: str) -> Response:
    """Every match of the tables this device joined (and no other)."""
    ids = records.match_ids(access.groups())
    if kind == "json":
        return _download(json.dumps(transfer.export_json(ids), indent=1, ensure_ascii=False),
                         "tichu-history.json", "application/json")
    return _download(transfer.export_csv(ids), "tichu-history.csv", "text/csv")


@bp.post("/import")
@limit_writes
@limit_creation
def import_json() -> Response | tuple[str, int]:
    """Add the matches of a JSON export to this history."""
    upload = request.files.get("file")
    error = None
    if upload is None or not upload.filename:
        error = gettext("Choose a JSON export file to import.")
    else:
        try:
            data = json.loads(upload.read().decode("utf-8"))
            tables = access.groups("scorer")
            group = tables[0] if tables else None
            created = transfer.import_json(data, group)
            if group is None and created:
                access.join(created[0].group, "scorer")
        except (UnicodeDecodeError, ValueError) as exc:
            error = str(exc) if isinstance(exc, transfer.ImportError_) else \
                gettext("The file is not a JSON export of Tichu Scorer.")
        else:
            flash(ngettext("Imported %(num)d match.", "Imported %(num)d matches.",
                           len(created)))
            return redirect(url_for("matches.history"), code=303)
    groups = access.groups()
    return render_template("matches/history.html", matches=records.history(groups),
                           groups=groups,
                           labels=records.VARIANT_LABELS, import_error=error), 422
