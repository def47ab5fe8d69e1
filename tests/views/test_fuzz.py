"""Generated bodies never produce a 500: every answer is 200/400/422 with a message."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from tests.conftest import new_match
from tests.views.test_openapi_fuzz import STATELESS
from tichu_scorer.extensions import db

SCALARS = st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | \
    st.floats(allow_nan=False) | st.text(max_size=12)
CARDS = st.sampled_from(["5j", "10s", "Qp", "At", "MJ", "DOG", "PH", "DR", "2t", "Ts", "xx",
                         "", "9j", "9s", "9p", "9t"])
JSONISH = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=20)

SCORE_BODIES = st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["nanking", "tientsin", "x"]) | SCALARS,
    "out_order": st.lists(st.integers(-2, 6), max_size=6) | JSONISH,
    "calls": st.dictionaries(st.sampled_from(["0", "1", "2", "3", "9", "x"]),
                             st.sampled_from(["tichu", "grand", "no"]) | SCALARS, max_size=5)
    | JSONISH,
    "card_points": st.lists(st.none() | st.integers(-200, 300), min_size=0, max_size=3)
    | JSONISH,
    "wish_penalty": st.none() | st.fixed_dictionaries({"offender": SCALARS}) | JSONISH,
})

REFEREE_BODIES = st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["nanking", "seigneur", "threechu"]) | SCALARS,
    "decks": st.sampled_from([1, 2, 3]) | SCALARS,
    "trick": st.lists(st.fixed_dictionaries({"cards": st.lists(CARDS, max_size=5)},
                                            optional={"seat": SCALARS}), max_size=4) | JSONISH,
    "play": st.lists(CARDS, max_size=6) | JSONISH,
    "hand": st.lists(CARDS, max_size=14) | JSONISH,
    "wish": st.sampled_from(["8", "Q", "1", "DR"]) | SCALARS,
    "out_of_turn": SCALARS, "seat": SCALARS, "strict_wish": SCALARS, "phoenix_as": SCALARS,
})

SETTINGS = settings(max_examples=1500, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def test_the_apis_that_keep_nothing_ask_no_database(app, client):
    """The score, referee, follow and draw APIs and the document are stateless (docs/API.md):
    no request of theirs runs a statement, so their fuzzers (below, and the OpenAPI
    fuzzer's) cannot depend on the database and run against SQLite only (`one_database`;
    this test runs on both)."""
    statements: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute",
                     lambda conn, cursor, sql, *rest: statements.append(sql))
    asked = (("/api/v1/score", {"out_order": [0, 1], "card_points": [50, 50]}),
             ("/api/v1/score", {"out_order": "x"}),
             ("/api/v1/referee/check", {"hand": ["5j", "5s"], "play": ["5j", "5s"]}),
             ("/api/v1/referee/check", {"play": "x"}),
             ("/api/v1/follow/check", {"events": [{"kind": "start"}, {"kind": "dealt"}]}),
             ("/api/v1/follow/check", {"events": "x"}),
             ("/api/v1/tournaments/draw", {"players": list("ABCDEFG"), "rounds": 3}),
             ("/api/v1/tournaments/draw", {"players": ["A"], "rounds": 1}))
    for url, body in asked:
        r = client.post(url, data=json.dumps(body), content_type="application/json")
        assert r.status_code in (200, 400, 422), (url, body)
    assert client.get("/api/v1/openapi.json").status_code == 200
    assert statements == []
    # every API the OpenAPI fuzzer runs against SQLite only
    assert {url for url, _ in asked} | {"/api/v1/openapi.json"} == set(STATELESS)
    new_match(client)  # and the listener hears a request that does
    assert statements


@pytest.mark.one_database
@pytest.mark.no_cover  # not traced: docs/TESTING.md, "What CI runs"
@SETTINGS
@given(SCORE_BODIES | JSONISH)
def test_score_api_never_500(client, body):
    r = client.post("/api/v1/score", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400, 422)
    payload = r.get_json()
    assert payload.get("errors") or payload.get("error") or "team_scores" in payload


@pytest.mark.one_database
@pytest.mark.no_cover
@SETTINGS
@given(REFEREE_BODIES | JSONISH)
def test_referee_api_never_500(client, body):
    r = client.post("/api/v1/referee/check", data=json.dumps(body),
                    content_type="application/json")
    assert r.status_code in (200, 400)
    payload = r.get_json()
    assert payload.get("error") or payload.get("reason")


@pytest.mark.no_cover
@settings(max_examples=1000, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["place_1", "place_2", "place_3", "place_4", "call_0",
                                        "call_1", "call_2", "call_3", "card_a", "card_b",
                                        "wish_offender", "csrf_token", "number"]),
                       st.text(max_size=8) | st.sampled_from(["0", "1", "2", "3", "tichu",
                                                              "grand", "50", "-25", "125"]),
                       max_size=12))
def test_hand_form_never_500(client, data):
    # one match for every example (the client lives as long as the test): its form's URL
    # kept on the client, not read from the start page again each time
    url = getattr(client, "fuzzed_form", None)
    if url is None:
        url = client.fuzzed_form = new_match(client) + "/hands/new"
    r = client.post(url, data=data)
    number = data.get("number", "")
    nul = any("\x00" in name + value for name, value in data.items())
    digits = number.isascii() and number.isdigit()
    expected = (303, 409, 422) if digits and not nul else (400,)
    assert r.status_code in expected
