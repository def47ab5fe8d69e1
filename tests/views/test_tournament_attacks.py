"""A tournament attacked: odd input, a table's phone acting as the director, drop-outs
before a knockout or in an all-against-all. Every refusal is a 422 naming the field and
the rule, never a 500; a phone that joined one table by its score code scores that table
and does not direct the tournament."""

import html
import re
from collections import Counter

import pytest

from tests.conftest import hand_form, post_hand
from tests.views.test_tournaments import play, start, tables
from tichu_scorer.extensions import db
from tichu_scorer.models import Match, Tournament
from tichu_scorer.tournaments import formats, stored


def tournament(key):
    return db.session.execute(db.select(Tournament).filter_by(key=key)).scalar_one()


def refused(response):
    """The field and the text of a refusal page."""
    page = html.unescape(response.get_data(as_text=True))
    found = re.search(r'data-refused="([^"]*)">(.*?)</p>', page, re.S)
    return found.group(1), " ".join(re.sub(r"<[^>]+>", " ", found.group(2)).split())


@pytest.mark.parametrize("entries", [
    "Dragons: Ann & Bob\nDragons: Cy & Dee",
    "Dragons: Ann & Bob\n dragons : Cy & Dee",
    "Ann & Bob: Cy & Dee\nAnn & Bob",
])
def test_two_pairs_of_one_name_are_refused_naming_the_rule(client, entries):
    response = client.post("/tournaments/new", data={
        "name": "Cup", "kind": "pairs", "pairing": "swiss", "rounds": 2, "hands": 1,
        "entries": entries})
    assert response.status_code == 422
    body = html.unescape(response.get_data(as_text=True))
    assert "TN3" in body and "twice" in body


def test_a_late_pair_named_as_a_pair_entered_is_refused(client):
    url = start(client, ["Dragons: Ann & Bob", "Cy & Dee"], kind="pairs")
    response = client.post(url + "/entries", data={"name": "dragons: Eve & Fay"})
    assert response.status_code == 422
    field, text = refused(response)
    assert field == "entries" and "twice" in text and "(TN3)" in text


def test_a_late_pair_of_long_names_arrives_and_a_too_long_line_is_told(app, client):
    url = start(client, ["Ann & Bob", "Cy & Dee"], kind="pairs")
    line = f"{'N' * 30}: {'x' * 40} & {'y' * 40}"  # as a pair may be entered at the start
    assert client.post(url + "/entries", data={"name": line}).status_code == 303
    response = client.post(url + "/entries", data={"name": "z" * 300})
    assert response.status_code == 422
    field, text = refused(response)
    assert field == "name" and "characters" in text


@pytest.mark.parametrize("number", ["0", "-1", "3", "99999999999999999999", "abc", ""])
def test_a_draw_of_a_round_not_next_says_which_round_is_next(client, number):
    url = start(client, ["Ann", "Bob", "Cy", "Dee"], rounds=3)
    response = client.post(url + "/draw", data={"round": number})
    assert response.status_code == 422
    field, text = refused(response)
    assert field == "round" and "already drawn" not in text
    assert "Round 1" in text and "(TN4)" in text


def test_a_pair_that_dropped_out_plays_no_knockout(app, client):
    response = client.post("/tournaments/new", data={
        "name": "Cup", "kind": "pairs", "pairing": "swiss", "rounds": 1, "hands": 1,
        "knockout": "2", "entries": "\n".join(f"A{i} & B{i}" for i in range(5))})
    url = response.headers["Location"]
    key = url.rsplit("/", 1)[1]
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    for match in tables(client, url, 1):
        play(client, match, 1)
    with app.app_context():
        best = stored.table_standing(tournament(key))[0].name
        gone = next(e.id for e in tournament(key).entries if e.name == best)
    assert client.post(url + f"/entries/{gone}/leave").status_code == 303
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    with app.app_context():
        final = tournament(key).played[-1]
        assert final.stage == "knockout"
        seated = {n for m in final.tables for n in m.player_names}
        assert not seated & set(best.split(" & "))


def test_all_against_all_meets_no_pair_twice_after_a_drop_out_and_an_arrival(app, client):
    url = start(client, [f"A{i} & B{i}" for i in range(6)], rounds=5, hands=1,
                kind="pairs", pairing="all")
    key = url.rsplit("/", 1)[1]
    with app.app_context():
        gone = tournament(key).entries[0].id
    for number in range(1, 6):
        if number == 3:
            assert client.post(url + f"/entries/{gone}/leave").status_code == 303
            assert client.post(url + "/entries", data={"name": "X & Y"}).status_code == 303
        assert client.post(url + "/draw", data={"round": number}).status_code == 303
        for match in tables(client, url, number):
            play(client, match, 1)
    with app.app_context():
        met = Counter(frozenset(sum(t.sides, ())) for r in stored.rounds_of(tournament(key))
                      for t in r.tables)
    assert [sorted(m) for m, n in met.items() if n > 1] == []


def test_a_table_phone_scores_its_table_but_does_not_direct(app, client):
    url = start(client, ["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=2, hands=1)
    key = url.rsplit("/", 1)[1]
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    with app.app_context():
        t = tournament(key)
        group, entry = t.group.key, t.entries[0].id
        code = db.session.execute(db.select(Match.scorer_key)).scalars().first()
    phone = app.test_client()
    assert phone.get("/join?code=" + code).status_code == 303
    for path, data in [(f"/entries/{entry}/leave", {}), ("/entries", {"name": "Mallory"}),
                       ("/draw", {"round": "2"})]:
        assert phone.post(url + path, data=data).status_code == 403, path
    assert phone.post(f"/tables/{group}/rotate").status_code == 403
    # the director keeps the tournament
    assert client.get(url).status_code == 200
    assert "data-code" not in phone.get(url).get_data(as_text=True)
    # and it scores its own table
    match = tables(client, url, 1)[0]
    assert post_hand(phone, match, hand_form([0, 1], a=60)).status_code == 303


def knockout_of_four(client):
    """A pairs tournament of four pairs, one round, then semi-finals and a final to 1000;
    round 1 played. The tournament's URL."""
    response = client.post("/tournaments/new", data={
        "name": "Cup", "kind": "pairs", "pairing": "swiss", "rounds": 1, "hands": 1,
        "knockout": "4", "entries": "\n".join(f"A{i} & B{i}" for i in range(4))})
    url = response.headers["Location"]
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    for match in tables(client, url, 1):
        play(client, match, 1)
    return url


def win(client, match_url, side):
    """Side 0 or 1 goes to 1000 by double victories (100 each in a knockout)."""
    for _ in range(10):
        post_hand(client, match_url, hand_form([side, side + 2]))


def test_a_finished_knockout_recounts_as_stored(app, client):
    url = knockout_of_four(client)
    key = url.rsplit("/", 1)[1]
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    for match in tables(client, url, 2):
        win(client, match, 0)
    assert client.post(url + "/draw", data={"round": 3}).status_code == 303
    win(client, tables(client, url, 3)[0], 1)
    with app.app_context():
        ranked = stored.table_standing(tournament(key))
        assert ranked == stored.table_standing(tournament(key), recount=True)
        final = tournament(key).played[-1].tables[0]
        assert ranked[0].name == formats.pair_names(tournament(key).entries)[
            frozenset(n.casefold() for n in final.player_names[1::2])]


def test_a_semi_final_corrected_after_the_final_was_drawn_lists_each_pair_once(app, client):
    url = knockout_of_four(client)
    key = url.rsplit("/", 1)[1]
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    semis = tables(client, url, 2)
    for match in semis:
        win(client, match, 0)
    assert client.post(url + "/draw", data={"round": 3}).status_code == 303
    # the final drawn, the semi-finals are closed ([TN5]): the director reopens the first
    assert client.post(url + "/reopen", data={"table": semis[0].rsplit("/", 1)[1],
                                              "reason": "last hand misread"}).status_code == 303
    # its last hand is undone at its table and the other side wins it
    assert client.post(semis[0] + "/undo", data={"number": "10"}).status_code == 303
    win(client, semis[0], 1)
    # the director is told that the final drawn seats a pair that no longer won ([TN4])
    page = client.get(url).get_data(as_text=True)
    assert page.count("data-knockout-changed") == 1 and "(TN4)" in page
    win(client, tables(client, url, 3)[0], 0)
    with app.app_context():
        lines = stored.table_standing(tournament(key))
        assert lines == stored.table_standing(tournament(key), recount=True)
        assert sorted(line.name for line in lines) == sorted(
            e.name for e in tournament(key).entries)
    board = client.get(url + "/standing.csv").get_data(as_text=True).splitlines()
    assert len(board) == 1 + 4


@pytest.mark.parametrize("pairs, rounds", [(3, 6), (5, 10)])
def test_swiss_byes_go_round_again_before_anyone_sits_out_a_third_time(app, client, pairs,
                                                                       rounds):
    url = start(client, [f"A{i} & B{i}" for i in range(pairs)], rounds=rounds, hands=1,
                kind="pairs")
    key = url.rsplit("/", 1)[1]
    for number in range(1, rounds + 1):
        assert client.post(url + "/draw", data={"round": number}).status_code == 303
        for i, match in enumerate(tables(client, url, number)):
            play(client, match, 1, out=(0, 1) if (i + number) % 2 else (1, 0))
        with app.app_context():
            byes = Counter(b for r in tournament(key).played for b in r.byes)
            counts = [byes[e.name] for e in tournament(key).entries]
            assert max(counts) - min(counts) <= 1, (number, counts)  # [TN2]


def test_a_round_of_one_hand_says_hand_in_english_and_german(client):
    url = start(client, ["Ann", "Bob", "Cy", "Dee"], rounds=2, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    assert "0 of 1 hand ·" in client.get(url).get_data(as_text=True)
    german = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "0 von 1 Runde ·" in german


def test_a_tournament_named_only_by_spaces_is_refused(client):
    response = client.post("/tournaments/new", data={
        "name": "   ", "kind": "individual", "rounds": 2, "hands": 1,
        "entries": "Ann\nBob\nCy\nDee"})
    assert response.status_code == 422
    assert "Name of the tournament" in html.unescape(response.get_data(as_text=True))
