"""Matches: the history, starting a match, the match page, rematch."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import records
from ..extensions import db
from ..forms import NewMatchForm
from ..models import Match

bp = Blueprint("matches", __name__)


@bp.get("/")
def history() -> str:
    """Every match, newest first."""
    return render_template("matches/history.html", matches=records.history())


@bp.route("/matches/new", methods=["GET", "POST"])
def new() -> str | Response | tuple[str, int]:
    """Four players into seats and a target."""
    form = NewMatchForm()
    if form.validate_on_submit():
        match = records.create_match(form.names, form.target_value)
        return redirect(url_for("matches.show", match_id=match.id), code=303)
    status = 422 if form.is_submitted() else 200
    return render_template("matches/new.html", form=form,
                           known_names=records.known_names()), status


@bp.get("/matches/<int:match_id>")
def show(match_id: int) -> str:
    """Totals, hands, who shuffles next, the result."""
    match = db.get_or_404(Match, match_id)
    return render_template("matches/show.html", page=records.match_page(match),
                           teams=records.TEAM_NAMES)


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> Response:
    """Same players, same seats, same target."""
    match = db.get_or_404(Match, match_id)
    new_match = records.rematch(match)
    return redirect(url_for("matches.show", match_id=new_match.id), code=303)
