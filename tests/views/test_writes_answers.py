"""Issue 26: a phone keeps its rights through its own overlapping requests, its cookie shows
no internal id, the log's Restore checks the match it was opened on, and what used to be a
500 (a vanished match, a deadlock, a lost connection, a 5,000-digit seat, a lone surrogate)
is an answer."""

import io
import json
import sqlite3

import pytest
from sqlalchemy.exc import InterfaceError, OperationalError

from tests.conftest import hand_form, new_match, post_hand
from tests.views.test_transfer import synthetic_history
from tichu_scorer.extensions import db
from tichu_scorer.matches import writes
from tichu_scorer.models import Group, Match
from tichu_scorer.tables import access


def payload(app, client) -> dict:
    """What the session cookie says: it is signed, not encrypted, so anyone can read it."""
    cookie = client.get_cookie("session").value
    return app.session_interface.get_signing_serializer(app).loads(cookie)


def numbers(value) -> set[int]:
    """Every whole number in a session's payload but the day it was renewed."""
    if isinstance(value, dict):
        return {n for k, v in value.items() if k != "renewed" for n in numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in numbers(v)}
    return {value} if isinstance(value, int) and not isinstance(value, bool) else set()


def test_the_cookie_names_tables_and_matches_by_their_public_keys(app, client):
    for name in ("A", "B", "C"):
        assert client.post("/tables/new", data={"name": name}).status_code == 303
    new_match(client)  # (in the newest table)
    watcher = app.test_client()
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        groups = {g.id: g.key for g in db.session.execute(db.select(Group)).scalars()}
        match_key, code = match.key, match.code
        assert len(groups) == 3
    assert watcher.get(f"/v/{code}").status_code == 200
    scorer, viewer = payload(app, client), payload(app, watcher)
    assert set(scorer[access.TABLES]) == set(groups.values())
    assert viewer[access.VIEWER_OF] == [[match_key, code]]
    assert numbers(scorer) == {1} and numbers(viewer) == set()  # the generation alone
    assert not any(str(i) in scorer[access.TABLES] for i in groups)


def test_a_cookie_with_table_ids_from_before_keeps_its_rights(app, client):
    url = new_match(client)
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        gid, gkey = group.id, group.key
    with client.session_transaction() as session:
        session[access.TABLES] = {str(gid): session[access.TABLES][gkey]}
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    assert client.get(f"/tables/{gkey}").status_code == 200


def test_the_phone_that_rotated_keeps_its_right_with_an_older_cookie_of_its_own(app, client):
    """A save that overlapped the rotation sends back the phone's older cookie: the table
    still knows that phone as its scorer. Another phone's older cookie gives nothing."""
    url = new_match(client)
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        key, scorer_key = group.key, group.scorer_key
    other = app.test_client()
    assert other.get("/join", query_string={"key": scorer_key}).status_code == 303
    older, others = client.get_cookie("session").value, other.get_cookie("session").value
    assert client.post(f"/tables/{key}/rotate").status_code == 303
    client.set_cookie("session", older)  # the overlapping request's answer came last
    assert client.get(f"/tables/{key}").status_code == 200
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    other.set_cookie("session", others)
    assert other.get(f"/tables/{key}").status_code == 404
    assert post_hand(other, url, hand_form([0, 1], a=50)).status_code == 404


def test_the_logs_restore_is_refused_when_the_match_changed_since_the_log_was_opened(
        app, client):
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    assert client.post(url + "/undo", data={"number": "1"}).status_code == 303
    page = client.get(url + "/log").get_data(as_text=True)
    assert 'name="revision" value="' in page
    revision = page.split('name="revision" value="', 1)[1].split('"', 1)[0]
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303  # again
    r = client.post(url + "/hands/1/restore", data={"from": "log", "revision": revision})
    assert r.status_code == 409
    assert "changed since the log was opened" in r.get_data(as_text=True)
    assert client.get(url + "/revision").get_json()["hands"] == 1
    # opened afresh, the log restores it (the players chose so with every change in view)
    page = client.get(url + "/log").get_data(as_text=True)
    revision = page.split('name="revision" value="', 1)[1].split('"', 1)[0]
    r = client.post(url + "/hands/1/restore", data={"from": "log", "revision": revision})
    assert r.status_code == 303
    assert client.get(url + "/revision").get_json()["hands"] == 2
    # a log page's form without its revision cannot be checked: refused, naming it
    assert client.post(url + "/undo", data={"number": "2"}).status_code == 303
    r = client.post(url + "/hands/2/restore", data={"from": "log"})
    assert r.status_code == 400 and "revision" in r.get_data(as_text=True)


def test_a_rematch_of_a_match_deleted_meanwhile_is_a_404(client, monkeypatch):
    url = new_match(client)
    monkeypatch.setattr(writes, "hold_match", lambda key: None)  # deleted after it was read
    r = client.post(url + "/rematch")
    assert r.status_code == 404
    assert "deleted this match meanwhile" in r.get_data(as_text=True)


def test_a_match_deleted_between_the_commit_and_the_answer_is_a_404(app, client, monkeypatch):
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    real = writes.position

    def then_deleted(match, hand):
        db.session.execute(db.delete(Match).where(Match.id == match.id))
        db.session.commit()
        return real(match, hand)
    monkeypatch.setattr(writes, "position", then_deleted)
    r = client.post(url + "/hands/1/edit", data=hand_form([0, 1], a=60) | {"version": "1"})
    assert r.status_code == 404
    assert "deleted this match meanwhile" in r.get_data(as_text=True)


@pytest.mark.parametrize(("error", "logged"), [
    (OperationalError("UPDATE", {}, Exception("deadlock detected")), "deadlock"),
    (OperationalError("UPDATE", {}, Exception("could not serialize access due to "
                                              "concurrent update")), "serialization"),
    (OperationalError("SELECT", {}, Exception("terminating connection due to "
                                              "administrator command")), "unreachable"),
    (InterfaceError("SELECT", {}, Exception("the connection is closed")), "unreachable"),
])
def test_a_write_the_database_rolled_back_is_a_503_with_retry_after(
        client, monkeypatch, caplog, error, logged):
    url = new_match(client)

    def fails():
        raise error
    monkeypatch.setattr(writes, "begin_write", fails)  # where a save takes its lock
    r = post_hand(client, url, hand_form([0, 1], a=50))
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert "nothing was saved" in r.get_data(as_text=True)
    assert f"Database {logged}" in caplog.text


def test_a_locked_sqlite_database_is_still_busy(client, monkeypatch, caplog):
    url = new_match(client)

    def locked():
        raise OperationalError("BEGIN", {}, sqlite3.OperationalError("database is locked"))
    monkeypatch.setattr(writes, "begin_write", locked)
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 503
    assert "Database busy" in caplog.text


def test_a_seat_of_five_thousand_digits_is_a_422_naming_the_field(client):
    url = new_match(client)
    r = post_hand(client, url, hand_form([0, 1], a=50) | {"place_1": "1" * 5000})
    assert r.status_code == 422
    assert client.get(url + "/revision").get_json()["hands"] == 0


def test_an_imported_name_with_a_lone_surrogate_is_refused_naming_it(client):
    data = synthetic_history(matches=1, hands=2)
    data["matches"][0]["players"][1] = "\ud800"
    body = json.dumps(data).encode()  # ensure_ascii: the name is sent as "\ud800"
    assert b"\\ud800" in body
    r = client.post("/import", data={"file": (io.BytesIO(body), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "matches[0].players[1]" in page and "lone surrogate" in page
    assert client.get("/export.json").get_json()["matches"] == []
