"""The public JSON API (docs/API.md): stateless, so no CSRF token is needed."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import scoring
from ..assets import REVALIDATE
from ..core import answers, follow_api
from ..engine.budget import Budget, OutOfTime
from ..extensions import csrf
from ..limits import limit_draw, limit_referee
from ..tournaments import draw
from ..tournaments import request as draw_request
from .errors import body_limit
from .jsonbody import BadRequest, json_body

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
SPEC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"  # written by hand
# A draw's history of 20 rounds of 256 names is larger than any hand (MAX_CONTENT_LENGTH,
# 64 KiB): the draw alone takes up to DRAW_MAX_BYTES.
DRAW_MAX_BYTES = 512 * 1024


def _unprocessable(problems: list[scoring.Problem]) -> tuple[Response, int]:
    return jsonify(errors=[p.as_dict() for p in problems]), 422


def _house_rules(body: dict[str, Any]) -> scoring.HouseRules:
    """The body's house rules (docs/API.md); a 400 naming the key that is wrong."""
    try:
        return scoring.read_house_rules(body.get("house_rules"))
    except scoring.HouseRulesError as exc:
        raise BadRequest(exc.message, exc.field) from None


@bp.post("/score")
def score() -> Response | tuple[Response, int]:
    """Score one hand without storing it."""
    body = json_body()
    rules = _house_rules(body)
    layout, problems = scoring.read_layout(body)
    if layout is None:
        return _unprocessable(problems)
    hand, problems = scoring.read_hand(body, layout, rules)
    if problems or hand is None:
        return _unprocessable(problems)
    result = scoring.score_hand(hand, layout, rules)
    out: dict[str, Any] = {"team_scores": list(result.team_scores),
                           "card_points": list(result.card_points)}
    out[f"{'triple' if layout.team_size == 3 else 'double'}_victory"] = result.sweep
    out["calls"] = [c.as_dict() for c in result.calls]
    if layout.dummy is not None:
        out["player_scores"] = {str(s): n for s, n in result.player_scores(layout).items()}
    if result.victory_points is not None:  # [R4]
        out["victory_points"] = list(result.victory_points)
    return jsonify(out)


@bp.post("/follow/check")
def follow_check() -> Response | tuple[Response, int]:
    """A hand in play from its events, and one new event checked (RULES.md §11)."""
    try:
        answer, status = follow_api.check(json_body())
    except follow_api.BadBody as exc:
        raise BadRequest(exc.message, exc.field) from None
    return jsonify(answer), status


@bp.post("/referee/check")
@limit_referee
def referee_check() -> Response | tuple[Response, int]:
    """Judge one disputed play."""
    answer, status = answers.judge(json_body(), current_app.config["REFEREE_CPU_BUDGET"])
    if status != 200:
        raise BadRequest(answer["error"], answer["field"])
    return jsonify(answer)


@bp.post("/tournaments/draw")
@body_limit("DRAW_MAX_BYTES", DRAW_MAX_BYTES)
@limit_draw
def tournament_draw() -> Response | tuple[Response, int]:
    """Draw the rounds of an individual tournament without storing them."""
    try:
        wanted, problems = draw_request.read(json_body())
    except draw_request.BadShape as exc:
        raise BadRequest(exc.message, exc.field) from None
    if problems:
        return _unprocessable(problems)
    seed = wanted.seed if wanted.seed is not None else random.SystemRandom().getrandbits(32)
    try:
        made = draw.draw(wanted.players, wanted.rounds, seed, wanted.history,
                         Budget(current_app.config["DRAW_CPU_BUDGET"]).check)
    except OutOfTime as exc:  # a second line of defence: the draw's work is bounded
        current_app.logger.warning("Draw over its %g s CPU budget", exc.seconds)
        response = jsonify(error=gettext("Drawing took too long and stopped. Try again in a "
                                         "moment."), field="server")
        response.headers["Retry-After"] = "5"
        return response, 503
    return jsonify(made.as_dict() | {"seed": seed})


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
