"""Hands won (`scoring.stats.won_hand`, the statistics' `hands_won`): a hand is won by the side
that scored more than the other side in it, a tie by nobody. Per variant, on hands worked out
by hand: Nanking and Tientsin by the teams' hand scores (the partnership's row too),
Threechu by each player's own score (the shuffler with the dummy against the other two),
Grand Seigneur counts nothing."""

from __future__ import annotations

import pytest

from tests.matches.conftest import add, new_match
from tichu_scorer.game import variants
from tichu_scorer.scoring.stats import CountedHand, won_hand
from tichu_scorer.statistics import counting


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def hands_won(match):
    tallies = counting.counted(match)
    return ({name: t.hands_won for name, t in tallies.players.items()},
            {names: t.hands_won for names, t in tallies.pairs.items()})


@pytest.mark.one_database
def test_won_hand_is_more_than_every_other_side_and_a_tie_wins_nobody():
    teams = (0, 1, 0, 1)
    ahead = CountedHand((1, 0), {}, (-170, 70, -170, 70), teams, False)
    assert [won_hand(ahead, s) for s in range(4)] == [False, True, False, True]
    level = CountedHand((1, 0), {}, (50, 50, 50, 50), teams, False)
    assert not any(won_hand(level, s) for s in range(4))
    # Threechu: the shuffler (seat 2) with the dummy (seat 3) against seats 0 and 1
    shuffled = CountedHand((2, 0), {}, (25, 25, 75, 75), (1, 1, 0, 0), False)
    assert [won_hand(shuffled, s) for s in range(3)] == [False, False, True]
    # a hand without scores (Grand Seigneur's ranking) is won by nobody
    assert not won_hand(CountedHand((2, 0, 1), {}, (), (), False), 0)


def test_nanking_counts_the_team_with_the_higher_hand_score(ctx):
    match = add(new_match().key,
                {"out_order": [0, 2], "calls": {"0": "tichu"}},  # A 300 : 0
                {"out_order": [1, 0], "card_points": [30, None],
                 "calls": {"2": "grand"}},  # A -170 : B 70
                {"out_order": [1, 0], "card_points": [50, None]},  # 50 : 50, nobody
                {"out_order": [3, 2], "card_points": [75, None]})  # A 75 : B 25
    players, pairs = hands_won(match)
    assert players == {"Ann": 2, "Bob": 1, "Cy": 2, "Dee": 1}
    assert pairs == {("Ann", "Cy"): 2, ("Bob", "Dee"): 1}


def test_tientsin_counts_the_team_of_three(ctx):
    names = ["P0", "P1", "P2", "P3", "P4", "P5"]
    match = add(new_match(names, 1000, variants.TIENTSIN).key,
                {"out_order": [1, 3, 5]},  # B's triple victory
                {"out_order": [0, 1], "card_points": [80, None]})  # A 80 (+0 calls) : B 20
    players, pairs = hands_won(match)
    assert players == dict.fromkeys(names, 1)
    assert pairs == {("P0", "P2", "P4"): 1, ("P1", "P3", "P5"): 1}


def test_threechu_counts_each_players_own_score_the_dummy_none(ctx):
    match = add(new_match(["A", "B", "C"], None, variants.THREECHU, hand_limit=3).key,
                {"out_order": [1, 2]},  # A shuffles: B and C's double victory
                {"out_order": [1, 3]},  # B shuffles: B and the dummy's double victory
                {"out_order": [0, 1]})  # C shuffles: A and B's double victory
    assert [h.shuffler for h in match.hands] == [0, 1, 2]
    players, pairs = hands_won(match)
    assert players == {"A": 1, "B": 3, "C": 1} and pairs == {}
    assert sum(t.hands for t in counting.counted(match).players.values()) == 9


def test_grand_seigneur_counts_no_hand(ctx):
    match = add(new_match(["A", "B", "C", "D", "E"], None, variants.SEIGNEUR).key,
                {"out_order": [2, 0, 4, 1]})
    assert counting.counted(match) is None
