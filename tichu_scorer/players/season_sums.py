"""A season's sums per player, added up in one SQL statement over the stored matches (their
seats, results, totals and victory points): no hand and no match is loaded, however long
the history (`docs/SEASON.md`). What counts is `season`'s."""

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
    """The side's entry of a match's JSON list (`totals`, `victory`); 0 when it has none."""
    return func.coalesce(case(*((side == i, column[i].as_integer())
                                for i in range(MOST_SIDES)), else_=None), 0)


def lines(groups: Sequence[Group], period: season.Period) -> list[season.Line]:
    """Each player's season at `groups` over `period`, unranked."""
    if not groups:
        return []
    start, end = period.bounds()
    side = case((Match.variant.in_(TEAMS), MatchSeat.team), else_=MatchSeat.seat)
    query = (
        db.select(Player.name_key, func.min(Player.name), func.count(),
                  func.sum(case((Match.winner_team == side, 1), else_=0)),
                  func.sum(case((Match.winner_team.is_(None), 1), else_=0)),
                  func.sum(_of_side(Match.victory, side)),
                  func.sum(_of_side(Match.totals, side)),
                  func.sum(Match.hand_count))
        .select_from(Match)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(Player, Player.id == MatchSeat.player_id)
        .where(Match.group_id.in_([g.id for g in groups]), Match.variant.in_(SCORED),
               Match.finished_at.is_not(None), Match.started_at >= start)
        .group_by(Player.name_key))
    if end is not None:
        query = query.where(Match.started_at < end)
    return [season.Line(name, int(count), int(won), int(tied), int(victory), int(points),
                        int(hands))
            for _key, name, count, won, tied, victory, points, hands
            in db.session.execute(query)]

