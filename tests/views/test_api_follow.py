"""POST /api/v1/follow/check through HTTP (its cases are unit tests: tests/core/test_follow.py,
and `core.follow_api`'s doctest): each way in once, the answers in the document's shapes."""

from __future__ import annotations

import pytest

from tests.views.test_openapi import validator

URL = "/api/v1/follow/check"
START = [{"kind": "start"}]


@pytest.mark.parametrize("body, phase, calls", [
    ({}, "deal", {}),
    ({"events": [*START, {"kind": "grand", "seat": 1}, {"kind": "dealt"}]}, "pass",
     {"1": "grand"}),
    ({"variant": "tientsin", "events": [*START, {"kind": "out", "seat": 0}],
      "event": {"kind": "tichu", "seat": "5"}}, "play", {"5": "tichu"}),
    ({"variant": "seigneur", "seats": 9, "events": [*START, {"kind": "passed"}]}, "play", {}),
    ({"variant": "threechu", "shuffler": 2, "events": START,
      "event": {"kind": "tichu", "seat": 3}}, "deal", {"3": "tichu"}),
])
def test_the_hand_after_its_events(client, body, phase, calls):
    r = client.post(URL, json=body)
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert validator("FollowState").is_valid(answer), answer
    assert answer["phase"] == phase and answer["calls"] == calls


@pytest.mark.parametrize("body, field, rule", [
    ({"events": [*START, {"kind": "dealt"}], "event": {"kind": "grand", "seat": 0}}, "event",
     "L1"),
    ({"events": [*START, {"kind": "out", "seat": 2}, {"kind": "tichu", "seat": 2}]},
     "events[2]", "L2"),
    ({"variant": "threechu", "shuffler": 1, "events": START,
      "event": {"kind": "grand", "seat": 1}}, "event", "L1"),
    ({"house_rules": {"grand_tichu": False}, "events": START,
      "event": {"kind": "grand", "seat": 1}}, "event", "R2"),
    ({"event": {"kind": "undo"}}, "event", "L6"),
])
def test_a_refused_event_is_422_with_its_place_and_rule(client, body, field, rule):
    r = client.post(URL, json=body)
    assert r.status_code == 422
    assert validator("Problems").is_valid(r.get_json())
    assert r.get_json()["errors"][0]["field"] == field
    assert r.get_json()["errors"][0]["rule"] == rule


@pytest.mark.parametrize("body, field", [
    ({"variant": "chess"}, "variant"),
    ({"variant": "nanking", "seats": 5}, "seats"),
    ({"variant": "seigneur", "seats": 13}, "seats"),
    ({"shuffler": 1}, "shuffler"),
    ({"events": "start"}, "events"),
    ({"events": [{"kind": "start"}] * 501}, "events"),
    ({"events": ["start"]}, "events[0]"),
    ({"events": [{"kind": "tichu", "seat": 4}]}, "events[0].seat"),
    ({"event": {"kind": "wish", "rank": "PH"}}, "event.rank"),
    ({"house_rules": {"nope": 1}}, "house_rules.nope"),
])
def test_a_body_that_is_not_a_question_is_400_naming_the_field(client, body, field):
    r = client.post(URL, json=body)
    assert r.status_code == 400
    assert validator("Error").is_valid(r.get_json()) and r.get_json()["field"] == field
