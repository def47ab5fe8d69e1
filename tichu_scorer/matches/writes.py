"""Transactions and locks: the one way into a write (`begin_write`, `writing`,
`lock_match`; a write of a whole table: `lock_table`, `hold_match`, `hold_matches`,
`lock_table_and_match`), a read without a transaction (`reading`), the conflicts a write
refuses, a match looked up by its key, and the log every change of a match appends to."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy.orm import lazyload

from ..extensions import db
from ..models import Group, Hand, Match
from ..tables import phones
from . import prebuilt


class Conflict(Exception):
    """Another phone changed what this request was based on; nothing was saved.

    `hand` is the hand as the other phone left it (None when it is gone), `current` the
    version or hand number the request should have named."""

    def __init__(self, hand: Hand | None = None, current: int | None = None) -> None:
        super().__init__("conflict")
        self.hand = hand
        self.current = current


class Stale(Conflict):
    """A new-hand form opened for hand N, but another phone saved a hand meanwhile (or the
    match has fewer hands now): `saved` are the hands in play saved since, with their
    places, `current` the number the next hand now gets and `entry` its entry number."""

    def __init__(self, saved: list[tuple[int, Hand]], current: int, entry: int) -> None:
        super().__init__(saved[0][1] if saved else None, current)
        self.saved = saved
        self.entry = entry


def begin_write() -> None:
    """Start the write transaction of this request: end any read transaction, then begin
    one that holds SQLite's write lock from its first statement (BEGIN IMMEDIATE), so that
    what it reads cannot change before it commits. On PostgreSQL `lock_match` locks the
    match's row instead. Every change to the database goes through here."""
    db.session.rollback()
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.connection(execution_options={"sqlite_immediate": True})


def commit_as_left() -> None:
    """Commit, leaving what the session holds as this write left it, which is what it
    committed, rather than expired (`Session.commit` expires every object it holds, a
    tenth of a millisecond for a held match with its seats; an attribute read afterwards
    would read it again). For a write that wrote its changes into the objects it holds
    (`prebuilt.store_match`) or left them as they were."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


def reading() -> None:
    """This request only reads, and reads one statement at a time: on PostgreSQL its
    statements run outside a transaction, each with its own snapshot, which is all READ
    COMMITTED gives a transaction's statements anyway; the BEGIN and ROLLBACK round trips
    around them are saved. A reader that needs its statements to agree checks that itself
    (`hand_lines` reads the match's revision with the hands). Call it before the request's
    first statement; a write afterwards (`begin_write`) ends it and begins a transaction.
    SQLite, in the process, has no round trip to save and keeps its read transaction."""
    if db.session.get_bind().dialect.name == "postgresql" and not db.session().in_transaction():
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


@contextmanager
def writing() -> Iterator[None]:
    """One write transaction (`begin_write`), committed at the end, rolled back on any
    error."""
    begin_write()
    try:
        yield
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


def lock_match(key: str) -> Match | None:
    """Begin a write holding this match (SQLite: the database's write lock; PostgreSQL:
    the match's row, SELECT … FOR UPDATE) and read it afresh. Every change to a match runs
    between this and its commit, so no two changes of one match interleave.

    The seats (the players' names) are read by a statement of their own once the match is
    held. On PostgreSQL a statement that waited for the lock sees the locked row as the
    change it waited for left it, but every other row as it was when the statement began:
    seats read with it would miss a rename committed meanwhile, and this change would
    count and log its hand under the old name."""
    begin_write()
    return prebuilt.held_match(key)


def lock_match_for_client(key: str, client: str) -> tuple[Match | None, Any]:
    """`lock_match` for a new hand: also the hand stored under the client id `client`, read
    after the lock (`prebuilt.held_match_and_client`), for `hand_entry.add_hand`."""
    begin_write()
    return prebuilt.held_match_and_client(key, client)


def hold_match(key: str) -> Match | None:
    """`lock_match` in a write already begun: a write of the whole table holds the table
    first (`lock_table`), then the match."""
    return prebuilt.held_match(key)


# A write of a whole table takes its locks in one order: the table's row, then its matches
# by id, then the rows it inserts or changes (the tables' sums last, `statistics`).
# PostgreSQL: FOR NO KEY UPDATE makes two such writes of one table wait for each other but
# lets a save at one of its matches insert a row naming the table (a foreign key's check
# takes FOR KEY SHARE, which FOR UPDATE would refuse). Every statement afterwards sees what
# the write it waited for committed (READ COMMITTED); populate_existing reads the row afresh.
_TABLE_HELD = (db.select(Group).where(Group.id == bindparam("table"))
               .with_for_update(key_share=True).execution_options(populate_existing=True))
_TABLE_MATCHES_HELD = (db.select(Match).where(Match.group_id == bindparam("table"))
                       .order_by(Match.id).with_for_update(of=Match)
                       .options(lazyload(Match.group), lazyload(Match.seats))
                       .execution_options(populate_existing=True))


def lock_table(group_id: int) -> Group | None:
    """The first lock of a write of the whole table `group_id` (rotating its links,
    renaming it, a new match, a rematch, an import; call it first in `writing()` or after
    `begin_write`): its row, read afresh, None when it is gone. Every such write holds the
    table before any match of it (`hold_match`, `hold_matches`), so no two of them, and no
    save at one of its matches, wait for each other in a circle: PostgreSQL once found a
    rotation holding the table's row and waiting for a match that a rematch held while it
    waited for the table's row (a deadlock, one rolled back: a 503). SQLite: the database's
    write lock (`begin_write`) already orders every write; this only reads the row."""
    group: Group | None = db.session.execute(
        _TABLE_HELD, {"table": group_id}).scalar_one_or_none()
    return group


def lock_table_and_match(key: str) -> Match | None:
    """Begin a write of the whole table of this match, holding the match: the table's row
    first (`lock_table`), then the match (`hold_match`), read afresh; None when it is gone.
    For a change of a match that seats players of the table (its settings): a rename or a
    merge holds the table for its whole transaction, so this waits for it and then reads
    the players as it left them (or the rename waits for this and finds the new seat). With
    the match alone held, PostgreSQL once counted a seat under its player's name before a
    rename, or failed on a player merged away meanwhile."""
    begin_write()
    found = match_by_key(key)
    if found is None or lock_table(found.group_id) is None:
        return None
    return prebuilt.held_match(key)


def hold_matches(group_id: int) -> list[Match]:
    """Every match of the table, by id, held (PostgreSQL: FOR UPDATE) and read afresh, in
    a write that holds the table (`lock_table`). A rotation takes them before it changes
    the table's row: the row's codes are unique keys, so changing them takes FOR UPDATE,
    which waits for every save that inserted a row naming the table (its foreign key's FOR
    KEY SHARE); with every match held first, no such save is waiting for the rotation."""
    return list(db.session.execute(_TABLE_MATCHES_HELD, {"table": group_id}).scalars())


def match_by_key(key: str) -> Match | None:
    """The match whose URL key this is (unguessable; ids never leave the app), with its
    table; its seats are read when first asked for (a page answered 304 never asks)."""
    if len(key) > 24:
        return None
    return prebuilt.match_by_key(key)


def match_by_code(code: str) -> Match | None:
    """The match whose viewer code this is (as `codes.read` reads it), with its table; its
    seats are read when first asked for."""
    return prebuilt.match_by_code(code)


def position(match: Match, hand: Hand) -> int:
    """The hand's number as the match page shows it: its place among the hands in play."""
    return next((i for i, h in enumerate(match.hands, start=1) if h is hand), 0)


def log(match: Match, hand: Hand, action: str, summary: str,
        before: dict[str, Any] | None, after: dict[str, Any] | None,
        shown_as: int | None = None) -> None:
    """Append to the match's log (never changed afterwards), with the name of the phone
    that made the change, if it has one."""
    shown = shown_as if shown_as is not None else position(match, hand)
    prebuilt.insert_event({
        "match_id": match.id, "hand_id": hand.id, "position": shown, "action": action,
        "summary": summary, "before": before, "after": after, "phone": phones.name()})
