"""A player's new name in the statistics' stored sums (`statistics.store`), which are keyed
by name: a player's rows (`side` 0, `who` the name) and a partnership's (`side` 1, `who`
the sorted names as a JSON list) of the table's matches and of its sums, rekeyed in the
rename's transaction, so that /stats reads them as it always does and equals a recount.

A merge moves seats from one player to another, which changes what a match counts: its
matches are counted again (`statistics.record`), which rewrites their rows and changes the
table's sums by the difference (an undo does the same)."""

from __future__ import annotations

import json

from sqlalchemy import delete, update

from ..extensions import db
from ..models import Match, MatchTally, TableTally
from ..scoring.stats import COUNTS
from ..statistics import counting, store

_MATCH = MatchTally.__table__
_TABLE = TableTally.__table__


def _pair(names: list[str]) -> str:
    return counting.who(tuple(sorted(names)))[1]


def renamed(group_id: int, old: str, new: str) -> None:
    """The table's stored counts of `old` (and of every partnership with `old`) are now
    `new`'s: its match rows rekeyed, its sums moved (added to any row `new` had, all zero:
    a name merged away leaves its sums at 0). Call it after the matches are held."""
    if old == new:
        return
    moved: dict[tuple[int, str], str] = {(counting.PLAYER, old): new}
    for (who,) in db.session.execute(db.select(_TABLE.c.who).distinct().where(
            _TABLE.c.group_id == group_id, _TABLE.c.side == counting.PAIR)):
        names = json.loads(who)
        if old in names:
            moved[counting.PAIR, who] = _pair([new if n == old else n for n in names])
    in_table = db.select(Match.id).where(Match.group_id == group_id).scalar_subquery()
    for (side, who), to in sorted(moved.items()):
        db.session.execute(update(_MATCH).where(
            _MATCH.c.side == side, _MATCH.c.who == who, _MATCH.c.match_id.in_(in_table))
            .values(who=to).execution_options(synchronize_session=False))
    sums: dict[str, dict[tuple[int, str], list[int]]] = {}
    for variant, side, who, *counts in db.session.execute(
            db.select(_TABLE.c.variant, _TABLE.c.side, _TABLE.c.who,
                      *(_TABLE.c[c] for c in COUNTS))
            .where(_TABLE.c.group_id == group_id)
            .order_by(_TABLE.c.variant, _TABLE.c.side, _TABLE.c.who)):
        if (side, who) in moved:
            sums.setdefault(variant, {})[side, moved[side, who]] = list(counts)
            db.session.execute(delete(_TABLE).where(
                _TABLE.c.group_id == group_id, _TABLE.c.variant == variant,
                _TABLE.c.side == side, _TABLE.c.who == who))
    for variant, found in sorted(sums.items()):
        store.add_to_table(group_id, variant, found)
