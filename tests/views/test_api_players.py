"""The players of a table in the JSON API: read with the invite code, changed with the
scorer key, nothing for a stranger; refusals name the field (and the rule)."""

import pytest

from tests.conftest import hand_form, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match

API = "/api/v1/tables"


@pytest.fixture()
def table(app, client):
    first = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    assert post_hand(client, first, hand_form([0, 1], a=60)).status_code == 303
    new_match(client, ["Anne", "Bob", "Cy", "Eve"])
    with app.app_context():
        group = db.session.execute(db.select(Match)).scalars().first().group
        return group.key, group.invite_code, group.scorer_key


def players(api, key, code):
    r = api.get(f"{API}/{key}/players", headers={"X-Table-Code": code})
    assert r.status_code == 200, r.get_json()
    return {p["name"]: p for p in r.get_json()["players"]}


def test_the_invite_code_reads_the_players(app, table):
    key, code, _scorer = table
    api = app.test_client()
    found = players(api, key, code.lower())
    assert found["Bob"] == {"key": found["Bob"]["key"], "name": "Bob", "guest": False,
                            "matches": 2}
    assert found["Ann"]["matches"] == 1
    r = api.post(f"{API}/{key}/players/{found['Ann']['key']}/rename",
                 json={"name": "Annette"}, headers={"X-Table-Code": code})
    assert r.status_code == 403 and r.get_json()["field"] == "X-Table-Code"


def test_a_stranger_learns_nothing(app, table):
    key, _code, _scorer = table
    api = app.test_client()
    assert api.get(f"{API}/{key}/players").status_code == 401
    for wrong in ("AAAAAAAA", "x" * 100):
        r = api.get(f"{API}/{key}/players", headers={"X-Table-Code": wrong})
        assert r.status_code == 404 and r.get_json()["field"] == "table"
    r = api.get(f"{API}/nope/players", headers={"X-Table-Code": table[1]})
    assert r.status_code == 404


def test_the_scorer_key_renames_merges_undoes_and_marks_guests(app, table):
    key, code, scorer = table
    api, head = app.test_client(), {"X-Table-Code": scorer}
    found = players(api, key, code)
    r = api.post(f"{API}/{key}/players/{found['Eve']['key']}/guest", json={"guest": True},
                 headers=head)
    assert r.status_code == 200 and r.get_json()["player"]["guest"] is True
    r = api.post(f"{API}/{key}/players/{found['Ann']['key']}/rename", json={"name": "ANNE"},
                 headers=head)
    assert r.status_code == 409 and r.get_json()["field"] == "name"
    r = api.post(f"{API}/{key}/players/{found['Ann']['key']}/merge",
                 json={"into": found["Bob"]["key"]}, headers=head)
    assert r.status_code == 409 and r.get_json()["rule"] == "H1"
    r = api.post(f"{API}/{key}/players/{found['Ann']['key']}/merge",
                 json={"into": found["Anne"]["key"]}, headers=head)
    assert r.status_code == 200
    merged = r.get_json()["merge"]
    assert merged["from"] == "Ann" and merged["into"] == "Anne" and merged["matches"] == 1
    assert players(api, key, code)["Anne"]["matches"] == 2
    r = api.post(f"{API}/{key}/merges/{merged['key']}/undo", headers=head)
    assert r.status_code == 200 and r.get_json()["player"]["key"] == found["Ann"]["key"]
    assert api.post(f"{API}/{key}/merges/{merged['key']}/undo", headers=head).status_code \
        == 409
    r = api.post(f"{API}/{key}/players/{found['Ann']['key']}/rename",
                 json={"name": "Annette"}, headers=head)
    assert r.status_code == 200 and r.get_json()["player"]["name"] == "Annette"
    listed = api.get(f"{API}/{key}/players", headers=head).get_json()
    assert listed["merges"][0]["undone"] is True


@pytest.mark.parametrize("body, field", [({"name": 3}, "name"), ({}, "name"),
                                         ({"name": "X", "more": 1}, "more"),
                                         ([], "body")])
def test_a_bad_body_is_a_400_naming_the_field(app, table, body, field):
    key, code, scorer = table
    api = app.test_client()
    who = players(api, key, code)["Ann"]["key"]
    r = api.post(f"{API}/{key}/players/{who}/rename", json=body,
                 headers={"X-Table-Code": scorer})
    assert r.status_code == 400
    assert r.get_json()["field"] == field or field == "body"
