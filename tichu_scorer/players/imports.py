"""The players an import names, mapped to the table's (by name, without regard to case or
spacing, as a name typed at the table is): the ids of those found and of those inserted,
and what was matched, for the import to say so. A name found takes the table's spelling in
the imported matches (their statistics count it under the name the table shows)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert

from ..extensions import db
from .rows import KEY_LENGTH, Player, new_player_key

CHUNK = 500  # values per IN (…)
KEY = re.compile(rf"[A-Za-z0-9_-]{{{KEY_LENGTH}}}")  # a player's key as `new_player_key` makes it


@dataclass(frozen=True)
class Matched:
    """What an import did with its names: `existing` as (the name in the file, the
    table's player it became), `new` the players it added."""

    existing: list[tuple[str, str]] = field(default_factory=list)
    new: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"existing": [{"name": a, "player": b} for a, b in self.existing],
                "new": list(self.new)}


def file_people(raw: Mapping[str, Any], seats: int) -> list[tuple[str | None, bool | None]]:
    """Each seat's player key and guest mark as an export (since players had them) gives
    them beside `players`: `player_keys` and `guests`, lists by seat; an older export, or
    a value that is not one, gives none (the import makes a key and takes no guest)."""
    keys, guests = raw.get("player_keys"), raw.get("guests")
    keys = keys if isinstance(keys, list) else []
    guests = guests if isinstance(guests, list) else []
    found: list[tuple[str | None, bool | None]] = []
    for seat in range(seats):
        key = keys[seat] if seat < len(keys) else None
        guest = guests[seat] if seat < len(guests) else None
        found.append((key if isinstance(key, str) and KEY.fullmatch(key) else None,
                      guest if isinstance(guest, bool) else None))
    return found


def _taken(keys: Sequence[str]) -> set[str]:
    """The player keys already held, by any table (a key is unique everywhere)."""
    found: set[str] = set()
    for at in range(0, len(keys), CHUNK):
        found |= set(db.session.execute(db.select(Player.key).where(
            Player.key.in_(keys[at:at + CHUNK]))).scalars())
    return found


def _stored(keys: Sequence[str], group_id: int) -> dict[str, tuple[int, str]]:
    found: dict[str, tuple[int, str]] = {}
    for at in range(0, len(keys), CHUNK):
        found |= {k: (i, n) for k, i, n in db.session.execute(
            db.select(Player.name_key, Player.id, Player.name).where(
                Player.group_id == group_id, Player.name_key.in_(keys[at:at + CHUNK])))}
    return found


def player_ids(players: Mapping[str, Player], group_id: int) -> tuple[dict[str, int], Matched]:
    """The id of every player the import names at its table (by name key): stored ones
    found, new ones inserted; and what was matched."""
    keys = list(players)
    known = _stored(keys, group_id)
    new = [k for k in keys if k not in known]
    taken = _taken(sorted({players[k].key for k in new if players[k].key}))
    rows = []
    for k in new:  # a key held already, or given to two names by the file: a new one
        key = players[k].key if players[k].key and players[k].key not in taken else None
        taken.add(key := key or new_player_key())
        rows.append({"group_id": group_id, "name": players[k].name, "name_key": k,
                     "key": key, "guest": bool(players[k].guest)})
    if rows:
        db.session.execute(insert(Player.__table__), rows)
    matched = Matched(sorted((players[k].name, known[k][1]) for k in keys if k in known),
                      sorted(str(r["name"]) for r in rows))
    for key, (_id, name) in known.items():
        players[key].name = name
    return {k: i for k, (i, _name) in _stored(keys, group_id).items()}, matched
