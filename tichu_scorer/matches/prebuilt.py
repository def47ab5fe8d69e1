"""The performance machinery of the match feature, behind the few functions the domain
modules call: statements built once, run on the session's connection without the ORM's
unit of work, and the stamps a table's version for live pages follows (`live`).

Building a statement (its options, its cache key) costs about as much CPU as the round trip
to the database, and the ORM's unit of work about twice the CPU of the three rows a save
writes; the save and the match page are the busiest requests, so both run on what is
prepared here. Nothing here knows a rule of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import (
    Integer,
    Text,
    and_,
    bindparam,
    case,
    cast,
    func,
    inspect,
    literal_column,
    union_all,
)
from sqlalchemy.orm import lazyload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.state import InstanceState

from ..extensions import db
from ..models import Group, Hand, HandEvent, Match, MatchSeat

_HELD = (db.select(Match).where(Match.key == bindparam("key")).with_for_update(of=Match)
         .options(lazyload(Match.seats)).execution_options(populate_existing=True))
_BY_KEY = db.select(Match).where(Match.key == bindparam("key")).options(lazyload(Match.seats))
_BY_CODE = (db.select(Match).where(Match.code == bindparam("code"))
            .options(lazyload(Match.seats)))
_SEATS = (db.select(MatchSeat).where(MatchSeat.match_id == bindparam("match"))
          .order_by(MatchSeat.seat))
_SEATS_HELD = _SEATS.execution_options(populate_existing=True)


def core(statement: Any, values: Mapping[str, Any]) -> Any:
    """Run a prebuilt Core statement (no ORM entities) on the session's connection, in its
    transaction. The session's own `execute` would add its ORM handling (and a flush of
    pending changes first), about as much CPU again as the statement; callers run it where
    nothing is pending or where what is pending does not bear on it."""
    return db.session.connection().execute(statement, values)


def held_match(key: str) -> Match | None:
    """The match with this key, its row locked (PostgreSQL: SELECT … FOR UPDATE) and read
    afresh, with its seats read by a statement of their own (see `writes.lock_match`)."""
    match = db.session.execute(_HELD, {"key": key}).scalar_one_or_none()
    if match is not None:
        set_committed_value(match, "seats", list(
            db.session.execute(_SEATS_HELD, {"match": match.id}).scalars()))
    return match


# The seats of a match being saved into, each with the hand a client id names (or none):
# the client id looked up in the seats' statement, after the lock, rather than in one more
# round trip (a hand with that id is unique, so every seat carries the same one or none).
_SEATS_AND_CLIENT = (db.select(MatchSeat, Hand.id, Hand.match_id).select_from(MatchSeat)
                     .outerjoin(Hand, Hand.client_id == bindparam("client"))
                     .where(MatchSeat.match_id == bindparam("match")).order_by(MatchSeat.seat)
                     .execution_options(populate_existing=True))
NOT_READ: Any = object()  # `held_match_and_client`: the client id was not looked up


def held_match_and_client(key: str, client: str) -> tuple[Match | None, Any]:
    """`held_match`, and the hand stored under the client id `client`, as `hand_of_client`
    finds it (None if none), read with the seats; `NOT_READ` for a match without seats."""
    match = db.session.execute(_HELD, {"key": key}).scalar_one_or_none()
    if match is None:
        return None, NOT_READ
    rows = db.session.execute(_SEATS_AND_CLIENT, {"match": match.id, "client": client}).all()
    set_committed_value(match, "seats", [row[0] for row in rows])
    if not rows:
        return match, NOT_READ
    hand_id, match_id = rows[0][1:]
    return match, (None if hand_id is None else _Client(hand_id, match_id))


class _Client(NamedTuple):
    id: int
    match_id: int


def match_by_key(key: str) -> Match | None:
    """The match with this key, its seats left to `load_seats`."""
    return db.session.execute(_BY_KEY, {"key": key}).scalar_one_or_none()


def match_by_code(code: str) -> Match | None:
    """The match with this viewer code, its seats left to `load_seats` (the viewer link)."""
    return db.session.execute(_BY_CODE, {"code": code}).scalar_one_or_none()


def load_seats(match: Match) -> None:
    """Read the seats of a match read by `match_by_key`, with their players, when it turns
    out to need them (a page not answered 304): one prebuilt statement, at half the CPU of
    the ORM's lazy load."""
    if "seats" in inspect(match).unloaded:
        set_committed_value(match, "seats", list(
            db.session.execute(_SEATS, {"match": match.id}).scalars()))


# (constants written into a statement's text rather than sent as parameters: a shorter
# text, which psycopg caches the parsing of only up to 4 KB, `at_once`)
_ZERO, _ONE = literal_column("0", Integer), literal_column("1", Integer)

# A new hand is stored with three prebuilt statements rather than through the ORM's unit of
# work, which costs about twice their CPU for the same three rows (the save is the busiest
# write): the hand, the match's derived columns, the log line. The hand's entry number is
# found by the insert itself, one past the highest the match ever had (numbers are never
# reused; the match is held, so no other insert can take it meanwhile).
_NEXT_ENTRY = (db.select(func.coalesce(func.max(Hand.number), _ZERO) + _ONE)
               .where(Hand.match_id == bindparam("numbered")))
NEXT_NUMBER = _NEXT_ENTRY.scalar_subquery()  # (also `at_once`'s)
_INSERT_HAND = (Hand.__table__.insert().values(number=NEXT_NUMBER)
                .returning(Hand.__table__.c.id, Hand.__table__.c.number))
_INSERT_EVENT = HandEvent.__table__.insert()
DERIVED = ("hand_count", "revision", "totals", "victory", "winner_team", "finished_at")
_STAMPED = Match.__table__.alias("stamped")
_TABLE = Group.__table__


_BY_CLIENT = (db.select(Hand.__table__.c.id, Hand.__table__.c.match_id)
              .where(Hand.__table__.c.client_id == bindparam("client")))


def hand_of_client(client_id: str) -> Any:
    """The hand a phone stored under this client id, as (id, match_id); None if none."""
    return core(_BY_CLIENT, {"client": client_id}).one_or_none()


def next_entry(match_id: int) -> int:
    """The entry number the match's next hand gets: one past the highest it ever had."""
    return int(core(_NEXT_ENTRY, {"numbered": match_id}).scalar_one())


def insert_hand(match_id: int, values: Mapping[str, Any]) -> tuple[int, int]:
    """Store a hand's row; its id and the entry number the insert found for it."""
    hand_id, number = core(_INSERT_HAND, {**values, "numbered": match_id}).one()
    return hand_id, number


def insert_event(values: Mapping[str, Any]) -> None:
    """Append a line to a match's log."""
    core(_INSERT_EVENT, values)


def next_stamp(group_id: Any) -> Any:
    """The stamp of a new match of this table or of a change of one (the table's id, or a
    parameter naming it), found by the write itself: one past the highest of the table's
    matches and of those it deleted (`creation.delete_match`). On PostgreSQL two writers at
    a table may take the same one (the version sums them with the revisions, `live`)."""
    held = union_all(
        db.select(func.max(_STAMPED.c.stamp).label("stamp"))
        .where(_STAMPED.c.group_id == group_id),
        db.select(_TABLE.c.stamp).where(_TABLE.c.id == group_id)).subquery()
    return db.select(func.coalesce(func.max(held.c.stamp), _ZERO) + _ONE).scalar_subquery()


_UPDATE_MATCH = (Match.__table__.update().where(Match.__table__.c.id == bindparam("match_id"))
                 .values(stamp=next_stamp(bindparam("stamped")))
                 .returning(Match.__table__.c.stamp))


def store_match(match: Match) -> None:
    """Write the match's derived columns as changed in memory (`ending.settle`,
    `ending.changed`), and leave the ORM nothing of them to write again."""
    values = derived(match)
    stamp = core(_UPDATE_MATCH, values | {"match_id": match.id,
                                          "stamped": match.group_id}).scalar_one()
    left_as_stored(match, values, stamp)


def derived(match: Match) -> dict[str, Any]:
    """The match's derived columns as they are in memory."""
    return {name: getattr(match, name) for name in DERIVED}


def left_as_stored(match: Match, values: Mapping[str, Any], stamp: int) -> None:
    """The match's derived columns `values` and its `stamp` were written (`store_match`,
    `at_once.add`): the session holds them as stored."""
    for name, value in {**values, "stamp": stamp}.items():
        set_committed_value(match, name, value)
    # Nothing else changed (no attribute keeps a value from before it was set, which a net
    # change would need; `Session.is_modified` asks each attribute's history, a third of
    # this function's CPU): the commit has nothing to flush, so spare it the unit of work's
    # walk over the match and its relationships (half a millisecond).
    state: InstanceState[Match] = inspect(match)
    if not state.committed_state:
        state._commit_all(state.dict, db.session().identity_map)  # noqa: SLF001


_KEEP_STAMP = (Group.__table__.update().where(Group.__table__.c.id == bindparam("table"))
               .values(stamp=case((func.coalesce(Group.__table__.c.stamp, 0)
                                   > bindparam("stamp"), Group.__table__.c.stamp),
                                  else_=bindparam("stamp"))))


def keep_stamp(group_id: int, stamp: int) -> None:
    """The table keeps at least this stamp (a deleted match's), so no later match takes
    it again."""
    core(_KEEP_STAMP, {"table": group_id, "stamp": stamp})


_UNLINK_REMATCHES = (Match.__table__.update()
                     .where(Match.__table__.c.rematch_of_id == bindparam("match"))
                     .values(rematch_of_id=None))


def unlink_rematches(match_id: int) -> None:
    """The rematches of this match no longer name it."""
    core(_UNLINK_REMATCHES, {"match": match_id})


# The JSON columns of a hand, read as their text and decoded for all hands at once: one
# json.loads of the whole list costs a tenth of one call per value (a thousand for 200 hands).
_JSON_COLUMNS = (Hand.out_order, Hand.calls, Hand.card_points, Hand.team_scores,
                 Hand.player_scores, Hand.bombs)
_LINES = (db.select(Match.revision, Hand.number, Hand.wish_offender, Hand.shuffler, Hand.sweep,
                    Hand.note, *(cast(column, Text) for column in _JSON_COLUMNS))
          .select_from(Match)
          .outerjoin(Hand, and_(Hand.match_id == Match.id, Hand.deleted_at.is_(None)))
          .where(Match.id == bindparam("match")).order_by(Hand.number))


def line_rows(match_id: int) -> Any:
    """The match's revision with each hand in play, in order: (revision, number,
    wish_offender, shuffler, sweep, note, then the JSON columns as text: out_order, calls,
    card_points, team_scores, player_scores, bombs); one row with no hand when it has none,
    no row when the match is gone."""
    return core(_LINES, {"match": match_id}).all()
