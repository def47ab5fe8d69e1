"""The referee page: compose a disputed play on a card picker, get a verdict citing the rule."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import gettext

from .. import engine
from ..core.answers import PASS_WORDS
from ..engine.cards import (
    DECK,
    NORMALS,
    SPECIALS,
    SUIT_NAMES,
    SUITS,
    Card,
    parse_card,
    rank_text,
    spellings,
)
from ..engine.names import card_name
from ..engine.questions import deck_of
from ..forms import RefereeForm
from ..limits import limit_referee
from ..matches import following, writes
from ..models import Match
from ..tables import access
from .judging import judge

bp = Blueprint("referee", __name__)
TARGETS = ("trick", "play", "hand")  # where the picker puts a tapped card
SPLIT = 8  # the picker's first block holds the ranks 2 to 8, the second 9 to A and a special
RUN = re.compile(r"\b(?:\d+|[JQKA])–(?:\d+|[JQKA])\b")  # "4–8" in "straight 4–8"


@bp.app_template_filter("runs")
def runs(text: str) -> list[tuple[str, bool]]:
    """A sentence in pieces, each run of ranks ("4–8") a piece of its own marked True, so
    that the template keeps it on one line (and escapes every piece)."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for found in RUN.finditer(text):
        pieces += [(text[at:found.start()], False), (found.group(0), True)]
        at = found.end()
    return pieces + [(text[at:], False)]


def _face(card: Card) -> dict[str, Any]:
    """How the picker shows a card: its notation, label (the rank, or a special card's
    name), suit, name and rank (0 for the special cards, which no run passes through)."""
    if card.suit:
        return {"card": repr(card), "label": rank_text(card.rank), "suit": card.suit,
                "name": card_name(card), "rank": card.rank}
    name = card_name(card)  # a special card's key reads its name, in the reader's language
    return {"card": repr(card), "label": name, "suit": "", "name": name, "rank": 0}


def _picker(form: RefereeForm) -> dict[str, Any]:
    """What the card picker knows, all from the engine: every card's face, every spelling
    the server reads, the pass words, the suits in order, and the deck of every game and
    number of decks ([D1], [GS2]), keyed "variant-decks" as the form's choices name them."""
    games = [(v.value, d.value) for v in form.variant.choices for d in form.decks.choices]
    return {"cards": {repr(c): _face(c) for c in DECK},
            "spellings": {word: repr(c) for c in DECK for word in spellings(c)},
            "pass": list(PASS_WORDS), "suits": list(SUITS),
            "decks": {f"{variant}-{decks}": {repr(c): n for c, n in
                                             deck_of(variant, int(decks)).items()}
                      for variant, decks in games}}


def _words(text: str | None) -> list[str]:
    """A field's words, split as the form splits them (commas or white space)."""
    return (text or "").replace(",", " ").split()


def _chip(word: str) -> dict[str, Any]:
    """A typed word as the picker shows it: the card's face, or the word as typed."""
    try:
        return _face(parse_card(word))
    except engine.NotationError:
        return {"card": word, "unknown": True}


def _slots(form: RefereeForm) -> dict[str, Any]:
    """The question as the picker shows it at first paint: the table's plays (None for a
    pass), the disputed play and the rest of the hand as chips."""
    trick = []
    for line in (form.trick.data or "").splitlines():
        words = _words(line)
        if words:
            trick.append(None if len(words) == 1 and words[0] in PASS_WORDS
                         else [_chip(w) for w in words])
    return {"trick": trick, "play": [_chip(w) for w in _words(form.play.data)],
            "hand": [_chip(w) for w in _words(form.hand.data)]}


def _pressed(slots: dict[str, Any]) -> dict[str, tuple[str, int]]:
    """Each card in the question: the slot that holds it (the last of table, play, hand)
    and how many copies are given, for the picker's keys."""
    where: dict[str, str] = {}
    copies: Counter[str] = Counter()
    groups = [("trick", play) for play in slots["trick"] if play] + [
        ("play", slots["play"]), ("hand", slots["hand"])]
    for slot, chips in groups:
        for chip in chips:
            where[chip["card"]] = slot
            copies[chip["card"]] += 1
    return {card: (slot, copies[card]) for card, slot in where.items()}


def _target(slots: dict[str, Any]) -> str:
    """The slot the picker fills first: the one asked for, else the table on an empty
    question, else the play."""
    asked = request.args.get("_target", "")
    if asked in TARGETS:
        return asked
    return "play" if slots["trick"] or slots["play"] else "trick"


def _keys() -> list[tuple[str, list[Card]]]:
    """The picker's rows: each suit's 2–8, then each suit's 9–A with one special card, so
    that a rank keeps its column and a run is one sweep along a row."""
    low = [(suit, [c for c in NORMALS if c.suit == suit and c.rank <= SPLIT]) for suit in SUITS]
    high = [(suit, [c for c in NORMALS if c.suit == suit and c.rank > SPLIT] + [special])
            for suit, special in zip(SUITS, SPECIALS, strict=True)]
    return low + high


def _deck(form: RefereeForm) -> set[str]:
    """The cards of the game chosen on the form (Tichu when the choice is not one)."""
    games = [choice.value for choice in form.variant.choices]
    variant = form.variant.data if form.variant.data in games else games[0]
    return {repr(c) for c in deck_of(variant, 1 if form.decks.data == "1" else 2)}


def _answer(form: RefereeForm, asked: bool) -> tuple[Any, Any, int]:
    """The verdict on the form's question, or why it cannot be judged, and the status."""
    if not request.args:
        return None, None, 200
    if not form.validate():
        return None, None, 400
    if not asked:
        return None, None, 200
    try:
        return judge(form.question_body()), None, 200
    except engine.QuestionError as exc:
        return None, exc, 400


def _verdict_context(form: RefereeForm, asked: bool) -> tuple[dict[str, Any], int]:
    verdict, error, status = _answer(form, asked)
    slots = _slots(form)
    fulfil = [_face(c) for c in verdict.fulfilling_play] if verdict and \
        verdict.fulfilling_play else []
    return {"form": form, "verdict": verdict, "error": error, "fulfil": fulfil,
            "slots": slots}, status


@bp.app_template_global()
def dragon_gift_words() -> dict[str, str]:
    """What a verdict says of the trick a lawful Dragon wins ([S6], [R5]): the page's and,
    offline, referee.js's words."""
    return {"kept": gettext("Going out with the Dragon, the player keeps its trick (R5)."),
            "given": gettext("The Dragon’s trick goes to an opponent (S6)."),
            "either": gettext("If the Dragon is the last card, its trick is kept (R5); "
                              "otherwise it goes to an opponent (S6).")}


def _in_play(match: Match | None, form: RefereeForm) -> list[str]:
    """A followed hand of the match the referee was opened from (RULES.md §11): its open
    wish fills the form's (unless the link named one), and its calls are said on the page."""
    if match is None or match.finished:
        return []
    followed = following.in_play(match)
    state = followed.state
    if not state.followed:
        return []
    if state.wish_open and "wish" not in request.args:
        form.wish.data = state.wish
    said = [gettext("%(name)s: %(call)s", name=match.names[seat],
                    call=gettext("Grand Tichu") if call == "grand" else gettext("Tichu"))
            for seat, call in state.calls]
    if state.wish_open:
        said.append(gettext("The wish for a %(rank)s is open.", rank=state.wish))
    return said


@bp.get("/referee")
@limit_referee
def check() -> tuple[str, int]:
    """Judge the play given in the query string, if any."""
    form = RefereeForm(request.args)
    match = writes.match_by_key(form.match.data) if form.match.data else None
    if match is not None and not access.can_view(match):
        match = None
    in_play = _in_play(match, form)
    context, status = _verdict_context(
        form, asked="play" in request.args or "trick" in request.args)
    return render_template("referee/check.html", match=match, keys=_keys(), deck=_deck(form),
                           in_play=in_play,
                           suit_names={s: gettext(SUIT_NAMES[s]) for s in SUITS},
                           target=_target(context["slots"]),
                           pressed=_pressed(context["slots"]), picker=_picker(form),
                           **context), status


@bp.get("/referee/verdict")
@limit_referee
def verdict() -> tuple[str, int, dict[str, str]]:
    """The verdict alone, for the page to show as cards are tapped: judged once the play
    or the rest of the hand holds a card, else what to tap next."""
    form = RefereeForm(request.args)
    asked = bool(_words(request.args.get("play")) or _words(request.args.get("hand")))
    context, status = _verdict_context(form, asked)
    # marks the answer as this view's, so that the page never draws an error page as one
    return render_template("referee/verdict.html", **context), status, {"X-Referee-Verdict": "1"}
