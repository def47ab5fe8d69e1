"""A match after its start: its target, its players' names, deleting it, new seats."""

from __future__ import annotations

import re

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, HandEvent, Match, Player


def test_a_new_target_decides_the_result_from_the_hands(client, app):
    url = new_match(client, target="1000")
    for out in ([0, 2], [0, 2], [0, 2]):  # three double victories: 600 : 0
        assert post_hand(client, url, hand_form(out=out)).status_code == 303
    assert "wins!" not in client.get(url).get_data(as_text=True)
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    r = client.post(url + "/settings", data={"target": "500"} | names)
    assert r.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "Team A wins!" in page
    with app.app_context():
        match = db.session.get(Match, match_id(url))
        assert match.target == 500 and match.winner_team == 0 and match.finished
    # and back: the match is open again
    assert client.post(url + "/settings", data={"target": "1000"} | names).status_code == 303
    with app.app_context():
        assert not db.session.get(Match, match_id(url)).finished


def test_bad_settings_are_refused_with_the_rule(client, app):
    url = new_match(client)
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Ann", "Dee"])}
    r = client.post(url + "/settings", data={"target": "333"} | names)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "multiple of 50" in html
    assert "“Ann” and “Ann” are the same player" in html
    with app.app_context():
        assert db.session.get(Match, match_id(url)).target == 1000


def test_a_name_corrected_in_one_match_only(client, app):
    first = new_match(client)
    second = new_match(client)
    names = {f"seat_{i}": n for i, n in enumerate(["Anne", "Bob", "Cy", "Dee"])}
    assert client.post(first + "/settings", data={"target": "1000"} | names).status_code == 303
    assert "Anne" in client.get(first).get_data(as_text=True)
    other = client.get(second).get_data(as_text=True)
    assert "Ann &amp; Cy" in other and "Anne" not in other
    with app.app_context():
        assert db.session.execute(db.select(Player).filter_by(name="Ann")).scalar_one()


def test_delete_a_match_only_when_confirmed(client, app):
    url = new_match(client)
    assert post_hand(client, url, hand_form(out=[0, 1], a=50)).status_code == 303
    r = client.post(url + "/delete", data={})
    assert r.status_code == 422 and "Tick the box" in r.get_data(as_text=True)
    assert client.get(url).status_code == 200
    r = client.post(url + "/delete", data={"confirm": "y"})
    assert r.status_code == 303
    assert client.get(url).status_code == 404
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0


def test_a_match_with_a_rematch_can_be_deleted_and_the_rematch_stays(client):
    url = new_match(client)
    r = client.post(url + "/rematch")
    assert r.status_code == 303, r.status_code
    rematch = r.headers["Location"]
    r = client.post(url + "/delete", data={"confirm": "y"})
    assert r.status_code == 303  # was a 500: the rematch's link to it was a foreign key
    assert client.get(url).status_code == 404
    assert client.get(rematch).status_code == 200


def test_new_seats_fill_the_new_match_form(client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"], target="500")
    key = url.rsplit("/", 1)[1]
    page = client.get(f"/matches/new?again={key}").get_data(as_text=True)
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        assert f'id="seat_{seat}"' in page and f'value="{name}"' in page
    assert re.search(r'<input checked id="target-\d" name="target" type="radio" value="500">', page)
    # a stranger's key fills nothing
    stranger = client.get("/matches/new?again=nope").get_data(as_text=True)
    seat_0 = re.search(r'<input[^>]*id="seat_0"[^>]*>', stranger).group(0)
    assert 'value="Ann"' not in seat_0


def test_settings_need_scorer_rights(client, app):
    url = new_match(client)
    with client.session_transaction() as session:
        session.clear()
    assert client.get(url + "/settings").status_code == 404
    assert client.post(url + "/delete", data={"confirm": "y"}).status_code in (403, 404)


def test_a_name_too_long_is_refused_in_settings(client, app):
    url = new_match(client)
    names = {f"seat_{i}": n for i, n in enumerate(["A" * 500, "Bob", "Cy", "Dee"])}
    r = client.post(url + "/settings", data={"target": "1000"} | names)
    assert r.status_code == 422 and "40" in r.get_data(as_text=True)
    with app.app_context():
        longest = db.session.scalar(db.select(db.func.max(db.func.length(Player.name))))
    assert longest <= 40


def test_not_found_in_the_readers_language(client):
    page = client.get("/matches/nope", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Diese Seite gibt es nicht" in page and "requested URL" not in page


def test_a_settings_change_is_logged_and_read_in_the_readers_language(client, app):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"], target="1000")
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Robert", "Cy", "Dee"])}
    assert client.post(url + "/settings", data={"target": "500"} | names).status_code == 303
    log = client.get(url + "/log").get_data(as_text=True)
    assert "match settings changed: target 1000 → 500; Bob → Robert" in log
    german = client.get(url + "/log", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Einstellungen der Partie geändert: Zielwert 1000 → 500; Bob → Robert" in german
    with app.app_context():
        event = db.session.execute(db.select(HandEvent)).scalar_one()
        assert (event.action, event.hand_id) == ("settings", None)
        assert event.before == {"target": 1000, "names": ["Ann", "Bob", "Cy", "Dee"]}
        assert event.after == {"target": 500, "names": ["Ann", "Robert", "Cy", "Dee"]}
        assert event.summary == "target 1000 → 500; Bob → Robert"  # English, for exports


def test_saving_unchanged_settings_writes_nothing(client, app):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"], target="1000")
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    r = client.post(url + "/settings", data={"target": "1000"} | names, follow_redirects=True)
    assert "Nothing changed." in r.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(HandEvent.id))) == 0
        assert db.session.get(Match, match_id(url)).revision in (0, None)
