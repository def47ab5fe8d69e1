"""Hands: entering one hand of a match with a live preview; editing, deleting, restoring."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import access, corrections, records
from ..extensions import csrf, db, limit_writes
from ..forms import hand_form_class, ranking_form_class
from ..models import Hand, Match
from ..scoring import Problem, seigneur
from .jsonbody import json_body

bp = Blueprint("hands", __name__)

def conflict() -> Problem:
    return Problem("match", "H1", gettext("Another phone changed this match at the same moment. "
                                          "Reload to see its change, then enter yours again if "
                                          "needed."))


def _form(match: Match, hand: Hand | None = None) -> Any:
    seats = len(match.seats)
    cls = ranking_form_class(seats) if match.variant == "seigneur" else hand_form_class(seats)
    form = cls(names=match.names)
    if hand is not None and not form.is_submitted():
        form.fill(hand.recorded())
    return form


def _hand(match: Match, number: int) -> Hand:
    hand = next((h for h in match.all_hands if h.number == number), None)
    if hand is None:
        abort(404)
    return hand


def _page(match: Match, form: Any, status: int, hand: Hand | None = None) -> tuple[str, int]:
    shuffler = hand.shuffler if hand is not None else records.next_shuffler(match)
    number = records.position(match, hand) if hand is not None else match.hand_count + 1
    template = "hands/ranking.html" if match.variant == "seigneur" else "hands/new.html"
    titles = seigneur.titles(len(match.seats)) if match.variant == "seigneur" else ()
    return render_template(template, form=form, match=match, number=number, titles=titles,
                           layout=records.layout_for(match, shuffler), editing=hand,
                           sides=records.sides_of(match), shuffler=shuffler,
                           teams=records.TEAM_NAMES), status


@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@limit_writes
def new(match_id: int) -> Response | tuple[str, int]:
    """Calls, out-order, card points and wish penalty on one screen."""
    match = db.get_or_404(Match, match_id)
    access.require_scorer(match)
    form = _form(match)
    if not form.is_submitted():
        return _page(match, form, 200)
    status = 422
    if form.validate():
        try:
            hand, problems = records.add_hand(match, form.to_api(),
                                              request.form.get("client_id") or None)
        except records.Conflict:
            hand, problems, status = None, [conflict()], 409
            form.conflict = True
        if hand is not None:
            # the new hand is the last in play: no need to load every hand to number it
            flash(gettext("Hand %(n)s saved.", n=match.hand_count))
            return redirect(url_for("matches.show", match_id=match.id), code=303)
        form.attach(problems)
    return _page(match, form, status)


@bp.route("/matches/<int:match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@limit_writes
def edit(match_id: int, number: int) -> Response | tuple[str, int]:
    """Change what was recorded for an earlier hand."""
    match = db.get_or_404(Match, match_id)
    access.require_scorer(match)
    hand = _hand(match, number)
    if hand.deleted_at is not None:
        abort(404)
    form = _form(match, hand)
    if not form.is_submitted():
        return _page(match, form, 200, hand)
    status = 422
    if form.validate():
        version = request.form.get("version", type=int)
        try:
            problems = corrections.edit_hand(match, hand, form.to_api(), version)
        except records.Conflict:
            problems, status = [conflict()], 409
            form.conflict = True
        if not problems:
            flash(gettext("Hand %(n)s updated.", n=records.position(match, hand)))
            return redirect(url_for("matches.show", match_id=match.id), code=303)
        form.attach(problems)
    return _page(match, form, status, hand)


@bp.post("/matches/<int:match_id>/hands/<int:number>/delete")
@limit_writes
def delete(match_id: int, number: int) -> Response:
    match = db.get_or_404(Match, match_id)
    access.require_scorer(match)
    hand = _hand(match, number)
    shown = records.position(match, hand)
    corrections.delete_hand(match, hand)
    flash(gettext("Hand %(n)s deleted. It can be restored from the log.", n=shown))
    return redirect(url_for("matches.show", match_id=match.id), code=303)


@bp.post("/matches/<int:match_id>/hands/<int:number>/restore")
@limit_writes
def restore(match_id: int, number: int) -> Response:
    match = db.get_or_404(Match, match_id)
    access.require_scorer(match)
    corrections.restore_hand(match, _hand(match, number))
    flash(gettext("Hand restored."))
    return redirect(url_for("matches.show", match_id=match.id), code=303)


@bp.post("/matches/<int:match_id>/undo")
@limit_writes
def undo(match_id: int) -> Response:
    """Undo the latest hand (it can be restored from the log)."""
    match = db.get_or_404(Match, match_id)
    access.require_scorer(match)
    shown = len(match.hands)
    if corrections.undo_last(match) is not None:
        flash(gettext("Hand %(n)s undone. It can be restored from the log.", n=shown))
    return redirect(url_for("matches.show", match_id=match.id), code=303)


@bp.post("/matches/<int:match_id>/hands/preview")
@csrf.exempt
def preview(match_id: int) -> Response | tuple[Response, int]:
    """Score the hand being entered (or edited: ?edit=number) without saving it."""
    match = db.get_or_404(Match, match_id)
    editing = _hand(match, request.args.get("edit", type=int) or 0) \
        if request.args.get("edit") else None
    result, problems, _row = records.score(match, json_body(), editing)
    if problems or result is None:
        return jsonify(errors=[p.as_dict() for p in problems]), 422
    return jsonify(scores=result.scores, totals=result.totals, sweep=result.sweep,
                   winner=result.winner, finished=result.finished)


@bp.get("/matches/<int:match_id>/log")
def log(match_id: int) -> str:
    """The match's append-only log; deleted hands can be restored from here."""
    match = db.get_or_404(Match, match_id)
    hands = {h.id: h for h in match.all_hands}
    return render_template("hands/log.html", match=match, events=list(reversed(match.events)),
                           hands=hands, can_score=access.can_score(match))
