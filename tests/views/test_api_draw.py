"""POST /api/v1/tournaments/draw (docs/API.md): the draw as JSON, every 400 naming its
field, every 422 naming its field and [TN1], the same draw for the same seed, and the
endpoint's defences (no CSRF token needed, its own rate limit, a CPU allowance)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import make_app

API = "/api/v1/tournaments/draw"
PLAYERS = [f"Player {i}" for i in range(10)]


def post(client, body, **kwargs):
    r = client.post(API, json=body, **kwargs)
    return r.status_code, r.get_json()


def test_a_draw_in_the_documented_shape(client):
    status, body = post(client, {"players": PLAYERS, "rounds": 4, "seed": 8})
    assert status == 200
    assert list(body) == ["rounds", "repeats", "unmet", "seed"]
    assert body["seed"] == 8 and body["unmet"] == [] and body["repeats"]["partners"] == 0
    for one in body["rounds"]:
        assert set(one) == {"tables", "byes"} and len(one["byes"]) == 2
        assert sorted(n for t in one["tables"] for n in t) + one["byes"] != PLAYERS
        assert sorted([n for t in one["tables"] for n in t] + one["byes"]) == sorted(PLAYERS)
    byes = [b for one in body["rounds"] for b in one["byes"]]
    assert len(set(byes)) == len(byes) == 8  # nobody twice before everyone once


def test_the_same_seed_gives_the_same_draw_and_a_missing_seed_is_returned(client):
    first = post(client, {"players": PLAYERS, "rounds": 3})[1]
    again = post(client, {"players": PLAYERS, "rounds": 3, "seed": first["seed"]})[1]
    assert isinstance(first["seed"], int) and again == first
    other = post(client, {"players": PLAYERS, "rounds": 3, "seed": first["seed"] + 1})[1]
    assert other["rounds"] != first["rounds"]


def test_the_draw_continues_from_the_history_with_arrivals_and_drop_outs(client):
    history = post(client, {"players": PLAYERS, "rounds": 2, "seed": 1})[1]["rounds"]
    now = PLAYERS[1:] + ["Late"]  # Player 0 left, Late arrived
    status, body = post(client, {"players": now, "rounds": 3, "seed": 2, "history": history})
    assert status == 200 and len(body["rounds"]) == 3
    seated = {n for one in body["rounds"] for t in one["tables"] for n in t}
    assert "Player 0" not in seated and "Late" in seated
    sat_out = {b for one in history for b in one["byes"]}
    assert not sat_out & set(body["rounds"][0]["byes"])  # the others sit out first


def test_more_rounds_than_partners_is_drawn_and_says_so(client):
    status, body = post(client, {"players": ["A", "B", "C", "D"], "rounds": 6, "seed": 0})
    assert status == 200 and len(body["rounds"]) == 6
    assert body["repeats"]["partners"] == 6  # 12 partnerships over 6 pairs
    assert [u["rule"] for u in body["unmet"]] == ["TN1"]


@pytest.mark.parametrize("body, field", [
    ({"rounds": 2}, "players"),
    ({"players": PLAYERS}, "rounds"),
    ({"players": "ABCD", "rounds": 1}, "players"),
    ({"players": ["A", "B", 3, "D"], "rounds": 1}, "players[2]"),
    ({"players": PLAYERS, "rounds": "2"}, "rounds"),
    ({"players": PLAYERS, "rounds": 2.0}, "rounds"),
    ({"players": PLAYERS, "rounds": True}, "rounds"),
    ({"players": PLAYERS, "rounds": 2, "seed": "x"}, "seed"),
    ({"players": PLAYERS, "rounds": 2, "seed": 1.5}, "seed"),
    ({"players": PLAYERS, "rounds": 2, "tables": 3}, "tables"),
    ({"": []}, "body"),  # an empty name: the field is where it stands
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": [], "": 1}]}, "history[0]"),
    ({"players": PLAYERS, "rounds": 2, "history": {}}, "history"),
    ({"players": PLAYERS, "rounds": 2, "history": [[]]}, "history[0]"),
    ({"players": PLAYERS, "rounds": 2, "history": [{}]}, "history[0].tables"),
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": [["A", "B", "C", 4]]}]},
     "history[0].tables[0][3]"),
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": ["ABCD"]}]},
     "history[0].tables[0]"),
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": [], "byes": "A"}]},
     "history[0].byes"),
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": [], "byes": False}]},
     "history[0].byes"),
    ({"players": PLAYERS, "rounds": 2, "history": [{"tables": [], "seats": []}]},
     "history[0].seats"),
])
def test_a_body_that_is_no_draw_request_is_a_400_naming_the_field(client, body, field):
    status, answer = post(client, body)
    assert status == 400 and answer["field"] == field, answer
    assert answer["error"]


@pytest.mark.parametrize("raw, field", [
    (b'{"players": ["A", "B", "C", "D"], "rounds": 1, "rounds": 2}', "rounds"),
    (b'[1, 2]', "body"),
    (b'{"players": ["A", "B", "C", "D"], "rounds": 1', "body"),
])
def test_a_body_given_twice_or_unreadable_is_a_400(client, raw, field):
    r = client.post(API, data=raw, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["field"] == field


@pytest.mark.parametrize("body, fields", [
    ({"players": ["A", "B", "C"], "rounds": 1}, ["players"]),
    ({"players": [f"p{i}" for i in range(257)], "rounds": 1}, ["players"]),
    ({"players": ["Ann", "Bob", "ann ", "Cy"], "rounds": 1}, ["players[2]"]),
    ({"players": ["Ann", "Bob", " ", "Cy"], "rounds": 1}, ["players[2]"]),
    ({"players": PLAYERS, "rounds": 0}, ["rounds"]),
    ({"players": PLAYERS, "rounds": 21}, ["rounds"]),
    ({"players": PLAYERS, "rounds": -10**40}, ["rounds"]),
    ({"players": ["A", "a"], "rounds": 99}, ["players", "players[1]", "rounds"]),
    ({"players": PLAYERS, "rounds": 1, "history": [{"tables": []}] * 21}, ["history"]),
    ({"players": PLAYERS, "rounds": 1, "history": [{"tables": [["A", "B", "C"]]}]},
     ["history[0].tables[0]"]),
    ({"players": PLAYERS, "rounds": 1,
      "history": [{"tables": [["A", "B", "C", "D"]], "byes": ["a"]}]}, ["history[0]"]),
])
def test_a_request_that_cannot_be_drawn_is_a_422_with_every_problem(client, body, fields):
    status, answer = post(client, body)
    assert status == 422
    assert [e["field"] for e in answer["errors"]] == fields
    assert {e["rule"] for e in answer["errors"]} == {"TN1"}
    assert all(e["message"] for e in answer["errors"])


def test_a_long_name_is_cut_in_the_message(client):
    long = "x" * 5000
    answer = post(client, {"players": [long, long.upper(), "B", "C"], "rounds": 1})[1]
    assert len(answer["errors"][0]["message"]) < 200


def test_the_problems_are_in_german(client):
    status, answer = post(client, {"players": ["A", "B"], "rounds": 1},
                          headers={"Accept-Language": "de"})
    assert status == 422 and "Spieler" in answer["errors"][0]["message"]
    status, answer = post(client, {"players": "AB", "rounds": 1},
                          headers={"Accept-Language": "de"})
    assert status == 400 and "Namen" in answer["error"]


def test_the_draw_needs_no_csrf_token(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    assert post(app.test_client(), {"players": PLAYERS, "rounds": 1})[0] == 200


def test_a_draw_past_its_cpu_allowance_is_a_503(tmp_path):
    app = make_app(tmp_path, DRAW_CPU_BUDGET=0)
    r = app.test_client().post(API, json={"players": PLAYERS, "rounds": 5},
                               headers={"Accept-Language": "de"})
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert r.get_json()["field"] == "server" and "zu lange" in r.get_json()["error"]


def test_draws_are_rate_limited_per_client_on_their_own(tmp_path):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, DRAW_RATE_LIMIT="2 per minute",
                   RATELIMIT_STORAGE_URI="memory://")
    client = app.test_client()
    one = {"REMOTE_ADDR": "203.0.113.7"}
    body = {"players": PLAYERS, "rounds": 1}
    statuses = [client.post(API, json=body, environ_base=one).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = client.post(API, json=body, environ_base=one)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert set(refused.get_json()) == {"error", "field"}
    assert client.post(API, json=body, environ_base={"REMOTE_ADDR": "203.0.113.8"}
                       ).status_code == 200
    assert client.post("/api/v1/referee/check", json={"play": ["2j"]},
                       environ_base=one).status_code == 200  # the referee's budget is its own


def test_the_largest_request_with_a_full_history_is_drawn(client):
    """256 players and 20 rounds of history are larger than the 64 KiB other bodies may be."""
    players = [f"Player number {i:03d}" for i in range(256)]
    history = post(client, {"players": players, "rounds": 20, "seed": 1})[1]["rounds"]
    body = json.dumps({"players": players, "rounds": 20, "seed": 2, "history": history})
    assert len(body) > 64 * 1024
    r = client.post(API, data=body, content_type="application/json")
    assert r.status_code == 200
    assert r.get_json()["repeats"] == {"partners": 0, "opponents": 0}


def test_a_body_past_the_draws_limit_is_a_413(client):
    r = client.post(API, data=b" " * (512 * 1024 + 1), content_type="application/json")
    assert r.status_code == 413 and set(r.get_json()) == {"error", "field"}
