"""The statistics' rows: each match's counts (`MatchTally`) and each table's sums per
variant (`TableTally`), written in the caller's transaction; the reads of `/stats`.

A table's sums change by the difference between a match's old and new rows, added with one
upsert whose rows come in one fixed order, so that two transactions changing the sums of
one table wait for each other rather than deadlock (PostgreSQL locks the rows in that
order; SQLite has one writer at a time). The writes are statements built once, run on the
session's connection (`_run`): the session's own `execute` would first flush what the ORM
holds of the match, which these tables do not depend on, at about twice their CPU."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..models import Hand, Match, MatchTally, TableTally
from ..scoring.stats import COUNTS
from .counting import SCORED, Key, Rows

_MATCH = MatchTally.__table__
_TABLE = TableTally.__table__
_READ = db.select(_MATCH.c.side, _MATCH.c.who, *(_MATCH.c[c] for c in COUNTS)).where(
    _MATCH.c.match_id == bindparam("match"))
_DELETE = delete(_MATCH).where(_MATCH.c.match_id == bindparam("match"))
_INSERT = insert(_MATCH)
_ADD_TO_MATCH = update(_MATCH).where(
    _MATCH.c.match_id == bindparam("match"), _MATCH.c.side == bindparam("row_side"),
    _MATCH.c.who == bindparam("row_who")).values(
    {c: _MATCH.c[c] + bindparam(f"add_{c}") for c in COUNTS})


def _run(statement: Any, values: Any) -> Any:
    """A statement built once, on the session's connection, in its transaction."""
    return db.session.connection().execute(statement, values)


def read(match_id: int) -> Rows:
    """The match's stored counts."""
    return {(side, who): list(c) for side, who, *c in _run(_READ, {"match": match_id})}


def hands(match: Match) -> list[Hand]:
    """The match's hands in play, read afresh."""
    return list(db.session.execute(db.select(Hand).where(
        Hand.match_id == match.id, Hand.deleted_at.is_(None)).order_by(Hand.number)).scalars())


def replace(match: Match, new: Rows, old: Rows | None = None) -> None:
    """The match's counts are now `new` (`old`: as read already): its rows rewritten and
    its table's sums changed by the difference."""
    if old is None:
        old = read(match.id)
    if new == old:
        return
    _run(_DELETE, {"match": match.id})
    if new:
        _run(_INSERT, [_match_row(match.id, key, c) for key, c in new.items()])
    zero = [0] * len(COUNTS)
    difference = {key: [a - b for a, b in zip(new.get(key, zero), old.get(key, zero),
                                               strict=True)]
                  for key in new.keys() | old.keys()}
    _add(match.group_id, match.variant, difference)


def add(match: Match, difference: Rows) -> bool:
    """Add `difference` to the match's rows and its table's sums, the rows it names being
    there already (a hand added changes no player): False, with nothing added to the
    sums, when one is missing."""
    if _to_rows(match, difference, 1).rowcount != len(difference):
        take_back(match, difference)
        return False
    _add(match.group_id, match.variant, difference)
    return True


def take_back(match: Match, difference: Rows) -> None:
    """`difference` was added to those of the match's rows that were found, not all were:
    taken back, so that the recount that follows reads them as they were (it would
    otherwise leave this hand out of the table's sums)."""
    _to_rows(match, difference, -1)


def _to_rows(match: Match, difference: Rows, sign: int) -> Any:
    return _run(_ADD_TO_MATCH, [
        {"match": match.id, "row_side": side, "row_who": who,
         **{f"add_{c}": sign * n for c, n in zip(COUNTS, counts, strict=True)}}
        for (side, who), counts in sorted(difference.items())])


def insert_new(counted: Sequence[tuple[Match, Rows]]) -> None:
    """Rows of matches stored just now (none kept yet), and their tables' sums: one insert
    for all the rows, one upsert per table and variant."""
    rows = [_match_row(m.id, key, c) for m, found in counted for key, c in found.items()]
    if rows:
        _run(_INSERT, rows)
    sums: dict[tuple[int, str], Rows] = {}
    for match, found in counted:
        into = sums.setdefault((match.group_id, match.variant), {})
        for key, c in found.items():
            into[key] = [a + b for a, b in zip(into.get(key, [0] * len(COUNTS)), c,
                                               strict=True)]
    for (group_id, variant), found in sorted(sums.items()):
        _add(group_id, variant, found)


def add_to_table(group_id: int, variant: str, difference: Rows) -> None:
    """Add `difference` to the table's sums of this variant (a player renamed:
    `players.tallies`)."""
    _add(group_id, variant, difference)


def _match_row(match_id: int, key: Key, counts: list[int]) -> dict[str, Any]:
    return {"match_id": match_id, "side": key[0], "who": key[1],
            **dict(zip(COUNTS, counts, strict=True))}


def _add(group_id: int, variant: str, difference: Rows) -> None:
    """Add `difference` to the table's sums of this variant (rows not there yet start at
    0), in the order of their keys."""
    rows = [{"group_id": group_id, "variant": variant, "side": side, "who": who,
             **dict(zip(COUNTS, c, strict=True))}
            for (side, who), c in sorted(difference.items()) if any(c)]
    if not rows:
        return
    _run(_upsert(db.session.get_bind().dialect.name), rows)


@cache
def _upsert(dialect: str) -> Any:
    """Add a row to the table's sums (one statement, built once per dialect, run for many
    rows)."""
    upsert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_TABLE)
    return upsert.on_conflict_do_update(
        index_elements=[_TABLE.c.group_id, _TABLE.c.variant, _TABLE.c.side, _TABLE.c.who],
        set_={c: _TABLE.c[c] + upsert.excluded[c] for c in COUNTS})


def table_sums(group_ids: list[int]) -> list[tuple[str, int, str, list[int]]]:
    """The sums of these tables' matches per variant and player or partnership: one read
    of their sums (a name at several tables counts once)."""
    found = db.session.execute(
        db.select(_TABLE.c.variant, _TABLE.c.side, _TABLE.c.who,
                  *(func.sum(_TABLE.c[c]) for c in COUNTS))
        .where(_TABLE.c.group_id.in_(group_ids), _TABLE.c.variant.in_(SCORED))
        .group_by(_TABLE.c.variant, _TABLE.c.side, _TABLE.c.who)).all()
    return [(variant, side, who, list(c)) for variant, side, who, *c in found]


def period_sums(group_ids: list[int], since: datetime) -> list[tuple[str, int, str, list[int]]]:
    """As `table_sums`, over the matches started at or after `since` only: their rows
    summed (a period is a few evenings' matches)."""
    found = db.session.execute(
        db.select(Match.variant, _MATCH.c.side, _MATCH.c.who,
                  *(func.sum(_MATCH.c[c]) for c in COUNTS))
        .join_from(Match, _MATCH, _MATCH.c.match_id == Match.id)
        .where(Match.group_id.in_(group_ids), Match.variant.in_(SCORED),
               Match.started_at >= since)
        .group_by(Match.variant, _MATCH.c.side, _MATCH.c.who)).all()
    return [(variant, side, who, list(c)) for variant, side, who, *c in found]
