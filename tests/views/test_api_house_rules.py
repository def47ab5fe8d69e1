"""The `house_rules` object of POST /api/v1/score and /api/v1/referee/check exactly as
docs/API.md "House rules (both endpoints)" fixes it: R2, R3, R4, R5, R8, R9; a 400 naming an
unknown key or a value of the wrong type; the rule book when missing or empty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tichu_scorer.core import answers
from tichu_scorer.game import i18n

SCORE, REFEREE = "/api/v1/score", "/api/v1/referee/check"
HAND = {"out_order": [0, 1, 2, 3], "calls": {"0": "tichu"}, "card_points": [60, None]}
DRAGON = {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "hand": ["DR"]}


def errors(answer):
    assert answer.status_code == 422, answer.get_json()
    return [(e["field"], e["rule"]) for e in answer.get_json()["errors"]]


# --- R2 ---------------------------------------------------------------------------------------

def test_r2_a_grand_tichu_is_a_422_citing_r2(client):
    body = HAND | {"calls": {"1": "grand", "2": "tichu"}, "house_rules": {"grand_tichu": False}}
    assert errors(client.post(SCORE, json=body)) == [("calls.1", "R2")]
    assert client.post(SCORE, json=body | {"house_rules": {}}).status_code == 200
    tichu = body | {"calls": {"2": "tichu"}}
    assert client.post(SCORE, json=tichu).get_json()["team_scores"] == [-40, 40]


def test_r2_is_said_with_every_other_problem(client):
    body = {"out_order": [0, 0], "calls": {"3": "grand"}, "card_points": [33, None],
            "house_rules": {"grand_tichu": False}}
    assert set(errors(client.post(SCORE, json=body))) == {
        ("out_order", "H7"), ("calls.3", "R2"), ("card_points.0", "P1")}


# --- R3 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, scores, card", [
    ({"out_order": [1, 3], "calls": {"1": "tichu"}}, [0, 200], [0, 100]),
    ({"variant": "tientsin", "out_order": [0, 2, 4]}, [150, 0], [150, 0]),
    ({"out_order": [], "wish_penalty": {"offender": 0}}, [0, 100], [0, 100]),
    ({"out_order": [0, 1, 2, 3], "card_points": [None, 35]}, [65, 35], [65, 35]),
])
def test_r3_a_double_victory_worth_100(client, body, scores, card):
    answer = client.post(SCORE, json=body | {"house_rules": {"double_victory_points": 100}})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["team_scores"] == scores
    assert answer.get_json()["card_points"] == card


# --- R4 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, victory_points", [
    (HAND, [2, 0]),
    (HAND | {"card_points": [50, 50], "calls": {}}, [1, 1]),
    (HAND | {"out_order": [3, 1]}, [0, 3]),
    (HAND | {"out_order": [], "wish_penalty": {"offender": 3}}, [3, 0]),
    ({"variant": "tientsin", "out_order": [1, 3, 5]}, [0, 3]),
    ({"variant": "threechu", "dummy": 3, "out_order": [0, 1, 2], "card_points": [30, 70]},
     [0, 2]),
])
def test_r4_the_score_adds_victory_points(client, body, victory_points):
    answer = client.post(SCORE, json=body | {"house_rules": {"victory_points": True}})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["victory_points"] == victory_points
    plain = client.post(SCORE, json=body).get_json()
    assert "victory_points" not in plain
    assert answer.get_json() == plain | {"victory_points": victory_points}


# --- R5 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, gift", [
    (DRAGON, None),  # the rule book: the verdict as before, no gift
    (DRAGON | {"house_rules": {"dragon_kept_when_out": True}},
     {"given_away": False, "rule": "R5"}),
    (DRAGON | {"hand": ["DR", "2s"], "house_rules": {"dragon_kept_when_out": True}},
     {"given_away": True, "rule": "S6"}),
    ({"trick": [{"cards": ["Aj"]}], "play": ["DR"],
      "house_rules": {"dragon_kept_when_out": True}}, {"given_away": None, "rule": "R5"}),
])
def test_r5_the_referees_dragon_gift(client, body, gift):
    answer = client.post(REFEREE, json=body)
    assert answer.status_code == 200
    verdict = answer.get_json()
    assert (verdict["legal"], verdict["rule"], verdict.get("dragon_gift")) == (True, "S5",
                                                                              gift)
    if gift is not None:
        assert gift["rule"] in verdict["reason"]


def test_r5_in_german(client):
    body = DRAGON | {"house_rules": {"dragon_kept_when_out": True}}
    german = client.post(REFEREE, json=body, headers={"Accept-Language": "de"}).get_json()
    english = client.post(REFEREE, json=body).get_json()
    assert german["reason"] != english["reason"] and "R5" in german["reason"]


# --- R8 ---------------------------------------------------------------------------------------

def test_r8_a_wish_penalty_is_a_422_citing_r8(client):
    body = {"out_order": [], "wish_penalty": {"offender": 1},
            "house_rules": {"wish_penalty": False}}
    assert errors(client.post(SCORE, json=body)) == [("wish_penalty", "R8")]
    assert client.post(SCORE, json=body | {"house_rules": None}).status_code == 200
    verdict = client.post(REFEREE, json={"trick": [{"cards": ["4j"]}], "play": [],
                                         "hand": ["8s"], "wish": "8",
                                         "house_rules": {"wish_penalty": False}}).get_json()
    assert (verdict["legal"], verdict["rule"]) == (False, "W2") and "R8" in verdict["reason"]


# --- R9 ---------------------------------------------------------------------------------------

def test_r9_custom_calls_score_like_tichu(client):
    body = {"out_order": [1, 0, 2, 3], "card_points": [50, None],
            "calls": {"1": "blind", "0": "tichu", "2": "Blitz"},
            "house_rules": {"custom_calls": {"blind": 400, "Blitz": 300}}}
    answer = client.post(SCORE, json=body)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["team_scores"] == [50 - 100 - 300, 50 + 400]
    assert answer.get_json()["calls"] == [
        {"seat": 0, "call": "tichu", "made": False, "points": -100},
        {"seat": 1, "call": "blind", "made": True, "points": 400},
        {"seat": 2, "call": "Blitz", "made": False, "points": -300}]


def test_r9_an_undefined_call_is_a_422(client):
    body = {"out_order": [1, 0], "card_points": [50, None], "calls": {"1": "blind"}}
    assert errors(client.post(SCORE, json=body)) == [("calls.1", "P3")]
    body["house_rules"] = {"custom_calls": {"blinde": 400}}
    answer = client.post(SCORE, json=body)
    assert errors(answer) == [("calls.1", "R9")]
    assert '"blinde"' in answer.get_json()["errors"][0]["message"]


# --- 400: an unknown key or a value of the wrong type ----------------------------------------

@pytest.mark.parametrize("url, body, rules, field, rule", [
    # one per endpoint; every key that cannot be read, as each endpoint reads it:
    # tests/scoring/test_house.py (the score) and tests/core/test_answers.py (the referee)
    (SCORE, HAND, {"victory_points": 1}, "house_rules.victory_points", "R4"),
    (REFEREE, DRAGON, {"dragon_kept_when_out": "yes"}, "house_rules.dragon_kept_when_out",
     "R5"),
])
def test_a_house_rule_that_cannot_be_read_is_a_400_naming_it(client, url, body, rules, field,
                                                              rule):
    answer = client.post(url, json=body | {"house_rules": rules})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == field
    assert f"({rule})" in answer.get_json()["error"]


def test_a_key_given_twice_is_a_400(client):
    raw = b'{"out_order": [0, 1], "card_points": [50, 50], ' \
          b'"house_rules": {"grand_tichu": true, "grand_tichu": false}}'
    answer = client.post(SCORE, data=raw, content_type="application/json")
    assert answer.status_code == 400 and answer.get_json()["field"] == "house_rules.grand_tichu"


# --- the rule book, however it is written -----------------------------------------------------

DEFAULTS = [{}, None, {"grand_tichu": True, "double_victory_points": 200,
                       "victory_points": False, "wish_penalty": True, "custom_calls": {},
                       "dragon_kept_when_out": False}]
SEATS = st.integers(-1, 6)
HANDS = st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["nanking", "tientsin", "threechu"]),
    "dummy": st.integers(0, 3),
    "out_order": st.lists(SEATS, max_size=6),
    "calls": st.dictionaries(st.sampled_from("0123456"), st.sampled_from(["tichu", "grand"]),
                             max_size=4),
    "card_points": st.tuples(st.none() | st.integers(-6, 26).map(lambda n: n * 5),
                             st.none() | st.integers(-30, 130)).map(list),
    "wish_penalty": st.none() | st.fixed_dictionaries({"offender": SEATS})})


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(HANDS, st.sampled_from(DEFAULTS))
def test_with_the_rule_book_the_score_answers_as_without_house_rules(client, body, rules):
    plain = client.post(SCORE, json=body)
    house = client.post(SCORE, json=body | {"house_rules": rules})
    assert (house.status_code, house.get_json()) == (plain.status_code, plain.get_json())
    assert plain.status_code in (200, 422)


# --- the phone: the same function answers ------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("body", [
    DRAGON | {"house_rules": {"dragon_kept_when_out": True}},
    {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s"], "wish": "8",
     "house_rules": {"wish_penalty": False}},
    DRAGON | {"house_rules": {"dragon_kept": True}},
])
def test_the_phone_judges_house_rules_as_the_server_does(client, body, lang, monkeypatch):
    monkeypatch.setattr(i18n, "_translator", i18n._translator)  # the phone's language after
    locales = str(Path(answers.__file__).parent.parent / "translations")
    phone = json.loads(answers.phone(json.dumps({"op": "judge", "body": body, "lang": lang}),
                                     locales, None))["ok"]
    server = client.post(REFEREE, json=body, headers={"Accept-Language": lang})
    assert phone == [server.get_json(), server.status_code]
