"""Edges of house rules, the evening and imports found by trying to break them: custom
calls a match could not keep, a lead where there are no two teams or that the match
already passed, the same player typed twice, the Threechu dummy, and the evening's next
match keeping the last one's own rules."""

import html
import json
import re

from tests.conftest import hand_form, post_hand
from tests.views.test_house_match import start, stored, words
from tests.views.test_tonight import table_key
from tests.views.test_transfer import upload
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


def export(players, house_rules, hands, **match):
    return json.dumps({"format": "tichu-scorer", "version": 1, "matches": [{
        "variant": "nanking", "target": 1000, "hand_limit": None, "house_rules": house_rules,
        "lead_by": None, "players": players, "hands": hands, "log": []} | match]}).encode()


def test_an_imported_match_keeps_its_custom_calls_and_scores_them(app, client):
    """[R9]: a match's own calls come in with its house rules, and its hands that call them
    score them like Tichu (stored_hand reads the word; the match's rules give its worth)."""
    blob = export(["Ann", "Bob", "Cy", "Dee"], {"custom_calls": {"blind": 400}},
                  [{"number": 1, "out_order": [0, 1, 2, 3], "calls": {"0": "blind"},
                    "card_points": [50, 50]},
                   {"number": 2, "out_order": [1, 0, 2, 3], "calls": {"0": "blind"},
                    "card_points": [50, 50]}])
    r = upload(client, blob)
    assert r.status_code == 303, html.unescape(r.get_data(as_text=True))[:500]
    with app.app_context():
        match = db.session.query(Match).one()
        assert match.house.custom_calls == (("blind", 400),)
        assert match.totals == [50 + 400 + 50 - 400, 100]


def test_an_import_naming_a_call_the_match_does_not_have_is_refused(app, client):
    blob = export(["Ann", "Bob", "Cy", "Dee"], {"custom_calls": {"blind": 400}},
                  [{"number": 1, "out_order": [0, 1, 2, 3], "calls": {"0": "small"},
                    "card_points": [50, 50]}])
    r = upload(client, blob)
    assert r.status_code == 422 and "(R9)" in html.unescape(r.get_data(as_text=True))
    with app.app_context():
        assert db.session.query(Match).count() == 0


def test_tonight_one_tap_start_keeps_the_last_matchs_own_house_rules(app, client):
    """tonight() passes preset_of(...) or "book": a last match with its own rules (no wish
    penalty, a lead of 300) is followed by a rule-book match."""
    start(client, house="own", no_wish="y", lead_by="300")
    key = table_key(app)
    page = html.unescape(client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "Dee", "Eve"]}).get_data(as_text=True))
    form = re.search(r'<form method="post" action="/matches/new">(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    r = client.post("/matches/new", data=fields)
    assert r.status_code == 303
    started = stored(app, r.headers["Location"])
    assert started.house_rules and started.house_rules["wish_penalty"] is False
    assert started.lead_by == 300


def test_tonight_does_not_seat_one_player_twice_by_capitals(app, client):
    """'Ann' and 'ann' are one player ([H1]); Tonight proposes them as partners and the
    one-tap start is then refused with 422."""
    start(client)
    key = table_key(app)
    page = html.unescape(client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "ann", "Bob", "Cy", "Dee"]}).get_data(as_text=True))
    form = re.search(r'<form method="post" action="/matches/new">(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    seats = [fields[f"seat_{i}"].lower() for i in range(4)]
    assert len(set(seats)) == 4, seats


def test_threechu_lead_by_is_refused_naming_r6(client):
    """[R6] ends a match when a team leads by N: Threechu keeps a total per player (and
    the dummy's), so the form refuses a lead there rather than show one it never applies."""
    r = client.post("/matches/new", data={
        "variant": "threechu", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy",
        "length": "hands", "hands": "9", "house": "own", "lead_by": "100"})
    assert r.status_code == 422
    body = html.unescape(r.get_data(as_text=True))
    assert "A lead ends a match of two teams" in body and "R6" in body


def test_a_lead_after_the_end_is_reported_on_the_lead_not_the_target(app, client):
    """Settings: a lead of 100 when the match already led by 200 after hand 1 and goes on is
    refused (good) but under "Play to" with rule E1 and "under the new target"."""
    url = start(client)
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # 200 : 0
    assert post_hand(client, url, hand_form([1, 0], a=50)).status_code == 303
    r = client.post(url + "/settings", data={
        "target": "1000", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee",
        "house_shown": "1", "lead_by": "100"})
    assert r.status_code == 422
    body = html.unescape(r.get_data(as_text=True))
    assert "R6" in body.split("House rules")[-1], "the refusal is not shown with R6 at the lead"


def test_tonight_lists_no_dummy_among_the_players(app, client):
    """A Threechu match tonight: its dummy seat is no player, yet the standing lists
    "Dummy" with the points it scored."""
    r = client.post("/matches/new", data={
        "variant": "threechu", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy",
        "length": "hands", "hands": "9"})
    url = r.headers["Location"]
    assert post_hand(client, url, hand_form([0, 3]) | {"shuffler": "0"}).status_code == 303
    page = words(client.get(f"/tables/{table_key(app)}/tonight"))
    standing = page.split("Players tonight")[1].split("Matches tonight")[0]
    assert "Dummy" not in standing, standing
