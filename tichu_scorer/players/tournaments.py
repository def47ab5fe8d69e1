"""A player's name in the tournament of its table, if the table is one's (`Tournament`):
the entries (an individual entry's name, a pair's members and the pair's name made of
them) and the rounds' byes hold names, so a rename or a merge follows into them, and an
undo of a merge puts back what they held before (`snapshot`, `restore`)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from ..extensions import db
from ..models import Player, Tournament
from ..tournaments.formats.base import pair_name
from .errors import Refused


def _of(group_id: int) -> Tournament | None:
    return db.session.execute(
        db.select(Tournament).filter_by(group_id=group_id)).scalar_one_or_none()


def snapshot(group_id: int) -> dict[str, Any] | None:
    """What the table's tournament holds of names (None: the table is no tournament's)."""
    tournament = _of(group_id)
    if tournament is None:
        return None
    return {"entries": [{"id": e.id, "name": e.name, "name_key": e.name_key,
                         "members": list(e.members) if e.members else None}
                        for e in tournament.entries],
            "rounds": [{"id": r.id, "byes": list(r.byes)} for r in tournament.played]}


def restore(group_id: int, before: dict[str, Any] | None) -> None:
    """The tournament's entries and byes as `snapshot` read them (those still there): the
    undo of a merge kept before the merges knew `merged_entries` (nothing newer)."""
    tournament = _of(group_id)
    if tournament is None or not before:
        return
    entries = {e["id"]: e for e in before.get("entries", [])}
    for entry in tournament.entries:
        if (old := entries.get(entry.id)) is not None:
            entry.name, entry.name_key, entry.members = (old["name"], old["name_key"],
                                                         old["members"])
    rounds = {r["id"]: r["byes"] for r in before.get("rounds", [])}
    for rnd in tournament.played:
        if rnd.id in rounds:
            rnd.byes = list(rounds[rnd.id])


def merged_entries(before: dict[str, Any] | None, source_key: str) -> list[int]:
    """The entries a merge gave the target's name: those of `before` (its `snapshot`) that
    named the player merged away, alone or as a pair's member."""
    return [e["id"] for e in (before or {}).get("entries", [])
            if e["name_key"] == source_key
            or any(Player.key_of(m) == source_key for m in e["members"] or ())]


def unmerged(group_id: int, entries: list[int], target: Player, source: str) -> None:
    """The undo of a merge: the entries it gave the target's name (`merged_entries`) name
    the player merged away (`source`) again, as a rename of them alone would, the byes of
    every round following; whatever else changed since stays (a rename, an arrival, a
    round drawn). Refused (409) when one of them no longer names the target."""
    tournament = _of(group_id)
    if tournament is None or not entries:
        return
    ours = [e for e in tournament.entries if e.id in entries]
    for entry in ours:
        if entry.name_key != target.name_key and not any(
                Player.key_of(m) == target.name_key for m in entry.members or ()):
            raise Refused("merge", _(
                "The tournament's entry %(entry)s no longer names %(name)s: undoing the merge "
                "would take it from whoever it names now. Nothing was changed.",
                entry=entry.name, name=target.name), status=409)
    renamed(group_id, target.name_key, source, only={e.id for e in ours})


def named(group_id: int, *keys: str) -> bool:
    """Whether every one of these name keys is an entry or a member of the table's
    tournament."""
    tournament = _of(group_id)
    if tournament is None:
        return False
    found = {e.name_key for e in tournament.entries}
    found |= {Player.key_of(m) for e in tournament.entries for m in e.members or ()}
    return all(k in found for k in keys)


def renamed(group_id: int, old_key: str, new: str, only: set[int] | None = None) -> None:
    """Every name of the tournament whose key is `old_key` becomes `new` (a pair named
    after its members takes its members' new names), and the byes follow the entries;
    `only`: in these entries alone (by id)."""
    tournament = _of(group_id)
    if tournament is None:
        return
    names: dict[str, str] = {}  # an entry's name before -> after
    taken = {e.name_key for e in tournament.entries}
    for entry in tournament.entries:
        name = entry.name
        if only is not None and entry.id not in only:
            continue
        if entry.members:
            members = [new if Player.key_of(m) == old_key else m for m in entry.members]
            if members != list(entry.members):
                if entry.name == pair_name(entry.members):
                    name = pair_name(members)
                entry.members = members
        elif entry.name_key == old_key:
            name = new
        if name != entry.name:
            key = Player.key_of(name)
            if key != entry.name_key and key in taken:
                raise Refused("name", _("The tournament has an entry named %(name)s already.",
                                        name=name), "TN1")
            taken.discard(entry.name_key)
            taken.add(key)
            names[entry.name] = name
            entry.name, entry.name_key = name, key
    for rnd in tournament.played:
        if any(b in names for b in rnd.byes):
            rnd.byes = [names.get(b, b) for b in rnd.byes]
