"""Tournaments ([TN1]–[TN4]) as a director runs one: started with its players, each round
drawn and its tables scored as ordinary matches, the next round refused while a table is
still playing, late arrivals and drop-outs, the standing (equal to a recount from the
hands) on the page, the board and in the exports, and bad input refused with the rule."""

import csv
import html
import io
import re

import pytest

from tests.conftest import hand_form, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match, Tournament
from tichu_scorer.tournaments import stored


def start(client, names, rounds=3, hands=2, kind="individual", pairing="swiss"):
    response = client.post("/tournaments/new", data={
        "name": "Club cup", "kind": kind, "pairing": pairing, "rounds": rounds,
        "hands": hands, "entries": "\n".join(names)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def tables(client, url, number):
    """The match URLs of round `number`'s tables, by board."""
    page = client.get(url).get_data(as_text=True)
    section = re.search(rf'data-round="{number}">(.*?)</section>', page, re.S).group(1)
    return re.findall(r'<li data-board="\d+"><a class="match-item" href="([^"]+)"', section)


def play(client, match_url, hands, out=(0, 1)):
    for _ in range(hands):
        assert post_hand(client, match_url, hand_form(list(out), a=60)).status_code == 303


def names_on(client, match_url):
    page = html.unescape(client.get(match_url).get_data(as_text=True))
    return page


def test_an_individual_tournament_is_drawn_played_and_ranked(app, client):
    players = [f"Player {i}" for i in range(1, 11)]  # ten: two tables, two byes a round
    url = start(client, players, rounds=2, hands=2)
    page = client.get(url)
    assert page.status_code == 200 and "Draw round 1" in page.get_data(as_text=True)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    first = tables(client, url, 1)
    assert len(first) == 2
    body = client.get(url).get_data(as_text=True)
    byes = re.search(r"data-byes>Sitting out: ([^<]*)", body).group(1).split(", ")
    assert len(byes) == 2 and set(byes) <= set(players)
    # [TN4]: round 2 waits for every table's last hand
    early = client.post(url + "/draw", data={"round": 2})
    assert early.status_code == 422 and "TN4" in early.get_data(as_text=True)
    play(client, first[0], 2, out=(0, 1))  # side A (seats 0 and 2) wins both hands
    early = client.post(url + "/draw", data={"round": 2})
    assert early.status_code == 422 and "table 2 is still playing" in early.get_data(as_text=True)
    play(client, first[1], 2, out=(1, 0))  # side B wins
    # a hand after the round's last is refused as in any match of fixed length
    late = post_hand(client, first[0], hand_form([0, 1], a=60))
    assert late.status_code in (409, 422)
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    # a second tap of the same draw (or a second director) stores nothing twice
    again = client.post(url + "/draw", data={"round": 2})
    assert again.status_code == 422 and "already drawn" in again.get_data(as_text=True)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        assert [len(r.tables) for r in tournament.played] == [2, 2]
        second_byes = tournament.played[1].byes
        assert not set(second_byes) & set(byes)  # [TN2]: nobody sits out twice before all once
        lines = stored.table_standing(tournament)
        assert lines == stored.table_standing(tournament, recount=True)
        line = {row.name: row for row in lines}
        # byes were credited with the round's average per player ([TN2])
        for name in byes:
            assert line[name].byes == 1 and line[name].victory > 0
        winners = [row for row in lines if row.place == 1]
    csv_rows = list(csv.DictReader(io.StringIO(
        client.get(url + "/standing.csv").get_data(as_text=True))))
    assert [r["name"] for r in csv_rows] == [row.name for row in lines]
    assert csv_rows[0]["place"] == "1"
    data = client.get(url + "/standing.json").get_json()
    assert [r["name"] for r in data["standing"]] == [row.name for row in lines]
    assert len(data["rounds"]) == 2 and data["rounds"][0]["byes"] == byes
    board = client.get(url + "/board").get_data(as_text=True)
    assert all(html.escape(w.name) in board for w in winners)


def test_the_standing_follows_a_correction_of_a_past_round(app, client):
    url = start(client, [f"P{i}" for i in range(4)], rounds=2, hands=1)
    client.post(url + "/draw", data={"round": 1})
    (match_url,) = tables(client, url, 1)
    play(client, match_url, 1, out=(0, 1))
    with app.app_context():
        before = stored.table_standing(db.session.execute(db.select(Tournament)).scalar_one())
    # the director corrects the hand: side A took 20 card points, not 60
    hand = match_url + "/hands/1/edit"
    form = hand_form([0, 1], a=20) | {"version": "1"}
    assert client.post(hand, data=form).status_code == 303
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        after = stored.table_standing(tournament)
        assert after == stored.table_standing(tournament, recount=True)
        match = db.session.execute(db.select(Match)).scalar_one()
        assert [e.action for e in match.events] == ["added", "edited"]  # logged
    page = html.unescape(client.get(url).get_data(as_text=True))
    listed = re.search(r"data-corrections>(.*?)</details>", page, re.S).group(1)
    assert "1 correction" in listed and "Round 1 · Table 1" in listed and "hand 1 edited" in listed
    assert before[0].name != after[0].name


def test_late_arrivals_and_drop_outs_count_from_the_next_round(app, client):
    url = start(client, [f"P{i}" for i in range(8)], rounds=3, hands=1)
    client.post(url + "/draw", data={"round": 1})
    assert client.post(url + "/entries", data={"name": "Newcomer"}).status_code == 303
    twice = client.post(url + "/entries", data={"name": "newcomer"})
    assert twice.status_code == 422 and "entered twice" in twice.get_data(as_text=True)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        p0 = next(e for e in tournament.entries if e.name == "P0")
    assert client.post(f"{url}/entries/{p0.id}/leave").status_code == 303
    for match_url in tables(client, url, 1):
        play(client, match_url, 1)
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        seated = {n for m in tournament.played[1].tables for n in m.player_names}
        assert "Newcomer" in seated and "P0" not in seated
        assert tournament.played[1].byes == []  # 8 - 1 + 1 players: two full tables
        assert len(tournament.played[0].tables) == 2
        # the drop-out keeps its first round in the standing
        assert any(line.name == "P0" and line.played == 1
                   for line in stored.table_standing(tournament))


@pytest.mark.parametrize("entries, field, rule", [
    (["Ann", "Bob", "Cy"], "entries", "TN1"),
    (["Ann", "Bob", "Cy", "ann"], "entries", "TN1"),
    (["Ann", "", "Bob", "Cy", "Dee", "x" * 41], "entries", "TN1"),
])
def test_a_tournament_that_cannot_be_played_is_refused_with_the_rule(client, entries, field,
                                                                       rule):
    response = client.post("/tournaments/new", data={
        "name": "Cup", "kind": "individual", "pairing": "swiss", "rounds": 3, "hands": 4,
        "entries": "\n".join(entries)})
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f'data-refused="{field}"' in body and f"({rule})" in body


@pytest.mark.parametrize("field, value", [("rounds", "0"), ("rounds", "21"), ("hands", "x"),
                                          ("kind", "duplicate"), ("name", "")])
def test_bad_settings_are_refused_naming_the_field(client, field, value):
    data = {"name": "Cup", "kind": "individual", "pairing": "swiss", "rounds": "3",
            "hands": "4", "entries": "A\nB\nC\nD"} | {field: value}
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 422
    assert f'data-error="{field}"' in response.get_data(as_text=True)


def test_only_the_director_draws_and_strangers_see_nothing(app, client):
    url = start(client, ["A", "B", "C", "D"])
    stranger = app.test_client()
    for path in ("", "/board", "/standing.csv", "/standing.json"):
        assert stranger.get(url + path).status_code == 404
    assert stranger.post(url + "/draw", data={"round": 1}).status_code == 404
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    # a table's score code lets its phone score; it does not make it the director of
    # another table's draw… but it is a scorer of the tournament's table (documented)
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        code = match.scorer_key
    table_phone = app.test_client()
    assert table_phone.get("/join", query_string={"code": code}).status_code == 303
    assert table_phone.get(url).status_code == 200


def test_a_table_keeps_the_tournaments_rules_and_leads_back_to_it(app, client):
    url = start(client, ["A", "B", "C", "D"], rounds=2, hands=1)
    client.post(url + "/draw", data={"round": 1})
    (match_url,) = tables(client, url, 1)
    for path, data in (("/settings", {"target": "500"}), ("/rematch", {}),
                       ("/delete", {"confirm": "y"})):
        refused = client.post(match_url + path, data=data)
        assert refused.status_code == 422 and "(TN4)" in refused.get_data(as_text=True), path
    page = client.get(match_url).get_data(as_text=True)
    assert "data-tournament" in page and "/settings" not in page
    back = client.get(match_url + "/tournament")
    assert back.status_code == 303 and back.headers["Location"].endswith(
        url.rsplit("/", 1)[1] + "#round-1")
    play(client, match_url, 1)
    over = client.get(match_url + "/hands/new")
    body = over.get_data(as_text=True)
    assert "TN4" in body and "Rematch" not in body and "data-tournament" in body
    with app.app_context():
        assert db.session.execute(db.select(Match)).scalar_one().target is None


def test_a_drop_out_comes_back_from_the_next_round(app, client):
    url = start(client, [f"P{i}" for i in range(5)], rounds=3, hands=1)
    with app.app_context():
        p4 = db.session.execute(db.select(Tournament)).scalar_one().entries[4].id
    client.post(f"{url}/entries/{p4}/leave")
    client.post(url + "/draw", data={"round": 1})
    assert client.post(f"{url}/entries/{p4}/back").status_code == 303
    for match_url in tables(client, url, 1):
        play(client, match_url, 1)
    client.post(url + "/draw", data={"round": 2})
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        assert tournament.played[0].byes == []  # four played round 1, P4 was away
        in_round_two = {n for m in tournament.played[1].tables for n in m.player_names}
        assert "P4" in in_round_two or "P4" in tournament.played[1].byes
    assert client.post(f"{url}/entries/99999/leave").status_code == 422


PAIRS = ["Dragons: Ann & Bob", "Cy & Dee", "Eve, Fay", "Gus / Hal", "Ida & Jo", "Kim & Lu"]


def test_a_swiss_pairs_tournament_never_repeats_a_meeting_and_ends_in_a_knockout(app, client):
    response = client.post("/tournaments/new", data={
        "name": "Pairs cup", "kind": "pairs", "pairing": "swiss", "rounds": 3, "hands": 1,
        "knockout": "4", "entries": "\n".join(PAIRS)})
    assert response.status_code == 303
    url = response.headers["Location"]
    for number in range(1, 4):
        assert client.post(url + "/draw", data={"round": number}).status_code == 303
        for board, match_url in enumerate(tables(client, url, number)):
            play(client, match_url, 1, out=(board % 2, 1 - board % 2))
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        rounds = stored.rounds_of(tournament)
        meetings = [frozenset(t.sides[0] + t.sides[1]) for r in rounds for t in r.tables]
        assert len(meetings) == 9 and len(set(meetings)) == 9  # no pair met another twice
        assert {e.name for e in tournament.entries} >= {"Dragons", "Cy & Dee", "Eve & Fay"}
        lines = stored.table_standing(tournament)
        assert lines == stored.table_standing(tournament, recount=True)
        assert sum(line.match_points for line in lines) == 9 * 2  # a win is 2 ([TN3])
        seeds = [line.name for line in lines[:4]]
    # the knockout: 1 v 4 and 2 v 3, then the final
    assert client.post(url + "/draw", data={"round": 4}).status_code == 303
    semis = tables(client, url, 4)
    assert len(semis) == 2
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        stage = stored.rounds_of(tournament)[-1]
        assert stage.knockout
        assert [t.sides[0][0] for t in stage.tables] == seeds[:2]
        assert [t.sides[1][0] for t in stage.tables] == [seeds[3], seeds[2]]
    for match_url in semis:  # to 1000: side B (seats 1, 3) wins after a few hands
        for _ in range(20):
            if post_hand(client, match_url, hand_form([1, 3])).status_code != 303:
                break
    assert client.post(url + "/draw", data={"round": 5}).status_code == 303
    (final,) = tables(client, url, 5)
    for _ in range(20):
        if post_hand(client, final, hand_form([0, 2])).status_code != 303:
            break
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        lines = stored.table_standing(tournament)
        # the final's winner (side A: the winner of seed 4 v 1, that is seed 4) leads
        assert [line.place for line in lines[:4]] == [1, 2, 3, 3]
        assert lines[0].name == seeds[3] and lines[1].name == seeds[2]
    for path in ("", "/board"):  # the pages rank as the director's standing does
        page = html.unescape(client.get(url + path).get_data(as_text=True))
        shown = re.findall(r'<tr data-name="([^"]+)">', page)
        assert shown == [line.name for line in lines], path
        assert "data-knockout-changed" not in page  # nothing corrected since the draw
    over = client.post(url + "/draw", data={"round": 6})
    assert over.status_code == 422
    assert "All rounds are played" in client.get(url).get_data(as_text=True)


def test_all_against_all_with_an_odd_number_of_pairs_gives_each_one_bye(app, client):
    response = client.post("/tournaments/new", data={
        "name": "Round robin", "kind": "pairs", "pairing": "all", "rounds": 5, "hands": 1,
        "entries": "\n".join(PAIRS[:5])})
    url = response.headers["Location"]
    for number in range(1, 6):
        assert client.post(url + "/draw", data={"round": number}).status_code == 303
        for match_url in tables(client, url, number):
            play(client, match_url, 1)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        rounds = stored.rounds_of(tournament)
        meetings = [frozenset(t.sides[0] + t.sides[1]) for r in rounds for t in r.tables]
        assert len(set(meetings)) == len(meetings) == 10  # every pair met every other
        assert sorted(b for r in rounds for b in r.byes) == sorted(
            e.name for e in tournament.entries)
        lines = stored.table_standing(tournament)
        assert all(line.byes == 1 and line.played == 4 for line in lines)
        assert sum(line.match_points for line in lines) == 10 * 2 + 5 * 2  # byes win


@pytest.mark.parametrize("entries, knockout, field", [
    (["Ann & Bob", "Cy"], "", "entries"),  # a pair of one
    (["Ann & Bob", "Cy & ann"], "", "entries"),  # a player in two pairs
    (["Ann & Bob", "Cy & Dee"], "4", "knockout"),  # a knockout of more pairs than play
])
def test_pairs_that_cannot_play_are_refused_with_tn3_or_tn1(client, entries, knockout, field):
    response = client.post("/tournaments/new", data={
        "name": "Cup", "kind": "pairs", "pairing": "swiss", "rounds": 2, "hands": 1,
        "knockout": knockout, "entries": "\n".join(entries)})
    body = response.get_data(as_text=True)
    assert response.status_code == 422 and f'data-refused="{field}"' in body
    assert re.search(r"\(TN[13]\)", body)


def test_a_draw_that_cannot_meet_tn1_says_so_and_seats_everyone(app, client):
    """Four players have three partners each: the fourth round must repeat a partner."""
    url = start(client, ["A", "B", "C", "D"], rounds=4, hands=1)
    for number in range(1, 5):
        response = client.post(url + "/draw", data={"round": number})
        assert response.status_code == 303
        for match_url in tables(client, url, number):
            play(client, match_url, 1)
    page = html.unescape(client.get(url).get_data(as_text=True))
    unmet = re.findall(r"<p class=\"hint\" data-unmet>([^<]*)</p>", page)
    assert len(unmet) == 1 and "partner again" in unmet[0] and "(TN1)" in unmet[0]
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        assert [r.unmet != [] for r in tournament.played] == [False, False, False, True]
        assert all(len(r.tables) == 1 for r in tournament.played)
    assert "data-ratings" in page and "data-print" in page
    ratings = client.get(re.search(r'href="([^"]+)" data-ratings', page).group(1))
    assert ratings.status_code == 200 and "A" in ratings.get_data(as_text=True)


def test_the_csv_ranking_keeps_a_name_from_being_read_as_a_formula(client):
    url = start(client, ["=cmd()", "+Bob", "@Cy", "Dee"], rounds=1, hands=1)
    rows = list(csv.reader(io.StringIO(client.get(url + "/standing.csv").get_data(
        as_text=True))))
    names = {r[1] for r in rows[1:]}
    assert names == {"'=cmd()", "'+Bob", "'@Cy", "Dee"}


def test_the_director_may_draw_an_individual_rounds_partners_fair(app, client):
    """Ann and Cy won every match together at the director's table: a fair draw parts them
    and says each side's chance; a pairs tournament offers no such choice."""
    from tests.views.test_ratings_page import won_match

    for _ in range(3):
        won_match(client)
    url = start(client, ["Ann", "Bob", "Cy", "Dee"], rounds=2, hands=2)
    assert "Partners fair by the ratings" in client.get(url).get_data(as_text=True)
    drawn = client.post(url + "/draw", data={"round": 1, "fair": "y"}, follow_redirects=True)
    page = html.unescape(drawn.get_data(as_text=True))
    assert drawn.status_code == 200
    assert re.search(r"Partners drawn fair by the ratings, each side’s chance to win: "
                     r"table 1: \d+% : \d+%\.", page)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        [match] = tournament.played[0].tables
        names = match.names
    assert {names[0], names[2]} != {"Ann", "Cy"} and {names[1], names[3]} != {"Ann", "Cy"}
    pairs = start(client, ["Ann & Bob", "Cy & Dee", "Eve & Fay"], kind="pairs")
    assert "Partners fair" not in client.get(pairs).get_data(as_text=True)
