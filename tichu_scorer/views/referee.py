"""The referee page: compose a disputed play on a card picker, get a verdict citing the rule."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import gettext

from .. import access, engine, records
from ..engine.cards import (
    DECK,
    NORMALS,
    SPECIAL_NAMES,
    SPECIALS,
    SUIT_NAMES,
    SUITS,
    Card,
    rank_text,
    spellings,
)
from ..engine.questions import deck_of
from ..forms import PASS_WORDS, RefereeForm

bp = Blueprint("referee", __name__)


def _face(card: Card) -> dict[str, str]:
    """How the picker shows a card: its notation, label, suit and spoken name."""
    if card.suit:
        return {"card": repr(card), "label": rank_text(card.rank), "suit": card.suit,
                "name": f"{gettext(SUIT_NAMES[card.suit])} {rank_text(card.rank)}"}
    return {"card": repr(card), "label": repr(card), "suit": "",
            "name": gettext(SPECIAL_NAMES[card.rank])}


def _picker(form: RefereeForm) -> dict[str, Any]:
    """What the card picker knows, all from the engine: every card's face, every spelling
    the server reads, the pass words, and the deck of every game and number of decks
    ([D1], [GS2]), keyed "variant-decks" as the form's choices name them."""
    games = [(v.value, d.value) for v in form.variant.choices for d in form.decks.choices]
    return {"cards": {repr(c): _face(c) for c in DECK},
            "spellings": {word: repr(c) for c in DECK for word in spellings(c)},
            "pass": list(PASS_WORDS),
            "decks": {f"{variant}-{decks}": {repr(c): n for c, n in
                                             deck_of(variant, int(decks)).items()}
                      for variant, decks in games}}


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
    rows = [(suit, gettext(SUIT_NAMES[suit]), [_face(c) for c in NORMALS if c.suit == suit])
            for suit in SUITS]
    return render_template("referee/check.html", form=form, verdict=verdict, error=error,
                           match=match, rows=rows, specials=[_face(c) for c in SPECIALS],
                           picker=_picker(form)), status
