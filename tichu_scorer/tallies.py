"""Statistics kept with each match: the per-player and per-partnership tallies of one match
(`scoring.stats.tally_match`) stored on its row (`Match.stats`), updated in the transaction
of every write that changes its hands, and summed per variant for `/stats`.

`Match.stats` is None for a match stored before the column existed (or by hand): such a
match is counted from its hands when statistics are read, and the result stored then, so
statistics never depend on a fill having run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlalchemy import func, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from .extensions import db
from .models import Group, Hand, Match
from .scoring.stats import (
    Counts,
    HandFacts,
    MatchFacts,
    MatchTallies,
    add_stored,
    as_tallies,
    merged,
    tally_match,
)
from .scoring.variants import VARIANTS

SCORED = [v.key for v in VARIANTS.values() if v.scored]  # statistics count card points
FILL_CHUNK = 500  # matches per query when counting old matches
CACHE_SIZE = 256  # tables whose sums an app process keeps


def hand_facts(match: Match, hand: Hand) -> HandFacts:
    seats = len(match.seats)
    layout = match.game.layout(shuffler=hand.shuffler)
    teams = tuple(layout.team_of(s) for s in range(seats))
    scores = match.game.seat_scores(hand.team_scores, hand.player_scores, seats, layout)
    calls = {int(seat): call for seat, call in hand.calls.items()}
    return HandFacts(tuple(hand.out_order), calls, scores, teams, hand.sweep)


def match_facts(match: Match, hands: Sequence[Hand] | None = None) -> MatchFacts:
    """The match as the pure statistics read it, with `hands` (default: all in play)."""
    names = match.names
    winners: tuple[str, ...] = ()
    if match.winner_team is not None:
        winners = match.game.sides(names)[match.winner_team].names
    chosen = match.hands if hands is None else hands
    return MatchFacts(match.game, names, tuple(hand_facts(match, h) for h in chosen),
                      winners, match.finished)


def counted(match: Match) -> dict[str, Any] | None:
    """The tallies of the match from its hands in play; None for a game without points."""
    return tally_match(match_facts(match)).as_json() if match.game.scored else None


def refresh(match: Match) -> None:
    """Count the match again from its hands (after an edit, delete, undo, restore, or an
    import)."""
    match.stats = counted(match)


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


def checksums(groups: Sequence[Group]) -> dict[int, tuple[int, int, int]]:
    """Per table, a value that changes whenever one of its scored matches changes: every
    change of a match's hands bumps its revision, and matches are only ever added (one
    query for all the tables)."""
    rows = db.session.execute(db.select(
        Match.group_id, func.count(Match.id), func.sum(Match.revision), func.max(Match.id))
        .where(Match.group_id.in_([g.id for g in groups]), Match.variant.in_(SCORED))
        .group_by(Match.group_id)).all()
    return {int(g): (int(n), int(r or 0), int(m)) for g, n, r, m in rows}


@dataclass
class _TableSums:
    """What an app process keeps of one table: the sum, and each match's tallies as summed
    with the revision they were read at (so that a change takes out only what it replaces)."""

    mark: tuple[int, int, int] = (0, 0, 0)
    sums: dict[str, Counts] = field(default_factory=dict)
    revisions: dict[int, int] = field(default_factory=dict)
    blobs: dict[int, dict[str, Any]] = field(default_factory=dict)


def summed(groups: Sequence[Group],
           marks: dict[int, tuple[int, int, int]] | None = None) -> list[MatchTallies]:
    """The tallies of these tables' matches added up per variant (in the variants' order).
    Each table's sum is kept per app process: a request reads the tables' checksums (one
    query); for a table that changed since, the revisions of its matches (one query of
    numbers) and the tallies of the matches that changed (one more)."""
    if not groups:
        return []
    cache: dict[int, _TableSums] = current_app.extensions.setdefault("tichu_stats_cache", {})
    current = checksums(groups) if marks is None else marks
    stale = [g for g, mark in current.items() if g not in cache or cache[g].mark != mark]
    if stale:
        if len(cache) + len(stale) > CACHE_SIZE:
            cache.clear()
        _update(cache, stale, current)
    total = merged(cache[g].sums for g in current)
    return [as_tallies(key, total[key]) for key in SCORED if key in total]


def _update(cache: dict[int, _TableSums], group_ids: list[int],
            marks: dict[int, tuple[int, int, int]]) -> None:
    """Bring the sums of these tables up to date: take out what changed, add it anew."""
    rows = db.session.execute(db.select(Match.id, Match.group_id, Match.revision).where(
        Match.group_id.in_(group_ids), Match.variant.in_(SCORED))).all()
    now: dict[int, dict[int, int]] = {g: {} for g in group_ids}
    for match_id, group_id, revision in rows:
        now[group_id][match_id] = revision
    changed = [m for g in group_ids for m, rev in now[g].items()
               if cache.get(g, _TableSums()).revisions.get(m) != rev]
    fresh: dict[int, tuple[int, dict[str, Any] | None]] = {}
    for start in range(0, len(changed), FILL_CHUNK):
        fresh |= {m: (rev, stats) for m, rev, stats in db.session.execute(
            db.select(Match.id, Match.revision, Match.stats).where(
                Match.id.in_(changed[start:start + FILL_CHUNK]))).all()}
    filled = dict(_fill([m for m, (_rev, stats) in fresh.items() if stats is None]))
    for group_id in group_ids:
        entry = cache.setdefault(group_id, _TableSums())
        gone = [m for m in entry.revisions if m not in now[group_id]]
        for match_id in gone:  # a match deleted
            add_stored(entry.sums, [entry.blobs.pop(match_id)], sign=-1)
            del entry.revisions[match_id]
        for match_id in now[group_id]:
            if match_id not in fresh:
                continue
            revision, stats = fresh[match_id]
            blob = stats if stats is not None else filled.get(match_id)
            if match_id in entry.blobs:
                add_stored(entry.sums, [entry.blobs.pop(match_id)], sign=-1)
            if blob is not None:
                add_stored(entry.sums, [blob])
                entry.blobs[match_id] = blob
                entry.revisions[match_id] = revision
        entry.mark = marks[group_id]


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
