"""A bug (an unexpected exception in a view) answers 500 with a plain sentence: the error
page, or JSON under /api; the traceback goes to the server's log, never to the client."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy.exc

from tests.conftest import make_app
from tichu_scorer import scoring, statistics
from tichu_scorer.extensions import db

SECRET = "internal detail 7f3a"  # in the exception: it must not reach the client


@pytest.fixture()
def buggy(tmp_path, monkeypatch):
    """The app as it runs in production (exceptions answered, not re-raised to the test),
    with the stats query and the API's scoring broken by a bug."""
    app = make_app(tmp_path, PROPAGATE_EXCEPTIONS=False)
    with app.app_context():
        db.create_all()

    def bug(*_args, **_kwargs):
        raise RuntimeError(SECRET)
    monkeypatch.setattr(statistics, "for_tables", bug)
    monkeypatch.setattr(scoring, "score_hand", bug)
    yield app.test_client()
    with app.app_context():
        db.engine.dispose()


def test_a_bug_in_a_page_gives_the_500_page(buggy, caplog):
    with caplog.at_level(logging.ERROR):
        r = buggy.get("/stats")
    page = r.get_data(as_text=True)
    assert r.status_code == 500 and r.mimetype == "text/html"
    assert "Something went wrong on our side; nothing was saved." in page
    assert "<h1>Something is wrong</h1>" in page
    assert SECRET not in page and "Traceback" not in page and "RuntimeError" not in page
    logged = [rec for rec in caplog.records if rec.getMessage() == "Unhandled error on GET /stats"]
    assert logged and SECRET in str(logged[0].exc_info[1])  # the server keeps the details


def test_a_bug_under_api_gives_json(buggy, caplog):
    with caplog.at_level(logging.ERROR):
        r = buggy.post("/api/v1/score", json={"out_order": [0, 1], "card_points": [50, 50]})
    assert r.status_code == 500 and r.mimetype == "application/json"
    assert r.get_json() == {"error": "Something went wrong on our side; nothing was saved. "
                                     "Please try again.", "field": "server"}
    assert SECRET not in r.get_data(as_text=True)
    assert any(rec.getMessage() == "Unhandled error on POST /api/v1/score"
               for rec in caplog.records)


def test_the_other_pages_still_work_after_a_bug(buggy):
    assert buggy.get("/stats").status_code == 500
    assert buggy.get("/").status_code == 200  # one failed request leaves nothing broken


@pytest.mark.parametrize("outage", [
    lambda: sqlalchemy.exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"),
    lambda: sqlalchemy.exc.PendingRollbackError("Can't reconnect until invalid transaction "
                                                "is rolled back"),
    lambda: sqlalchemy.exc.DisconnectionError("connection lost")],
    ids=["pool timeout", "pending rollback", "disconnection"])
def test_no_connection_to_be_had_is_an_outage_not_a_bug(tmp_path, monkeypatch, outage):
    """Every pooled connection in use, or one broken earlier in the request (a restart):
    503 with Retry-After, which the phone's outbox sends again, never the 500 page."""
    app = make_app(tmp_path, PROPAGATE_EXCEPTIONS=False)
    with app.app_context():
        db.create_all()

    def down(*_args, **_kwargs):
        raise outage()
    monkeypatch.setattr(statistics, "for_tables", down)
    r = app.test_client().get("/stats")
    assert r.status_code == 503 and r.headers["Retry-After"]
    with app.app_context():
        db.engine.dispose()
