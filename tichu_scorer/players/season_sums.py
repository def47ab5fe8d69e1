"""A season's sums per player, added up in SQL over the stored matches (their seats,
results, totals and victory points): no hand and no match is loaded, however long the
history (`benchmarks/bench_season.py`). What counts is `season`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, func

from ..extensions import db
from ..game.variants import VARIANTS
from ..models import Group, Match, MatchSeat, Player
from . import season

SCORED = [v.key for v in VARIANTS.values() if v.scored]  # Grand Seigneur keeps no points
TEAMS = [v.key for v in VARIANTS.values() if v.teams]  # a side is a team, else a seat
MOST_SIDES = max(v.max_seats for v in VARIANTS.values() if v.scored)


def _of_side(column: Any, side: Any) -> Any:
    """The side's entry of a match's JSON list (`totals`, `victory`) as a whole number; 0
    when it has none (`victory` of a match without victory points). (A CASE over the sides
    measured faster on SQLite than one lookup by a computed path.)"""
    return func.coalesce(case(*((side == i, column[i].as_integer())
                                for i in range(MOST_SIDES)), else_=None), 0)


def lines(groups: Sequence[Group], period: season.Period) -> list[season.Line]:
    """Each player's season at `groups` over `period`, unranked: summed per seated player
    in SQL, then per name (a name at two tables is one line, as /stats counts it)."""
    if not groups:
        return []
    start, end = period.bounds()
    side = case((Match.variant.in_(TEAMS), MatchSeat.team), else_=MatchSeat.seat)
    query = (
        db.select(MatchSeat.player_id, func.count(),
                  func.sum(case((Match.winner_team == side, 1), else_=0)),
                  func.sum(case((Match.winner_team.is_(None), 1), else_=0)),
                  func.sum(_of_side(Match.victory, side)),
                  func.sum(_of_side(Match.totals, side)),
                  func.sum(Match.hand_count))
        .select_from(Match)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(Match.group_id.in_([g.id for g in groups]), Match.variant.in_(SCORED),
               Match.finished_at.is_not(None), MatchSeat.player_id.is_not(None),
               Match.started_at >= start)
        .group_by(MatchSeat.player_id))
    if end is not None:
        query = query.where(Match.started_at < end)
    sums = {row[0]: [int(v or 0) for v in row[1:]] for row in db.session.execute(query)}
    if not sums:
        return []
    names = db.session.execute(db.select(Player.id, Player.name_key, Player.name).where(
        Player.id.in_(list(sums))).order_by(Player.id)).all()
    by_name: dict[str, tuple[str, list[int]]] = {}
    for player_id, key, name in names:
        shown, total = by_name.setdefault(key, (name, [0] * 6))
        by_name[key] = (shown, [a + b for a, b in zip(total, sums[player_id], strict=True)])
    return [season.Line(name, *total) for name, total in by_name.values()]
