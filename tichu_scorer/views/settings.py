"""A match after its start: change its target, its players' names and its house rules, or
delete it."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..forms import MatchSettingsForm
from ..limits import limit_writes
from ..matches import corrections, creation, ending, settings, writes
from ..models import Match
from ..scoring import Problem
from ..tables import access
from ..tournaments import director

bp = Blueprint("settings", __name__)


def _form(match: Match) -> MatchSettingsForm:
    players = match.player_names
    form = MatchSettingsForm(seats=len(players))
    if request.method == "GET":
        form.target.data = match.target
        for field, name in zip(form.seat_fields(), players, strict=True):
            field.data = name
        form.show_rules(match.house, match.lead_by)
    return form


@bp.route("/matches/<match_id>/settings", methods=["GET", "POST"])
@limit_writes
def edit(match_id: str) -> Response | tuple[str, int]:
    """The target and the names; the result follows from the hands under the new target."""
    if request.method == "GET":
        match = access.require_view(writes.match_by_key(match_id))
    else:  # it may seat other players: held as a rename of one holds them (the table first)
        match = access.require_view(writes.lock_table_and_match(match_id))
    access.require_scorer(match)
    _tournament_table(match)
    form = _form(match)
    if request.method == "POST" and form.check(match.game.variant, match.hand_limit):
        target = form.target.data if match.hand_limit is None else None
        # the house rules, when the page showed them (a game with points)
        house = form.own_rules() if request.form.get("house_shown") else None
        try:
            changed = corrections.change_settings(match, target, form.names, house,
                                                  form.lead_by.data or None)
        except ending.AfterTheEnd as exc:  # a target (or a lead) the match reached hands ago
            lead = exc.problem.rule == "R6"
            form.add_problem("house" if lead else "target", Problem(
                "lead_by" if lead else "target", exc.problem.rule, exc.problem.message))
        except settings.HandsBreakRules as exc:  # [R2], [R8]: hands already recorded
            form.add_problem("house", exc.problem)
        else:
            flash(gettext("Match settings saved.") if changed else gettext("Nothing changed."))
            return redirect(url_for("matches.show", match_id=match.key), code=303)
    status = 422 if request.method == "POST" else 200
    return render_template("matches/settings.html", match=match, form=form), status


def _tournament_table(match: Match) -> None:
    """A tournament's table keeps the tournament's settings ([TN4]): 422 with the reason."""
    try:
        director.keep_rules(match)
    except director.Refused as exc:
        abort(422, f"{exc.message} ({exc.rule})")


@bp.post("/matches/<match_id>/delete")
@limit_writes
def delete(match_id: str) -> Response | tuple[str, int]:
    """Delete a match, only with the box ticked that says so."""
    match = access.require_view(writes.lock_match(match_id))
    access.require_scorer(match)
    _tournament_table(match)
    form = _form(match)
    if not form.validate():  # a field sent twice, or malformed
        form.shape_problems({"confirm": ("delete", "E1"), "csrf_token": ("delete", "E1")})
        return render_template("matches/settings.html", match=match, form=form), 422
    if not form.confirm.data:
        form.add_problem("delete", Problem("confirm", "E1", gettext(
            "Tick the box to confirm: a deleted match cannot be restored.")))
        return render_template("matches/settings.html", match=match, form=form), 422
    creation.delete_match(match)
    flash(gettext("The match was deleted."))
    return redirect(url_for("matches.history"), code=303)
