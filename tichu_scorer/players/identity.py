"""Rename, merge, undo a merge, mark a guest: the changes of a table's players, each in
the caller's write transaction (`matches.writes.writing`), the table held first
(`writes.lock_table`), then the matches the change touches, by id, then the rows it
changes (the statistics' sums last), as every write of a whole table takes its locks.

A player's name lives on its row only, but the statistics' sums and a tournament's entries
hold names: a rename rekeys them (`tallies`, `tournaments`); a merge moves the seats of one
player to the other, rekeys their statistics alike and keeps a `PlayerMerge` with what it
moved, which an undo puts back. Every match touched gets a new revision and stamp: its
pages, exports and the table's version (`live`) change with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, update
from sqlalchemy.orm import lazyload

from ..clock import utcnow
from ..extensions import db
from ..game import names
from ..matches import prebuilt
from ..models import Group, Match, MatchSeat
from ..tables import phones
from . import tallies, tournaments
from .errors import Refused
from .rows import KEY_LENGTH, NAME_MAX, Player, PlayerMerge

__all__ = ["Listed", "Refused", "clean_name", "listing", "mark_guest", "merge", "merges",
           "rename", "undo"]


@dataclass(frozen=True)
class Listed:
    """A player as the players' page lists it."""

    player: Player
    matches: int


def clean_name(raw: object) -> str:
    """A player's name as given (spaces collapsed), or Refused naming the field."""
    name = " ".join(str(raw or "").split()) if isinstance(raw, str) else ""
    if not name or len(name) > NAME_MAX or any(ord(c) < 32 for c in name):
        raise Refused("name", _("A player's name is 1 to %(n)s characters.", n=NAME_MAX))
    if (unseen := names.hidden(name)) is not None:
        raise Refused("name", _("The name holds a character that cannot be seen (%(code)s): "
                                "type it again.", code=unseen))
    if len(Player.key_of(name)) > 3 * NAME_MAX:
        raise Refused("name", _("This name is too long once case is ignored."))
    return name


def player_of(group: Group, key: object, field: str = "player") -> Player:
    """The table's player with this public key, or Refused (404: a key of another table
    tells nothing)."""
    if key == "":
        raise Refused(field, _("Choose a player"))
    if not isinstance(key, str) or len(key) > KEY_LENGTH:
        raise Refused(field, _("No such player at this table."), status=404)
    player: Player | None = db.session.execute(db.select(Player).filter_by(
        group_id=group.id, key=key)).scalar_one_or_none()
    if player is None:
        raise Refused(field, _("No such player at this table."), status=404)
    return player


def listing(group: Group) -> list[Listed]:
    """The table's players with the matches each played: regulars first, then guests, each
    by name."""
    played = (db.select(MatchSeat.player_id, func.count(MatchSeat.id).label("n"))
              .join(Player, Player.id == MatchSeat.player_id)
              .where(Player.group_id == group.id)
              .group_by(MatchSeat.player_id).subquery())
    rows = db.session.execute(
        db.select(Player, func.coalesce(played.c.n, 0))
        .outerjoin(played, played.c.player_id == Player.id)
        .where(Player.group_id == group.id)).all()
    found = [Listed(p, int(n)) for p, n in rows]
    return sorted(found, key=lambda x: (x.player.guest, x.player.name_key, x.player.id))


def merges(group: Group, most: int = 30) -> list[PlayerMerge]:
    """The table's merges, newest first."""
    return list(db.session.execute(
        db.select(PlayerMerge).filter_by(group_id=group.id)
        .order_by(PlayerMerge.at.desc(), PlayerMerge.id.desc()).limit(most)).scalars())


def _hold(group: Group, player_ids: Sequence[int]) -> list[Match]:
    """The matches these players played, by id, held (PostgreSQL: FOR UPDATE) and read
    afresh: a save at one of them waits for this change, or this change for it."""
    return list(db.session.execute(
        db.select(Match).where(Match.group_id == group.id, Match.id.in_(
            db.select(MatchSeat.match_id).where(MatchSeat.player_id.in_(list(player_ids)))))
        .order_by(Match.id).with_for_update(of=Match)
        .options(lazyload(Match.group), lazyload(Match.seats))
        .execution_options(populate_existing=True)).scalars())


def _hold_players(group: Group, matches: list[Match], player_ids: Sequence[int]) -> None:
    """Hold the players' rows (PostgreSQL: FOR UPDATE, which waits for a change that is
    giving one of them a seat meanwhile, `matches.settings`), then the matches such a
    change seated them in since `_hold` read theirs."""
    db.session.execute(db.select(Player.id).where(Player.id.in_(list(player_ids)))
                       .with_for_update())
    held = {m.id for m in matches}
    more = [m for m in _hold(group, player_ids) if m.id not in held]
    matches.extend(more)


def _changed(group: Group, matches: Sequence[Match]) -> None:
    """A new revision and stamp for every match whose players changed."""
    ids = [m.id for m in matches]
    for at in range(0, len(ids), 500):
        db.session.execute(update(Match).where(Match.id.in_(ids[at:at + 500])).values(
            revision=Match.revision + 1, stamp=prebuilt.next_stamp(group.id))
            .execution_options(synchronize_session=False))


def _free(group: Group, name: str, player: Player | None) -> None:
    """Refused when another player of the table has this name (any case): that is a
    merge."""
    other = db.session.execute(db.select(Player).filter_by(
        group_id=group.id, name_key=Player.key_of(name))).scalar_one_or_none()
    if other is not None and other is not player:
        raise Refused("name", _("%(name)s is another player of this table. To make them one "
                                "player, merge them.", name=other.name), status=409)


def rename(group: Group, player: Player, raw_name: object) -> Player:
    """The player's new name, everywhere: its matches (they read it from the player), the
    statistics' sums, the ratings (counted from the matches), the table's tournament."""
    name = clean_name(raw_name)
    _free(group, name, player)
    if name == player.name:
        return player
    matches = _hold(group, [player.id])
    _hold_players(group, matches, [player.id])
    tallies.renamed(group.id, player.name, name, [m.id for m in matches])
    tournaments.renamed(group.id, player.name_key, name)
    player.name, player.name_key = name, Player.key_of(name)
    db.session.flush()
    _changed(group, matches)
    return player


def mark_guest(group: Group, player: Player, guest: bool) -> Player:
    """A guest (or a regular again): listed apart; its matches' exports carry the mark."""
    if player.guest != guest:
        matches = _hold(group, [player.id])
        player.guest = guest
        _changed(group, matches)
    return player


def merge(group: Group, source: Player, target: Player) -> PlayerMerge:
    """`source` becomes `target`: every seat it held is the target's, the tournament's
    entries name the target, the statistics count the target; `source` is gone. Refused
    when both played in one match, or both are entries of the table's tournament ([H1]:
    one player holds one seat)."""
    if source.id == target.id:
        raise Refused("into", _("A player cannot be merged into itself."))
    matches = _hold(group, [source.id, target.id])
    _hold_players(group, matches, [source.id, target.id])
    both = db.session.execute(
        db.select(func.count()).select_from(MatchSeat).where(
            MatchSeat.player_id == source.id, MatchSeat.match_id.in_(
                db.select(MatchSeat.match_id).where(MatchSeat.player_id == target.id))
        )).scalar_one()
    if both:
        raise Refused("into", _("%(a)s and %(b)s played in the same match: they are two "
                                "players.", a=source.name, b=target.name),
                      "H1", status=409)
    if tournaments.named(group.id, source.name_key, target.name_key):
        raise Refused("into", _("%(a)s and %(b)s are both entries of the tournament: they "
                                "are two players.", a=source.name, b=target.name),
                      "TN1", status=409)
    seats = list(db.session.execute(db.select(MatchSeat).filter_by(
        player_id=source.id).order_by(MatchSeat.id)).scalars())
    record = PlayerMerge(
        group_id=group.id, target_key=target.key, source_name=source.name,
        target_name=target.name, seats=[s.id for s in seats],
        tournament=_kept(group.id, source.name_key), phone=phones.name(),
        source={"key": source.key, "name": source.name, "name_key": source.name_key,
                "guest": source.guest, "created_at": source.created_at.isoformat()})
    tournaments.renamed(group.id, source.name_key, target.name)
    _moved(group, matches, seats, source.name, target.name)
    for seat in seats:
        seat.player = target
    db.session.add(record)
    db.session.flush()
    db.session.delete(source)
    return record


def _kept(group_id: int, source_key: str) -> dict[str, Any] | None:
    """What a merge keeps of the table's tournament for its undo: the names before
    (`snapshot`) and the entries it renames (`merged`)."""
    before = tournaments.snapshot(group_id)
    if before is None:
        return None
    return before | {"merged": tournaments.merged_entries(before, source_key)}


def _moved(group: Group, matches: Sequence[Match], seats: Sequence[MatchSeat], old: str,
           new: str) -> None:
    """The seats go from the player named `old` to the one named `new`: their matches'
    statistics follow (`tallies`), and they get a new revision."""
    changed = {s.match_id for s in seats}
    tallies.renamed(group.id, old, new, sorted(changed))
    _changed(group, [m for m in matches if m.id in changed])


def undo(group: Group, record: PlayerMerge) -> Player:
    """Put back what the merge moved: the player merged away (its key, name, guest mark),
    its seats, the tournament's entries; refused when already undone, when the player it
    went into is gone (merged since: undo that first), or when its name is another
    player's now."""
    if record.undone_at is not None:
        raise Refused("merge", _("This merge was undone already."), status=409)
    target = db.session.execute(db.select(Player).filter_by(
        group_id=group.id, key=record.target_key)).scalar_one_or_none()
    if target is None:
        raise Refused("merge", _("%(name)s was merged into another player since: undo that "
                                 "merge first.", name=record.target_name), status=409)
    source = record.source
    taken = db.session.execute(db.select(Player).filter_by(
        group_id=group.id, name_key=Player.key_of(source["name"]))).scalar_one_or_none()
    if taken is not None:  # a player of that name came since (a new match named them)
        raise Refused("merge", _("%(name)s is the name of another player now: rename "
                                 "%(name)s first, then undo the merge.", name=taken.name),
                      status=409)
    matches = _hold(group, [target.id])
    _hold_players(group, matches, [target.id])
    seats = list(db.session.execute(db.select(MatchSeat).where(
        MatchSeat.id.in_(list(record.seats)), MatchSeat.player_id == target.id)).scalars())
    back = Player(group_id=group.id, key=source["key"], name=source["name"],
                  name_key=source["name_key"], guest=bool(source["guest"]),
                  created_at=datetime.fromisoformat(source["created_at"]))
    db.session.add(back)
    db.session.flush()
    _moved(group, matches, seats, target.name, back.name)
    for seat in seats:
        seat.player = back
    before = record.tournament or {}
    if "merged" in before:  # the entries it renamed, named anew: later changes stay
        tournaments.unmerged(group.id, before["merged"], target, back.name)
    else:  # kept before merges noted their entries
        tournaments.restore(group.id, before)
    record.undone_at = utcnow()
    return back
