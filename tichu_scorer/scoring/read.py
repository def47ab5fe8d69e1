"""Reading a hand from loosely typed data (a JSON body or a submitted form).

The API and the hand form both build the docs/API.md shape and call `read_hand`, so the rules
of what a recorded hand may say are written once. Every problem is reported at once.

>>> hand, problems = read_hand({"out_order": [0, 2], "calls": {"1": "tichu"},
...                             "card_points": [None, None]})
>>> problems, hand.calls
([], {1: <Call.TICHU: 'tichu'>})
>>> [p.rule for p in read_hand({"out_order": [0, 0], "calls": {"1": "both"},
...                             "card_points": [33, 67]})[1]]
['P3', 'H7', 'P1', 'P1']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .hand import Call, HandInput, Problem, hand_problems
from .i18n import _
from .layouts import NANKING, TEAM_LETTERS, Layout
from .variants import MAX_SEATS


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object) -> int | None:
    """A seat number from an int or a numeric string, else None."""
    if _is_int(value):
        return value  # type: ignore[return-value]
    text = value.strip() if isinstance(value, str) else ""
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit() and len(digits) < 6:  # not "²" or "٣"
        return int(text)
    return None


def _read_out_order(data: Mapping[str, Any], problems: list[Problem]) -> tuple[int, ...]:
    raw = data.get("out_order", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        problems.append(Problem("out_order", "H7", _("The out-order must be a list of seats.")))
        return ()
    if len(raw) > MAX_SEATS:
        problems.append(Problem("out_order", "H7", _("The out-order lists {n} seats; no game "
                                                     "has more than {most}.").format(
                                                         n=len(raw), most=MAX_SEATS)))
        return ()
    seats: list[int] = []
    for item in raw:
        if not _is_int(item):
            problems.append(Problem("out_order", "H7",
                                    _("The out-order must list seat numbers, not {item}.").format(
                                        item=repr(item)[:20])))
        else:
            seats.append(item)
    return tuple(seats)


def _read_calls(data: Mapping[str, Any], problems: list[Problem]) -> dict[int, Call]:
    raw = data.get("calls", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        problems.append(Problem("calls", "P3",
                                _('Calls must map a seat to "tichu" or "grand".')))
        return {}
    if len(raw) > MAX_SEATS:
        problems.append(Problem("calls", "P3", _("{n} calls: no game has more than {most} "
                                                 "players.").format(n=len(raw),
                                                                    most=MAX_SEATS)))
        return {}
    calls: dict[int, Call] = {}
    for key, value in raw.items():
        seat = _seat(key)
        name = f"calls.{key}"[:40]
        if seat is None:
            problems.append(Problem("calls", "P3", _("{key} is not a seat number.").format(
                key=repr(str(key))[:20])))
            continue
        if seat in calls or (isinstance(value, list) and len(value) > 1):
            problems.append(Problem(name, "P3",
                                    _("Seat {seat} has more than one call; a player may not "
                                      "call both Tichu and Grand Tichu.").format(seat=seat)))
            continue
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        try:
            calls[seat] = Call(value)
        except (ValueError, TypeError):
            problems.append(Problem(name, "P3",
                                    _('Seat {seat}\'s call must be "tichu" or "grand", not '
                                      '{value}.').format(seat=seat, value=repr(value)[:20])))
    return calls


def _read_card_points(data: Mapping[str, Any],
                      problems: list[Problem]) -> tuple[int | None, int | None]:
    raw = data.get("card_points", [None, None])
    if raw is None:
        raw = [None, None]
    if not isinstance(raw, list) or len(raw) != 2:
        problems.append(Problem("card_points", "P1",
                                _("Card points must be a list of two numbers (team A, team B); "
                                  "either may be null.")))
        return (None, None)
    values: list[int | None] = []
    for team, item in enumerate(raw):
        if item is None:
            values.append(None)
        elif _is_int(item) or (isinstance(item, float) and item.is_integer()):
            values.append(int(item))
        else:
            problems.append(Problem(f"card_points.{team}", "P1",
                                    _("Team {team}'s card points must be a whole number, not "
                                      "{item}.").format(team=TEAM_LETTERS[team],
                                                        item=repr(item)[:20])))
            values.append(None)
    return (values[0], values[1])


def _read_wish(data: Mapping[str, Any], problems: list[Problem]) -> int | None:
    raw = data.get("wish_penalty")
    if raw is None:
        return None
    offender = raw.get("offender") if isinstance(raw, Mapping) else None
    if not isinstance(offender, int) or isinstance(offender, bool):
        problems.append(Problem("wish_penalty.offender", "P4",
                                _('A wish penalty names the offender\'s seat: '
                                  '{"offender": seat}.')))
        return None
    return offender


def read_hand(data: Mapping[str, Any],
              layout: Layout = NANKING) -> tuple[HandInput | None, list[Problem]]:
    """The hand described by `data` in the docs/API.md shape, and every problem with it.

    The hand is None when its shape could not be read at all.
    """
    if not isinstance(data, Mapping):
        return None, [Problem("body", "P5", _("The hand must be a JSON object."))]
    shape: list[Problem] = []
    out_order = _read_out_order(data, shape)
    calls = _read_calls(data, shape)
    card_points = _read_card_points(data, shape)
    offender = _read_wish(data, shape)
    hand = HandInput(out_order=out_order, calls=calls, card_points=card_points,
                     wish_offender=offender)
    # A field whose shape could not be read is reported once, not again for its meaning.
    unreadable = {p.field.split(".")[0] for p in shape}
    meaning = [p for p in hand_problems(hand, layout) if p.field.split(".")[0] not in unreadable]
    return hand, shape + meaning
