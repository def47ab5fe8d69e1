"""The public JSON API (docs/API.md): stateless, so no CSRF token is needed."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import engine, scoring
from ..assets import REVALIDATE
from ..extensions import csrf, limit_referee
from ..game import variants
from .jsonbody import BadRequest, json_body
from .judging import judge

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
SPEC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"  # written by hand


def _unprocessable(problems: list[scoring.Problem]) -> tuple[Response, int]:
    return jsonify(errors=[p.as_dict() for p in problems]), 422


SCORED = [v for v in scoring.VARIANTS.values() if v.scored]


def _score_layout(body: dict[str, Any]) -> tuple[scoring.Layout | None, list[scoring.Problem]]:
    """The seating the body describes: its variant, and for Threechu the dummy's seat."""
    name = body.get("variant")
    game = variants.DEFAULT if name is None else scoring.find(name)
    if game is None or not game.scored:
        known = ", ".join(f"'{v.key}'" for v in SCORED)
        return None, [scoring.Problem("variant", "H1", gettext(
            "Unknown variant %(given)s: use one of %(known)s.",
            given=repr(str(name))[:30], known=known))]
    if game.dummy_seat is None:
        return game.layout(), []
    dummy = body.get("dummy")
    seats = game.seat_count(game.fewest)
    if isinstance(dummy, int) and not isinstance(dummy, bool) and 0 <= dummy < seats:
        return scoring.threechu(dummy), []
    return None, [scoring.Problem("dummy", "T3.1", gettext(
        'Threechu needs the dummy\'s seat (0–%(last)s): {"dummy": seat}.', last=seats - 1))]


@bp.post("/score")
def score() -> Response | tuple[Response, int]:
    """Score one hand without storing it."""
    body = json_body()
    layout, problems = _score_layout(body)
    if layout is None:
        return _unprocessable(problems)
    hand, problems = scoring.read_hand(body, layout)
    if problems or hand is None:
        return _unprocessable(problems)
    result = scoring.score_hand(hand, layout)
    out: dict[str, Any] = {"team_scores": list(result.team_scores),
                           "card_points": list(result.card_points)}
    out[f"{'triple' if layout.team_size == 3 else 'double'}_victory"] = result.sweep
    out["calls"] = [c.as_dict() for c in result.calls]
    if layout.dummy is not None:
        out["player_scores"] = {str(s): n for s, n in result.player_scores(layout).items()}
    return jsonify(out)


def _as_typed(body: dict[str, Any]) -> None:
    """BadRequest for the values the engine would read leniently where docs/API.md (and
    docs/openapi.json) give a type: a `trick` that is no list (false, 0, "" or {} would
    read as an empty table) and a `decks` of true (read as 1)."""
    trick = body.get("trick")
    if trick is not None and not isinstance(trick, list):
        raise BadRequest(gettext('trick must be a list of {{"cards": [...]}} items.').format(),
                         "trick")
    if isinstance(body.get("decks"), bool):
        raise BadRequest(gettext("decks must be 1 or 2."), "decks")


@bp.post("/referee/check")
@limit_referee
def referee_check() -> Response | tuple[Response, int]:
    """Judge one disputed play."""
    body = json_body()
    _as_typed(body)
    try:
        verdict = judge(body)
    except engine.QuestionError as exc:
        raise BadRequest(exc.message, exc.field) from None
    return jsonify(verdict.as_dict())


@cache
def _spec() -> bytes:
    return SPEC.read_bytes()


@bp.get("/openapi.json")
def openapi() -> Response:
    """The API's OpenAPI document, as kept in the repository; revalidated by its ETag."""
    response = Response(_spec(), mimetype="application/json")
    response.headers["Cache-Control"] = REVALIDATE
    response.add_etag()
    return response.make_conditional(request)
