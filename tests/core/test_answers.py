"""`answers`, called directly (hands waiting on a phone: tests/core/test_waiting.py): the
referee's verdict or why a question cannot be judged (`judge`);
the preview of the next hand (`preview`)."""

from __future__ import annotations

import json

import pytest

from tests.scoring.test_read import HUGE_NUMBERS, short_messages
from tichu_scorer.core import answers
from tichu_scorer.scoring import Problem
from tichu_scorer.scoring.state import MatchState


def summed(*listed):
    """A match's state as the page hands it to the phone (`MatchState.as_list`)."""
    return MatchState.from_dict(listed)


NANKING = summed("nanking", ("Ann", "Bob", "Cy", "Dee"), 500, None, 3, (300, 100), False)


# --- the referee's question, judged directly (POST /api/v1/referee/check answers with it; the
# 400 naming the field through HTTP once each: tests/views/test_api_referee.py,
# test_api_house_rules.py) -----------------------------------------------------------------

@pytest.mark.parametrize("body, field", [
    ({}, "play"),
    ({"play": "5j"}, "play"),
    ({"play": ["5x"]}, "play"),
    ({"play": ["5j", "5j"]}, "play"),
    ({"play": ["5j"], "hand": ["6j"]}, "play"),
    ({"play": ["5j"], "hand": "5j"}, "hand"),
    ({"play": ["5j"], "trick": [{"cards": ["5j"]}]}, "hand"),
    ({"play": ["6j"], "trick": [{"cards": ["5j"]}, {"cards": ["4j"]}]}, "trick"),
    ({"play": ["6j"], "trick": ["5j"]}, "trick"),
    ({"play": ["6j"], "trick": {"cards": []}}, "trick"),
    # an empty object, false, 0 or "" is no list either (once read as an empty table)
    ({"play": [], "trick": {}}, "trick"),
    ({"play": [], "trick": False}, "trick"),
    ({"play": [], "trick": 0}, "trick"),
    ({"play": [], "trick": ""}, "trick"),
    ({"play": ["6j"], "decks": True}, "decks"),  # once read as 1
    ({"play": ["6j"], "trick": [{"cards": ["5j"], "seat": "x"}]}, "trick"),
    ({"play": ["6j"], "wish": "1"}, "wish"),
    ({"play": ["6j"], "wish": "DR"}, "wish"),
    ({"play": ["6j"], "out_of_turn": "yes"}, "out_of_turn"),
    ({"play": ["6j"], "seat": "north"}, "seat"),
    ({"play": ["6j"], "variant": "poker"}, "variant"),
    ({"play": ["6j"], "variant": "seigneur", "decks": 3}, "decks"),
    ({"play": ["DOG"], "variant": "seigneur"}, "play"),
    ({"play": ["MJ", "MJ"], "variant": "seigneur"}, "play"),
])
def test_a_question_that_cannot_be_judged_is_a_400_naming_the_field(body, field):
    answer, status = answers.judge(body, None)
    assert status == 400 and answer["field"] == field and answer["error"]
    assert set(answer) == {"error", "field"}


def test_a_question_that_can_be_judged_is_a_verdict():
    answer, status = answers.judge({"trick": [{"cards": ["5j"]}], "play": ["6j"]}, None)
    assert status == 200 and (answer["legal"], answer["rule"]) == (True, "C1")


DRAGON = {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "hand": ["DR"]}


@pytest.mark.parametrize("rules, field, rule", [
    ({"grand": False}, "house_rules.grand", "R1"),
    ({"grand_tichu": "false"}, "house_rules.grand_tichu", "R2"),
    ({"double_victory_points": "100"}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": 99}, "house_rules.double_victory_points", "R3"),
    ({"victory_points": 1}, "house_rules.victory_points", "R4"),
    ({"wish_penalty": None}, "house_rules.wish_penalty", "R8"),
    ({"custom_calls": ["blind"]}, "house_rules.custom_calls", "R9"),
    ({"custom_calls": {"blind": True}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"tichu": 400}}, "house_rules.custom_calls.tichu", "R9"),
    # one call a name, whatever its capitals
    ({"custom_calls": {"blind": 400, "BLIND": 50}}, "house_rules.custom_calls.BLIND", "R9"),
    ({"dragon_kept_when_out": "yes"}, "house_rules.dragon_kept_when_out", "R5"),
    ([], "house_rules", "R1"),
    (True, "house_rules", "R1"),
])
def test_a_house_rule_the_referee_cannot_read_is_a_400_naming_it(rules, field, rule):
    answer, status = answers.judge(DRAGON | {"house_rules": rules}, None)
    assert status == 400 and answer["field"] == field
    assert f"({rule})" in answer["error"]


# --- the preview of the next hand: huge numbers (through HTTP once:
# tests/views/test_input_edges.py) ----------------------------------------------------------

@pytest.mark.parametrize("raw, field", HUGE_NUMBERS)
def test_the_preview_gives_huge_numbers_a_short_message(raw, field):
    fresh = summed("nanking", ("Ann", "Bob", "Cy", "Dee"), 1000, None, 0, (0, 0), False)
    answer, status = answers.preview(fresh, json.loads(raw))
    assert status == 422
    short_messages([Problem(e["field"], e["rule"], e["message"]) for e in answer["errors"]],
                   field)
    assert "9" * 22 not in json.dumps(answer)
