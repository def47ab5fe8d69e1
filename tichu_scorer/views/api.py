"""The public JSON API (API.md): stateless, so no CSRF token is needed."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.wrappers import Response

from .. import engine, scoring
from ..extensions import csrf

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


class BadRequest(Exception):
    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice keeps all its values as a list, so that a seat
    with two calls can be reported instead of silently keeping the last one."""
    obj: dict[str, Any] = {}
    repeated: set[str] = set()
    for key, value in pairs:
        if key not in obj:
            obj[key] = value
            continue
        if key not in repeated:
            obj[key] = [obj[key]]
            repeated.add(key)
        obj[key].append(value)
    return obj


def json_body() -> dict[str, Any]:
    """The request's JSON object, or BadRequest naming what is wrong."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), object_pairs_hook=_pairs)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("The body must be a JSON object (UTF-8).") from None
    if not isinstance(body, dict):
        raise BadRequest("The body must be a JSON object, not a "
                         f"{type(body).__name__}.")
    return body


@bp.errorhandler(BadRequest)
def bad_request(exc: BadRequest) -> tuple[Response, int]:
    return jsonify(error=exc.message, field=exc.field), 400


def _unprocessable(problems: list[scoring.Problem]) -> tuple[Response, int]:
    return jsonify(errors=[p.as_dict() for p in problems]), 422


@bp.post("/score")
def score() -> Response | tuple[Response, int]:
    """Score one hand without storing it."""
    body = json_body()
    variant = body.get("variant", "nanking")
    if variant != "nanking":
        problem = scoring.Problem("variant", "H1",
                                  f"Unknown variant {str(variant)!r:.30}; this server scores "
                                  "'nanking'.")
        return _unprocessable([problem])
    hand, problems = scoring.read_hand(body)
    if problems or hand is None:
        return _unprocessable(problems)
    result = scoring.score_hand(hand)
    return jsonify(team_scores=list(result.team_scores), card_points=list(result.card_points),
                   double_victory=result.sweep,
                   calls=[c.as_dict() for c in result.calls])


@bp.post("/referee/check")
def referee_check() -> Response | tuple[Response, int]:
    """Judge one disputed play."""
    body = json_body()
    try:
        verdict = engine.judge(engine.parse_question(body))
    except engine.QuestionError as exc:
        raise BadRequest(exc.message, exc.field) from None
    return jsonify(verdict.as_dict())
