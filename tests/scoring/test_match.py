"""§8: the end of a match ([E1], [E2]); the totals hand by hand are `scoring.state`'s
(tests/scoring/test_state.py), the targets and lengths a match may have
tests/scoring/test_settings.py's."""

import pytest

from tichu_scorer.scoring import leader, winner


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


@pytest.mark.parametrize("totals, top", [
    ((30, 20), 0), ((20, 30, 30), None), ((-5, -10), 0), ((), None), ((7,), 0)])
def test_leader(totals, top):
    assert leader(totals) == top
