"""End-of-match rules as the rows keep them: the match's derived columns (totals, hand
count, winner, when it finished) set from the pure match state, and the corrections refused
because they would leave hands in play after the hand that ended the match ([E1], [E2],
[T3.5])."""

from __future__ import annotations

from sqlalchemy import inspect

from .. import statistics
from ..clock import utcnow
from ..game.i18n import _
from ..models import Hand, Match
from ..scoring import HandInput, Problem
from ..scoring.state import MatchState
from . import prebuilt


def state_of(match: Match, replacing: tuple[Hand, HandInput] | None = None) -> MatchState:
    """The match as its hands in play leave it; with `replacing`, one of them recorded
    differently (an edit's preview)."""
    hands = match.hands
    if replacing is None:
        return MatchState.of(match.settings, [h.input for h in hands])
    editing, instead = replacing
    return MatchState.of(match.settings, [instead if h is editing else h.input for h in hands])



def changed(match: Match, stamp: bool = True) -> None:
    """Name the match's new state: its revision rises in the transaction of every change
    (kept match pages, statistics and phones waiting for news follow it). `stamp=False`:
    the caller writes the match with `prebuilt.store_match`, which stamps it itself."""
    match.revision = (match.revision or 0) + 1
    if stamp and inspect(match).persistent:  # (an imported match is stamped as stored)
        match.stamp = prebuilt.next_stamp(match.group_id)


class AfterTheEnd(Exception):
    """A correction would leave hands in play after the hand that ended the match: `problem`
    says which, and nothing is changed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def recompute(match: Match, was_after_the_end: int | None = None) -> None:
    """Totals, hand count and result from the hands ([E1], [E2], [T3.5]). For a correction
    (an edit, a delete, a restore, new settings), `was_after_the_end` is how many hands in
    play came after the end of the match before it (`after_the_end`, 0 in a sound record):
    one that would leave more raises `AfterTheEnd`. No hand is played after the end, so
    such a record cannot be, and the result beside its totals would contradict them. (A
    record left so by an older version may still be mended hand by hand; an import keeps
    what it brings.)"""
    match.hand_count = len(match.hands)
    changed(match)
    state = state_of(match)
    if was_after_the_end is not None and state.hands_after_the_end > was_after_the_end:
        raise AfterTheEnd(end_problem(match, state))
    settle(match, list(state.totals), match.hand_count, state.winner, state.over, counted=True,
           victory=list(state.victory))
    statistics.record(match, state)


def after_the_end(match: Match) -> int:
    """How many hands in play come after the end of the match (0 in a sound record)."""
    return state_of(match).hands_after_the_end


def overrun(match: Match) -> Problem | None:
    """What a match as read from a file breaks when hands in play come after the hand that
    ended it ([E1], or [T3.5] past its number of hands); None in a sound record. Named by
    the hands' own numbers, as the file has them."""
    hands = match.hands
    state = state_of(match)
    extra = state.hands_after_the_end
    if not extra:
        return None
    if state.end_rule in ("T3.5", "R7"):
        return Problem("hands", state.end_rule, _(
            "the match lasts {n} hands, but {m} hands are in play.").format(
            n=match.hand_limit, m=len(hands)))
    return Problem("hands", "E1", _(
        "the match was won with hand {n} ({side}), but the hands go on to hand {last}: a "
        "match ends with the hand that decides it. Remove the later hands, or give the match "
        "a higher target.").format(n=hands[len(hands) - extra - 1].number,
                                    side=" & ".join(state.winner_names),
                                    last=hands[-1].number))


def end_problem(match: Match, state: MatchState) -> Problem:
    """What a record with hands after the end of the match breaks, in the reader's words."""
    played = len(state.hands)
    if state.end_rule in ("T3.5", "R7"):
        return Problem("match", state.end_rule, _(
            "This match lasts {n} hands; with this change it would have {m}. Nothing was "
            "changed.").format(n=match.hand_limit, m=played))
    if state.end_rule == "R6":
        return Problem("lead_by", "R6", _(
            "With this lead the match would have ended after hand {n} ({side}), but it goes "
            "on to hand {played}. Nothing was changed.").format(
            side=" & ".join(state.winner_names), n=state.winner_after, played=played))
    return Problem("match", "E1", _(
        "With this change the match would have been won after hand {n} ({side}), but it "
        "goes on to hand {played}. If the match really ended there, delete the later hands "
        "first; to correct several hands (two entered in the wrong order), delete the later "
        "ones, correct, then restore them from the log. Nothing was changed.").format(
        side=" & ".join(state.winner_names), n=state.winner_after, played=played))



def settle(match: Match, totals: list[int], hands: int, winner: int | None, over: bool,
           counted: bool = False, victory: list[int] | None = None) -> None:
    """Store the derived totals (and [R4]'s victory points), hand count and result of a
    match (one place for both the quick path of a new hand and the full recomputation).
    The quick path (not `counted`) raises the revision; its caller writes the match with
    `prebuilt.store_match`, which stamps it."""
    if not counted:
        changed(match, stamp=False)
    match.totals = totals
    if victory or match.victory:
        match.victory = victory or None
    match.hand_count = hands
    match.winner_team = winner
    if not over:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = utcnow()



def ends_earlier(match: Match, state: MatchState) -> Problem | None:
    """An edit giving this `state` that would end the match before its last hand in play
    ([E1], [T3.5]), or leave more hands after its end than the record already has (see
    `recompute`)."""
    if state.hands_after_the_end > state_of(match).hands_after_the_end:
        return end_problem(match, state)
    return None
