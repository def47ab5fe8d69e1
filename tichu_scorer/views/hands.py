"""Hands: entering one hand of a match, with a live preview."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import records
from ..extensions import csrf, db, limit_writes
from ..forms import hand_form_class, ranking_form_class
from ..models import Match
from ..scoring import Problem, seigneur
from .jsonbody import json_body

bp = Blueprint("hands", __name__)


def _form(match: Match) -> Any:
    seats = len(match.seats)
    cls = ranking_form_class(seats) if match.variant == "seigneur" else hand_form_class(seats)
    return cls(names=match.names)


@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@limit_writes
def new(match_id: int) -> Response | tuple[str, int]:
    """Calls, out-order, card points and wish penalty on one screen."""
    match = db.get_or_404(Match, match_id)
    form = _form(match)
    status = 200
    if form.is_submitted():
        status = 422
        if form.validate():
            try:
                hand, problems = records.add_hand(match, form.to_api())
            except records.Conflict:
                hand, problems = None, []
                form.add_problem("match", Problem(
                    "match", "H1", "Another phone saved a hand at the same moment. "
                    "Reload the match to see it, then enter this hand again if needed."))
                status = 409
            if hand is not None:
                flash(f"Hand {hand.number} saved.")
                return redirect(url_for("matches.show", match_id=match.id), code=303)
            form.attach(problems)
    number = match.hand_count + 1
    template = "hands/ranking.html" if match.variant == "seigneur" else "hands/new.html"
    titles = seigneur.titles(len(match.seats)) if match.variant == "seigneur" else ()
    return render_template(template, form=form, match=match, number=number, titles=titles,
                           layout=records.layout_for(match, number),
                           sides=records.sides_of(match),
                           shuffler=records.shuffler_for(match, number),
                           teams=records.TEAM_NAMES), status


@bp.post("/matches/<int:match_id>/hands/preview")
@csrf.exempt
def preview(match_id: int) -> Response | tuple[Response, int]:
    """Score the hand being entered without saving it (the hand page's live preview)."""
    match = db.get_or_404(Match, match_id)
    result, problems, _row = records.score(match, json_body())
    if problems or result is None:
        return jsonify(errors=[p.as_dict() for p in problems]), 422
    return jsonify(scores=result.scores, totals=result.totals, sweep=result.sweep,
                   winner=result.winner, finished=result.finished)
