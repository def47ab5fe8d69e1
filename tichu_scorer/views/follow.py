"""The hand in play (RULES.md §11): a scorer's taps, and the hand as followed so far for
every phone and the board. The rules are `core.follow`'s; the writes `matches.following`'s."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Blueprint, abort, flash, g, jsonify, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..core import follow, follow_panel
from ..extensions import db
from ..limits import limit_reads, limit_writes
from ..live import poll
from ..matches import following, writes
from ..models import CLIENT_ID, Hand, Match
from ..tables import access, phones
from .errors import form_value, wants_json
from .jsonbody import BadRequest, json_body
from .matches import visible

bp = Blueprint("follow", __name__)


class _Shown(NamedTuple):
    """What an answer names of the match, read before a commit expires it."""

    key: str
    names: tuple[str, ...]
    hands: int
    revision: int

    @classmethod
    def of(cls, match: Match) -> _Shown:
        return cls(match.key, match.names, match.hand_count or 0, match.revision or 0)


def _answer(shown: _Shown, followed: following.Followed, scorer: bool) -> dict[str, Any]:
    panel = follow_panel.panel(followed.table, followed.state, shown.names, scorer,
                               shown.hands + 1,
                               url_for("hands.new", match_id=shown.key) if scorer else None)
    return {"follow": follow.as_dict(followed.table, followed.state),
            "seen": len(followed.events), "hand": shown.hands + 1,
            "tag": poll.match_tag(shown.revision, shown.hands), "panel": str(panel)}


def _fields() -> dict[str, Any]:
    """The event a request names: a JSON body, or a form's button (`event`:
    "kind:seat:rank") and fields."""
    if request.is_json:
        return json_body()
    fields: dict[str, Any] = {k: request.form.get(k) for k in (
        "kind", "seat", "rank", "client_id", "seen")}
    if tapped := form_value("event"):
        kind, _, rest = tapped.partition(":")
        seat, _, rank = rest.partition(":")
        fields |= {"kind": kind, "seat": seat or None, "rank": rank or None}
    return fields


def _client_id(raw: object) -> str | None:
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not CLIENT_ID.fullmatch(raw):
        raise BadRequest(gettext("The field “client_id” must be 1–64 letters, digits, - or _; "
                                 "nothing was saved."), "client_id")
    return raw


def _seen(raw: object) -> int | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 6:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 10**6:
        return raw
    raise BadRequest(gettext("The field “seen” must be a whole number; nothing was saved."),
                     "seen")


def in_play_of(match: Match) -> following.Followed:
    """The match's hand in play, read once per request (the hand form and its page ask)."""
    found: following.Followed | None = g.get("in_play")
    if found is None:
        found = g.in_play = following.in_play(match)
    return found


def told_of(match: Match, hand: Hand | None) -> list[following.Told]:
    """The events of a saved hand, or of the hand in play, as sentences (its page)."""
    if hand is None and match.finished:
        return []
    return following.told(match, hand, in_play_of(match) if hand is None else None)


@bp.post("/matches/<match_id>/follow")
@limit_writes
def post(match_id: str) -> Response | tuple[Response, int]:
    """One tap of a followed hand, taken once (its client id; the same tap of two phones at
    once), checked against RULES.md §11 and refused with the rule's id."""
    match = access.require_view(writes.lock_match(match_id))
    access.require_scorer(match)
    fields = _fields()
    client_id, seen = _client_id(fields.get("client_id")), _seen(fields.get("seen"))
    try:
        event = follow.Event.read(fields, len(match.seats))
    except follow.BadEvent as exc:
        raise BadRequest(exc.message, exc.field) from None
    shown = _Shown.of(match)
    try:
        posted = following.post(match, event, client_id, seen, phones.name(),
                                access.device())
    except writes.Conflict:
        db.session.rollback()
        raise BadRequest(gettext("This event carries the id of another match's event; "
                                 "nothing was saved."), "client_id") from None
    problem = posted.problem
    if wants_json() or request.is_json:  # a script's tap: the hand, not a page
        answer = _answer(shown._replace(revision=posted.revision), posted.followed, True) | {
            "stored": posted.stored}
        db.session.rollback()
        if problem is not None:
            return jsonify(answer | {"errors": [problem.as_dict()]}), 422
        return jsonify(answer)
    db.session.rollback()
    if problem is not None:
        flash(f"{problem.message} ({problem.rule})", "error")
    return redirect(url_for("matches.show", match_id=shown.key, _anchor="follow"), code=303)


@bp.get("/matches/<match_id>/follow.json")
@limit_reads
def show(match_id: str) -> Response:
    """The hand in play as followed so far (every phone that may see the match)."""
    writes.reading()
    match = visible(match_id)
    if match.finished:
        abort(404)
    return jsonify(_answer(_Shown.of(match), following.in_play(match), access.can_score(match)))
