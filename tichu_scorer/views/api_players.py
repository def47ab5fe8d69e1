"""The players of a table in the JSON API (docs/API.md, "Players of a table"): the list,
and rename, merge, undo a merge and the guest mark, for a club's own page. Stateless like
the rest of the API (no cookie, no CSRF token): each request names the table by its key
and proves its right with the `X-Table-Code` header, the table's invite code (read) or its
scorer key (read and change), as the invite and scorer links give them. A table that is
not found, or a code that is not the table's, is a 404 (a stranger learns nothing), and
counts against the address's budget of unknown codes, as a join does."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import jsonify, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..extensions import db
from ..limits import _too_many_guesses, join_limit, limit_writes, limiter, missed
from ..matches import writes
from ..models import Group, Player, PlayerMerge
from ..players import identity
from ..players.errors import Refused
from ..tables import codes
from .api import bp
from .jsonbody import BadRequest, json_body
from .players import merge_of

HEADER = "X-Table-Code"
View = TypeVar("View", bound=Callable[..., Response])
limit_guesses = limiter.shared_limit(join_limit, scope="join-misses", deduct_when=missed,
                                     error_message=_too_many_guesses)


class _Answer(Exception):
    def __init__(self, status: int, message: str, field: str) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


def _role(group: Group, given: str) -> str | None:
    if hmac.compare_digest(given.encode(), group.scorer_key.encode()):
        return "scorer"
    typed = codes.read(given)
    if typed is not None and hmac.compare_digest(typed.encode(), group.invite_code.encode()):
        return "member"
    return None


def _table(key: str, role: str = "member") -> Group:
    """The table of this key, if the request's code gives `role` at it."""
    given = request.headers.get(HEADER, "")
    if not given:
        raise _Answer(401, gettext("Send the table's invite code or scorer key in the "
                                   "X-Table-Code header."), HEADER)
    group: Group | None = db.session.execute(
        db.select(Group).filter_by(key=key[:24])).scalar_one_or_none()
    found = _role(group, given[:64]) if group is not None else None
    if group is None or found is None:
        raise _Answer(404, gettext("No such table, or not its code."), "table")
    if role == "scorer" and found != "scorer":
        raise _Answer(403, gettext("Only the table's scorer key may change its players."),
                      HEADER)
    return group


def _player(player: Player, matches: int | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"key": player.key, "name": player.name, "guest": player.guest}
    return found | ({"matches": matches} if matches is not None else {})


def _merge(record: PlayerMerge) -> dict[str, Any]:
    return {"key": record.key, "from": record.source_name, "into": record.target_name,
            "into_key": record.target_key, "matches": len(record.seats),
            "at": record.at.isoformat() + "Z", "undone": record.undone_at is not None}


def _answered(view: Any) -> Any:
    """A refusal as the API answers one: `{"error", "field"}` (and `rule`)."""
    def answer(*args: Any, **kwargs: Any) -> Response | tuple[Response, int]:
        try:
            return view(*args, **kwargs)  # type: ignore[no-any-return]
        except _Answer as exc:
            db.session.rollback()
            return jsonify(error=exc.message, field=exc.field), exc.status
        except Refused as exc:
            db.session.rollback()
            body = {"error": exc.message, "field": exc.field}
            return jsonify(body | ({"rule": exc.rule} if exc.rule else {})), exc.status
    answer.__name__ = view.__name__
    answer.__doc__ = view.__doc__
    return answer


def _fields(allowed: dict[str, type]) -> dict[str, Any]:
    """The body's fields, each of its type; a field the endpoint lacks is a 400."""
    body = json_body()
    for name, value in body.items():
        if name not in allowed:
            shown = name[:40] or "body"  # (an empty key is named as the body's)
            raise BadRequest(gettext("This endpoint has no field %(name)s.", name=repr(shown)),
                             shown)
        kind = allowed[name]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise BadRequest(gettext("%(name)s has the wrong type.", name=name), name)
    for name in allowed:
        if name not in body:
            raise BadRequest(gettext("%(name)s is missing.", name=name), name)
    return body


@bp.get("/tables/<table>/players")
@limit_guesses
@_answered
def table_players(table: str) -> Response:
    """The table's players with the matches each played, and its merges."""
    writes.reading()
    group = _table(table)
    return jsonify(players=[_player(x.player, x.matches) for x in identity.listing(group)],
                   merges=[_merge(m) for m in identity.merges(group)])


def _change(table: str, change: Any) -> Response:
    """One change in a write that holds the table (its scorer key still the one sent)."""
    group_id = _table(table, "scorer").id
    with writes.writing():
        group = writes.lock_table(group_id)
        if group is None:
            raise _Answer(404, gettext("No such table, or not its code."), "table")
        _table(table, "scorer")
        answer = change(group)
    return jsonify(answer)


def _writes(rule: str) -> Callable[[View], View]:
    """A change's route: its limits (unknown codes, writes) and the API's refusals."""
    def route(view: View) -> View:
        return cast(View, bp.post(rule)(limit_guesses(limit_writes(_answered(view)))))
    return route


def _on_player(table: str, player: str, field: str, kind: type,
               change: Callable[[Group, Player, Any], Player]) -> Response:
    """`change` (the table, its player of key `player`, the body's one `field`), answered
    with the player as it is now."""
    body = _fields({field: kind})
    return _change(table, lambda g: {"player": _player(change(
        g, identity.player_of(g, player), body[field]))})


@_writes("/tables/<table>/players/<player>/rename")
def rename_player(table: str, player: str) -> Response:
    """Rename a player: `{"name": "..."}`."""
    return _on_player(table, player, "name", str, identity.rename)


@_writes("/tables/<table>/players/<player>/merge")
def merge_player(table: str, player: str) -> Response:
    """Merge a player into another: `{"into": "<player key>"}`."""
    body = _fields({"into": str})

    def change(group: Group) -> dict[str, Any]:
        source = identity.player_of(group, player)
        target = identity.player_of(group, body["into"], "into")
        record = identity.merge(group, source, target)
        return {"merge": _merge(record), "player": _player(target)}
    return _change(table, change)


@_writes("/tables/<table>/players/<player>/guest")
def guest_player(table: str, player: str) -> Response:
    """Mark a player as a guest or a regular: `{"guest": true}`."""
    return _on_player(table, player, "guest", bool, identity.mark_guest)


@_writes("/tables/<table>/merges/<merge>/undo")
def undo_merge(table: str, merge: str) -> Response:
    """Undo a merge: the player merged away is back with its seats."""
    return _change(table, lambda g: {"player": _player(identity.undo(g, merge_of(g, merge[:16])))})
