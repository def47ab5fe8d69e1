"""Statistics across matches and the chart of one match: rows -> pure stats/chart code."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import selectinload

from . import chart, records, scoring
from .extensions import db
from .models import Group, Hand, Match, MatchSeat
from .scoring.stats import HandFacts, MatchFacts, Tally, partnership_stats, player_stats


def _hand_facts(match: Match, hand: Hand) -> HandFacts:
    seats = len(match.seats)
    if match.variant == "threechu":
        layout = scoring.threechu_hand(hand.shuffler or 0)
        teams = tuple(layout.team_of(s) for s in range(seats))
        scores = tuple(int((hand.player_scores or {}).get(str(s), 0)) for s in range(seats))
    else:
        teams = tuple(s % 2 for s in range(seats))
        scores = tuple(hand.team_scores[s % 2] for s in range(seats))
    calls = {int(seat): call for seat, call in hand.calls.items()}
    return HandFacts(tuple(hand.out_order), calls, scores, teams, hand.sweep)


def match_facts(match: Match) -> MatchFacts:
    names = match.names
    winners: tuple[str, ...] = ()
    if match.winner_team is not None:
        if match.variant == "threechu":
            winners = (names[match.winner_team],)
        else:
            winners = tuple(names[s] for s in range(len(names)) if s % 2 == match.winner_team)
    return MatchFacts(match.variant, names, tuple(_hand_facts(match, h) for h in match.hands),
                      winners, match.finished)


def all_stats(groups: Sequence[Group]) -> tuple[list[tuple[str, Tally]],
                                               list[tuple[tuple[str, ...], Tally]]]:
    """Per player and per partnership over these tables' matches, most matches first
    (three queries in all)."""
    matches = db.session.execute(
        db.select(Match).where(Match.variant != "seigneur",
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
    team_game = records.is_team_game(match)
    calls = []
    for row in page.rows:
        marks = []
        for seat, call in row.hand.calls.items():
            side = int(seat) % 2 if team_game else int(seat)
            made = bool(row.hand.out_order) and row.hand.out_order[0] == int(seat)
            outcome = "made" if made else "failed"
            label = f"{names[int(seat)]}'s {scoring.Call(call).label} {outcome}"
            marks.append((side, label, made))
        calls.append(marks)
    classes = [side.css for side in page.sides]
    target = match.target if match.target else None
    return chart.build([row.running for row in page.rows], classes, target, calls)
