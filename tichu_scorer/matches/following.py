"""A hand followed as it is played (RULES.md §11): its events read from their rows into the
pure `core.follow`, and one event added to a held match exactly once. The rules are the
core's; this module reads, locks and writes.

An event belongs to the hand in play, named by the entry number that hand gets when it is
saved (`hand_entry.next_entry`): the saved hand finds its events by its own number."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, bindparam, func
from sqlalchemy.exc import IntegrityError

from ..core import follow, follow_panel
from ..core.follow import Event, InPlay, Table
from ..extensions import db
from ..follow_rows import FollowEvent
from ..game.i18n import _
from ..models import Hand, Match
from ..scoring import Problem
from . import closing, prebuilt
from .ending import changed
from .hand_entry import next_shuffler
from .writes import Conflict

_EVENTS = (db.select(FollowEvent.kind, FollowEvent.seat, FollowEvent.rank, FollowEvent.phone,
                     FollowEvent.at)
           .where(FollowEvent.match_id == bindparam("match"),
                  FollowEvent.hand == bindparam("hand"))
           .order_by(FollowEvent.seq))
_BY_CLIENT = db.select(FollowEvent.match_id).where(
    FollowEvent.client_id == bindparam("client"))
_INSERT = FollowEvent.__table__.insert()


def table_of(match: Match, shuffler: int | None = None, next_hand: bool = True) -> Table:
    """What the rules of the match's hand in play need of it (`follow.Table.of`)."""
    if next_hand and shuffler is None:
        shuffler = next_shuffler(match)
    return Table.of(match.game, len(match.seats), shuffler, match.house)


def _stamp(at: datetime | None) -> str | None:
    return at.isoformat(timespec="seconds") + "Z" if at is not None else None


def stored(match_id: int, hand: int) -> list[Event]:
    """The events stored for hand `hand` of the match, in order (undos included)."""
    return [Event(kind, seat, rank, phone, _stamp(at)) for kind, seat, rank, phone, at in
            prebuilt.core(_EVENTS, {"match": match_id, "hand": hand})]


class Followed(NamedTuple):
    """The hand in play as its stored events leave it."""

    table: Table
    number: int  # the hand's entry number
    events: list[Event]
    state: InPlay


# The hand in play's entry number (one past the highest the match ever had, as
# `prebuilt.next_entry`) with its events, in one statement: the match page reads it once
# per revision, the hand form and the board once per request.
_NUMBER = (db.select((func.coalesce(func.max(Hand.number), 0) + 1).label("number"))
           .where(Hand.match_id == bindparam("match")).subquery())
_IN_PLAY = (db.select(_NUMBER.c.number, FollowEvent.kind, FollowEvent.seat, FollowEvent.rank,
                      FollowEvent.phone, FollowEvent.at)
            .select_from(_NUMBER.outerjoin(FollowEvent, and_(
                FollowEvent.match_id == bindparam("match"),
                FollowEvent.hand == _NUMBER.c.number)))
            .order_by(FollowEvent.seq))


def in_play(match: Match) -> Followed:
    """The match's hand in play (the next hand to be saved), as followed so far."""
    table = table_of(match)
    rows = prebuilt.core(_IN_PLAY, {"match": match.id}).all()
    events = [Event(kind, seat, rank, phone, _stamp(at))
              for _number, kind, seat, rank, phone, at in rows if kind is not None]
    return Followed(table, rows[0][0], events, follow.in_play(table, events))


class Posted(NamedTuple):
    """What `post` did: the hand as it stands now, the problem that refused the event (None
    when it stands), and whether a row was stored (False for a tap seen before)."""

    followed: Followed
    problem: Problem | None
    stored: bool
    revision: int = 0  # the match's, once the event is stored (nothing read after the commit)


def post(match: Match, event: Event, client_id: str | None, seen: int | None,
         phone: str | None, device: str | None) -> Posted:
    """Check one event against the rules and store it; `match` must be held
    (`writes.lock_match`), so that two phones' taps are taken one after the other. A
    `client_id` seen before, or the same tap stored since the phone saw `seen` events (two
    phones tapping it at once), stores nothing and answers the hand as it stands. The
    match's revision rises with each event stored: every live page and the kept page
    follow it."""
    if client_id and (owner := prebuilt.core(_BY_CLIENT, {"client": client_id})
                      .scalar_one_or_none()) is not None:
        if owner != match.id:
            raise Conflict()
        return Posted(in_play(match), None, False, match.revision)
    followed = in_play(match)
    if (closed := closing.closed(match)) is not None:  # [TN5]: a closed round's table
        return Posted(followed, closed, False, match.revision)
    if match.finished:
        return Posted(followed, Problem("kind", "E1", _(
            "The match is over: it has no hand in play.")), False, match.revision)
    if follow.repeated(followed.events, followed.state, event, seen):
        return Posted(followed, None, False, match.revision)
    if (problem := follow.refusal(followed.table, followed.state, event)) is not None:
        return Posted(followed, problem, False, match.revision)
    try:
        prebuilt.core(_INSERT, {
            "match_id": match.id, "hand": followed.number, "seq": len(followed.events) + 1,
            "kind": event.kind, "seat": event.seat, "rank": event.rank,
            "client_id": client_id or None, "phone": phone, "device": device})
        changed(match)
        prebuilt.store_match(match)
        revision = match.revision
        db.session.commit()
    except Exception as exc:
        db.session.rollback()
        if isinstance(exc, IntegrityError):  # only without the lock (a bug): never a double
            raise Conflict() from exc
        raise
    events = [*followed.events, event]
    return Posted(Followed(followed.table, followed.number, events,
                           follow.in_play(followed.table, events)), None, True, revision)



class Told(NamedTuple):
    """One event of a hand as its page and log say it: the sentence, the phone's name and
    the time."""

    text: str
    phone: str | None
    at: str | None


def told(match: Match, hand: Hand | None = None,
         followed: Followed | None = None) -> list[Told]:
    """The events of a saved `hand`, or of the hand in play (`followed`, as `in_play` read
    it), as sentences, in order."""
    if hand is None:
        found = followed if followed is not None else in_play(match)
        return _told(match, found.table, found.events)
    return _told(match, table_of(match, hand.shuffler, next_hand=False),
                 stored(match.id, hand.number))


def _told(match: Match, table: Table, events: list[Event]) -> list[Told]:
    return [Told(text, e.phone, e.at) for text, e in zip(
        follow_panel.told(table, match.names, events), events, strict=True)]


def told_of(match: Match, hands: Iterable[Hand]) -> dict[int, list[Told]]:
    """The events of each of these saved hands that was followed, as sentences, by the
    hand's id (the log's entries): one statement for them all."""
    wanted = {hand.number: hand for hand in hands}
    if not wanted:
        return {}
    rows = db.session.execute(
        db.select(FollowEvent).where(FollowEvent.match_id == match.id,
                                     FollowEvent.hand.in_(list(wanted)))
        .order_by(FollowEvent.hand, FollowEvent.seq)).scalars()
    found: dict[int, list[Event]] = {}
    for row in rows:
        found.setdefault(row.hand, []).append(
            Event(row.kind, row.seat, row.rank, row.phone, _stamp(row.at)))
    return {wanted[number].id: _told(match, table_of(match, wanted[number].shuffler,
                                                     next_hand=False), events)
            for number, events in found.items()}
