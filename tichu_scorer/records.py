"""The glue between requests and rows: form data -> pure scoring -> rows; history queries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from . import scoring
from .extensions import db
from .models import Hand, Match, MatchSeat, Player, utcnow
from .scoring import Layout, Problem

TEAM_NAMES = ("A", "B")


class Conflict(Exception):
    """Another phone saved a hand of this match at the same moment."""


def layout_for(match: Match) -> Layout:
    """The scoring layout of a match, with its players' names for messages."""
    return scoring.NANKING.named(match.names)


def player_named(name: str) -> Player:
    """The player with this name (any case, any spacing), created when new."""
    clean = " ".join(name.split())
    key = Player.key(clean)
    player = db.session.execute(db.select(Player).filter_by(name_key=key)).scalar_one_or_none()
    if player is None:
        player = Player(name=clean, name_key=key)
        db.session.add(player)
        db.session.flush()
    return player


def known_names(limit: int = 200) -> list[str]:
    """Names of players seen before, most recent first, for the new-match form."""
    rows = db.session.execute(
        db.select(Player.name).order_by(Player.created_at.desc()).limit(limit)).scalars()
    return list(rows)


def create_match(names: Sequence[str], target: int, rematch_of: Match | None = None) -> Match:
    """A new four-player match with these players in seats 0–3 (partners 0&2, 1&3)."""
    try:
        match = Match(variant="nanking", target=target, totals=[0, 0],
                      rematch_of_id=rematch_of.id if rematch_of else None)
        for seat, name in enumerate(names):
            match.seats.append(MatchSeat(seat=seat, team=seat % 2, player=player_named(name)))
        db.session.add(match)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return match


def rematch(match: Match) -> Match:
    return create_match(match.names, match.target or scoring.DEFAULT_TARGET, rematch_of=match)


def read_hand(match: Match, data: Mapping[str, Any]) -> tuple[scoring.HandInput | None,
                                                               list[Problem]]:
    """The hand and every problem with it, including the match being over ([E1])."""
    hand, problems = scoring.read_hand(data, layout_for(match))
    if match.finished:
        problems.insert(0, Problem("match", "E1",
                                   "This match is over: a team reached the target with more "
                                   "points. Start a rematch to play on."))
    return hand, problems


def add_hand(match: Match, data: Mapping[str, Any]) -> tuple[Hand | None, list[Problem]]:
    """Score and store one hand, then recompute the match; nothing is stored on a problem."""
    hand_input, problems = read_hand(match, data)
    if problems or hand_input is None:
        return None, problems
    layout = layout_for(match)
    result = scoring.score_hand(hand_input, layout)
    row = Hand(
        number=match.hand_count + 1,
        out_order=list(scoring.full_out_order(hand_input.out_order, layout)),
        calls={str(s): c.value for s, c in sorted(hand_input.calls.items())},
        card_points_entered=list(hand_input.card_points),
        wish_offender=hand_input.wish_offender,
        card_points=list(result.card_points),
        team_scores=list(result.team_scores),
        sweep=result.sweep,
    )
    try:
        match.hands.append(row)
        _recompute(match)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(str(match.id)) from exc
    except Exception:
        db.session.rollback()
        raise
    return row, []


def _recompute(match: Match) -> None:
    """Totals, hand count and winner from the hands ([E1], [E2])."""
    state = scoring.match_state((h.team_scores for h in match.hands),
                                match.target or scoring.DEFAULT_TARGET)
    match.totals = list(state.totals)
    match.hand_count = len(match.hands)
    match.winner_team = state.winner
    if state.winner is None:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = utcnow()


@dataclass(frozen=True)
class HandRow:
    hand: Hand
    running: tuple[int, ...]
    first_out: str | None
    call_notes: list[tuple[str, str, bool]]  # (name, Tichu/Grand Tichu, made)


@dataclass(frozen=True)
class MatchPage:
    match: Match
    rows: list[HandRow]
    next_shuffler: str | None


def match_page(match: Match) -> MatchPage:
    """Everything the match page shows, computed in one pass over the hands."""
    names = match.names
    state = scoring.match_state((h.team_scores for h in match.hands),
                                match.target or scoring.DEFAULT_TARGET)
    rows = []
    for hand, running in zip(match.hands, state.running, strict=True):
        first = hand.out_order[0] if hand.out_order else None
        notes = [(names[int(seat)], scoring.Call(call).label,
                  first == int(seat)) for seat, call in hand.calls.items()]
        rows.append(HandRow(hand, running, names[first] if first is not None else None, notes))
    shuffler = rows[-1].first_out if rows else None
    return MatchPage(match, rows, shuffler)


def history(limit: int = 200) -> list[Match]:
    """Matches, newest first."""
    return list(db.session.execute(
        db.select(Match).order_by(Match.started_at.desc(), Match.id.desc()).limit(limit)
    ).scalars())
