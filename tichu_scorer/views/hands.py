"""Hands: entering one hand of a match."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import records
from ..extensions import db
from ..forms import hand_form_class
from ..models import Match

bp = Blueprint("hands", __name__)


@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
def new(match_id: int) -> Response | tuple[str, int]:
    """Calls, out-order, card points and wish penalty on one screen."""
    match = db.get_or_404(Match, match_id)
    form = hand_form_class(len(match.seats))(names=match.names)
    status = 200
    if form.is_submitted():
        status = 422
        if form.validate():
            try:
                hand, problems = records.add_hand(match, form.to_api())
            except records.Conflict:
                problems = []
                hand = None
                form.add_problem("match", records.Problem(
                    "match", "H1", "Another phone saved a hand at the same moment. "
                    "Reload the match to see it, then enter this hand again if needed."))
                status = 409
            if hand is not None:
                flash(f"Hand {hand.number} saved.")
                return redirect(url_for("matches.show", match_id=match.id), code=303)
            form.attach(problems)
    return render_template("hands/new.html", form=form, match=match,
                           teams=records.TEAM_NAMES), status
