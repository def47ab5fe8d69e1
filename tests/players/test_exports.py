"""Exports carry each player's key and guest mark (by seat, beside `players`); an import
keeps them for the players it adds (a key already held anywhere is replaced), matches the
rest by name in the table's spelling, and an export from before keys still imports."""

import json

from tests.conftest import new_match
from tests.views.test_transfer import fresh_client, upload
from tichu_scorer.extensions import db
from tichu_scorer.models import Player


def test_an_export_names_keys_and_guests_and_an_import_keeps_them(app, client, tmp_path):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        keys = {p.name: p.key for p in db.session.execute(db.select(Player)).scalars()}
    assert client.post(f"/players/{keys['Dee']}/guest", data={"guest": "1"}).status_code == 303
    match = client.get(url + "/export.json").get_json()["matches"][0]
    assert match["player_keys"] == [keys[n] for n in ("Ann", "Bob", "Cy", "Dee")]
    assert match["guests"] == [False, False, False, True]
    other, fresh = fresh_client(tmp_path, "other")
    try:
        assert upload(fresh, json.dumps({"format": "tichu-scorer", "version": 1,
                                         "matches": [match]}).encode()).status_code == 303
        with other.app_context():
            found = {p.name: (p.key, p.guest)
                     for p in db.session.execute(db.select(Player)).scalars()}
        assert found["Dee"] == (keys["Dee"], True) and found["Ann"] == (keys["Ann"], False)
    finally:
        with other.app_context():
            db.engine.dispose()


def test_a_key_held_already_is_replaced_and_an_old_export_imports(app, client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    match = client.get(url + "/export.json").get_json()["matches"][0]
    match["players"] = ["Eve", "Fay", "Gus", "Hal"]  # new players, with keys held by others
    match["started_at"] = "2021-01-01T10:00:00"
    old = dict(match, players=["Ivy", "Jo", "Kim", "Lu"], started_at="2022-01-01T10:00:00")
    del old["player_keys"], old["guests"]
    data = {"format": "tichu-scorer", "version": 1, "matches": [match, old]}
    assert upload(client, json.dumps(data).encode()).status_code == 303
    with app.app_context():
        players = list(db.session.execute(db.select(Player)).scalars())
    assert len(players) == 12 and len({p.key for p in players}) == 12
    assert all(len(p.key) == 16 for p in players)


def test_a_key_the_file_gives_two_names_is_kept_for_one_and_replaced_for_the_other(
        app, client, tmp_path):
    """A file that gives one key to several names (edited by hand, or two exports joined)
    imports: the first name keeps it, each other gets a key of its own (it was a 422 saying
    another phone saved meanwhile, which a retry could never mend)."""
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    match = client.get(url + "/export.json").get_json()["matches"][0]
    other, fresh = fresh_client(tmp_path, "other")
    try:
        match["player_keys"] = [match["player_keys"][0]] * 4
        page = upload(fresh, json.dumps({"format": "tichu-scorer", "version": 1,
                                         "matches": [match]}).encode())
        assert page.status_code == 303
        with other.app_context():
            players = list(db.session.execute(db.select(Player)).scalars())
        assert sorted(p.name for p in players) == ["Ann", "Bob", "Cy", "Dee"]
        assert len({p.key for p in players}) == 4
        assert match["player_keys"][0] in {p.key for p in players}
    finally:
        with other.app_context():
            db.engine.dispose()
