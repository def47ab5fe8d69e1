"""More per hand: bombs played per player (0–4) and a note, both optional and never
scored: stored with the hand, shown in the hand list, counted by the statistics (bombs per
player), logged when changed, carried by exports and imports; bad values refused with the
field and the rule."""

import html
import json
import re

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_transfer import upload
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, Match


def words(response):
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(
        response.get_data(as_text=True))).split())


def hands_of(app, url):
    with app.app_context():
        return db.session.query(Hand).filter_by(match_id=match_id(url)).order_by(
            Hand.number).all()


def test_bombs_and_a_note_are_kept_shown_counted_and_never_scored(app, client):
    url = new_match(client)
    data = hand_form([0, 1], a=60) | {"bombs_1": "2", "bombs_2": "1", "note": "  Dog  to Cy "}
    assert post_hand(client, url, data).status_code == 303
    [hand] = hands_of(app, url)
    assert hand.bombs == [0, 2, 1, 0] and hand.note == "Dog to Cy"
    assert hand.team_scores == [60, 40]  # never scored
    page = words(client.get(url))
    assert "Bob: 2 bombs" in page and "Cy: 1 bomb" in page and "Dog to Cy" in page
    stats = words(client.get("/stats?view=cards"))
    assert "Bombs 2" in stats and "Bombs 1" in stats
    # a plain hand stores none
    assert post_hand(client, url, hand_form([1, 0], a=50)).status_code == 303
    assert hands_of(app, url)[1].bombs is None and hands_of(app, url)[1].note is None


def test_an_edit_of_the_bombs_is_logged_and_the_form_shows_them(app, client):
    url = new_match(client)
    data = hand_form([0, 1], a=60) | {"bombs_1": "2", "note": "close one"}
    assert post_hand(client, url, data).status_code == 303
    [hand] = hands_of(app, url)
    form = html.unescape(client.get(f"{url}/hands/{hand.number}/edit").get_data(as_text=True))
    assert re.search(r'id="bombs_1"[^>]*value="2"', form) and 'value="close one"' in form
    edit = hand_form([0, 1], a=60) | {"bombs_1": "1", "note": "", "version": "1"}
    assert client.post(f"{url}/hands/{hand.number}/edit", data=edit).status_code == 303
    [hand] = hands_of(app, url)
    assert hand.bombs == [0, 1, 0, 0] and hand.note is None
    log = words(client.get(url + "/log"))
    assert "Bob's bombs 2 → 1" in log and "note “close one” → “”" in log


@pytest.mark.parametrize(("fields", "says"), [
    ({"bombs_0": "5"}, "Bombs of Ann: a count of 0 to 4"), ({"bombs_2": "-1"}, "B1"),
    ({"bombs_3": "two"}, "Bombs of Dee"), ({"note": "x" * 201}, "200")])
def test_bad_bombs_or_note_are_refused_naming_the_rule(app, client, fields, says):
    url = new_match(client)
    r = post_hand(client, url, hand_form([0, 1], a=60) | fields)
    assert r.status_code == 422 and says in words(r)
    assert hands_of(app, url) == []


def test_an_export_carries_them_and_an_import_takes_them_back(app, client):
    url = new_match(client)
    data = hand_form([0, 1], a=60) | {"bombs_3": "4", "note": "four bombs"}
    assert post_hand(client, url, data).status_code == 303
    export = client.get("/export.json").get_json()
    [hand] = export["matches"][0]["hands"]
    assert hand["bombs"] == [0, 0, 0, 4] and hand["note"] == "four bombs"
    with app.app_context():
        db.session.query(Match).delete()
        db.session.commit()
    assert upload(client, json.dumps(export).encode()).status_code == 303
    with app.app_context():
        [stored] = db.session.query(Hand).all()
        assert stored.bombs == [0, 0, 0, 4] and stored.note == "four bombs"
    assert "Dee: 4 bombs" in words(client.get(db_url(app)))


def db_url(app):
    with app.app_context():
        return "/matches/" + db.session.query(Match).one().key


@pytest.mark.parametrize(("change", "says"), [
    ({"bombs": [0, 9]}, "bombs must be a list"), ({"bombs": "many"}, "bombs must be a list"),
    ({"note": 7}, "note must be text")])
def test_an_import_with_bad_bombs_or_note_is_refused(client, change, says):
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], a=60)).status_code == 303
    export = client.get("/export.json").get_json()
    export["matches"][0]["hands"][0] |= change
    r = upload(client, json.dumps(export).encode())
    assert r.status_code == 422 and says in words(r)


def test_the_csv_sheet_has_the_bombs_the_note_and_the_house_rules(client):
    import csv
    import io
    data = {f"seat_{i}": n for i, n in enumerate(("Ann", "Bob", "Cy", "Dee"))}
    url = client.post("/matches/new", data=data | {"target": "1000", "house": "club"}
                      ).headers["Location"]
    hand = hand_form([0, 1], a=60) | {"bombs_1": "2", "note": "=cmd|' /C calc'!A0"}
    assert post_hand(client, url, hand).status_code == 303
    [row] = list(csv.DictReader(io.StringIO(client.get(url + "/export.csv").get_data(
        as_text=True))))
    assert row["house_rules"] == "R3 R4" and row["bombs"] == "Bob: 2"
    assert row["note"] == "'=cmd|' /C calc'!A0"  # a note is never a formula in the sheet
