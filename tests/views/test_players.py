"""/players: a table's players listed with their matches, regulars apart from guests;
scorers rename, merge (undo) and mark guests through forms; members only read; a stranger
learns nothing; refusals are 4xx naming the field; an import says what it matched."""

import io
import json
import re

import pytest

from tests.conftest import hand_form, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match, Player, PlayerMerge


@pytest.fixture()
def table(app, client):
    first = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    assert post_hand(client, first, hand_form([0, 1], a=60)).status_code == 303
    second = new_match(client, ["Anne", "Bob", "Cy", "Eve"])
    with app.app_context():
        group = db.session.execute(db.select(Match)).scalars().first().group
        keys = {p.name: p.key for p in db.session.execute(db.select(Player)).scalars()}
        return first, second, group.key, group.invite_code, keys


def test_the_list_shows_each_player_with_matches(client, table):
    page = client.get("/players").get_data(as_text=True)
    assert 'data-player="Bob"' in page and "2 matches" in page and "1 match" in page
    assert client.get(f"/tables/{table[2]}").get_data(as_text=True).count("/players?table=")
    # each player one tap from their page
    keys = re.findall(r'<li id="p-([^"]+)" data-player="Bob">', page)
    assert keys and f'href="/players/{keys[0]}" data-player-page' in page
    assert "Bob" in client.get(f"/players/{keys[0]}").get_data(as_text=True)


def test_a_rename_follows_into_the_match_and_the_stats(app, client, table):
    first, _second, _group, _code, keys = table
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": "Annette"})
    assert r.status_code == 303 and "/players?table=" in r.headers["Location"]
    assert "Ann is now Annette" in client.get("/players").get_data(as_text=True)
    assert "Annette" in client.get(first).get_data(as_text=True)
    stats = client.get("/stats").get_data(as_text=True)
    assert "Annette" in stats and ">Ann<" not in stats


def test_a_rename_from_a_page_opened_before_another_phones_rename_is_refused(client, table):
    """Two phones rename Bob at once: the second form still showed "Bob", so it is told,
    not silently laid over the first (the API, which names no former name, renames)."""
    keys = table[4]
    page = client.get("/players").get_data(as_text=True)
    assert 'name="was" value="Bob"' in page
    first = {"name": "Bobby", "was": "Bob"}
    assert client.post(f"/players/{keys['Bob']}/rename", data=first).status_code == 303
    r = client.post(f"/players/{keys['Bob']}/rename", data={"name": "Robert", "was": "Bob"})
    text = r.get_data(as_text=True)
    assert r.status_code == 409 and 'data-refused="name"' in text
    assert "Bob was renamed Bobby on another phone meanwhile" in text
    assert 'data-player="Bobby"' in client.get("/players").get_data(as_text=True)


def test_refusals_name_the_field(client, table):
    keys = table[4]
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": "ANNE"})
    assert r.status_code == 409 and 'data-refused="name"' in r.get_data(as_text=True)
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": ""})
    assert r.status_code == 422
    # a name nobody can tell from another's, or that turns its neighbours around
    for unseen in ("B\u200bob", "Anne\u202e", "\u2066Ann", "Ann\x7f"):
        r = client.post(f"/players/{keys['Ann']}/rename", data={"name": unseen})
        assert r.status_code == 422 and 'data-refused="name"' in r.get_data(as_text=True)
        assert "cannot be seen" in r.get_data(as_text=True)
    # the joiners of emoji sequences and some scripts stay allowed
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": "Ann 👩\u200d👩\u200d👧"})
    assert r.status_code == 303
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": "Ann"})
    assert r.status_code == 303
    r = client.post(f"/players/{keys['Ann']}/merge", data={"into": keys["Bob"]})
    assert r.status_code == 409 and "(H1)" in r.get_data(as_text=True)
    r = client.post(f"/players/{keys['Ann']}/merge", data={"into": "nobody"})
    assert r.status_code == 404 and 'data-refused="into"' in r.get_data(as_text=True)
    r = client.post(f"/players/{keys['Ann']}/merge", data={"into": ""})
    assert r.status_code == 422 and 'data-refused="into"' in r.get_data(as_text=True)
    assert client.post("/players/nobody/rename", data={"name": "X"}).status_code == 404
    r = client.post(f"/players/{keys['Ann']}/rename", data={"name": ["A", "B"]})
    assert r.status_code == 400


def test_a_merge_and_its_undo(app, client, table):
    first, _second, _group, _code, keys = table
    r = client.post(f"/players/{keys['Ann']}/merge", data={"into": keys["Anne"]})
    assert r.status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert "Ann merged into Anne (1 match moved)." in page and 'data-player="Ann"' not in page
    assert "Anne" in client.get(first).get_data(as_text=True)
    with app.app_context():
        merge_key = db.session.execute(db.select(PlayerMerge.key)).scalar_one()
    # a new match named "ANN" since: the undo says what to do first, on the merge
    blocking = new_match(client, ["ANN", "Bob", "Cy", "Dee"])
    r = client.post(f"/players/merges/{merge_key}/undo")
    text = r.get_data(as_text=True)
    assert r.status_code == 409 and 'data-refused="merge"' in text
    assert "rename ANN first, then undo the merge" in text
    with app.app_context():
        newcomer = db.session.execute(db.select(Player.key).filter_by(name="ANN")).scalar_one()
    assert client.post(f"/players/{newcomer}/rename", data={"name": "Ann B"}).status_code == 303
    assert client.post(f"/players/merges/{merge_key}/undo").status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert 'data-player="Ann"' in page and "undone" in page and 'data-player="Ann B"' in page
    assert "Ann B" in client.get(blocking).get_data(as_text=True)
    assert client.post(f"/players/merges/{merge_key}/undo").status_code == 409


def test_guests_are_listed_apart(client, table):
    keys = table[4]
    assert client.post(f"/players/{keys['Eve']}/guest", data={"guest": "1"}).status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert page.index("Guests") < page.index('data-player="Eve"')
    assert page.index('data-player="Dee"') < page.index("Guests")
    client.post(f"/players/{keys['Eve']}/guest", data={"guest": "0"})
    assert "Guests" not in client.get("/players").get_data(as_text=True)


@pytest.mark.parametrize("value", ["maybe", "", "true", "2"])
def test_a_guest_mark_that_is_neither_is_a_422_naming_the_field(client, table, value):
    keys = table[4]
    assert client.post(f"/players/{keys['Eve']}/guest", data={"guest": "1"}).status_code == 303
    refused = client.post(f"/players/{keys['Eve']}/guest", data={"guest": value})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'data-refused="guest"' in body
    assert "Guests" in client.get("/players").get_data(as_text=True)  # still a guest


def test_members_read_and_strangers_learn_nothing(app, table):
    keys, code = table[4], table[3]
    stranger = app.test_client()
    assert 'data-player' not in stranger.get("/players").get_data(as_text=True)
    assert stranger.post(f"/players/{keys['Ann']}/rename", data={"name": "Z"}).status_code \
        == 404
    member = app.test_client()
    member.get("/join", query_string={"code": code})
    page = member.get("/players").get_data(as_text=True)
    assert 'data-player="Ann"' in page and "data-rename" not in page
    assert member.post(f"/players/{keys['Ann']}/rename", data={"name": "Z"}).status_code == 403
    with app.app_context():
        assert db.session.execute(db.select(Player).filter_by(name="Z")).first() is None


def test_an_import_says_which_names_it_matched(app, client, table):
    export = client.get(table[0] + "/export.json").get_json()
    export["matches"][0]["players"] = ["ann", "Bob", "Cy", "Zoe"]
    export["matches"][0]["started_at"] = "2020-01-01T10:00:00"
    upload = {"file": (io.BytesIO(json.dumps(export).encode()), "x.json")}
    r = client.post("/import", data=upload, content_type="multipart/form-data")
    assert r.status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "ann → Ann" in page and "New players: Zoe" in page
    with app.app_context():  # the table's spelling, not the file's
        assert db.session.execute(db.select(Player).filter_by(name_key="ann")).scalar_one()\
            .name == "Ann"
