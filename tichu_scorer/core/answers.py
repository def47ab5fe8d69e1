"""The answers the server and the phone both give from the pure core, in the JSON shapes
of docs/API.md: the preview of a match's next hand and the verdict on a disputed play.

Pure, like `scoring` and `engine` (tests/test_purity.py): the server's views call these,
and the phone runs this same file under Pyodide when it has no signal
(static/js/core-worker.js, docs/OFFLINE_CORE.md). A match is given as its `MatchState`,
which the match page hands the phone serialised (`MatchState.to_dict`, `as_list`).

>>> state = MatchState.from_dict(["nanking", ["Ann", "Bob", "Cy", "Di"], 1000, None, 0,
...                               [0, 0], False])
>>> preview(state, {"out_order": [0, 1, 2, 3], "card_points": [60, None]})[0]["scores"]
[60, 40]
>>> judge({"trick": [], "play": ["2j"]}, None)[0]["legal"]
True
"""

from __future__ import annotations

import gettext
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import engine, scoring
from ..game import variants
from ..game.i18n import _, set_translator, translator
from ..scoring import Layout, Problem
from ..scoring.body import BadBody, too_deep
from ..scoring.body import check as body_check
from ..scoring.games import Game
from ..scoring.rows import stored_values
from ..scoring.state import MatchState
from . import follow_panel


@dataclass(frozen=True)
class Preview:
    """A hand scored before saving: its scores, the totals after it, and the result."""

    scores: list[int]
    totals: list[int]
    sweep: bool
    winner: int | None
    finished: bool
    victory: list[int] = field(default_factory=list)  # [R4]: the victory points after it
    victory_hand: list[int] = field(default_factory=list)  # [R4]: what the hand gave


def field_group(field: str) -> str:
    """The form group of an API field name (`calls.2` -> `call_2`)."""
    if field.startswith("calls."):
        return "call_" + field.split(".", 1)[1]
    if field.startswith("card_points"):
        return "card_points"
    if field.startswith("wish_penalty"):
        return "wish"
    if field == "out_order":
        return "out_order"
    return "match"


def score_next(state: MatchState, data: Mapping[str, Any]) -> tuple[
        Preview | None, list[Problem], dict[str, Any]]:
    """Score the match's next hand from `data` without storing it: the preview, every
    problem, and the row's fields. The server's preview and save and the phone's offline
    scoring all come here; the rules are the core's (`MatchState.with_hands`)."""
    result, problems, after = score_played(state, data)
    if after is None:
        return result, problems, {}
    return result, problems, stored_values(after.hands[-1], state.settings.game)


def score_played(state: MatchState, data: Mapping[str, Any]) -> tuple[
        Preview | None, list[Problem], MatchState | None]:
    """`score_next`, with the state after the hand (None on a problem)."""
    settings = state.settings
    hand_input, problems = settings.game.read(data, settings.names, state.next_seating,
                                              settings.house)
    if state.over:
        problems.insert(0, Problem("match", "E1",
                                   _("This match is over. Start a rematch to play on.")))
    if problems or hand_input is None:
        return None, problems, None
    after = state.with_hands((hand_input,))
    played = after.hands[-1]
    gained = [a - b for a, b in zip(after.victory, state.victory or (0,) * len(after.victory),
                                    strict=True)]
    return Preview(list(played.scores), list(played.running), played.sweep, after.winner,
                   after.over, list(after.victory), gained), [], after


def derived_note(game: Game, layout: Layout, derived: scoring.Derived,
                 body: Any, house: scoring.HouseRules = scoring.RULE_BOOK) -> dict[str, Any]:
    """What the form fills in for the players, with a sweep or a missed wish said in words:
    either puts the card points aside ([P2], [P4]), so the note says so (at what the
    house rules make a sweep worth, [R3])."""
    out = derived.as_dict()
    bonus = house.sweep_points(layout.sweep_bonus)
    if derived.sweep_team is not None:
        who = " & ".join(layout.seat_name(s) for s in layout.members(derived.sweep_team))
        out["note"] = _("%(who)s: %(sweep)s, %(bonus)s to 0; no card points counted.") % {
            "who": who, "sweep": _(game.variant.sweep_title), "bonus": bonus}
    wish = body.get("wish_penalty") if isinstance(body, dict) else None
    offender = wish.get("offender") if isinstance(wish, dict) else None
    if type(offender) is int and 0 <= offender < layout.seats and offender != layout.dummy:
        other = 1 - layout.team_of(offender)
        words = {"who": layout.seat_name(offender), "bonus": bonus,
                 "team": " & ".join(layout.seat_name(s) for s in layout.members(other))}
        a, b = derived.card_points
        if a is not None and b is not None:  # tapped before the wish: say they are put aside
            out["note"] = _("%(who)s missed the wish: %(bonus)s to 0 for %(team)s; the "
                            "card points entered (%(points)s) do not count.") % (
                                words | {"points": f"{a}\u00a0:\u00a0{b}"})
        else:
            out["note"] = _("%(who)s missed the wish: %(bonus)s to 0 for %(team)s; no "
                            "card points counted.") % words
    return out


def preview_answer(preview: Preview | None, problems: Sequence[Problem],
                   derived: dict[str, Any] | None) -> tuple[dict[str, Any], int]:
    """The preview's JSON (docs/API.md) and its status: 200, or 422 with every problem."""
    extra = {"derived": derived} if derived is not None else {}
    if problems or preview is None:
        return {"errors": [p.as_dict() | {"group": field_group(p.field)} for p in problems],
                **extra}, 422
    body = {"scores": preview.scores, "totals": preview.totals, "sweep": preview.sweep,
            "winner": preview.winner, "finished": preview.finished, **extra}
    if preview.victory:  # [R4]: what the hand gives, and the victory points after it
        body |= {"victory": preview.victory, "victory_hand": preview.victory_hand}
    return body, 200


def derive_next(state: MatchState, body: Any) -> dict[str, Any] | None:
    """What follows from the next hand entered so far ([H7], [P1], [P2]), said in words;
    None for a game that derives nothing (the game's `derive`)."""
    settings = state.settings
    game, shuffler = settings.game, state.next_seating
    hand_input, _problems = game.read(body, settings.names, shuffler, settings.house)
    derived = game.derive(hand_input, shuffler) if hand_input is not None else None
    layout = game.layout(shuffler)
    if derived is None or layout is None:
        return None
    return derived_note(game, layout.named(settings.names), derived, body,
                        settings.house)


def preview(state: MatchState, body: Any) -> tuple[dict[str, Any], int]:
    """The preview of the match's next hand, as POST …/hands/preview answers it."""
    result, problems, _row = score_next(state, body)
    return preview_answer(result, problems, derive_next(state, body))


PASS_WORDS = ("pass", "Pass", "PASS", "-")


def question(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The referee page's fields (text as typed; a ticked box any true value) as a
    question in the docs/API.md shape; the play joins the rest of the hand."""
    def cards(text: str | None) -> list[str]:
        return [t for t in (text or "").replace(",", " ").split() if t]

    trick = []
    for line in (fields.get("trick") or "").splitlines():
        if not line.strip():
            continue
        words = cards(line)
        trick.append({"cards": [] if len(words) == 1 and words[0] in PASS_WORDS else words})
    play = cards(fields.get("play"))
    rest = cards(fields.get("hand"))
    variant = fields.get("variant")
    body: dict[str, Any] = {"trick": trick, "play": play, "variant": variant,
                            "wish": fields.get("wish") or None,
                            "out_of_turn": bool(fields.get("out_of_turn")),
                            "strict_wish": bool(fields.get("strict_wish"))}
    if rest:
        body["hand"] = play + rest
    if (game := variants.find(variant)) is not None and game.big_deck:
        body["decks"] = int(fields.get("decks") or 2) if str(fields.get("decks") or "2") \
            in ("1", "2") else 2
    if fields.get("dummy"):
        body["variant"], body["dummy"] = variants.THREECHU.key, True
    if fields.get("dragon_kept"):  # [R5], as the match's house rules say
        body["house_rules"] = {"dragon_kept_when_out": True}
    return body


def judge(body: object, seconds: float | None,
          clock: Any = engine.budget.THREAD_TIME) -> tuple[dict[str, Any], int]:
    """The verdict on a question (docs/API.md), as POST /api/referee/check answers it:
    400 with the message and the field for a question that cannot be judged. OutOfTime
    (past `seconds` of CPU) is the caller's to answer."""
    if isinstance(body, dict):  # types docs/API.md gives that the engine would read leniently
        trick = body.get("trick")
        if trick is not None and not isinstance(trick, list):  # false, 0, "" or {}: no table
            return {"error": _('trick must be a list of {{"cards": [...]}} items.').format(),
                    "field": "trick"}, 400
        if isinstance(body.get("decks"), bool):  # true would read as 1
            return {"error": _("decks must be 1 or 2."), "field": "decks"}, 400
    try:
        verdict = engine.judge(engine.parse_question(body), engine.Budget(seconds, clock))
    except engine.QuestionError as exc:
        return {"error": exc.message, "field": exc.field}, 400
    return verdict.as_dict(), 200


# The phone's side: static/js/core-worker.js passes each request in as JSON text and
# takes the answer back as JSON text, so that no object crosses between the two languages.
_languages: dict[str, Any] = {}
LANG = re.compile(r'"lang"\s*:\s*"([A-Za-z_-]{2,10})"')


def _use_language(lang: str, locales: str) -> None:
    """Messages in the reader's language, from the same compiled catalog as the server's
    (Flask-Babel reads it with the same `gettext`); English as written."""
    if lang not in _languages:
        found = gettext.translation("messages", locales, [lang], fallback=True)
        _languages[lang] = (str, None) if lang == "en" else (found.gettext, found.ngettext)
    set_translator(*_languages[lang])


def _answer(request: Mapping[str, Any], seconds: float | None, locales: str) -> Any:
    if "lang" in request:  # each request of a batch may name its own
        _use_language(str(request["lang"] or "en"), locales)
    op = request.get("op")
    if op in ("preview", "judge"):  # the server's body checks first, with its answer
        try:
            body_check(request.get("body"))
        except BadBody as exc:
            return exc.answer()
    from .waiting import waiting  # imported with this module by the worker, before its
    # snapshot (core-worker.js); it imports this module
    if op == "preview":  # after the hands waiting on the phone, if any
        state = MatchState.from_dict(request["facts"])
        if request.get("waiting"):
            state = MatchState.from_dict(waiting(state, request["waiting"])["facts"])
        return preview(state, request.get("body"))
    if op == "waiting":
        return waiting(MatchState.from_dict(request["facts"]), request.get("bodies", []),
                       request.get("chart"), request.get("rankings"), request.get("page"))
    if op == "judge":
        return judge(request.get("body"), seconds, time.perf_counter)
    if op == "judge_fields":  # the referee page's fields, as its form reads them
        return judge(question(request.get("fields") or {}), seconds, time.perf_counter)
    if op == "follow":  # the hand in play with the taps waiting on the phone
        return follow_panel.waiting(request["facts"], request.get("taps", []))
    if op == "batch":
        return [_answer(item, seconds, locales) for item in request.get("items", [])]
    raise ValueError(f"unknown request {op!r}")


def phone(text: str, locales: str, seconds: float | None) -> str:
    """Answer one request of the phone's worker (JSON text in, JSON text out): `preview`,
    `waiting`, `judge`, or a `batch` of them, in the language `lang`. The referee's
    allowance counts wall time there (a phone's one thread does nothing else meanwhile)."""
    before = translator()  # given back after: the server's tests call this in-process
    _use_language("en", locales)
    try:
        try:
            request = json.loads(text)
        except RecursionError:  # a body nested past Python's own limit: as the server says,
            # in the language the request names before its body
            asked = LANG.search(text[:200])
            _use_language(asked.group(1) if asked else "en", locales)
            return json.dumps({"ok": too_deep().answer()})
        return json.dumps({"ok": _answer(request, seconds, locales)})
    except engine.OutOfTime:
        return json.dumps({"ok": None, "out_of_time": True})
    finally:
        set_translator(*before)
