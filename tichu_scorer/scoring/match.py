"""Match totals and the end of a match ([E1], [E2]).

>>> state = match_state([(160, 40), (0, 200)], target=1000)
>>> state.totals, state.running, state.winner
((160, 240), [(160, 40), (160, 240)], None)
>>> match_state([(600, 0), (400, 100)], target=1000).winner
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..game.i18n import _

DEFAULT_TARGET = 1000
MIN_TARGET = 50
MAX_TARGET = 10000


@dataclass(frozen=True)
class MatchState:
    totals: tuple[int, ...]
    running: list[tuple[int, ...]]
    winner: int | None  # index of the winning team (or player), None while play goes on
    winner_after: int | None = None  # 1-based number of the hand that decided it
    finished: bool = False  # a fixed-length match can end in a tie at the top

    @property
    def over(self) -> bool:
        return self.finished or self.winner is not None

    def ranking(self) -> list[int]:
        """Sides from the highest total down (ties keep seat order)."""
        return sorted(range(len(self.totals)), key=lambda i: -self.totals[i])


def leader(totals: Sequence[int]) -> int | None:
    """The side with strictly more points than every other, None when the top is shared.

    >>> leader((30, 20, 30)), leader((10, 40, 20)), leader(())
    (None, 1, None)
    """
    if not totals:
        return None
    top = max(totals)
    return None if list(totals).count(top) > 1 else list(totals).index(top)


def winner(totals: Sequence[int], target: int = DEFAULT_TARGET) -> int | None:
    """[E1]: the side that reached the target with strictly more points than every other;
    [E2]: None when no side reached it or the leaders are tied. The one place a match's
    winner is decided (a fixed-length match's target is the lowest total, [T3.5]).

    >>> winner((1000, 1000)), winner((1100, 1050)), winner((990, 900))
    (None, 0, None)
    """
    if not totals or max(totals) < target:
        return None
    return leader(totals)


def tied_at_top(totals: Sequence[int], target: int = DEFAULT_TARGET) -> int | None:
    """[E2]: the total that two or more sides share at the top at or above the target (play
    goes on until one side leads alone), None otherwise.

    >>> tied_at_top((1050, 1050)), tied_at_top((1050, 990)), tied_at_top((950, 950))
    (1050, None, None)
    """
    if not totals:
        return None
    top = max(totals)
    return top if top >= target and list(totals).count(top) > 1 else None


def match_state(hand_scores: Iterable[Sequence[int]], target: int = DEFAULT_TARGET,
                sides: int = 2) -> MatchState:
    """Running totals after each hand and the winner: the first hand after which [E1] holds."""
    totals = [0] * sides
    running: list[tuple[int, ...]] = []
    won: int | None = None
    after: int | None = None
    for number, scores in enumerate(hand_scores, start=1):
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        running.append(tuple(totals))
        if won is None:
            won = winner(totals, target)
            after = number if won is not None else None
    return MatchState(totals=tuple(totals), running=running, winner=won, winner_after=after)


def fixed_length_state(hand_scores: Iterable[Sequence[int]], hand_limit: int | None,
                       target: int | None, sides: int) -> MatchState:
    """[T3.5]: a match of a fixed number of hands (the highest total wins), or to a target.

    >>> fixed_length_state([(10, -10, 10, -10)] * 3, 3, None, 4).finished
    True
    """
    if target is not None:
        return match_state(hand_scores, target, sides)
    state = match_state(hand_scores, 10 ** 9, sides)
    end = result_after(state.totals, len(state.running), None, hand_limit)
    return MatchState(state.totals, state.running, end.winner, end.winner_after, end.finished)


def result_after(totals: Sequence[int], played: int, target: int | None,
                 hand_limit: int | None = None) -> MatchState:
    """The result once `played` hands give these totals, for a match that was still on
    before the last of them ([E1], [E2], [T3.5]): no need to replay the earlier hands.

    >>> result_after((1020, 900), 7, 1000).winner, result_after((30, 20), 3, None, 3).winner
    (0, 0)
    """
    if target is None and hand_limit is not None:
        if played < hand_limit:
            return MatchState(tuple(totals), [], None)
        won = winner(totals, min(totals, default=0))
        return MatchState(tuple(totals), [], won, played if won is not None else None,
                          finished=True)
    won = winner(totals, target or DEFAULT_TARGET)
    return MatchState(tuple(totals), [], won, played if won is not None else None)


def hands_after_the_end(state: MatchState, target: int | None,
                        hand_limit: int | None) -> tuple[int, str]:
    """How many of the hands in `state` were played after the match had ended, and the rule
    that ended it: [T3.5] past a fixed number of hands, else [E1] after the first hand that
    decided it. 0 in a record that can be: no hand is played after the end.

    >>> hands_after_the_end(match_state([(600, 0), (0, 100)], 500), 500, None)
    (1, 'E1')
    >>> hands_after_the_end(match_state([(10, 0)] * 4, 10 ** 9), None, 3)
    (1, 'T3.5')
    >>> hands_after_the_end(match_state([(300, 0), (300, 0)], 500), 500, None)
    (0, 'E1')
    """
    played = len(state.running)
    if target is None and hand_limit is not None:
        return max(played - hand_limit, 0), "T3.5"
    if state.winner_after is None:
        return 0, "E1"
    return played - state.winner_after, "E1"


def hands_problem(hands: object) -> str | None:
    """[T3.5]: a Threechu match lasts a multiple of 3 hands."""
    if not isinstance(hands, int) or isinstance(hands, bool) or not 3 <= hands <= 99:
        return _("The number of hands must be a whole number from 3 to 99.")
    if hands % 3:
        return _("The number of hands must be a multiple of 3, so everyone shuffles equally "
                 "often.")
    return None


def target_problem(target: object) -> str | None:
    """Why a match target is unusable, or None."""
    if not isinstance(target, int) or isinstance(target, bool):
        return _("The target must be a whole number.")
    if not MIN_TARGET <= target <= MAX_TARGET:
        return _("The target must lie between {low} and {high}.").format(low=MIN_TARGET,
                                                                          high=MAX_TARGET)
    if target % 50:
        return _("The target must be a multiple of 50.")
    return None
