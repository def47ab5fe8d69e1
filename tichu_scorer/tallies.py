"""Statistics kept with each match: the per-player and per-partnership tallies of one match
(`scoring.stats.tally_match`) stored on its row (`Match.stats`), updated in the transaction
of every write that changes its hands, and summed per variant for `/stats`.

`Match.stats` is None for a match stored before the column existed (or by hand): such a
match is counted from its hands when statistics are read, and the result stored then, so
statistics never depend on a fill having run."""

from __future__ import annotations

from collections.abc import Sequence
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
CACHE_SIZE = 256  # sums kept per app: one per set of tables recently asked about


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


def summed(groups: Sequence[Group]) -> list[MatchTallies]:
    """The tallies of these tables' matches added up per variant (in the variants' order).
    Each table's sum is kept (per app process) under its checksum: a request reads the
    checksums, and the stored tallies of only the tables that changed since."""
    if not groups:
        return []
    cache: dict[tuple[int, tuple[int, int, int]], dict[str, Counts]] = \
        current_app.extensions.setdefault("tichu_stats_cache", {})
    current = checksums(groups)
    stale = [g for g, mark in current.items() if (g, mark) not in cache]
    if stale:
        if len(cache) + len(stale) > CACHE_SIZE:
            cache.clear()
        for group_id, sums in _sum(stale).items():
            cache[group_id, current[group_id]] = sums
    total = merged(cache[g, mark] for g, mark in current.items())
    return [as_tallies(key, total[key]) for key in SCORED if key in total]


def _sum(group_ids: list[int]) -> dict[int, dict[str, Counts]]:
    """Per table, its matches' stored tallies added up (counted first where missing)."""
    rows = db.session.execute(db.select(Match.id, Match.group_id, Match.stats).where(
        Match.group_id.in_(group_ids), Match.variant.in_(SCORED))).all()
    filled = dict(_fill([match_id for match_id, _group, stats in rows if stats is None]))
    stored: dict[int, list[dict[str, Any]]] = {g: [] for g in group_ids}
    for match_id, group_id, stats in rows:
        if stats is not None or match_id in filled:
            stored[group_id].append(stats if stats is not None else filled[match_id])
    out: dict[int, dict[str, Counts]] = {}
    for group_id, blobs in stored.items():
        add_stored(out.setdefault(group_id, {}), blobs)
    return out


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
