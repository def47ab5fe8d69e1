"""The match page with hands waiting on the phone to be sent: scored in turn as the server
will score them when they arrive, and the page's regions drawn as the server will draw
them then (`regions`, `hand_rows`: the same functions), for the phone's page to swap in
(static/js/core-client.js). Pure (tests/test_purity.py); `answers.phone`'s `waiting` op.

>>> from tichu_scorer.scoring.state import MatchState
>>> start = MatchState.from_dict(["nanking", ["Ann", "Bob", "Cy", "Di"], 1000, None, 0,
...                               [0, 0], False])
>>> state = waiting(start, [{"out_order": [0, 2]}], page={})
>>> state["facts"]["totals"], state["shuffler_name"], ">200</strong>" in state["regions"]["totals"]
((200, 0), 'Ann', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from markupsafe import Markup, escape

from .. import scoring
from ..game.i18n import _, ngettext
from ..scoring.rows import extras_of
from ..scoring.state import MatchState, PlayedHand
from . import progression, regions
from .answers import preview_answer, score_played
from .hand_rows import RowWords, hand_rows, waiting_row


class _Row:
    """A waiting hand's row, as `hand_rows` draws a stored one (no edit link)."""

    def __init__(self, played: PlayedHand, notes: Any) -> None:
        self.position = self.number = played.number
        self.deltas, self.running, self.notes = played.scores, played.running, notes


def waiting(state: MatchState, bodies: Sequence[Any],
            chart: Mapping[str, Any] | None = None,
            rankings: Sequence[Sequence[int]] | None = None,
            page: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The match as it stands with hands waiting on the phone: each hand's answer
    (`preview`; None for a hand the phone kept no body of), the match's state after them
    (serialised: `MatchState.to_dict`), who shuffles next, and the page's regions
    (`regions`, by their `data-region` names) with the note that says what is provisional.
    A hand the server would refuse is left out of the totals (it comes back refused, and is
    stored only once fixed); a hand without a body still takes its number. `chart`: the
    stored hands' running totals and calls (the server's chart.json); `rankings`: Grand
    Seigneur's stored finishing orders; `page`: the page's hand form, rules and (a
    tournament table's) tournament addresses, its decimal sign, and each waiting hand's
    bombs and note (`extras`); without it (the hand form's preview), no region."""
    draw = page is not None
    page = page or {}
    extras = list(page.get("extras") or [])
    settings = state.settings
    variant, names = settings.variant, settings.names
    words = RowWords(variant.sweep_title)
    hands: list[dict[str, Any] | None] = []
    rows: list[Markup] = []
    orders = [tuple(r) for r in rankings or ()]
    drawn = _chart_hands(chart)
    for k, body in enumerate(bodies):
        position = state.played + 1
        after = None
        if body is not None:
            result, problems, after = score_played(state, body)
            answer, status = preview_answer(result, problems, None)
            hands.append(answer | {"status": status})
        else:
            hands.append(None)
        if after is None:
            rows.append(waiting_row(position, words.waiting, ()))
            if body is None:  # it takes its number; a refused one comes back refused
                state = replace(state, before=state.before + 1)
            continue
        state, played = after, after.hands[-1]
        orders.append(played.order)
        if not draw:
            continue
        if variant.ranked:
            rows.append(waiting_row(position, words.waiting, [names[s] for s in played.order]))
            continue
        extra = extras_of(extras[k] if k < len(extras) else None)
        row = _Row(played, words.notes(names, played, played.shuffler, extra["bombs"],
                                       extra["note"]))
        rows.append(hand_rows([row], None, not variant.teams, waiting=words.waiting))
        if drawn is not None:
            drawn[0].append(list(played.running))
            drawn[1].append(({str(seat): call.value for seat, call in
                              sorted(played.hand.calls.items())}, list(played.order)))
    shuffler = state.next_shuffler
    counted = sum(1 for h in hands if h is not None and h["status"] == 200)
    answer = {"hands": hands, "facts": state.to_dict(), "shuffler": shuffler,
              "shuffler_name": names[shuffler] if shuffler is not None else None}
    if not bodies or not draw:
        return answer | {"regions": {}, "note": ""}
    found = {"waiting": Markup("").join(reversed(rows))}
    hand_url, rules_url = page.get("hand_url"), str(page.get("rules_url") or "/rules")
    if variant.ranked:
        board = regions.Board(settings.game, names, (), state.played)
        found |= {"played": escape(regions.played(state.played)),
                  "seating": regions.seating(names, orders[-1] if orders else None,
                                             state.played, True),
                  "records": regions.records(names, orders, True,
                                             str(page.get("decimal") or ".")),
                  "outcome": regions.outcome(board, hand_url, rules_url, Markup(""))}
    else:
        board = _board(state)
        tournament = page.get("tournament_url")  # a table's end: what the server draws
        action = (regions.back_to_tournament(str(tournament)) if tournament else
                  Markup('<p class="hint">%s</p>') % _("Rematch once the signal is back."))
        found |= {"totals": regions.totals(board, provisional=True),
                  "meta": regions.meta(board, shuffler),
                  "outcome": regions.outcome(board, hand_url, rules_url, action)}
        if drawn is not None:
            found["chart"] = regions.chart_figure(_chart(state, drawn), board.sides, True,
                                                  provisional=True)
    return answer | {"regions": {k: str(v) for k, v in found.items()},
                     "note": _note(counted, len(bodies), state.over, variant.ranked)}


def _board(state: MatchState) -> regions.Board:
    settings = state.settings
    return regions.Board(settings.game, settings.names, state.totals, state.played,
                         settings.hand_limit, settings.target, state.over,
                         state.winner if state.over else None, state.victory, state.tied_at)


def _note(counted: int, waiting: int, finished: bool, ranked: bool) -> str:
    """What is provisional: the hands counted, the others said apart, never as counted;
    whether these hands end the match."""
    said = []
    if counted and ranked:
        said.append(ngettext("Provisional: the hand waiting to be sent is shown.",
                             "Provisional: the %(num)d hands waiting to be sent are shown.",
                             counted) % {"num": counted})
    elif counted:
        said.append(_("Provisional: the hand waiting to be sent is counted.") if counted == 1
                    else _("Provisional: %(n)s hands waiting to be sent are counted.") % {
                        "n": counted})
    if waiting > counted:
        said.append(_("Not counted yet: %(n)s more waiting, scored when sent.") % {
            "n": waiting - counted})
    if finished:
        said.append(_("With these hands the match is over; the server confirms it when "
                      "they are sent."))
    return " ".join(said)


def _chart_hands(chart: Mapping[str, Any] | None) -> tuple[list[Any], list[Any]] | None:
    """The stored hands a match page's chart shows (views: chart_inputs), to go on from."""
    if not isinstance(chart, Mapping):
        return None
    return list(chart.get("running") or []), list(chart.get("hands") or [])


def _chart(state: MatchState, drawn: tuple[list[Any], list[Any]]) -> progression.Chart | None:
    """The chart with the waiting hands scored, as the server draws it (matches/chart.py:
    the same words, the same geometry)."""
    running, hands = drawn
    sides = state.sides
    names = state.settings.names
    side_of = {seat: side.index for side in sides for seat in side.seats}
    outcome = {True: _("%(name)s: %(call)s made"), False: _("%(name)s: %(call)s failed")}
    said = {c.value: _(c.label) for c in scoring.Call}
    calls = progression.call_marks(side_of, names, hands, outcome, said)
    return progression.build(running, [side.css for side in sides],
                             state.settings.target or None, calls, _("hand %(n)s: %(what)s"))
