"""The table's players (`/players`): the list with the matches each played, regulars apart
from guests; rename, merge into another, guest mark, and the table's merges with an undo.
Members read; scorers change (`access`). The player's own page is `player_page`'s."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from ..extensions import db
from ..limits import limit_reads, limit_writes
from ..matches import writes
from ..models import Group, Player, PlayerMerge
from ..players import identity
from ..players.errors import Refused
from ..tables import access
from .errors import form_value

bp = Blueprint("players", __name__)


def _page(groups: list[Group], refused: Refused | None = None, status: int = 200
          ) -> tuple[str, int]:
    tables = [(g, access.role_in(g) == "scorer", identity.listing(g), identity.merges(g))
              for g in groups]
    return render_template("players/list.html", tables=tables, refused=refused), status


def _chosen() -> list[Group]:
    """The tables shown: `?table=<key>` (one this phone joined), else every one joined."""
    groups = access.groups()
    key = request.args.get("table")
    if key:
        groups = [g for g in groups if g.key == key] or groups
    return groups


@bp.get("/players")
@limit_reads
def index() -> tuple[str, int]:
    return _page(_chosen())


def _group_of(model: type[Player] | type[PlayerMerge], key: str) -> int:
    """The table id of a player's (or a merge's) key, if this phone scores the table; 404
    for a phone that has not joined it, 403 for a viewer."""
    found = db.session.execute(db.select(model.group_id).filter_by(
        key=key[:16])).scalar_one_or_none()
    group = db.session.get(Group, found) if found is not None else None
    return access.require_group(group, "scorer").id


def _change(group_id: int, change: str, key: str) -> Response | tuple[str, int]:
    """Run one change in a write that holds the table (the phone still scoring it), then
    back to the list; a refusal is the list again with the message (its status)."""
    try:
        with writes.writing():
            group = access.require_group(writes.lock_table(group_id), "scorer")
            message = _do(group, change, key)
    except Refused as exc:
        db.session.rollback()
        return _page(access.groups(), exc, exc.status)
    flash(message)
    return redirect(url_for("players.index", table=group.key), code=303)


def merge_of(group: Group, key: str) -> PlayerMerge:
    """The merge of this key at `group` (to undo); Refused (404) for any other key."""
    record: PlayerMerge | None = db.session.execute(db.select(PlayerMerge).filter_by(
        group_id=group.id, key=key)).scalar_one_or_none()
    if record is None:
        raise Refused("merge", gettext("No such merge at this table."), status=404)
    return record


def _do(group: Group, change: str, key: str) -> str:
    if change == "undo":
        back = identity.undo(group, merge_of(group, key))
        return str(gettext("Merge undone: %(name)s is a player of their own again.",
                           name=back.name))
    player = identity.player_of(group, key)
    if change == "rename":
        old, was = player.name, form_value("was")
        if was and was != old:  # the form showed another name: another phone renamed since
            raise Refused("name", gettext(
                "%(was)s was renamed %(now)s on another phone meanwhile; nothing was changed.",
                was=was, now=old), status=409)
        identity.rename(group, player, form_value("name"))
        return str(gettext("%(old)s is now %(new)s, in every match.", old=old,
                           new=player.name))
    if change == "merge":
        target = identity.player_of(group, form_value("into"), "into")
        merged = identity.merge(group, player, target)
        return str(ngettext("%(a)s merged into %(b)s (%(num)d match moved).",
                        "%(a)s merged into %(b)s (%(num)d matches moved).", len(merged.seats),
                        a=merged.source_name, b=target.name))
    marked = form_value("guest")
    if marked not in ("0", "1"):
        raise Refused("guest", gettext("“guest” is 1 (a guest) or 0 (a regular)."))
    guest = marked == "1"
    identity.mark_guest(group, player, guest)
    return str(gettext("%(name)s is marked as a guest.", name=player.name) if guest
               else gettext("%(name)s is a regular now.", name=player.name))


@bp.post("/players/<key>/rename")
@limit_writes
def rename(key: str) -> Response | tuple[str, int]:
    return _change(_group_of(Player, key), "rename", key)


@bp.post("/players/<key>/merge")
@limit_writes
def merge(key: str) -> Response | tuple[str, int]:
    return _change(_group_of(Player, key), "merge", key)


@bp.post("/players/<key>/guest")
@limit_writes
def guest(key: str) -> Response | tuple[str, int]:
    return _change(_group_of(Player, key), "guest", key)


@bp.post("/players/merges/<key>/undo")
@limit_writes
def undo(key: str) -> Response | tuple[str, int]:
    return _change(_group_of(PlayerMerge, key), "undo", key)
