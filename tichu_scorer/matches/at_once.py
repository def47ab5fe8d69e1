"""PostgreSQL: a new hand's writes in one statement. A save on PostgreSQL waits for the
server once per statement, and each statement costs SQLAlchemy's and psycopg's share of
CPU besides (with the client-side bound on its wait, `database.py`): written one by one,
the hand, the statistics' rows of the match, its table's sums, the match's columns and the
log line are five statements in four waits (the statistics' two as pipelines), as much CPU
as the rest of the save. Here they are one statement of data-modifying WITH clauses, built
once (`add`): the same rows, in the same transaction, in the same lock order (the table's
sums, shared with the table's other matches, last and in their keys' order).

What the plain path checks between its statements is read from the statement's answer
instead (`Written`): the entry number the hand got (`hand_entry.add_hand` raises `Stale`
and rolls back on a mismatch) and how many of the match's statistics rows were found; the
table's sums are added only when all were, as `statistics.store.add` adds them, and the
caller counts the match whole otherwise (`statistics.not_added`). SQLite (in the process,
with no waits to save, and no INSERT in a WITH clause) keeps the plain path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import JSON, bindparam, func, literal_column, select, true, update
from sqlalchemy.dialects import postgresql

from ..extensions import db
from ..models import Hand, HandEvent, Match, MatchTally, TableTally
from ..scoring.stats import COUNTS
from ..statistics.counting import Rows
from . import prebuilt

_HAND = Hand.__table__
_EVENT = HandEvent.__table__
_MATCHES = Match.__table__
_TALLY = MatchTally.__table__
_SUMS = TableTally.__table__
HAND_COLUMNS = tuple(c.name for c in _HAND.c if c.name not in ("id", "number", "match_id"))
EVENT_COLUMNS = tuple(c.name for c in _EVENT.c if c.name not in ("id", "match_id", "hand_id"))
# (no parameter is named as a column of a table written: SQLAlchemy would read it as that
# column's value in every statement of the WITH clauses that writes the column)
_MATCH_ID: Any = bindparam("the_match")


def _typed(prefix: str, table: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """A parameter per column: a JSON one of the column's type (its value encoded as the
    plain path's statements encode it), any other as psycopg sends its Python value (no
    cast in the text: see `_recordset`)."""
    return {name: bindparam(f"{prefix}{name}", type_=table.c[name].type)
            if isinstance(table.c[name].type, JSON) else bindparam(f"{prefix}{name}")
            for name in names}


def _recordset(name: str, alias: str) -> Any:
    """Rows of the statistics given as one JSON list of objects (`_rows`), read as rows of
    `match_tally` (its side, who and counts), in the list's order: one parameter for any
    number of rows (psycopg dumps one array per column about ten times slower, and caches
    the conversion of no statement with over 50 parameters or 4 KB of text)."""
    rows = func.json_populate_recordset(literal_column("NULL::match_tally"),
                                        bindparam(name, type_=JSON))
    return rows.table_valued("side", "who", *COUNTS).alias(alias)


def _statement() -> Any:
    hand = (_HAND.insert().values(_typed("h_", _HAND, HAND_COLUMNS)
                                  | {"match_id": _MATCH_ID, "number": prebuilt.NEXT_NUMBER})
            .returning(_HAND.c.id, _HAND.c.number).cte("h"))
    event = _EVENT.insert().from_select(
        ["match_id", "hand_id", *EVENT_COLUMNS],
        select(_MATCH_ID, hand.c.id, *_typed("e_", _EVENT, EVENT_COLUMNS).values())
    ).cte("e")
    match = (_MATCHES.update().where(_MATCHES.c.id == _MATCH_ID)
             .values(_typed("m_", _MATCHES, prebuilt.DERIVED)
                     | {"stamp": prebuilt.next_stamp(bindparam("stamped"))})
             .returning(_MATCHES.c.stamp).cte("m"))
    added = _recordset("added", "a")
    held = _TALLY.alias("mt")
    tally = (update(held).where(held.c.match_id == _MATCH_ID,
                                held.c.side == added.c.side, held.c.who == added.c.who)
             .values({c: held.c[c] + added.c[c] for c in COUNTS})
             .returning(held.c.side).cte("t"))
    tallied = select(func.count()).select_from(tally).scalar_subquery()
    summed = _recordset("summed", "z")
    upsert = postgresql.insert(_SUMS).from_select(
        ["group_id", "variant", "side", "who", *COUNTS],
        select(bindparam("the_table"),
               bindparam("the_variant"), summed.c.side, summed.c.who,
               *(summed.c[c] for c in COUNTS))
        .where(tallied == bindparam("expected")))
    sums = upsert.on_conflict_do_update(
        index_elements=[_SUMS.c.group_id, _SUMS.c.variant, _SUMS.c.side, _SUMS.c.who],
        set_={c: _SUMS.c[c] + upsert.excluded[c] for c in COUNTS}).cte("s")
    # one row each: joined on nothing (a plain FROM of both is linted as a mistake)
    return (select(hand.c.id, hand.c.number, match.c.stamp, tallied)
            .select_from(hand.join(match, true())).add_cte(event, sums))


_ADD = _statement()


class Written(NamedTuple):
    """What the statement wrote: the hand's id and entry number, the match's new stamp, and
    how many of the match's statistics rows it added to."""

    hand_id: int
    number: int
    stamp: int
    tallied: int


def usable() -> bool:
    """Is the session's database PostgreSQL (the transaction begun)?"""
    return bool(db.session.connection().dialect.name == "postgresql")


def _rows(rows: Rows, nonzero: bool = False) -> list[dict[str, Any]]:
    """Rows as `_recordset` reads them, in the order of their keys (`store._add`'s order);
    `nonzero`: without the rows that add nothing (as `store._add` leaves them out)."""
    return [{"side": side, "who": who, **dict(zip(COUNTS, c, strict=True))}
            for (side, who), c in sorted(rows.items()) if not nonzero or any(c)]


def add(match: Match, hand: Mapping[str, Any], event: Mapping[str, Any],
        derived: Mapping[str, Any], counts: Rows) -> Written:
    """Store the hand's row (`hand`: its columns but its id, number and match), the log line
    about it (`event`: its columns but its id, match and hand), the match's `derived`
    columns (`prebuilt.DERIVED`) with a new stamp, and add `counts` (the hand's statistics,
    `statistics.hand_counts`) to the match's rows and, when every one was found, to its
    table's sums. Columns left out of `hand` and `event` take their defaults."""
    values: dict[str, Any] = {"the_match": match.id, "numbered": match.id,
                              "stamped": match.group_id, "the_table": match.group_id,
                              "the_variant": match.variant, "expected": len(counts)}
    for prefix, table, names, given in (("h_", _HAND, HAND_COLUMNS, hand),
                                        ("e_", _EVENT, EVENT_COLUMNS, event)):
        for name in names:
            values[f"{prefix}{name}"] = (given[name] if name in given
                                         else _default(table.c[name]))
    values |= {f"m_{name}": derived[name] for name in prebuilt.DERIVED}
    values |= {"added": _rows(counts), "summed": _rows(counts, nonzero=True)}
    return Written(*db.session.connection().execute(_ADD, values).one())


def _default(column: Any) -> Any:
    """A column's default as an insert that leaves the column out would take it (a Python
    default; None for a column without one)."""
    default = column.default
    if default is None:
        return None
    if default.is_callable:
        return default.arg(None)  # SQLAlchemy wraps it to take the execution context
    return default.arg
