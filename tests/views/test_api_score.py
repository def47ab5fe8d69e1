"""POST /api/v1/score exactly as docs/API.md: 200, 422 with every problem, 400 for non-JSON."""

import json

import pytest

URL = "/api/v1/score"


def post(client, body):
    return client.post(URL, data=json.dumps(body) if not isinstance(body, (str, bytes)) else body,
                       content_type="application/json")


def test_scores_a_hand(client):
    r = post(client, {"out_order": [0, 1, 3, 2], "calls": {"0": "tichu", "3": "grand"},
                      "card_points": [60, None], "wish_penalty": None})
    assert r.status_code == 200
    assert r.get_json() == {
        "team_scores": [160, -160], "card_points": [60, 40], "double_victory": False,
        "calls": [{"seat": 0, "call": "tichu", "made": True, "points": 100},
                  {"seat": 3, "call": "grand", "made": False, "points": -200}]}


def test_double_victory(client):
    r = post(client, {"out_order": [1, 3], "calls": {"1": "tichu"}, "card_points": [None, None]})
    body = r.get_json()
    assert body["double_victory"] is True
    assert body["team_scores"] == [0, 300]


def test_wish_penalty_on_stopped_hand(client):
    r = post(client, {"out_order": [], "calls": {"2": "tichu"}, "card_points": [None, None],
                      "wish_penalty": {"offender": 1}})
    assert r.status_code == 200
    assert r.get_json()["team_scores"] == [100, 0]


def test_every_problem_at_once(client):
    r = post(client, {"out_order": [0, 0, 5], "calls": {"1": "tichu", "9": "grand"},
                      "card_points": [33, 70]})
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    pairs = {(e["field"], e["rule"]) for e in errors}
    assert {("out_order", "H7"), ("out_order", "H1"), ("calls.9", "H1"),
            ("card_points.0", "P1"), ("card_points", "P1")} <= pairs
    assert all(set(e) == {"field", "rule", "message"} for e in errors)


def test_a_seat_with_two_calls(client):
    r = post(client, '{"out_order": [0, 1], "calls": {"2": "tichu", "2": "grand"}, '
                     '"card_points": [50, 50]}')
    assert r.status_code == 422
    assert r.get_json()["errors"] == [{
        "field": "calls.2", "rule": "P3",
        "message": "Seat 2 has more than one call; a player may not call both Tichu and "
                   "Grand Tichu."}]


@pytest.mark.parametrize("body", [b"{", b"[1, 2]"])  # every one: tests/views/test_jsonbody.py
def test_malformed_bodies_are_400(client, body):
    r = client.post(URL, data=body, content_type="application/json")
    assert r.status_code == 400
    assert set(r.get_json()) == {"error", "field"}


@pytest.mark.parametrize("body", [  # every odd shape: tests/scoring/test_read.py
    {"out_order": [0], "card_points": [None, None], "wish_penalty": []},
    {"variant": "tichu-x", "out_order": [0]},
])
def test_odd_shapes_are_422_never_500(client, body):
    r = post(client, body)
    assert r.status_code == 422
    assert r.get_json()["errors"]


def test_api_needs_no_csrf_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    r = post(app.test_client(), {"out_order": [0, 1], "card_points": [50, None]})
    assert r.status_code == 200


@pytest.mark.parametrize("method", ["get", "put", "delete", "patch"])
def test_other_methods_are_not_allowed(client, method):
    r = getattr(client, method)(URL)
    assert r.status_code == 405
    assert "error" in r.get_json()
    # RFC 9110: a 405 names the methods that are allowed
    assert set(r.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_tientsin_triple_victory(client):
    r = post(client, {"variant": "tientsin", "out_order": [1, 3, 5], "calls": {"4": "tichu"}})
    body = r.get_json()
    assert r.status_code == 200 and body["triple_victory"] is True
    assert "double_victory" not in body and body["team_scores"] == [-100, 300]


def test_tientsin_partners_first_and_second_is_no_bonus(client):
    r = post(client, {"variant": "tientsin", "out_order": [0, 2, 1], "card_points": [None, 45]})
    assert r.get_json()["team_scores"] == [55, 45] and r.get_json()["triple_victory"] is False


def test_threechu_player_scores(client):
    r = post(client, {"variant": "threechu", "dummy": 2, "out_order": [2, 1],
                      "calls": {"2": "tichu"}, "card_points": [30, None]})
    body = r.get_json()
    assert body["team_scores"] == [130, 70]
    assert body["player_scores"] == {"0": 130, "1": 70, "2": 130, "3": 70}


@pytest.mark.parametrize("seat", [2])  # the dummy too: tests/scoring/test_read.py
def test_threechu_no_grand_for_shuffler_or_dummy(client, seat):
    r = post(client, {"variant": "threechu", "dummy": 2, "out_order": [1, 3],
                      "calls": {str(seat): "grand"}})
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["rule"] == "T3.3"


@pytest.mark.parametrize("dummy", [None])  # every one: tests/scoring/test_read.py
def test_threechu_needs_the_dummy(client, dummy):
    body = {"variant": "threechu", "out_order": [1, 3]}
    if dummy is not None:
        body["dummy"] = dummy
    r = post(client, body)
    assert r.status_code == 422 and r.get_json()["errors"][0]["field"] == "dummy"
