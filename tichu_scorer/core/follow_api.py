"""`POST /api/v1/follow/check` (docs/API.md): a hand in play from its events, and one new
event checked against it, without storing anything. The body read with every field's
problem named; the rules are `follow`'s. Pure: the server's route and the tests call it.

>>> answer, status = check({"events": [{"kind": "start"}, {"kind": "dealt"}],
...                         "event": {"kind": "grand", "seat": 1}})
>>> status, answer["errors"][0]["rule"]
(422, 'L1')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game.house import HouseRulesError, read_house_rules
from ..game.i18n import _
from ..game.variants import VARIANTS, find
from ..scoring.games import game_of
from . import follow

MAX_EVENTS = 500  # far more than any hand has


class BadBody(ValueError):
    """A body that is not a question: its field and a sentence (a 400)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message, self.field = message, field


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_of(body: Mapping[str, Any]) -> follow.Table:
    """The table a request names: its variant, its seats (Grand Seigneur: 5–12), the
    Threechu shuffler, the house rules."""
    name = body.get("variant")
    variant = VARIANTS["nanking"] if name is None else find(name)
    if variant is None:
        raise BadBody(_("Unknown variant %(given)s: use one of %(known)s.") % {
            "given": repr(str(name))[:30], "known": ", ".join(VARIANTS)}, "variant")
    seats, fewest, most = body.get("seats"), *variant.players
    wanted = range(variant.seat_count(fewest), variant.seat_count(most) + 1)
    if seats is None:
        seats = wanted[0]
    if not _whole(seats) or seats not in wanted:
        raise BadBody(_("seats must be a whole number from %(low)s to %(high)s for this "
                        "game.") % {"low": wanted[0], "high": wanted[-1]}, "seats")
    shuffler = body.get("shuffler")
    if shuffler is not None and not (variant.has_dummy and _whole(shuffler)
                                     and 0 <= shuffler < fewest):
        raise BadBody(_("shuffler is a Threechu hand's shuffler, 0–2 (T3.1)."), "shuffler")
    if variant.has_dummy and shuffler is None:
        shuffler = 0
    try:
        house = read_house_rules(body.get("house_rules"))
    except HouseRulesError as exc:
        raise BadBody(exc.message, exc.field) from None
    return follow.Table.of(game_of(variant), seats, shuffler, house)


def _event(raw: object, seats: int, where: str) -> follow.Event:
    if not isinstance(raw, Mapping):
        raise BadBody(_("An event is an object: {\"kind\": …, \"seat\": …}."), where)
    try:
        return follow.Event.read(raw, seats)
    except follow.BadEvent as exc:
        raise BadBody(exc.message, f"{where}.{exc.field}") from None


def check(body: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The hand after `events` (and `event`, when it is given and the rules take it): 200
    with the hand, 422 with the refusal and its rule, or `BadBody` (a 400)."""
    table = table_of(body)
    raw = body.get("events")
    if raw is None:
        raw = []
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        raise BadBody(_("events must be a list of at most %(n)s events.") % {
            "n": MAX_EVENTS}, "events")
    events = [_event(item, table.seats, f"events[{i}]") for i, item in enumerate(raw)]
    asked = [(f"events[{i}]", e) for i, e in enumerate(events)]
    if body.get("event") is not None:
        asked.append(("event", _event(body["event"], table.seats, "event")))
    taken: list[follow.Event] = []
    for where, event in asked:
        state = follow.in_play(table, taken)
        if (problem := follow.refusal(table, state, event)) is not None:
            return {"errors": [{"field": where, "rule": problem.rule,
                                "message": problem.message}]}, 422
        taken.append(event)
    return follow.as_dict(table, follow.in_play(table, taken)), 200
