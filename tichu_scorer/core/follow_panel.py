"""The hand in play drawn once (RULES.md §11): the panel of the match page and the board
(the calls, the open wish shown large, who is out, and for a scorer one big button per
event the rules allow now), and the sentences of the hand's log. The server's templates
call it, and the phone's core draws the panel with the events waiting on the phone, so
the page's region `follow` is drawn by one renderer (static/js/follow.js only swaps it).
Pure (tests/test_purity.py).

>>> from tichu_scorer.game.variants import NANKING
>>> from tichu_scorer.scoring.games import game_of
>>> table = follow.Table.of(game_of(NANKING), 4)
>>> events = [follow.Event("start"), follow.Event("passed"), follow.Event("tichu", 1)]
>>> told(table, ("Ann", "Bob", "Cy", "Di"), events)[-1]
'Bob called Tichu after the pass, before his first card.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from ..game.i18n import N_, _
from . import follow
from .follow import Event, InPlay, Table

_PHASE_WORDS = {
    follow.DEAL: N_("The first %(n)s cards are out: Grand Tichu now."),
    follow.PASS: N_("All cards dealt: the pass."),
    follow.PLAY: N_("Cards on the table: Tichu until a player’s first card."),
    follow.OVER: N_("The hand is over: enter the card points."),
}


def _said(message: str, **values: object) -> Markup:
    """A translated sentence with its values escaped, as a template's `_()` puts it."""
    return Markup(message) % values  # nosec B704: the catalog's sentence; % escapes the values


def _tichu_when(phase: str) -> str:
    if phase == follow.DEAL:
        return _("%(name)s called Tichu before all cards were dealt.")
    if phase == follow.PASS:
        return _("%(name)s called Tichu after the deal, before the pass.")
    return _("%(name)s called Tichu after the pass, before his first card.")


def sentence(table: Table, names: Sequence[str], event: Event, before: InPlay) -> str:
    """One event as the log says it, in the reader's language; `before`: the hand as it
    stood when the event came (its phase, its place in the out-order)."""
    name = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    kind = event.kind
    if kind == "start":
        return _("The table began to follow the hand.")
    if kind == "dealt":
        return _("All cards dealt: no more Grand Tichu.")
    if kind == "passed":
        return _("The pass is done.")
    if kind == "grand":
        return _("%(name)s called Grand Tichu with the first %(n)s cards.") % {
            "name": name, "n": table.first_cards}
    if kind == "tichu":
        return _tichu_when(before.phase) % {"name": name}
    if kind == "wish":
        return _("The Mah Jong wished a %(rank)s.") % {"rank": event.rank}
    if kind == "fulfilled":
        return _("The wish for a %(rank)s was fulfilled.") % {"rank": before.wish}
    if kind == "missed":
        return _("%(name)s missed the wish.") % {"name": name}
    if kind == "bomb":
        return _("%(name)s played a bomb.") % {"name": name}
    if kind == "out":
        return _("%(name)s went out, number %(n)s.") % {"name": name,
                                                         "n": len(before.out) + 1}
    return _("The latest event was taken back.")


def told(table: Table, names: Sequence[str], events: Sequence[Event]) -> list[str]:
    """Every stored event of a hand as a sentence, in order (undone ones and the undo
    itself included: the log keeps what happened)."""
    out = []
    for i, event in enumerate(events):
        out.append(sentence(table, names, event, follow.in_play(table, events[:i])))
    return out


def _button(event: str, label: str, css: str = "") -> Markup:
    return Markup('<button type="submit" class="tap%s" name="event" value="%s">%s</button>'
                  ) % (Markup(" ") + css if css else "", event, label)


def _allowed(table: Table, state: InPlay, kind: str, seat: int | None = None,
             rank: str | None = None) -> bool:
    return follow.refusal(table, state, Event(kind, seat, rank)) is None


def _badges(state: InPlay, seat: int) -> Markup:
    parts = []
    call = state.call_of(seat)
    if call == "grand":
        parts.append(Markup('<span class="badge call">%s</span>') % _("Grand Tichu"))
    elif call is not None:
        parts.append(Markup('<span class="badge call">%s</span>') % _("Tichu"))
    if state.bombs[seat]:
        parts.append(Markup('<span class="badge">%s</span>') % (
            _("%(n)s× bomb") % {"n": state.bombs[seat]}))
    if seat in state.out:
        parts.append(Markup('<span class="badge out">%s</span>') % (
            _("out %(n)s.") % {"n": state.out.index(seat) + 1}))
    if state.offender == seat:
        parts.append(Markup('<span class="badge missed">%s</span>') % _("missed the wish"))
    return Markup(" ").join(parts)


def _player(table: Table, state: InPlay, names: Sequence[str], seat: int,
            scorer: bool) -> Markup:
    taps = []
    if scorer:
        for kind, label in (("grand", _("Grand")), ("tichu", _("Tichu")),
                            ("bomb", _("Bomb")), ("out", _("Out"))):
            if _allowed(table, state, kind, seat):
                taps.append(_button(f"{kind}:{seat}", label, kind))
    return Markup('<li class="follow-seat" data-seat="%s"><span class="who">%s</span> %s'
                  '<span class="taps">%s</span></li>') % (
        seat, names[seat] if seat < len(names) else seat, _badges(state, seat),
        Markup("").join(taps))


def _wish(table: Table, state: InPlay, names: Sequence[str], scorer: bool) -> Markup:
    if state.wish is None:
        # offered once play has begun (the rules take it earlier: it says the pass is done)
        if not scorer or state.phase != follow.PLAY:
            return Markup("")
        ranks = Markup("").join(_button(f"wish::{r}", r, "rank") for r in follow.RANKS)
        return Markup('<div class="follow-wish-pick"><p>%s</p><div class="ranks">%s</div>'
                      '</div>') % (_("Mah Jong played? Tap the wished rank:"), ranks)
    said = (_("Wished: %(rank)s") if state.wish_open else _("Wish %(rank)s fulfilled")) % {
        "rank": state.wish}
    out = Markup('<p class="follow-wish%s" data-wish="%s">%s</p>') % (
        " open" if state.wish_open else "", state.wish, said)
    if scorer and state.wish_open and _allowed(table, state, "fulfilled"):
        out += _button("fulfilled", _("Fulfilled"), "wide")
    if scorer and _allowed(table, state, "missed", _first_owing(table, state)):
        missed = Markup("").join(_button(f"missed:{s}", names[s], "small")
                                 for s in range(table.seats) if s != table.dummy)
        out += Markup('<details class="follow-missed"><summary>%s</summary><p>%s</p>'
                      '</details>') % (_("Missed by mistake?"), missed)
    return out


def _first_owing(table: Table, state: InPlay) -> int | None:
    return next((s for s in range(table.seats) if s != table.dummy), None)


def panel(table: Table, state: InPlay, names: Sequence[str], scorer: bool,
          number: int, form_url: str | None = None) -> Markup:
    """The followed hand on the match page (a scorer's buttons in it) and the board."""
    if not state.followed:
        if not scorer:
            return Markup("")
        # the app's own big button: its styles are app.css's, on every scorer's page
        return Markup('<p class="follow-start"><button type="submit" class="button primary big" '
                      'name="event" value="start">%s</button></p>') % _("Follow this hand")
    phase = _(_PHASE_WORDS[state.phase]) % {"n": table.first_cards} if (
        state.phase == follow.DEAL) else _(_PHASE_WORDS[state.phase])
    head = Markup('<h2 class="follow-head">%s</h2><p class="follow-phase" data-phase="%s">'
                  '%s</p>') % (_("Hand %(n)s in play") % {"n": number}, state.phase, phase)
    seats = Markup("").join(_player(table, state, names, s, scorer)
                            for s in range(min(table.seats, len(names))))
    body = head + _wish(table, state, names, scorer) + Markup(
        '<ul class="follow-seats">%s</ul>') % seats
    if scorer:
        steps = [_button(k, w, "wide") for k, w in (("dealt", _("All cards dealt")),
                                                   ("passed", _("Pass done")))
                 if _allowed(table, state, k)]
        body += Markup('<p class="follow-steps">%s</p>') % Markup("").join(steps)
        if state.over and form_url:
            body += Markup('<p><a class="button primary big" href="%s">%s</a></p>') % (
                form_url, _("Enter the card points"))
        last = state.events[-1]
        body += Markup('<p class="follow-undo">%s</p>') % _button(
            "undo", _("Undo: %(what)s") % {"what": _undo_words(last, names)}, "link")
    return body


def _undo_words(event: Event, names: Sequence[str]) -> str:
    name = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    words = {"start": _("following"), "dealt": _("all cards dealt"),
             "passed": _("pass done"), "wish": _("wish"), "fulfilled": _("fulfilled"),
             "grand": _("Grand Tichu"), "tichu": _("Tichu"), "bomb": _("bomb"),
             "out": _("out"), "missed": _("missed the wish")}[event.kind]
    return f"{words} ({name})" if name else words



def facts(table: Table, names: Sequence[str], events: Sequence[Event], number: int) -> dict[
        str, object]:
    """What the scorer's page hands the phone's core (`data-follow-facts`) to draw the panel
    again with taps waiting on the phone (`waiting`)."""
    return {"table": table.as_dict(), "names": list(names), "number": number,
            "events": [{"kind": e.kind, "seat": e.seat, "rank": e.rank} for e in events]}


def waiting(data: Mapping[str, Any], taps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The phone's core, without signal: the panel as the server will draw it once the
    waiting `taps` (each a form's fields) arrive; a tap the rules refuse is left out, as
    the server will refuse it."""
    table = Table.from_dict(data["table"])
    names = [str(n) for n in data["names"]]
    events = [Event(str(e["kind"]), e.get("seat"), e.get("rank")) for e in data["events"]]
    refused = 0
    for fields in taps:
        try:
            kind, _x, rest = str(fields.get("event", "")).partition(":")
            seat, _y, rank = rest.partition(":")
            event = Event.read({"kind": kind, "seat": seat, "rank": rank}, table.seats)
        except follow.BadEvent:
            refused += 1
            continue
        state = follow.in_play(table, events)
        if follow.repeated(events, state, event, None) or follow.refusal(
                table, state, event) is not None:
            refused += 1
            continue
        events.append(event)
    state = follow.in_play(table, events)
    return {"panel": str(panel(table, state, names, True, int(data["number"]))),
            "refused": refused}
