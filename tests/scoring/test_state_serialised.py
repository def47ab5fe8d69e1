"""The match state serialised (`MatchState.to_dict`, `as_list`, `from_dict`): what the match
page hands the phone and what the save path scores a new hand against. One table over the
four games, with house rules: the state read back is the state, and a new hand scored
against the summary alone (`MatchState.after`) is scored as against every hand replayed."""

from __future__ import annotations

import json

import pytest

from tichu_scorer.game.house import RULE_BOOK, HouseRules
from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN
from tichu_scorer.scoring.calls import Call, CustomCall
from tichu_scorer.scoring.hand import HandInput
from tichu_scorer.scoring.state import FACTS, MatchState, Settings

CLUB = HouseRules(double_victory_points=100, victory_points=True)  # [R3], [R4]
TOURNAMENT = HouseRules(grand_tichu=False, double_victory_points=100, victory_points=True)
OWN = HouseRules(wish_penalty=False, custom_calls=(("Small", 50),))  # [R8], [R9]


def hand(order, calls=None, points=(None, None)):
    return HandInput(tuple(order), calls or {}, points)


CASES = [  # settings, the hands played, the next hand
    (Settings(NANKING, ("Ann", "Bob", "Cy", "Dee"), 1000, house=CLUB),
     [hand((0, 2), {0: Call.TICHU}), hand((1, 0, 3), {}, (None, 35))], hand((3, 1))),
    (Settings(NANKING, ("Ann", "Bob", "Cy", "Dee"), 300),
     [hand((0, 2), {0: Call.TICHU})], hand((1, 0, 3), {}, (None, 35))),  # ends it ([E1])
    (Settings(THREECHU, ("Tom", "Uma", "Vic", "Dummy"), None, 4, house=TOURNAMENT),
     [hand((3, 1), {3: Call.TICHU}, (50, None)), hand((0, 2), {}, (None, 25))],
     hand((2, 0), {}, (25, None))),
    (Settings(THREECHU, ("Tom", "Uma", "Vic", "Dummy"), None, 2),
     [hand((3, 1), {}, (50, None)), hand((0, 2), {}, (None, 25))], hand((2, 0))),  # over
    (Settings(TIENTSIN, tuple("ABCDEF"), 1000, None, 200, OWN),
     [hand((0, 2, 4)), hand((1, 2, 3, 4, 5), {1: CustomCall("Small", 50)}, (60, None))],
     hand((5, 0, 1, 2, 3), {}, (None, 40))),
    (Settings(SEIGNEUR, ("Al", "Bo", "Cy", "Di", "Ed")),
     [hand((3, 0, 4, 1)), hand((1, 3, 0, 2))], hand((0, 1, 2, 3))),
    (Settings(SEIGNEUR, tuple("ABCDEFG"), house=RULE_BOOK), [], hand((6, 5, 4, 3, 2, 1))),
]
IDS = ["nanking-club", "nanking-ended", "threechu-tournament", "threechu-played-out",
       "tientsin-own-calls-lead", "seigneur-5", "seigneur-7-fresh"]


def summary(state: MatchState) -> MatchState:
    """The state as the stored columns keep it (`hand_entry.stored_state`)."""
    return MatchState.after(state.settings, state.played, state.totals, state.over,
                            state.victory)


@pytest.mark.parametrize("settings, hands, _next", CASES, ids=IDS)
def test_the_serialised_state_reads_back_as_the_state(settings, hands, _next):
    state = MatchState.of(settings, hands)
    stored = summary(state)
    assert stored.to_dict() == state.to_dict()  # the replay and the stored columns agree
    for sent in (stored.to_dict(), stored.as_list()):  # as JSON, as the page carries it
        phone = MatchState.from_dict(json.loads(json.dumps(sent)))
        assert phone == stored
        assert phone.settings == settings
    assert list(state.to_dict()) == list(FACTS)
    # the page's seven facts while the match plays by the rule book
    assert (len(stored.as_list()) == 7) == (settings.house == RULE_BOOK
                                            and settings.lead_by is None)
    # the seat a new hand is read with, from one implementation ([T3.1])
    assert (stored.played, stored.over, stored.next_seating) == (
        state.played, state.over, state.next_seating)
    if not settings.variant.teams:  # the team games name who went out first last hand
        assert stored.next_shuffler == state.next_shuffler


@pytest.mark.parametrize("settings, hands, following", CASES, ids=IDS)
def test_a_new_hand_scores_against_the_summary_as_against_every_hand(settings, hands,
                                                                    following):
    state = MatchState.of(settings, hands)
    if state.over:  # a finished match takes no hand: the summary knows it is over
        assert summary(state).to_dict()["finished"]
        return
    replayed = state.with_hands((following,))
    summed = summary(state).with_hands((following,))
    assert summed.hands[-1].number == replayed.hands[-1].number == len(hands) + 1
    assert summed.hands[-1].scores == replayed.hands[-1].scores
    assert (summed.totals, summed.victory, summed.over, summed.winner) == (
        replayed.totals, replayed.victory, replayed.over, replayed.winner)
    assert summed.to_dict() == replayed.to_dict()
