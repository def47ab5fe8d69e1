"""A bug (an unexpected exception in a view) answers 500 with a plain sentence: the error
page, or JSON under /api; the traceback goes to the server's log, never to the client. And
the guards that run before every view, called directly: a path value beyond the database's
integers or holding a NUL is a 404, a NUL in any query or form field a 400 naming it, a form
body that is not UTF-8 names its field (through HTTP, once each: test_bad_input.py,
test_input_edges.py)."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy.exc
from werkzeug.exceptions import BadRequest, NotFound

from tests.conftest import make_app
from tichu_scorer import scoring, statistics
from tichu_scorer.extensions import db
from tichu_scorer.transfer.checks import DB_INT_MAX
from tichu_scorer.views import errors

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


# --- the guards before every view, called directly ----------------------------------------

BEYOND = "99999999999999999999"  # beyond every database's integers (int8 too)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """One app for these tests, without tables: the guards ask no database."""
    return make_app(tmp_path_factory.mktemp("guards"))


def routed(app, method: str, path: str):
    """The endpoint and values the app's routing reads from `path`."""
    return app.url_map.bind("localhost").match(path, method=method)


@pytest.mark.parametrize("method, path", [
    ("GET", "/v/AB\x00CD"), ("GET", "/lang/d\x00e"),
    ("GET", f"/matches/k/hands/{BEYOND}/edit"), ("POST", f"/matches/k/hands/{2**31}/edit"),
    ("POST", f"/matches/k/hands/{BEYOND}/delete"), ("POST", f"/matches/k/hands/{BEYOND}/restore"),
])
def test_a_path_value_beyond_the_databases_integers_or_with_a_nul_is_a_404(plain, method,
                                                                          path):
    endpoint, values = routed(plain, method, path)
    with plain.test_request_context(path, method=method), pytest.raises(NotFound):
        errors._route_values(endpoint, values)


def test_a_path_value_within_the_databases_integers_goes_on_to_its_view(plain):
    path = f"/matches/k/hands/{DB_INT_MAX}/edit"
    endpoint, values = routed(plain, "POST", path)
    with plain.test_request_context(path, method="POST"):
        assert errors._route_values(endpoint, values) is None


@pytest.mark.parametrize("method, path", [
    ("GET", f"/matches/{BEYOND}/board"), ("GET", f"/matches/{BEYOND}/revision"),
    ("GET", f"/matches/{BEYOND}/log"), ("GET", f"/matches/{BEYOND}/share"),
    ("GET", f"/matches/{2**31}/export.csv"), ("GET", f"/matches/{BEYOND}/hands/new"),
    ("POST", f"/matches/{2**31}/rematch"), ("POST", f"/matches/{BEYOND}/undo"),
    ("GET", f"/matches/{2**31}"),
])
def test_a_match_is_named_by_a_text_key_so_digits_reach_no_integer_column(plain, method, path):
    """The key is looked up as text (no such match: a 404, through HTTP in
    test_bad_input.py), never read as a number the database could not hold."""
    endpoint, values = routed(plain, method, path)
    assert isinstance(values["match_id"], str) and values["match_id"].isdigit()
    with plain.test_request_context(path, method=method):
        assert errors._route_values(endpoint, values) is None


def test_a_path_with_a_nul_where_no_route_takes_one_is_the_routers_404(plain):
    with pytest.raises(NotFound):
        routed(plain, "GET", "/s/key\x00")


@pytest.mark.parametrize("query, form, shown", [
    ({"code": "AB\x00CD"}, None, "code"),
    ({"play": "6j\x00", "trick": "5j"}, None, "play"),
    ({"variant": "\x00"}, None, "variant"),
    (None, {"seat_0": "A\x00n", "seat_1": "B", "seat_2": "C", "seat_3": "D"}, "seat_0"),
    (None, {"se\x00at": "x"}, "se\\0at"),  # a name is shown with the NUL written out
    (None, {"place_1": "0", "place_2": "1", "card_a": "5\x00"}, "card_a"),
    (None, {"place_1": "0", "place_2": "1", "client_id": "c\x00"}, "client_id"),
])
def test_a_nul_in_a_query_or_form_field_is_a_400_naming_it(plain, query, form, shown):
    with plain.test_request_context(method="POST", query_string=query, data=form):
        with pytest.raises(BadRequest) as caught:
            errors._no_nul()
    assert caught.value.description == (f"The field “{shown}” contains a NUL character; "
                                         "nothing was saved.")


def test_fields_without_a_nul_pass(plain):
    with plain.test_request_context(method="POST", query_string={"code": "ABCD"},
                                    data={"seat_0": "Jürgen", "card_a": "50"}):
        assert errors._no_nul() is None


@pytest.mark.parametrize("body, field", [
    (b"seat_0=A\xffn&seat_1=Bob", "seat_0"),
    (b"seat_1=Bob&seat_0=A%FFn", "seat_0"),
    (b"se%C3at_0=Ann&seat_1=Bob", "se\ufffdat_0"),
    (b"seat_0=%E2%82&seat_1=Bob", "seat_0"),
])
def test_a_form_body_that_is_not_utf8_names_its_first_such_field(body, field):
    assert errors._not_utf8(body) == field


@pytest.mark.parametrize("body", [b"seat_0=J%C3%BCrgen&seat_1=Bob", b"seat_0=Ann+Lee", b""])
def test_a_utf8_form_body_names_no_field(body):
    assert errors._not_utf8(body) is None
