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

from ..game.house import RULE_BOOK, HouseRules
from ..game.i18n import _
from ..game.layouts import NANKING, TEAM_LETTERS, Layout, threechu
from ..game.variants import DEFAULT, MAX_SEATS, VARIANTS, find
from .calls import AnyCall, Call, read_call
from .hand import CARD_POINTS_MAX, CARD_POINTS_MIN, HandInput, Problem, hand_problems

NUMBER_MAX = 10**6  # far beyond any seat or card points; a larger number is not quoted back
KEY_DIGITS = 2  # a seat key's digits: no game has more than MAX_SEATS seats


class Repeated(list[Any]):
    """The values of a name given more than once in one JSON object (the API's JSON reader
    keeps them all), told apart from a JSON array."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _huge(value: object) -> bool:
    """A number too large to quote in a message (1e308 has 309 digits), or not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not abs(value) < NUMBER_MAX  # NaN is not less either


def _shown(value: object, width: int = 20) -> str:
    """The input as it is quoted in a message: its repr, cut to `width` with an ellipsis."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def seat_key(key: object) -> int | None:
    """A seat from a `calls` key as docs/API.md writes it and a hand stores and logs it,
    "0", "1", …; None for anything else ("00", " 0", "+0", "٣", a number too long to read).

    >>> seat_key("3"), seat_key("03"), seat_key("9" * 5000)
    (3, None, None)
    """
    if (isinstance(key, str) and len(key) <= KEY_DIGITS and key.isascii() and key.isdigit()
            and key == str(int(key))):
        return int(key)
    return None


def _far_seat(last: int) -> str:
    return _("Seats are numbered 0 to {last}; a number this large is no seat.").format(
        last=last)


def _read_out_order(data: Mapping[str, Any], problems: list[Problem],
                    last: int) -> tuple[int, ...]:
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
        if _is_int(item) and _huge(item):
            problems.append(Problem("out_order", "H1", _far_seat(last)))
        elif not _is_int(item):
            problems.append(Problem("out_order", "H7",
                                    _("The out-order must list seat numbers, not {item}.").format(
                                        item=_shown(item))))
        else:
            seats.append(item)
    return tuple(seats)


def _read_calls(data: Mapping[str, Any], problems: list[Problem],
                rules: HouseRules) -> dict[int, AnyCall]:
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
    calls: dict[int, AnyCall] = {}
    for key, value in raw.items():
        seat = seat_key(key)
        name = f"calls.{seat}"
        if seat is None:
            problems.append(Problem("calls", "P3", _(
                '{key} is not a seat: calls are keyed by the seat\'s number as a string, '
                '"0", "1", …').format(key=_shown(str(key)))))
        elif isinstance(value, Repeated):
            given = {read_call(v, rules) for v in value}
            problems.append(Problem(name, "P3", _(
                "Seat {seat} has more than one call; a player may not call both Tichu and "
                "Grand Tichu.").format(seat=seat) if {Call.TICHU, Call.GRAND} <= given else _(
                'The calls name seat {seat} more than once; give each seat one call, "tichu" '
                'or "grand".').format(seat=seat)))
        elif isinstance(value, list):
            problems.append(Problem(name, "P3", _(
                'Seat {seat}\'s call must be one word, "tichu" or "grand", not a list.').format(
                    seat=seat)))
        else:
            call = read_call(value, rules)
            if call is not None:
                calls[seat] = call
            elif rules.custom_calls:
                problems.append(Problem(name, "R9", _(
                    'Seat {seat}\'s call must be "tichu", "grand" or one of this match\'s '
                    'calls ({names}), not {value}.').format(
                        seat=seat, value=_shown(value),
                        names=", ".join(f'"{n}"' for n, _v in rules.custom_calls))))
            else:
                problems.append(Problem(name, "P3", _(
                    'Seat {seat}\'s call must be "tichu" or "grand", not {value}.').format(
                        seat=seat, value=_shown(value))))
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
        elif _huge(item):
            problems.append(Problem(f"card_points.{team}", "P1",
                                    _("Team {team}'s card points must lie between {low} and "
                                      "{high}.").format(team=TEAM_LETTERS[team],
                                                        low=CARD_POINTS_MIN,
                                                        high=CARD_POINTS_MAX)))
            values.append(None)
        elif _is_int(item) or (isinstance(item, float) and item.is_integer()):
            values.append(int(item))
        else:
            problems.append(Problem(f"card_points.{team}", "P1",
                                    _("Team {team}'s card points must be a whole number, not "
                                      "{item}.").format(team=TEAM_LETTERS[team],
                                                        item=_shown(item))))
            values.append(None)
    return (values[0], values[1])


def _read_wish(data: Mapping[str, Any], problems: list[Problem], last: int) -> int | None:
    raw = data.get("wish_penalty")
    if raw is None:
        return None
    offender = raw.get("offender") if isinstance(raw, Mapping) else None
    if not isinstance(offender, int) or isinstance(offender, bool):
        problems.append(Problem("wish_penalty.offender", "P4",
                                _('A wish penalty names the offender\'s seat: '
                                  '{"offender": seat}.')))
        return None
    if _huge(offender):
        problems.append(Problem("wish_penalty.offender", "P4", _far_seat(last)))
        return None
    return offender


def read_hand(data: Mapping[str, Any], layout: Layout = NANKING,
              rules: HouseRules = RULE_BOOK) -> tuple[HandInput | None, list[Problem]]:
    """The hand described by `data` in the docs/API.md shape, and every problem with it
    under the house rules (read from the body by the caller: `game.house`).

    The hand is None when its shape could not be read at all.
    """
    if not isinstance(data, Mapping):
        return None, [Problem("body", "P5", _("The hand must be a JSON object."))]
    shape: list[Problem] = []
    last = layout.seats - 1
    out_order = _read_out_order(data, shape, last)
    calls = _read_calls(data, shape, rules)
    card_points = _read_card_points(data, shape)
    offender = _read_wish(data, shape, last)
    hand = HandInput(out_order=out_order, calls=calls, card_points=card_points,
                     wish_offender=offender)
    # A field whose shape could not be read is reported once, not again for its meaning.
    unreadable = {p.field.split(".")[0] for p in shape}
    meaning = [p for p in hand_problems(hand, layout, rules)
               if p.field.split(".")[0] not in unreadable]
    return hand, shape + meaning


def read_layout(data: Mapping[str, Any]) -> tuple[Layout | None, list[Problem]]:
    """The seating a scoring request names: its variant (`[H1]`; Nanking when none is
    named; only the games that score card points), and in Threechu the dummy's seat
    (`[T3.1]`). None with the problem when it names neither rightly.

    >>> read_layout({"variant": "threechu", "dummy": 2})[0].dummy
    2
    >>> read_layout({"variant": "seigneur"})[1][0].field
    'variant'
    """
    name = data.get("variant")
    game = DEFAULT if name is None else find(name)
    if game is None or not game.scored:
        known = ", ".join(f"'{v.key}'" for v in VARIANTS.values() if v.scored)
        return None, [Problem("variant", "H1", _(
            "Unknown variant %(given)s: use one of %(known)s.") % {
            "given": repr(str(name))[:30], "known": known})]
    if game.dummy_seat is None:
        return game.layout(), []
    dummy = data.get("dummy")
    seats = game.seat_count(game.fewest)
    if isinstance(dummy, int) and not isinstance(dummy, bool) and 0 <= dummy < seats:
        return threechu(dummy), []
    return None, [Problem("dummy", "T3.1", _(
        'Threechu needs the dummy\'s seat (0–%(last)s): {"dummy": seat}.') % {
        "last": seats - 1})]
