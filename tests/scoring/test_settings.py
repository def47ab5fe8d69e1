"""`scoring.settings`: a match's settings checked once, every problem with its field and
rule ([E1], [T3.5], [R7], [R6], [R1], [GS7]), as the new-match form, the settings page and
the import ask it (their wiring: tests/forms/, tests/transfer/test_json_import.py)."""

from __future__ import annotations

import pytest

from tichu_scorer.game.house import RULE_BOOK, HouseRules
from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN
from tichu_scorer.scoring.settings import (
    HANDS,
    LEAD,
    TARGET,
    THREECHU_HANDS,
    Bounds,
    hands_problem,
    settings_problems,
    target_problem,
)

LEAD_BOUNDS = "The lead that ends the match must be 50 to 10000 points in steps of 50."
TWO_TEAMS = "A lead ends a match of two teams; Threechu keeps a total per player."
NO_POINTS = "Grand Seigneur has no points: no house rules on scoring."
ONE_OF_THEM = ("A Threechu match lasts either a number of hands or to a target, and needs one "
               "of them.")


@pytest.mark.parametrize("game, settings", [
    (NANKING, {"target": 1000}),
    (NANKING, {"target": 50, "lead_by": 50}),
    (NANKING, {"target": 10000, "lead_by": 10000}),
    (NANKING, {}),  # an older export: the rule book's target
    (NANKING, {"hand_limit": 4, "house": HouseRules(victory_points=True)}),  # [R7]
    (NANKING, {"hand_limit": 1}),
    (NANKING, {"hand_limit": 99, "lead_by": 300}),
    (TIENTSIN, {"target": 500, "lead_by": 200}),  # two teams of three
    (THREECHU, {"hand_limit": 9}),
    (THREECHU, {"hand_limit": 99}),
    (THREECHU, {"target": 500, "house": HouseRules(grand_tichu=False)}),
    (SEIGNEUR, {}),
])
def test_settings_a_match_may_have(game, settings):
    assert settings_problems(game, **settings) == []


@pytest.mark.parametrize("game, settings, problems", [
    # [E1]: a target of 50 to 10000 in steps of 50
    (NANKING, {"target": 1234}, [("target", "E1", "The target must be a multiple of 50.")]),
    (NANKING, {"target": 0}, [("target", "E1", "The target must lie between 50 and 10000.")]),
    (NANKING, {"target": "1000"}, [("target", "E1", "The target must be a whole number.")]),
    (NANKING, {"target": True}, [("target", "E1", "The target must be a whole number.")]),
    # [T3.5]: Threechu lasts a multiple of 3 hands, or plays to a target: one of them
    (THREECHU, {"hand_limit": 10}, [("hand_limit", "T3.5", "The number of hands must be a "
                                     "multiple of 3, so everyone shuffles equally often.")]),
    (THREECHU, {"hand_limit": 102}, [("hand_limit", "T3.5", "The number of hands must be a "
                                      "whole number from 3 to 99.")]),
    (THREECHU, {}, [("hand_limit", "T3.5", ONE_OF_THEM)]),
    (THREECHU, {"target": 500, "hand_limit": 9}, [("hand_limit", "T3.5", ONE_OF_THEM)]),
    # [R7]: a team game's number of hands, 1 to 99, in place of its target
    (NANKING, {"hand_limit": 0}, [("hand_limit", "R7", "A match lasts 1 to 99 hands.")]),
    (NANKING, {"hand_limit": 100}, [("hand_limit", "R7", "A match lasts 1 to 99 hands.")]),
    (NANKING, {"hand_limit": 4.0}, [("hand_limit", "R7", "A match lasts 1 to 99 hands.")]),
    (NANKING, {"target": 1000, "hand_limit": 4}, [(
        "hand_limit", "R7", "A match lasts a number of hands or plays to a target, not both.")]),
    # [R6]: a lead of 50 to 10000 in steps of 50, between two teams
    (NANKING, {"lead_by": 75}, [("lead_by", "R6", LEAD_BOUNDS)]),
    (NANKING, {"lead_by": 0}, [("lead_by", "R6", LEAD_BOUNDS)]),
    (NANKING, {"lead_by": 10050}, [("lead_by", "R6", LEAD_BOUNDS)]),
    (NANKING, {"lead_by": "500"}, [("lead_by", "R6", LEAD_BOUNDS)]),
    (THREECHU, {"hand_limit": 9, "lead_by": 300}, [("lead_by", "R6", TWO_TEAMS)]),
    # [R1], [GS7]: a game without points takes no house rules and no length
    (SEIGNEUR, {"house": HouseRules(victory_points=True)}, [("house_rules", "R1", NO_POINTS)]),
    (SEIGNEUR, {"lead_by": 300}, [("house_rules", "R1", NO_POINTS)]),
    (SEIGNEUR, {"target": 1000}, [("target", "GS7", "Grand Seigneur has no target and no "
                                   "number of hands.")]),
    (SEIGNEUR, {"hand_limit": 9}, [("target", "GS7", "Grand Seigneur has no target and no "
                                    "number of hands.")]),
])
def test_each_problem_names_its_field_and_rule(game, settings, problems):
    assert [(p.field, p.rule, p.message)
            for p in settings_problems(game, **settings)] == problems


def test_every_problem_at_once_in_the_order_an_import_names_the_first():
    found = settings_problems(THREECHU, target=75, hand_limit=10, lead_by=75)
    assert [(p.field, p.rule) for p in found] == [
        ("lead_by", "R6"), ("target", "E1"), ("hand_limit", "T3.5"), ("hand_limit", "T3.5")]
    found = settings_problems(SEIGNEUR, target=1000, hand_limit=100, lead_by=75,
                              house=HouseRules(grand_tichu=False))
    assert [p.rule for p in found] == ["R6", "R1", "R7", "GS7"]


@pytest.mark.parametrize("bounds, inside, outside", [
    (TARGET, [50, 1000, 10000], [0, 25, 1025, 10050, 1000.0, "1000", True, None]),
    (LEAD, [50, 500, 10000], [0, 49, 75, 10050, 500.0, False]),
    (HANDS, [1, 4, 99], [0, 100, -4, 4.5, "4", True]),
    (THREECHU_HANDS, [3, 9, 99], [0, 1, 10, 102, 9.0]),
])
def test_the_bounds_hold_whole_numbers_on_their_steps(bounds, inside, outside):
    assert all(bounds.holds(value) for value in inside)
    assert not any(bounds.holds(value) for value in outside)


def test_the_bounds_the_pages_take_are_the_ones_checked():
    assert TARGET.html == {"min": 50, "max": 10000, "step": 50} == LEAD.html
    assert HANDS.html == {"min": 1, "max": 99}
    assert Bounds(5, 10, 5).html == {"min": 5, "max": 10, "step": 5}


@pytest.mark.parametrize("target, ok", [
    (1000, True), (500, True), (1500, True), (0, False), (49, False), (1234, False),
    (20000, False), ("1000", False), (True, False),
])
def test_target_problem(target, ok):
    assert (target_problem(target) is None) is ok


def test_the_single_checks_say_the_same_as_the_whole():
    assert target_problem(1000) is None and hands_problem(9) is None
    [problem] = settings_problems(NANKING, target=75)
    assert problem.message == target_problem(75)
    assert settings_problems(NANKING, house=RULE_BOOK) == []
