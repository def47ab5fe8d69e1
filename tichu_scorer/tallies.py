"""Statistics kept with each match: the per-player and per-partnership tallies of one match
(`scoring.stats.tally_match`) stored on its row (`Match.stats`), updated in the transaction
of every write that changes its hands, and summed per variant for `/stats`.

`Match.stats` is None for a match stored before the column existed (or by hand): such a
match is counted from its hands when statistics are read, and the result stored then, so
statistics never depend on a fill having run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import and_, func, or_, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from .cache import LRU, lru
from .extensions import db
from .game.variants import VARIANTS
from .models import Group, Hand, Match
from .scoring.state import MatchState
from .scoring.stats import (
    Counts,
    MatchFacts,
    MatchTallies,
    add_stored,
    as_tallies,
    merged,
    tally_match,
)

SCORED = [v.key for v in VARIANTS.values() if v.scored]  # statistics count card points
FILL_CHUNK = 500  # matches per query when counting old matches
CACHE_SIZE = 256  # tables whose sums an app process keeps
Mark = tuple[int, int, int, int]  # a table's checksum (`checksums`)


def match_facts(match: Match, hands: Sequence[Hand] | None = None,
                state: MatchState | None = None) -> MatchFacts:
    """The match as the pure statistics read it (its state's facts), with `hands` (default:
    all in play): who won is the match's stored result."""
    if state is None:
        chosen = match.hands if hands is None else hands
        state = MatchState.of(match.settings, [h.input for h in chosen])
    names = match.names
    winners: tuple[str, ...] = ()
    if match.winner_team is not None:
        winners = match.game.sides(names)[match.winner_team].names
    return replace(state.facts(), winners=winners, finished=match.finished)


def counted(match: Match, state: MatchState | None = None) -> dict[str, Any] | None:
    """The tallies of the match from its hands in play (or its `state`, when built already);
    None for a game without points."""
    return tally_match(match_facts(match, state=state)).as_json() if match.game.scored else None


def refresh(match: Match, state: MatchState | None = None) -> None:
    """Count the match again from its hands (after an edit, delete, undo, restore, or an
    import)."""
    match.stats = counted(match, state)


def added(match: Match, hand: Hand) -> None:
    """`hand` was just added to the match (its result already settled): add it to the
    stored tallies without reading the earlier hands (unless none are stored yet)."""
    if not match.game.scored:
        return
    if match.stats is None:  # stored before tallies were kept: count every hand once
        hands = db.session.execute(db.select(Hand).where(
            Hand.match_id == match.id, Hand.deleted_at.is_(None)).order_by(Hand.number)
        ).scalars().all()
        match.stats = tally_match(match_facts(match, hands)).as_json()
        return
    earlier = MatchTallies.from_json(match.stats)
    match.stats = tally_match(match_facts(match, [hand]), earlier).as_json()


def _checksum_columns() -> tuple[Any, ...]:
    return (func.count(Match.id), func.sum(Match.revision), func.max(Match.id),
            func.sum(Match.stamp))


def _mark(n: Any, r: Any, m: Any, st: Any) -> Mark:
    return (int(n), int(r or 0), int(m or 0), int(st or 0))


def checksums(groups: Sequence[Group]) -> dict[int, Mark]:
    """Per table, a value that changes whenever one of its scored matches changes, is added
    or is deleted: the matches' count, the sum of their revisions (every change raises one),
    the highest id, and the sum of their stamps (a new match or a change takes one past the
    highest of the table's, so a match deleted and another stored in its place, even under
    the same id, still change it). One query for all the tables, from an index alone."""
    rows = db.session.execute(db.select(Match.group_id, *_checksum_columns())
        .where(Match.group_id.in_([g.id for g in groups]), Match.variant.in_(SCORED))
        .group_by(Match.group_id)).all()
    return {int(g): _mark(*rest) for g, *rest in rows}


@dataclass
class _TableSums:
    """What an app process keeps of one table: the sum, and each match's tallies as summed
    with the revision and stamp they were read at (so that a change takes out only what it
    replaces), and the highest stamp read (`Match.stamp`)."""

    mark: Mark = (0, 0, 0, 0)
    sums: dict[str, Counts] = field(default_factory=dict)
    revisions: dict[int, int] = field(default_factory=dict)
    stamps: dict[int, int] = field(default_factory=dict)
    blobs: dict[int, dict[str, Any]] = field(default_factory=dict)
    stamp: int = 0

    def own_mark(self) -> Mark:
        """The checksum of what is kept, as `checksums` reads it of the database."""
        return (len(self.revisions), sum(self.revisions.values()),
                max(self.revisions, default=0), sum(self.stamps.values()))

    def take(self, match_id: int, revision: int, stamp: int,
             blob: dict[str, Any] | None) -> None:
        """The match's tallies at this revision and stamp, in place of those kept of it."""
        if match_id in self.blobs:
            add_stored(self.sums, [self.blobs.pop(match_id)], sign=-1)
            del self.revisions[match_id], self.stamps[match_id]
        if blob is not None:
            add_stored(self.sums, [blob])
            self.blobs[match_id] = blob
            self.revisions[match_id] = revision
            self.stamps[match_id] = stamp
            self.stamp = max(self.stamp, stamp)


def summed(groups: Sequence[Group], marks: dict[int, Mark] | None = None
           ) -> tuple[list[MatchTallies], dict[int, Mark]]:
    """The tallies of these tables' matches added up per variant (in the variants' order),
    and the checksum of each table as of what was summed (a change that came in after
    `marks` were read may be in it already).

    Each table's sum is kept per app process: a request reads the tables' checksums (one
    query); for a table that changed since, the matches stamped since the highest stamp
    kept, or with a higher id, with the table's checksum in the same statement
    (`_catch_up`). Only a table seen for the first time, or whose changes do not add up to
    its checksum (a match deleted, or two writers that took one stamp), has the revisions
    of all its matches read (`_reread`). One thread at a time brings the sums up to date;
    when more tables are kept than CACHE_SIZE, the one read longest ago goes."""
    if not groups:
        return [], {}
    cache: LRU[int, _TableSums] = lru("tichu_stats_cache", CACHE_SIZE)
    current = checksums(groups) if marks is None else marks
    with cache.lock:
        # this request's tables, held here: kept ones it adds may push others out
        sums = {g: found for g in current if (found := cache.get(g)) is not None}
        stale = [g for g, mark in current.items() if g not in sums or sums[g].mark != mark]
        if stale:
            behind = _catch_up(sums, [g for g in stale if g in sums])
            _reread(sums, [g for g in stale if g not in sums] + behind)
            for g in stale:
                cache.put(g, sums[g])
        total = merged(sums[g].sums for g in current)
        read = {g: sums[g].mark for g in current}
    return [as_tallies(key, total[key]) for key in SCORED if key in total], read


def summed_since(groups: Sequence[Group], since: datetime) -> list[MatchTallies]:
    """The tallies of these tables' matches started at or after `since`, added up per
    variant: read and summed for each request (a period is a few evenings' matches), never
    from the per-table sums kept for all matches."""
    if not groups:
        return []
    rows = db.session.execute(db.select(Match.id, Match.stats).where(
        Match.group_id.in_([g.id for g in groups]), Match.variant.in_(SCORED),
        Match.started_at >= since)).all()
    filled = dict(_fill([m for m, stats in rows if stats is None]))
    total: dict[str, Counts] = {}
    add_stored(total, [stats if stats is not None else filled[m] for m, stats in rows
                       if stats is not None or m in filled])
    return [as_tallies(key, total[key]) for key in SCORED if key in total]


def _catch_up(cache: dict[int, _TableSums], group_ids: list[int]) -> list[int]:
    """Bring the sums of these tables up to date from the matches stamped since the highest
    stamp kept, or with an id above those kept (a match stored before stamps), read in one
    statement with the tables' checksums, so both are of one moment. Returns the tables
    where what is kept then still differs from the checksum (a deleted match, or a change
    that took a stamp already read): those are read again whole."""
    if not group_ids:
        return []
    scored = Match.variant.in_(SCORED)
    sums = (db.select(Match.group_id, *(c.label(n) for c, n in zip(
                _checksum_columns(), ("n", "r", "m", "st"), strict=True)))
            .where(Match.group_id.in_(group_ids), scored).group_by(Match.group_id).subquery())
    since = or_(*(and_(Match.group_id == g, or_(Match.stamp > cache[g].stamp,
                                                Match.id > max(cache[g].revisions, default=0)))
                  for g in group_ids))
    delta = db.select(Match.group_id, Match.id, Match.revision, Match.stamp,
                      Match.stats).where(scored, since).subquery()
    rows = db.session.execute(
        db.select(sums.c.group_id, sums.c.n, sums.c.r, sums.c.m, sums.c.st, delta.c.id,
                  delta.c.revision, delta.c.stamp, delta.c.stats)
        .select_from(sums.outerjoin(delta, delta.c.group_id == sums.c.group_id))).all()
    marks: dict[int, Mark] = {}
    fresh: dict[int, list[tuple[int, int, int, dict[str, Any] | None]]] = {}
    for group_id, n, r, m, st, match_id, revision, stamp, stats in rows:
        marks[group_id] = _mark(n, r, m, st)
        if match_id is not None:
            fresh.setdefault(group_id, []).append((match_id, revision, stamp or 0, stats))
    filled = dict(_fill([row[0] for found in fresh.values() for row in found
                         if row[3] is None]))
    behind = []
    for group_id in group_ids:
        entry = cache[group_id]
        for match_id, revision, stamp, stats in fresh.get(group_id, []):
            entry.take(match_id, revision, stamp,
                       stats if stats is not None else filled.get(match_id))
        if marks.get(group_id) == entry.own_mark():
            entry.mark = marks[group_id]
        else:
            behind.append(group_id)
    return behind


def _reread(cache: dict[int, _TableSums], group_ids: list[int]) -> None:
    """Bring the sums of these tables up to date from the revisions and stamps of all their
    matches: take out what changed or is gone, add it anew."""
    if not group_ids:
        return
    rows = db.session.execute(db.select(Match.id, Match.group_id, Match.revision,
                                        Match.stamp).where(
        Match.group_id.in_(group_ids), Match.variant.in_(SCORED))).all()
    now: dict[int, dict[int, tuple[int, int]]] = {g: {} for g in group_ids}
    for match_id, group_id, revision, stamp in rows:
        now[group_id][match_id] = (revision, stamp or 0)
    changed: list[int] = []
    for group_id in group_ids:
        kept = cache.get(group_id, _TableSums())
        changed += [m for m, read in now[group_id].items()
                    if (kept.revisions.get(m), kept.stamps.get(m)) != read]
    fresh: dict[int, tuple[int, int, dict[str, Any] | None]] = {}
    for start in range(0, len(changed), FILL_CHUNK):
        fresh |= {m: (rev, stamp or 0, stats) for m, rev, stamp, stats in db.session.execute(
            db.select(Match.id, Match.revision, Match.stamp, Match.stats).where(
                Match.id.in_(changed[start:start + FILL_CHUNK]))).all()}
    filled = dict(_fill([m for m, (_rev, _stamp, stats) in fresh.items() if stats is None]))
    for group_id in group_ids:
        entry = cache.setdefault(group_id, _TableSums())
        for match_id in [m for m in entry.revisions if m not in now[group_id]]:
            entry.take(match_id, 0, 0, None)  # a match deleted
        for match_id in now[group_id]:
            if match_id in fresh:
                revision, stamp, stats = fresh[match_id]
                entry.take(match_id, revision, stamp,
                           stats if stats is not None else filled.get(match_id))
        entry.stamp = max(entry.stamps.values(), default=0)  # a match deleted may have held it
        entry.mark = entry.own_mark()


def _fill(match_ids: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """Count matches stored without tallies from their hands, and store the tallies where
    the match did not change meanwhile (best effort: when the database is busy, they are
    counted again next time)."""
    if not match_ids:
        return []
    found: list[Match] = []
    for chunk in range(0, len(match_ids), FILL_CHUNK):
        found += db.session.execute(db.select(Match).where(
            Match.id.in_(match_ids[chunk:chunk + FILL_CHUNK])).options(
            selectinload(Match.all_hands))).scalars()
    filled = [(m.id, m.revision, m.variant, counted(m)) for m in found]
    db.session.rollback()  # nothing of the matches themselves is changed
    try:
        for match_id, revision, _variant, stats in filled:
            db.session.execute(update(Match).where(
                Match.id == match_id, Match.revision == revision, Match.stats.is_(None))
                .values(stats=stats))
        db.session.commit()
    except SQLAlchemyError:
        db.session.rollback()
        current_app.logger.warning("Statistics of %d matches not stored (busy)", len(filled))
    return [(match_id, stats) for match_id, _rev, _variant, stats in filled
            if stats is not None]
