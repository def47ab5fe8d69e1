"""§9: Threechu ([T3.*]), Tientsin ([T6.*]) and Grand Seigneur ([GS*]) in the pure core."""

import pytest

from tichu_scorer.game.variants import THREECHU
from tichu_scorer.scoring import (
    DUMMY,
    TIENTSIN,
    Call,
    HandInput,
    InvalidHand,
    hands_problem,
    read_hand,
    score_hand,
    threechu,
)
from tichu_scorer.scoring.seigneur import (
    decks,
    full_ranking,
    pushes,
    ranking_problems,
    records,
    titles,
)
from tichu_scorer.scoring.state import MatchState, Settings

T, G = Call.TICHU, Call.GRAND


def hand(out, calls=None, points=(None, None), wish=None):
    return HandInput(tuple(out), calls or {}, points, wish)


# --- Threechu ------------------------------------------------------------------------------

@pytest.mark.parametrize("number, shuffler", [(1, 0), (2, 1), (3, 2), (4, 0), (9, 2)])
def test_t3_1_the_shuffle_passes_left(number, shuffler):
    assert THREECHU.shuffler(number) == shuffler


def test_t3_1_the_shuffler_partners_the_dummy():
    layout = threechu(DUMMY, shuffler=2)
    assert layout.members(0) == (2, 3) and layout.members(1) == (0, 1)


@pytest.mark.parametrize("shuffler, caller, call, ok", [
    (0, 0, G, False), (0, 3, G, False), (0, 1, G, True), (0, 3, T, True), (1, 0, G, True),
    (1, 1, G, False),
])
def test_t3_3_no_grand_tichu_for_shuffler_or_dummy(shuffler, caller, call, ok):
    h = hand([1, 0], {caller: call}, (50, 50))
    layout = threechu(DUMMY, shuffler)
    if ok:
        score_hand(h, layout)
    else:
        with pytest.raises(InvalidHand) as exc:
            score_hand(h, layout)
        assert [p.rule for p in exc.value.problems] == ["T3.3"]


def test_t3_4_every_player_and_the_dummy_scores_his_side():
    layout = threechu(DUMMY, shuffler=1)  # Uma (1) + dummy (3) against seats 0 and 2
    result = score_hand(hand([3, 0], {3: T}, (70, None)), layout)
    assert result.team_scores == (170, 30)
    assert result.player_scores(layout) == {0: 30, 1: 170, 2: 30, 3: 170}
    dv = score_hand(hand([0, 2], {}), layout)  # the two opponents out first and second
    assert dv.sweep and dv.player_scores(layout) == {0: 200, 1: 0, 2: 200, 3: 0}


# [T3.3] the dummy never owes the wish, so no wish penalty can be charged to it
@pytest.mark.parametrize("layout, offender, refused", [
    (threechu(DUMMY, shuffler=0), DUMMY, True),
    (threechu(DUMMY, shuffler=2), DUMMY, True),
    (threechu(DUMMY, shuffler=0), 0, False),   # the shuffler himself may owe it
    (threechu(DUMMY, shuffler=0), 1, False),
    (threechu(dummy=1), 1, True),            # the API's seating names the dummy's seat
    (threechu(dummy=1), 3, False),
])
def test_t3_3_no_wish_penalty_on_the_dummy(layout, offender, refused):
    h = hand([0, 1], {}, (50, 50), wish=offender)
    if not refused:
        assert score_hand(h, layout).wish_penalty
        return
    with pytest.raises(InvalidHand) as exc:
        score_hand(h, layout)
    assert [(p.field, p.rule) for p in exc.value.problems] == [("wish_penalty.offender",
                                                               "T3.3")]
    assert "dummy" in exc.value.problems[0].message


def test_t3_3_read_hand_reports_the_dummy_penalty_with_the_other_problems():
    data = {"out_order": [0, 0], "card_points": [50, 50], "wish_penalty": {"offender": 1}}
    _, problems = read_hand(data, threechu(dummy=1))
    assert [p.rule for p in problems] == ["H7", "T3.3"]


def test_t3_api_seating_dummy_and_partner():
    layout = threechu(dummy=1)  # the API's seating: the dummy's partner is seat 3
    assert layout.members(1) == (1, 3) and layout.no_grand_seats == {1, 3}


def threechu_state(target, limit, hands):
    """A Threechu match of hands given as (out-order, card points of team A), shuffled in
    turn ([T3.1])."""
    setup = Settings(THREECHU, ("Ann", "Bob", "Cy", "Dummy"), target, limit)
    return MatchState.of(setup, [HandInput(out, {}, (a, None)) for out, a in hands])


def test_t3_5_a_fixed_number_of_hands():
    even = [((0, 1), 50), ((1, 2), 50), ((2, 0), 50)]  # 50 to every seat in each hand
    assert not threechu_state(None, 3, even[:2]).over
    state = threechu_state(None, 3, even)
    assert state.over and state.winner is None  # a tie at the top: no single winner
    state = threechu_state(None, 6, even + [((1, 0), 40), ((2, 1), 60), ((0, 2), 50)])
    assert state.totals == (280, 320, 300, 300)  # [T3.4]: the dummy's seat is a side too
    assert state.over and state.winner == 1 and state.winner_after == 6


def test_t3_5_or_to_a_target():
    assert not threechu_state(1000, None, [((0, 2), 50)]).over
    # double victories: Bob and Cy against Ann's dummy, then Bob with his own dummy
    state = threechu_state(300, None, [((1, 2), None), ((1, 3), None)])
    assert state.totals == (0, 400, 200, 200) and state.winner == 1 and state.over


@pytest.mark.parametrize("hands, ok", [(9, True), (3, True), (12, True), (10, False),
                                       (0, False), (None, False), (102, False)])
def test_t3_5_a_multiple_of_three(hands, ok):
    assert (hands_problem(hands) is None) is ok


# --- Tientsin --------------------------------------------------------------------------------

def test_t6_1_teams_alternate():
    assert TIENTSIN.members(0) == (0, 2, 4) and TIENTSIN.members(1) == (1, 3, 5)


@pytest.mark.parametrize("rule, out, calls, points, scores, sweep", [
    ("T6.6", [0, 2, 4], {}, (None, None), (300, 0), True),
    ("T6.6", [5, 1, 3], {5: T}, (None, None), (0, 400), True),
    ("T6.6", [0, 2, 1], {}, (40, None), (40, 60), False),   # no double-victory bonus
    ("T6.6", [0, 2, 1, 4], {}, (None, 100), (0, 100), False),
    ("T6.7", [1, 0, 2], {0: G, 4: T}, (50, 50), (-250, 50), False),
    ("T6.7", [4, 0, 2], {4: G, 1: T}, (None, None), (500, -100), True),
])
def test_tientsin_scores(rule, out, calls, points, scores, sweep):
    result = score_hand(hand(out, calls, points), TIENTSIN)
    assert (result.team_scores, result.sweep) == (scores, sweep), rule


def test_t6_7_the_100_point_rule_holds():
    with pytest.raises(InvalidHand) as exc:
        score_hand(hand([0, 1], {}, (60, 60)), TIENTSIN)
    assert [p.rule for p in exc.value.problems] == ["P1"]


def test_tientsin_seats_0_to_5():
    with pytest.raises(InvalidHand) as exc:
        score_hand(hand([0, 6], {7: T}, (50, 50)), TIENTSIN)
    assert [p.rule for p in exc.value.problems] == ["H1", "H1"]


# --- Grand Seigneur --------------------------------------------------------------------------

@pytest.mark.parametrize("players, expected", [
    (5, ("Great Lord", "Lord", "Squire", "Pauper", "Wretch")),
    (6, ("Great Lord", "Lord", "Squire", "Burgher", "Pauper", "Wretch")),
    (8, ("Great Lord", "Lord", "Squire", "Grand Burgher", "Burgher", "Pauper",
         "Petty Pauper", "Wretch")),
])
def test_gs4_titles(players, expected):
    assert titles(players) == expected


@pytest.mark.parametrize("players", range(5, 13))
def test_gs4_one_distinct_title_per_player(players):
    names = titles(players)
    assert len(set(names)) == players and names[0] == "Great Lord" and names[-1] == "Wretch"


@pytest.mark.parametrize("players", [4, 13])
def test_gs1_five_to_twelve(players):
    with pytest.raises(ValueError):
        titles(players)


@pytest.mark.parametrize("players, count", [(5, 1), (6, 1), (7, 2), (12, 2)])
def test_gs2_two_decks_from_seven(players, count):
    assert decks(players) == count


def test_gs5_pushes_six_players():
    ranking = (4, 2, 0, 5, 1, 3)  # Great Lord 4, Lord 2, Squire 0, Burgher 5, Pauper 1, Wretch 3
    assert [(p.giver, p.receiver, p.cards) for p in pushes(ranking)] == [
        (3, 4, 3), (1, 2, 2), (5, 0, 1)]


def test_gs5_five_players_push_one_card_fewer():
    ranking = (0, 1, 2, 3, 4)
    assert [(p.giver_title, p.receiver_title, p.cards) for p in pushes(ranking)] == [
        ("Wretch", "Great Lord", 2), ("Pauper", "Lord", 1)]


# [GS5] by place, not by title: (players, [(giver place, receiver place, cards)]), places 1-based
@pytest.mark.parametrize("players, expected", [
    (5, [(5, 1, 2), (4, 2, 1)]),
    (6, [(6, 1, 3), (5, 2, 2), (4, 3, 1)]),
    (7, [(7, 1, 3), (6, 2, 2), (5, 3, 1)]),
    (8, [(8, 1, 3), (7, 2, 2), (6, 3, 1)]),
    (9, [(9, 1, 3), (8, 2, 2), (7, 3, 1)]),
    (12, [(12, 1, 3), (11, 2, 2), (10, 3, 1)]),
])
def test_gs5_pushes_go_by_place(players, expected):
    ranking = tuple(reversed(range(players)))  # seat s finished in place players - s
    got = pushes(ranking)
    assert [(players - p.giver, players - p.receiver, p.cards) for p in got] == expected
    for p in got:  # the titles shown are those of the places
        names = titles(players)
        assert (p.giver_title, p.receiver_title) == (names[ranking.index(p.giver)],
                                                     names[ranking.index(p.receiver)])


@pytest.mark.parametrize("players", range(5, 13))
def test_gs5_every_pushing_place_pushes_once(players):
    got = pushes(tuple(range(players)))
    givers = [p.giver for p in got]
    assert givers == list(range(players - 1, players - 1 - len(got), -1))
    assert sum(p.cards for p in got) == (3 if players == 5 else 6)


def test_gs4_titles_in_rank_order():
    twelve = titles(12)
    assert twelve[:3] == ("Great Lord", "Lord", "Squire")  # [GS4]: the Squire is third
    for higher, lower in [("Squire", "Knight"), ("Grand Burgher", "Burgher"),
                          ("Burgher", "Petty Burgher"), ("Grand Pauper", "Pauper"),
                          ("Pauper", "Petty Pauper"), ("Beggar", "Wretch")]:
        assert twelve.index(higher) < twelve.index(lower)
    for players in range(6, 12):  # a larger table only adds titles, in the same order
        assert [t for t in titles(players + 1) if t in titles(players)] == list(titles(players))


@pytest.mark.parametrize("order, players, ok", [
    ([0, 1, 2, 3, 4], 5, True), ([0, 1, 2, 3], 5, True), ([0, 1, 2], 5, False),
    ([0, 0, 1, 2], 5, False), ([0, 1, 2, 9], 5, False), (["a", 1, 2, 3], 5, False),
])
def test_gs1_finishing_order(order, players, ok):
    assert (ranking_problems(order, players) == []) is ok
    if not ok:
        assert all(p.rule == "GS1" for p in ranking_problems(order, players))


def test_gs1_last_player_is_derived():
    assert full_ranking([2, 0, 4, 1], 5) == (2, 0, 4, 1, 3)


def test_gs7_records():
    rankings = [(0, 1, 2, 3, 4), (0, 2, 1, 3, 4), (1, 0, 2, 3, 4), (0, 1, 2, 3, 4)]
    by_seat = {r.seat: r for r in records(rankings, 5)}
    assert by_seat[0].great_lord == 3 and by_seat[0].longest_reign == 2
    assert by_seat[0].average_rank == pytest.approx(1.25)
    assert by_seat[4].great_lord == 0 and by_seat[4].average_rank == 5
