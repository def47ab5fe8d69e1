"""`answers`, called directly: hands waiting on a phone, scored in turn as the server will
score them (`waiting`); the referee's verdict or why a question cannot be judged (`judge`);
the preview of the next hand (`preview`)."""

from __future__ import annotations

import json

import pytest

from tests.scoring.test_read import HUGE_NUMBERS, short_messages
from tichu_scorer import answers
from tichu_scorer.answers import MatchFacts
from tichu_scorer.scoring import Problem

NANKING = MatchFacts("nanking", ("Ann", "Bob", "Cy", "Dee"), 500, None, 3, (300, 100), False)


def test_waiting_hands_move_the_totals_and_end_the_match_as_the_server_would():
    state = answers.waiting(NANKING, [
        {"out_order": [1, 3], "calls": {}},  # B's double victory: 300 : 300
        None,  # queued without a body: takes its number, counts nothing
        {"out_order": [0, 2]},  # A's double victory: 500 : 300, the target reached
        {"out_order": [9]},  # refused: never counted
    ])
    assert [h and h["status"] for h in state["hands"]] == [200, None, 200, 422]
    assert state["facts"]["totals"] == (500, 300) and state["facts"]["finished"]
    assert state["facts"]["hand_count"] == 6
    assert state["shuffler_name"] == "Ann"  # first out of the latest hand scored
    assert state["words"]["ends"].startswith("With these hands the match is over")
    # the preview of the next hand after them says the match is over ([E1])
    after = MatchFacts.from_dict(state["facts"])
    answer, status = answers.preview(after, {"out_order": [0, 1], "card_points": [50, None]})
    assert status == 422 and answer["errors"][0]["rule"] == "E1"


def test_threechu_passes_the_shuffle_to_the_left_with_each_waiting_hand():
    facts = MatchFacts("threechu", ("Tom", "Uma", "Vic", "Dummy"), None, 9, 0, (0, 0, 0, 0), False)
    state = answers.waiting(facts, [{"out_order": [3, 1], "card_points": [50, None]}] * 2)
    assert state["shuffler_name"] == "Vic" and state["facts"]["hand_count"] == 2
    assert "%(name)s" in state["words"]["shuffles"]


def test_no_waiting_hand_changes_nothing():
    state = answers.waiting(NANKING, [])
    assert state["facts"] == NANKING.as_dict() and state["shuffler"] is None


STORED = {"running": [[200, 0], [300, 100]],  # the server's chart.json: two hands stored
          "hands": [[{"0": "tichu"}, [0, 2]], [{}, [1, 0]]]}


def test_the_chart_goes_on_from_the_stored_hands_with_the_waiting_ones():
    state = answers.waiting(NANKING, [{"out_order": [1, 3], "calls": {"1": "tichu"}},
                                      {"out_order": [9]}], STORED)  # the refused one: not drawn
    chart = state["chart"]
    assert [label for *_, label, _corner in chart["markers"]] == [
        "hand 1: Ann: Tichu made", "hand 3: Bob: Tichu made"]
    assert [i for _x, i in chart["x_labels"]] == [0, 1, 2, 3]  # three hands drawn
    ys = {v: y for y, v in chart["y_labels"]}
    team_b = chart["paths"][1][1]
    assert state["facts"]["totals"][1] == 400 and ys[400] is not None
    assert team_b.startswith("M") and chart["target_y"] is not None  # to 500: on the chart
    assert answers.waiting(NANKING, [{"out_order": [1, 3]}])["chart"] is None  # no inputs


def test_the_charts_words_come_in_the_readers_language():
    from pathlib import Path
    locales = str(Path(answers.__file__).parent / "translations")
    request = {"op": "waiting", "lang": "de", "facts": NANKING.as_list(), "chart": STORED,
               "bodies": [{"out_order": [1, 3], "calls": {"1": "tichu"}}]}
    state = json.loads(answers.phone(json.dumps(request), locales, None))["ok"]
    label = state["chart"]["markers"][-1][3]
    assert "Bob" in label and label != "hand 3: Bob: Tichu made"
    assert state["words"]["chart_title"] != "Score progression"


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
    fresh = MatchFacts("nanking", ("Ann", "Bob", "Cy", "Dee"), 1000, None, 0, (0, 0), False)
    answer, status = answers.preview(fresh, json.loads(raw))
    assert status == 422
    short_messages([Problem(e["field"], e["rule"], e["message"]) for e in answer["errors"]],
                   field)
    assert "9" * 22 not in json.dumps(answer)
