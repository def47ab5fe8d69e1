"""A player's name in the statistics' stored sums (`statistics.store`), which are keyed by
name: a player's rows (`side` 0, `who` the name) and a partnership's (`side` 1, `who` the
sorted names as a JSON list). A rename, a merge and its undo all come to this: in some of
the table's matches, a name is now another, which appears in none of them. Their rows are
rekeyed, and the table's sums changed by what moved (taken from the old keys, added to the
new ones, which may hold other matches' counts already: a merge), in the change's
transaction, reading only those matches' rows. What a match counts depends on its names
only as keys, so this equals a recount (`tests/players/test_identity.py` checks it)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import func, update

from ..extensions import db
from ..models import Match, MatchTally, TableTally
from ..scoring.stats import COUNTS
from ..statistics import counting, store

_MATCH = MatchTally.__table__
_TABLE = TableTally.__table__
CHUNK = 500  # match ids per IN (…)


def _pair(names: list[str]) -> str:
    return counting.who(tuple(sorted(names)))[1]


def renamed(group_id: int, old: str, new: str, match_ids: Sequence[int]) -> None:
    """In the matches `match_ids` (held), `old` is now `new`: the counts of `old` and of
    every partnership with `old` move to `new`'s keys."""
    if old == new or not match_ids:
        return
    moved: dict[tuple[int, str], tuple[int, str]] = {
        (counting.PLAYER, old): (counting.PLAYER, new)}
    for (who,) in db.session.execute(db.select(_TABLE.c.who).distinct().where(
            _TABLE.c.group_id == group_id, _TABLE.c.side == counting.PAIR)):
        names = json.loads(who)
        if old in names:
            moved[counting.PAIR, who] = counting.PAIR, _pair(
                [new if n == old else n for n in names])
    ids = sorted(match_ids)
    whos = sorted({who for _side, who in moved})
    differences: dict[str, dict[tuple[int, str], list[int]]] = {}
    for at in range(0, len(ids), CHUNK):
        for variant, side, who, *counts in db.session.execute(
                db.select(Match.variant, _MATCH.c.side, _MATCH.c.who,
                          *(func.sum(_MATCH.c[c]) for c in COUNTS))
                .join_from(_MATCH, Match, Match.id == _MATCH.c.match_id)
                .where(_MATCH.c.match_id.in_(ids[at:at + CHUNK]), _MATCH.c.who.in_(whos))
                .group_by(Match.variant, _MATCH.c.side, _MATCH.c.who)):
            if (side, who) not in moved:
                continue
            into = differences.setdefault(variant, {})
            for key, sign in (((side, who), -1), (moved[side, who], 1)):
                into[key] = [a + sign * int(b or 0) for a, b in zip(
                    into.get(key, [0] * len(COUNTS)), counts, strict=True)]
    for (side, who), (_side, to) in sorted(moved.items()):
        for at in range(0, len(ids), CHUNK):
            db.session.execute(update(_MATCH).where(
                _MATCH.c.match_id.in_(ids[at:at + CHUNK]), _MATCH.c.side == side,
                _MATCH.c.who == who).values(who=to).execution_options(
                synchronize_session=False))
    for variant, difference in sorted(differences.items()):
        store.add_to_table(group_id, variant, difference)
