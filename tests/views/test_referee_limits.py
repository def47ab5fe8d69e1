"""The referee's defences on the web (issue 26): a question past its CPU budget is a 503
with Retry-After (the API's error shape, the page's error page), and referee questions are
rate-limited per client, across workers through the shared store."""

import shutil

import pytest
import redis

from tests.conftest import make_app
from tests.test_servers import redis_url  # noqa: F401  (a redis-server for this module)

API = "/api/v1/referee/check"
# the issue's question: a pass on the straight from the Mah Jong to the King, the other
# 43 cards in hand, a wish for 7s
TABLE = ["MJ", "2j", "3s", "4p", "5t", "6j", "7s", "8p", "9t", "10j", "Js", "Qp", "Kt"]
HAND = [f"{rank}{suit}" for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                     "K", "A"] for suit in "jspt"
        if f"{rank}{suit}" not in TABLE] + ["PH", "DR", "DOG"]
QUESTION = {"trick": [{"cards": TABLE}], "play": [], "hand": HAND, "wish": "7"}
PAGE_QUESTION = {"trick": " ".join(TABLE), "play": "", "hand": " ".join(HAND), "wish": "7"}


def test_the_issue_question_is_judged_within_the_budget(client):
    r = client.post(API, json=QUESTION)
    assert r.status_code == 200
    body = r.get_json()
    assert (body["legal"], body["rule"]) == (False, "W2")
    assert len(body["fulfilling_play"]) == 13


def test_a_trick_of_more_cards_than_any_deck_is_refused_before_it_is_read(client):
    """The largest body (64 KB) held 11,000 cards on the table, 40 ms of CPU to read; the
    second play here takes the table past Grand Seigneur's 109 cards, so its words are not
    even read as cards."""
    every = TABLE + HAND
    r = client.post(API, json={"trick": [{"cards": every}, {"cards": every[:-1] + ["junk"]}],
                               "play": []})
    assert r.status_code == 400
    assert r.get_json() == {"error": "The trick holds more cards than any deck.",
                            "field": "trick"}


@pytest.fixture()
def no_budget(tmp_path):
    """An app whose referee has no CPU time at all: every question runs out of it."""
    return make_app(tmp_path, REFEREE_CPU_BUDGET=0)


def test_an_api_question_past_its_budget_is_a_503(no_budget):
    r = no_budget.test_client().post(API, json=QUESTION)
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    body = r.get_json()
    assert set(body) == {"error", "field"} and body["field"] == "server"
    assert "too long" in body["error"]


@pytest.mark.parametrize("path", ["/referee/verdict", "/referee"])
def test_a_page_question_past_its_budget_is_the_error_page(no_budget, path):
    r = no_budget.test_client().get(path, query_string=PAGE_QUESTION)
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert r.mimetype == "text/html" and "X-Referee-Verdict" not in r.headers
    assert "too long" in r.get_data(as_text=True)


def test_a_question_past_its_budget_is_answered_in_german(no_budget):
    r = no_budget.test_client().post(API, json=QUESTION, headers={"Accept-Language": "de"})
    assert r.status_code == 503 and "zu lange" in r.get_json()["error"]


def _asks(app, n, address="127.0.0.1"):
    """n referee questions from one client address, alternating the API and the page."""
    client = app.test_client()
    statuses = []
    for i in range(n):
        if i % 2:
            r = client.get("/referee/verdict", query_string=PAGE_QUESTION,
                           environ_base={"REMOTE_ADDR": address})
        else:
            r = client.post(API, json=QUESTION, environ_base={"REMOTE_ADDR": address})
        statuses.append(r.status_code)
        if r.status_code == 429:
            assert 1 <= int(r.headers["Retry-After"]) <= 60
    return statuses


def test_referee_questions_are_rate_limited_per_client(tmp_path):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, REFEREE_RATE_LIMIT="3 per minute",
                   RATELIMIT_STORAGE_URI="memory://")
    assert _asks(app, 4, "203.0.113.7") == [200, 200, 200, 429]
    assert app.test_client().get("/referee", environ_base={
        "REMOTE_ADDR": "203.0.113.7"}).status_code == 429  # the page shares the budget
    refused = app.test_client().post(API, json=QUESTION,
                                     environ_base={"REMOTE_ADDR": "203.0.113.7"})
    assert refused.status_code == 429 and set(refused.get_json()) == {"error", "field"}
    assert _asks(app, 3, "203.0.113.8") == [200, 200, 200]  # another client: its own
    assert app.test_client().post("/api/v1/score", json={"out_order": [0, 2]},
                                  environ_base={"REMOTE_ADDR": "203.0.113.7"}).status_code == 200


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
def test_the_limit_is_shared_by_workers_through_redis(tmp_path, redis_url):  # noqa: F811
    redis.Redis.from_url(redis_url).flushall()
    workers = [make_app(tmp_path / name, RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=redis_url,
                        REFEREE_RATE_LIMIT="4 per minute") for name in ("a", "b")]
    statuses = _asks(workers[0], 2, "203.0.113.9") + _asks(workers[1], 3, "203.0.113.9")
    assert statuses == [200, 200, 200, 200, 429]
    assert _asks(workers[1], 1, "203.0.113.10") == [200]
