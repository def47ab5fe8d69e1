"""Statistics across matches and the chart of one match: rows -> pure stats/chart code."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext
from sqlalchemy.orm import selectinload

from . import chart, records, scoring
from .extensions import db
from .models import Group, Hand, Match, MatchSeat
from .scoring.stats import HandFacts, MatchFacts, Tally, partnership_stats, player_stats
from .scoring.variants import VARIANTS

SCORED = [v.key for v in VARIANTS.values() if v.scored]  # statistics count card points


def _hand_facts(match: Match, hand: Hand) -> HandFacts:
    seats = len(match.seats)
    layout = match.game.layout(shuffler=hand.shuffler)
    teams = tuple(layout.team_of(s) for s in range(seats))
    scores = match.game.seat_scores(hand.team_scores, hand.player_scores, seats, layout)
    calls = {int(seat): call for seat, call in hand.calls.items()}
    return HandFacts(tuple(hand.out_order), calls, scores, teams, hand.sweep)


def match_facts(match: Match) -> MatchFacts:
    names = match.names
    winners: tuple[str, ...] = ()
    if match.winner_team is not None:
        winners = match.game.sides(names)[match.winner_team].names
    return MatchFacts(match.game, names, tuple(_hand_facts(match, h) for h in match.hands),
                      winners, match.finished)


def all_stats(groups: Sequence[Group]) -> tuple[list[tuple[str, Tally]],
                                               list[tuple[tuple[str, ...], Tally]]]:
    """Per player and per partnership over these tables' matches, most matches first
    (three queries in all)."""
    matches = db.session.execute(
        db.select(Match).where(Match.variant.in_(SCORED),
                               Match.group_id.in_([g.id for g in groups])).options(
            selectinload(Match.all_hands),
            selectinload(Match.seats).joinedload(MatchSeat.player))).scalars().all()
    facts = [match_facts(m) for m in matches]
    players = sorted(player_stats(facts).items(), key=lambda kv: (-kv[1].matches, kv[0]))
    pairs = sorted(partnership_stats(facts).items(), key=lambda kv: (-kv[1].matches, kv[0]))
    return players, pairs


def match_chart(page: records.MatchPage) -> chart.Chart | None:
    """Running totals per side with every call marked."""
    match = page.match
    if not page.rows:
        return None
    names = match.names
    side_of = {seat: side.index for side in match.game.sides(names) for seat in side.seats}
    calls = []
    for row in page.rows:
        marks = []
        for seat, call in row.hand.calls.items():
            side = side_of[int(seat)]
            made = bool(row.hand.out_order) and row.hand.out_order[0] == int(seat)
            what = gettext(scoring.Call(call).label)
            label = (gettext("%(name)s: %(call)s made", name=names[int(seat)], call=what) if made
                     else gettext("%(name)s: %(call)s failed", name=names[int(seat)], call=what))
            marks.append((side, label, made))
        calls.append(marks)
    classes = [side.css for side in page.sides]
    target = match.target if match.target else None
    return chart.build([row.running for row in page.rows], classes, target, calls)
