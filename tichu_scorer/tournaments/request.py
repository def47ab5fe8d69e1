"""Reading a draw request (docs/API.md, POST /api/v1/tournaments/draw) into the values
`draw.draw` takes. Pure, like `draw`.

A body of the wrong shape (an unknown key, a value of the wrong type, a key given twice)
raises `BadShape` naming the field (the API's 400). A well-formed request that cannot be
drawn is answered with every problem at once, each citing `[TN1]` (the API's 422).

>>> read({"players": ["Ann", "Bob", "Cy", "Di"], "rounds": 2, "seed": 5})[0]
DrawRequest(players=('Ann', 'Bob', 'Cy', 'Di'), rounds=2, seed=5, history=())
>>> [p.field for p in read({"players": ["Ann", "ann", "Bob"], "rounds": 21})[1]]
['players', 'players[1]', 'rounds']
>>> read({"players": [], "rounds": 1, "tables": 4})
Traceback (most recent call last):
...
tichu_scorer.tournaments.request.BadShape: “tables” is not a field of a draw request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..game.i18n import _
from ..scoring.hand import Problem
from ..scoring.read import Repeated
from .draw import Round, key

MIN_PLAYERS, MAX_PLAYERS = 4, 256
MAX_ROUNDS = 20  # new rounds in one request; and at most as many rounds of history
FIELDS = ("players", "rounds", "seed", "history")
ROUND_FIELDS = ("tables", "byes")
SHOWN = 30  # characters of a name quoted in a message


class BadShape(ValueError):
    """The body is not a draw request: `field` names what is wrong."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class DrawRequest:
    players: tuple[str, ...]
    rounds: int
    seed: int | None
    history: tuple[Round, ...]


def _quoted(name: str) -> str:
    return name if len(name) <= SHOWN else name[:SHOWN - 1] + "…"


def _fields(body: Any, allowed: tuple[str, ...], where: str) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise BadShape(_("%(field)s must be a JSON object.") % {"field": where}, where)
    for name, value in body.items():
        field = (f"{where}.{name}" if where != "body" else name) if name else where
        if name not in allowed:
            raise BadShape(_("“%(field)s” is not a field of a draw request.") % {
                "field": _quoted(field)}, _quoted(field))
        if isinstance(value, Repeated):
            raise BadShape(_("“%(field)s” is given twice; give it once.") % {"field": field},
                           field)
    return body


def _integer(value: Any, field: str) -> int:
    if type(value) is not int:
        raise BadShape(_("%(field)s must be a whole number.") % {"field": field}, field)
    return value


def _names(value: Any, field: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise BadShape(_("%(field)s must be a list of names.") % {"field": field}, field)
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise BadShape(_("%(field)s must be a name (text).") % {"field": f"{field}[{i}]"},
                           f"{field}[{i}]")
    return tuple(value)


def _round(value: Any, field: str) -> Round:
    body = _fields(value, ROUND_FIELDS, field)
    tables = body.get("tables")
    if not isinstance(tables, list):
        raise BadShape(_("%(field)s must be a list of tables, each a list of four names.")
                       % {"field": f"{field}.tables"}, f"{field}.tables")
    byes = body.get("byes")
    return Round(tuple(_names(t, f"{field}.tables[{j}]") for j, t in enumerate(tables)),
                 () if byes is None else _names(byes, f"{field}.byes"))


def _shape(body: Any) -> DrawRequest:
    body = _fields(body, FIELDS, "body")
    for needed in ("players", "rounds"):
        if needed not in body:
            raise BadShape(_("A draw request needs “%(field)s”.") % {"field": needed}, needed)
    seed = body.get("seed")
    history = body.get("history")
    if history is not None and not isinstance(history, list):
        raise BadShape(_("%(field)s must be a list of rounds.") % {"field": "history"},
                       "history")
    return DrawRequest(_names(body["players"], "players"), _integer(body["rounds"], "rounds"),
                       None if seed is None else _integer(seed, "seed"),
                       tuple(_round(r, f"history[{i}]") for i, r in enumerate(history or [])))


def _twice(names: tuple[str, ...], field: str) -> list[Problem]:
    """A problem for each name that repeats an earlier one (case and spaces aside)."""
    seen: set[str] = set()
    out = []
    for i, name in enumerate(names):
        if not key(name):
            out.append(Problem(f"{field}[{i}]", "TN1", _("A name is empty.")))
        elif key(name) in seen:
            out.append(Problem(f"{field}[{i}]", "TN1", _(
                "“%(name)s” is given twice (names are told apart without regard to case).")
                % {"name": _quoted(name.strip())}))
        seen.add(key(name))
    return out


def problems(request: DrawRequest) -> list[Problem]:
    """Every reason the request cannot be drawn."""
    out = []
    if not MIN_PLAYERS <= len(request.players) <= MAX_PLAYERS:
        out.append(Problem("players", "TN1", _(
            "A draw needs %(least)d to %(most)d players, not %(n)d.") % {
                "least": MIN_PLAYERS, "most": MAX_PLAYERS, "n": len(request.players)}))
    out += _twice(request.players, "players")
    if not 1 <= request.rounds <= MAX_ROUNDS:
        out.append(Problem("rounds", "TN1", _(
            "A draw makes 1 to %(most)d rounds, not %(n)s.") % {
                "most": MAX_ROUNDS, "n": str(request.rounds)[:SHOWN]}))
    if len(request.history) > MAX_ROUNDS:
        out.append(Problem("history", "TN1", _(
            "The history may hold at most %(most)d rounds.") % {"most": MAX_ROUNDS}))
    for i, old in enumerate(request.history):
        for j, table in enumerate(old.tables):
            if len(table) != 4:
                out.append(Problem(f"history[{i}].tables[{j}]", "TN1", _(
                    "A table seats four players, not %(n)d.") % {"n": len(table)}))
        seated = tuple(name for table in old.tables for name in table) + old.byes
        out += [Problem(f"history[{i}]", "TN1", p.message)
                for p in _twice(seated, f"history[{i}]")]
    return out


def read(body: Any) -> tuple[DrawRequest, list[Problem]]:
    """The request in `body` and every reason it cannot be drawn; BadShape for a body
    that is not a draw request."""
    request = _shape(body)
    return request, problems(request)
