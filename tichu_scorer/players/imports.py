"""The players an import names, mapped to the table's (by name, without regard to case or
spacing, as a name typed at the table is): the ids of those found and of those inserted,
and what was matched, for the import to say so. A name found takes the table's spelling in
the imported matches (their statistics count it under the name the table shows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert

from ..extensions import db
from .rows import Player

CHUNK = 500  # values per IN (…)


@dataclass(frozen=True)
class Matched:
    """What an import did with its names: `existing` as (the name in the file, the
    table's player it became), `new` the players it added."""

    existing: list[tuple[str, str]] = field(default_factory=list)
    new: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"existing": [{"name": a, "player": b} for a, b in self.existing],
                "new": list(self.new)}


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
    rows = [{"group_id": group_id, "name": players[k].name, "name_key": k}
            for k in keys if k not in known]
    if rows:
        db.session.execute(insert(Player.__table__), rows)
    matched = Matched(sorted((players[k].name, known[k][1]) for k in keys if k in known),
                      sorted(str(r["name"]) for r in rows))
    for key, (_id, name) in known.items():
        players[key].name = name
    return {k: i for k, (i, _name) in _stored(keys, group_id).items()}, matched
