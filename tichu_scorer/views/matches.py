"""Matches: the history, starting a match, the match page, rematch."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import insights, records
from ..extensions import db, limit_writes
from ..forms import NewMatchForm
from ..models import Match
from ..scoring import PLAYERS, VARIANTS

bp = Blueprint("matches", __name__)


@bp.get("/")
def history() -> str:
    """Every match, newest first."""
    return render_template("matches/history.html", matches=records.history(),
                           labels=records.VARIANT_LABELS)


@bp.route("/matches/new", methods=["GET", "POST"])
@limit_writes
def new() -> str | Response | tuple[str, int]:
    """Players into seats, and how long the match lasts."""
    form = NewMatchForm()
    if request.method == "GET" and request.args.get("variant") in VARIANTS:
        form.variant.data = request.args["variant"]
    if form.validate_on_submit():
        match = records.create_match(form.names, form.target_value, form.variant.data,
                                     form.hand_limit)
        return redirect(url_for("matches.show", match_id=match.id), code=303)
    status = 422 if form.is_submitted() else 200
    variant = form.variant.data if form.variant.data in VARIANTS else "nanking"
    return render_template("matches/new.html", form=form, variant=variant,
                           players=PLAYERS[variant], labels=records.VARIANT_LABELS,
                           known_names=records.known_names()), status


@bp.get("/matches/<int:match_id>")
def show(match_id: int) -> str:
    """Totals, hands, who shuffles next, the result."""
    match = db.get_or_404(Match, match_id)
    template = "matches/seigneur.html" if match.variant == "seigneur" else "matches/show.html"
    page = records.match_page(match)
    chart = insights.match_chart(page) if match.variant != "seigneur" else None
    return render_template(template, page=page, chart=chart, sides=page.sides,
                           teams=records.TEAM_NAMES, labels=records.VARIANT_LABELS)


@bp.post("/matches/<int:match_id>/rematch")
@limit_writes
def rematch(match_id: int) -> Response:
    """Same players, same seats, same length."""
    match = db.get_or_404(Match, match_id)
    new_match = records.rematch(match)
    return redirect(url_for("matches.show", match_id=new_match.id), code=303)


@bp.get("/healthz")
def health() -> tuple[dict[str, str], int]:
    """For load balancers and monitors: the app answers and the database responds."""
    try:
        db.session.execute(db.text("SELECT 1"))
    except Exception:  # any database failure means unhealthy
        current_app.logger.exception("Health check: the database did not answer")
        return {"status": "error", "database": "unreachable"}, 503
    return {"status": "ok", "database": "ok"}, 200
