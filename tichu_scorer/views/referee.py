"""The referee page: compose a disputed play on a card picker, get a verdict citing the rule."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from .. import access, engine, records
from ..forms import RefereeForm
from ..scoring.i18n import N_

bp = Blueprint("referee", __name__)

SUIT_ROWS = [("j", N_("Jade")), ("s", N_("Sword")), ("p", N_("Pagoda")), ("t", N_("Star"))]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SPECIALS = [("MJ", N_("Mah Jong")), ("DOG", N_("Dog")), ("PH", N_("Phoenix")),
            ("DR", N_("Dragon"))]


@bp.get("/referee")
def check() -> tuple[str, int]:
    """Judge the play given in the query string, if any."""
    form = RefereeForm(request.args)
    verdict = error = None
    status = 200
    asked = "play" in request.args or "trick" in request.args
    if asked:
        if form.validate():
            try:
                verdict = engine.judge(engine.parse_question(form.question_body()))
            except engine.QuestionError as exc:
                error = exc
                status = 400
        else:
            status = 400
    match = records.match_by_key(form.match.data) if form.match.data else None
    if match is not None and not access.can_view(match):
        match = None
    return render_template("referee/check.html", form=form, verdict=verdict, error=error,
                           match=match, suits=SUIT_ROWS, ranks=RANKS,
                           specials=SPECIALS), status
