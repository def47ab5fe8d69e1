"""§8: match totals and the end of a match ([E1], [E2])."""

import pytest

from tichu_scorer.scoring import match_state, target_problem, winner


@pytest.mark.parametrize("totals, target, expected", [
    ((1000, 900), 1000, 0),     # E1: reached and ahead
    ((900, 1005), 1000, 1),
    ((1000, 1000), 1000, None),  # E2: both at the target, equal
    ((1200, 1200), 1000, None),
    ((1100, 1050), 1000, 0),    # E1: both over, unequal: the higher wins
    ((1050, 1300), 1000, 1),
    ((995, 990), 1000, None),   # E2: nobody reached it
    ((-300, 250), 1000, None),
    ((500, 450), 500, 0),       # a configurable target
    ((450, 500), 500, 1),
])
def test_winner(totals, target, expected):
    assert winner(totals, target) == expected


def test_running_totals_and_decisive_hand():
    hands = [(300, -100), (400, 0), (200, 0), (100, 0), (0, 200)]
    state = match_state(hands, target=1000)
    assert state.running == [(300, -100), (700, -100), (900, -100), (1000, -100), (1000, 100)]
    assert state.winner == 0
    assert state.winner_after == 4
    assert state.over


def test_tied_at_target_plays_on_until_one_leads():
    state = match_state([(500, 500), (500, 500)], target=1000)
    assert state.totals == (1000, 1000) and state.winner is None
    state = match_state([(500, 500), (500, 500), (45, 55)], target=1000)
    assert state.winner == 1 and state.winner_after == 3


def test_no_hands():
    state = match_state([], target=1000)
    assert state.totals == (0, 0) and state.winner is None and not state.over


@pytest.mark.parametrize("target, ok", [
    (1000, True), (500, True), (1500, True), (0, False), (49, False), (1234, False),
    (20000, False), ("1000", False), (True, False),
])
def test_target_problem(target, ok):
    assert (target_problem(target) is None) is ok
