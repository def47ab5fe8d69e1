"""Export (JSON, CSV) of one match or the whole history, and JSON import."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext
from sqlalchemy import func
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import db
from ..limits import limit_creation, limit_exports, limit_reads, limit_writes
from ..matches import listing, writes
from ..models import Group, Hand, HandEvent
from ..players.imports import Matched
from ..tables import access
from ..transfer import exports, json_import
from ..transfer.checks import MAX_IMPORT_EVENTS, MAX_IMPORT_HANDS, ImportError_
from ..transfer.known import Imported
from . import jsonbody
from .errors import body_limit
from .matches import _page, visible

bp = Blueprint("transfer", __name__)
# An export of a long history is far larger than any form (MAX_CONTENT_LENGTH, 64 KiB);
# the import alone takes up to IMPORT_MAX_BYTES.
IMPORT_MAX_BYTES = 4 * 1024 * 1024


@bp.get("/matches/<match_id>/export.<any(json, csv):kind>")
@limit_exports
def match_export(match_id: str, kind: str) -> Response:
    """One match; refused (422) beyond the sizes an import takes, which no match played at
    a table reaches: the export stays bounded and imports again."""
    match = visible(match_id)
    hands, entries = db.session.execute(db.select(
        db.select(func.count(Hand.id)).where(Hand.match_id == match.id).scalar_subquery(),
        db.select(func.count(HandEvent.id)).where(HandEvent.match_id == match.id)
        .scalar_subquery())).one()
    if hands > MAX_IMPORT_HANDS or entries > MAX_IMPORT_EVENTS:
        abort(422, gettext("This match holds %(hands)d hands and %(entries)d log entries, "
                           "more than an export holds (%(most_hands)d hands and "
                           "%(most_entries)d log entries): it cannot be exported.",
                           hands=hands, entries=entries, most_hands=MAX_IMPORT_HANDS,
                           most_entries=MAX_IMPORT_EVENTS))
    return exports.download([match.id], kind, f"tichu-match-{match_id}")


@bp.get("/matches/<match_id>/sheet")
@limit_reads
def sheet(match_id: str) -> str:
    """The score sheet to print: table, date, players, every hand in playing order."""
    writes.reading()
    return render_template("matches/sheet.html", page=_page(visible(match_id)))


@bp.get("/export.<any(json, csv):kind>")
@limit_exports
def history_export(kind: str) -> Response:
    """Every match of the tables this device joined (and no other)."""
    return exports.download(listing.match_ids(access.groups()), kind, "tichu-history")


@bp.post("/import")
@body_limit("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
@limit_writes
@limit_creation
def import_json() -> BaseResponse | tuple[str, int]:
    """Add the matches of a JSON export to this history."""
    upload = request.files.get("file")
    error = None
    if upload is None or not upload.filename:
        error = gettext("Choose a JSON export file to import.")
    else:
        try:
            data = jsonbody.loads(upload.read(), hook=jsonbody.unique_pairs,
                                  max_number=jsonbody.MAX_NUMBER)
            tables = access.groups("scorer")
            group = tables[0] if tables else None
            result = json_import.import_json(data, group, access.groups())
        except jsonbody.BadRequest as exc:
            error = gettext("The file is not a JSON export of Tichu Scorer: %(why)s",
                            why=exc.message)
        except ImportError_ as exc:
            error = str(exc)
        else:
            created = result.matches
            if group is None and created:  # imported into a new table: this device scores it
                access.join(db.session.get_one(Group, created[0].group_id), "scorer")
            flash(imported_message(result))
            # not at #import-error, where the form posts (a browser keeps the fragment of
            # the request through a redirect that names none)
            return redirect(url_for("matches.history", _anchor="main"), code=303)
    groups = access.groups()
    page = listing.history_page(groups)
    return render_template("matches/history.html", matches=page.matches, page=page,
                           groups=groups, import_error=error), 422


def imported_message(result: Imported) -> str:
    """How many of the file's matches were new and how many were already here."""
    new = len(result.matches) - result.copies
    text = str(gettext("Imported: %(new)s, %(already)s.",
                   new=ngettext("%(num)d new match", "%(num)d new matches", new),
                   already=ngettext("%(num)d already here (skipped)",
                                    "%(num)d already here (skipped)", result.already)))
    if result.copies:
        text += " " + ngettext(
            "%(num)d match is already here with other hands: it was imported as a copy "
            "beside it (delete the one you do not want).",
            "%(num)d matches are already here with other hands: they were imported as "
            "copies beside them (delete the ones you do not want).", result.copies)
    return text + players_matched(result.players)


def players_matched(found: Matched | None, most: int = 20) -> str:
    """Which names of the file are players of the table already, and which are new."""
    def listed(names: list[str]) -> str:
        more = len(names) - most
        return ", ".join(names[:most]) + (" …" + gettext("(%(n)s more)", n=more) if more > 0
                                          else "")
    if found is None:
        return ""
    text = ""
    if found.existing:
        text += " " + gettext("Players of this table: %(names)s.", names=listed(
            [a if a == b else f"{a} → {b}" for a, b in found.existing]))
    if found.new:
        text += " " + gettext("New players: %(names)s.", names=listed(found.new))
    return text
