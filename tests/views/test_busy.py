"""A database too busy to write is a passing overload: 503 with Retry-After, never a 500,
and an import is bounded so that it cannot hold the write lock for long."""

import io
import json
import sqlite3

from sqlalchemy.exc import OperationalError

from tests.conftest import hand_form, new_match, post_hand
from tests.views.test_transfer import hands_in, synthetic_history
from tichu_scorer.matches import writes
from tichu_scorer.transfer import json_import


def test_a_locked_database_answers_503_and_the_hand_can_be_sent_again(client, monkeypatch):
    url = new_match(client)
    real = writes.begin_write  # where a save takes the write lock

    def locked():
        raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError(
            "database is locked"))
    monkeypatch.setattr(writes, "begin_write", locked)
    r = post_hand(client, url, hand_form([0, 1], a=50) | {"client_id": "busy-1"})
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    assert "nothing was saved" in r.get_data(as_text=True)
    monkeypatch.setattr(writes, "begin_write", real)
    assert post_hand(client, url, hand_form([0, 1], a=50) | {"client_id": "busy-1"}
                     ).status_code == 303


def test_an_import_holds_a_bounded_number_of_hands(client, monkeypatch):
    monkeypatch.setattr(json_import, "MAX_IMPORT_TOTAL_HANDS", 50)
    data = synthetic_history(matches=4, hands=20)
    given = hands_in(data)
    assert given > 50
    r = client.post("/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422
    assert f"at most 50 hands ({given} given)" in r.get_data(as_text=True)
    assert client.get("/export.json").get_json()["matches"] == []
