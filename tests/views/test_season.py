"""The season (`tichu_scorer/players/season.py`, /season): each player's finished matches,
wins, ties, match points, victory points and points over a period (this year unless asked),
ranked as the page says; the period's bounds at the edges of the year; bad dates refused
naming the field; the tables a device joined only; printing and the exports."""

import csv
import html
import io
import json
import re
from datetime import datetime, timezone

import pytest

from tests.conftest import hand_form, match_id, post_hand
from tests.test_queries import queries_for
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match

SEASON_2026 = "/season?from=2026-01-01&to=2026-12-31"


def start(client, names, **fields):
    data = {f"seat_{i}": n for i, n in enumerate(names)} | {"target": "1000"} | fields
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def played(app, client, names, hands, started, **fields):
    """A match of `names` with `hands` (hand forms) saved, started at `started` (UTC)."""
    url = start(client, names, **fields)
    for hand in hands:
        assert post_hand(client, url, hand).status_code == 303
    with app.app_context():
        db.session.get(Match, match_id(url)).started_at = started
        db.session.commit()
    return url


def won_by_a(app, client, names, started):  # team A (seats 0 and 2) goes out 1-2: 200 : 0
    return played(app, client, names, [hand_form([0, 2])], started, target="custom",
                  custom_target="200")


def won_by_b(app, client, names, started):
    return played(app, client, names, [hand_form([1, 3])], started, target="custom",
                  custom_target="200")


@pytest.fixture()
def history(app, client):
    return a_history(app, client)


def a_history(app, client):
    """2026: Ann & Cy beat Bob & Dee on its first second; Bob & Eve beat Ann & Cy; a tie
    50 : 50 (one hand, [R7]) on its last second; Bob & Dee beat Ann & Cy by victory points
    (the tournament preset, [R4]: 3 : 6, 235 : 165); an open match. Around it, a win of
    Ann's on the last second of 2025 and on the first of 2027."""
    four = ["Ann", "Bob", "Cy", "Dee"]
    won_by_a(app, client, four, datetime(2026, 1, 1, 0, 0, 0))
    won_by_b(app, client, ["Ann", "Bob", "Cy", "Eve"], datetime(2026, 6, 15, 20, 0))
    played(app, client, four, [hand_form([0, 1], a=50)], datetime(2026, 12, 31, 23, 59, 59),
           house="own", fixed_hands="1")
    played(app, client, four, [hand_form([0, 2])] + [hand_form([1, 0], a=45)] * 3,
           datetime(2026, 3, 1, 19, 0), house="tournament")
    played(app, client, four, [hand_form([0, 1], a=60)], datetime(2026, 5, 1, 19, 0))  # open
    won_by_a(app, client, ["Ann", "Fay", "Gus", "Hal"], datetime(2025, 12, 31, 23, 59, 59,
                                                                 999999))
    won_by_a(app, client, ["Ann", "Fay", "Gus", "Hal"], datetime(2027, 1, 1, 0, 0, 0))
    with app.app_context():
        assert db.session.execute(db.select(db.func.count()).select_from(Match).where(
            Match.finished_at.is_not(None))).scalar() == 6
    return four


def standing(response):
    """The ranking list's rows: place, name, played, won (+ties), MP, VP, points."""
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    body = response.get_data(as_text=True)
    table = re.search(r"data-season-standing>(.*?)</table>", body, re.S)
    if table is None:
        return []
    rows = re.findall(r"<tr data-name[^>]*>(.*?)</tr>", table.group(1), re.S)
    return [[" ".join(re.sub(r"<[^>]+>", " ", c).split())
             for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def test_the_season_adds_up_the_years_finished_matches_and_ranks_them(client, history):
    assert standing(client.get(SEASON_2026)) == [
        ["1", "Bob", "4", "2", "1", "5", "6", "415"],
        ["2", "Dee", "3", "1", "1", "3", "6", "215"],  # equal MP: more VP
        ["3", "Ann", "4", "1", "1", "3", "3", "485"],  # equal in everything: one place,
        ["3", "Cy", "4", "1", "1", "3", "3", "485"],   # listed by name
        ["5", "Eve", "1", "1", "0", "2", "0", "200"]]


def test_the_columns_say_what_they_count_and_the_names_link_to_the_players(client, history):
    body = client.get(SEASON_2026).get_data(as_text=True)
    head = re.search(r"<thead>(.*?)</thead>", body, re.S).group(1)
    assert [" ".join(re.sub(r"<[^>]+>", "", h).split()) for h in re.findall(
        r"<th[^>]*>(.*?)</th>", head, re.S)] == ["#", "Player", "Played", "Won", "Ties", "MP",
                                                  "VP", "Points"]
    assert 'title="Matches tied"' in head
    links = dict((name, href) for href, name in re.findall(
        r'<th scope="row"><a href="(/players/[^"]+)">([^<]+)</a></th>', body))
    assert set(links) == {"Ann", "Bob", "Cy", "Dee", "Eve"}
    assert client.get(links["Bob"]).status_code == 200
    assert ">Bob</h1>" in client.get(links["Bob"]).get_data(as_text=True)
    client.set_cookie("lang", "de")
    head = re.search(r"<thead>(.*?)</thead>", client.get(SEASON_2026).get_data(
        as_text=True), re.S).group(1)
    assert ">Remis</th>" in head and "Unentschiedene Partien" in head


def test_ranked_by_victory_points(client, history):
    rows = standing(client.get(SEASON_2026 + "&by=victory_points"))
    assert [(r[0], r[1]) for r in rows] == [("1", "Bob"), ("2", "Dee"), ("3", "Ann"),
                                            ("3", "Cy"), ("5", "Eve")]
    body = client.get(SEASON_2026 + "&by=victory_points").get_data(as_text=True)
    assert "Ranked by victory points, then match points, then points." in body


def test_the_page_states_its_rules(client, history):
    body = client.get(SEASON_2026).get_data(as_text=True)
    for said in ("A match won gives 2 match points (MP), a tie 1, a loss 0.",
                 "Ranked by match points, then victory points, then points.",
                 "the same results in fewer matches rank first",
                 "players share a place, listed by name", "Grand Seigneur"):
        assert said in body.replace("&#39;", "'"), said


@pytest.mark.parametrize(("query", "names"), [
    ("from=2025-12-31&to=2025-12-31", {"Ann", "Fay", "Gus", "Hal"}),  # its last microsecond
    ("from=2027-01-01&to=2027-01-01", {"Ann", "Fay", "Gus", "Hal"}),  # its first second
    ("from=2026-12-31&to=2026-12-31", {"Ann", "Bob", "Cy", "Dee"}),  # the tie, 23:59:59
    ("from=2026-01-01&to=2026-01-01", {"Ann", "Bob", "Cy", "Dee"}),  # 00:00:00
    ("from=2026-01-02&to=2026-12-30", {"Ann", "Bob", "Cy", "Dee", "Eve"}),
    ("from=2024-01-01&to=2024-12-31", set()),
    ("from=2025-01-01&to=2027-12-31", {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}),
    ("from=2026-06-15&to=2026-06-15", {"Ann", "Bob", "Cy", "Eve"}),
    ("from=0001-01-01&to=9999-12-31", {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}),
])
def test_the_period_includes_both_days_whole(client, history, query, names):
    assert {row[1] for row in standing(client.get("/season?" + query))} == names


def test_the_edges_of_the_year_count_once(client, history):
    rows = {r[1]: r for r in standing(client.get("/season?from=2025-01-01&to=2027-12-31"))}
    assert rows["Ann"][2] == "6" and rows["Fay"][2] == "2"
    rows = {r[1]: r for r in standing(client.get("/season?from=2027-01-01"))}  # to: its year's end
    assert rows["Ann"][2:4] == ["1", "1"] and set(rows) == {"Ann", "Fay", "Gus", "Hal"}


def test_this_year_is_the_default(app, client, time_machine):
    # the phone joins its table on this day: the clock only moves forward from its session
    # (a session signed later than the clock reads is no session, and the page empty)
    time_machine.move_to(datetime(2026, 7, 1, 12, 0, tzinfo=timezone.utc))
    a_history(app, client)
    page = client.get("/season")
    assert standing(page) and standing(page) == standing(client.get(SEASON_2026))
    assert "<strong>2026</strong>" in page.get_data(as_text=True)
    time_machine.move_to(datetime(2027, 1, 1, 0, 30, tzinfo=timezone.utc))
    assert {r[1] for r in standing(client.get("/season"))} == {"Ann", "Fay", "Gus", "Hal"}


def page_error(body):
    """The message of the page's refusal, as its text reads."""
    found = re.search(r"data-season-error=\"\w+\">(.*?)</p>", body, re.S)
    return html.unescape(found.group(1)) if found else None


@pytest.mark.parametrize(("query", "field"), [
    ("from=2026-13-01", "from"), ("from=2026-1-1", "from"), ("to=31.12.2026", "to"),
    ("from=yesterday", "from"), ("to=2026-02-30", "to"), ("from=" + "9" * 500, "from"),
    ("from=2026-06-01&to=2026-05-31", "to"), ("by=wins", "by"), ("by=", None),
    ("from=%00", "from"),
])
def test_bad_input_is_a_400_naming_the_field(client, query, field):
    page = client.get("/season?" + query)
    if field is None:  # empty: the default
        assert page.status_code == 200
        return
    assert page.status_code == 400
    body = page.get_data(as_text=True)
    if "%00" not in query:  # (a NUL is refused before the page, naming the field)
        assert f'data-season-error="{field}"' in body and f"“{field}”" in body
    export = client.get("/season.csv?" + query)  # each file answers in its own format
    assert export.status_code == 400 and export.mimetype == "text/plain"
    assert field in export.get_data(as_text=True)
    export = client.get("/season.json?" + query)
    assert export.status_code == 400 and export.mimetype == "application/json"
    if "%00" in query:  # refused before the view: the message names the field
        assert f"“{field}”" in export.get_json()["error"]
        return
    assert export.get_json() == {"field": field, "error": page_error(body)}
    assert client.get("/season.csv?" + query).get_data(as_text=True).startswith(
        f"{field}: ")


def test_the_exports_hold_the_ranking_list(client, history):
    page = standing(client.get(SEASON_2026))
    response = client.get("/season.csv?from=2026-01-01&to=2026-12-31")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert 'filename="season-2026-01-01-2026-12-31.csv"' in response.headers[
        "Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["place"], r["name"], r["matches"], r["won"], r["tied"], r["lost"],
             r["match_points"], r["victory_points"], r["points"]) for r in rows] == [
        ("1", "Bob", "4", "2", "1", "1", "5", "6", "415"),
        ("2", "Dee", "3", "1", "1", "1", "3", "6", "215"),
        ("3", "Ann", "4", "1", "1", "2", "3", "3", "485"),
        ("3", "Cy", "4", "1", "1", "2", "3", "3", "485"),
        ("5", "Eve", "1", "1", "0", "0", "2", "0", "200")]
    assert [r["name"] for r in rows] == [r[1] for r in page]
    data = json.loads(client.get("/season.json?from=2026-01-01&to=2026-12-31"
                                 "&by=victory_points").get_data(as_text=True))
    assert data["period"] == {"from": "2026-01-01", "to": "2026-12-31"}
    assert data["ranked_by"] == "victory_points"
    assert data["standing"][0] == {"place": 1, "name": "Bob", "matches": 4, "won": 2,
                                   "tied": 1, "lost": 1, "match_points": 5,
                                   "victory_points": 6, "points": 415, "hands": 7}
    body = client.get(SEASON_2026).get_data(as_text=True)
    assert "/season.csv?" in body and "/season.json?" in body and "data-print" in body
    assert "js/print.js" in body


def test_a_name_typed_in_another_case_is_the_same_player(app, client):
    won_by_a(app, client, ["Ann", "Bob", "Cy", "Dee"], datetime(2026, 2, 1))
    won_by_a(app, client, ["ANN", "bob", "Cy", "Dee"], datetime(2026, 2, 2))
    rows = standing(client.get(SEASON_2026))
    assert [r[1:4] for r in rows if r[1].casefold() == "ann"] == [["Ann", "2", "2"]]


def test_only_the_tables_this_device_joined_count(app, client, history):
    stranger = app.test_client()
    alone = stranger.get(SEASON_2026)
    assert standing(alone) == [] and "This phone has joined no table yet." in alone.get_data(
        as_text=True)
    won_by_a(app, stranger, ["Ann", "Zed", "Cy", "Yan"], datetime(2026, 4, 1))
    theirs = {r[1]: r for r in standing(stranger.get(SEASON_2026))}
    assert set(theirs) == {"Ann", "Zed", "Cy", "Yan"} and theirs["Ann"][2] == "1"
    ours = {r[1]: r for r in standing(client.get(SEASON_2026))}
    assert "Zed" not in ours and ours["Ann"][2] == "4"
    with app.app_context():
        keys = [g.key for g in db.session.execute(
            db.select(Group).order_by(Group.id)).scalars()]
    assert len(keys) == 2
    assert stranger.get(f"/season?table={keys[0]}").status_code == 404
    assert stranger.get(f"/season.csv?table={keys[0]}").status_code == 404
    one = standing(client.get(f"/season?table={keys[0]}&from=2026-01-01&to=2026-12-31"))
    assert {r[1] for r in one} == {"Ann", "Bob", "Cy", "Dee", "Eve"}
    table_page = client.get(f"/tables/{keys[0]}").get_data(as_text=True)
    assert f'href="/season?table={keys[0]}" data-season' in table_page
    assert 'href="/season" data-season' in client.get("/stats").get_data(as_text=True)


def test_a_tournaments_tables_count_with_their_victory_points(app, client):
    response = client.post("/tournaments/new", data={
        "name": "Club cup", "kind": "individual", "pairing": "swiss", "rounds": 1,
        "hands": 1, "entries": "Ann\nBob\nCy\nDee"})
    url = response.headers["Location"]
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    table = re.search(r'<li data-board="1"><a class="match-item" href="([^"]+)"', page)
    assert post_hand(client, table.group(1), hand_form([0, 2])).status_code == 303
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        assert match.finished and match.victory == [3, 0]
        winners = {s.player.name for s in match.seats if s.team == 0}
    rows = {r[1]: r for r in standing(client.get("/season"))}
    assert {n for n, r in rows.items() if r[6] == "3"} == winners
    assert all(rows[n][0] == "1" and rows[n][5] == "2" for n in winners)


def test_the_season_costs_one_statement_however_many_matches(app, client):
    """The sums are made in SQL: as many statements for 12 matches as for 2 (and the
    players' keys for the names' links read once)."""
    for day in (1, 2):
        won_by_a(app, client, ["Ann", "Bob", "Cy", "Dee"], datetime(2026, 3, day))
    few = queries_for(app, client, SEASON_2026)
    for day in range(3, 13):
        won_by_b(app, client, ["Ann", "Bob", "Cy", "Dee"], datetime(2026, 3, day))
    many = queries_for(app, client, SEASON_2026)
    assert len(many) == len(few) <= 6, many  # (two: the names' links, tables and keys)
    assert [r[1:4] for r in standing(client.get(SEASON_2026))][0] == ["Bob", "12", "10"]


def test_the_modules_examples_hold():
    """players/ is outside the doctest paths (pyproject.toml): its examples are run here."""
    import doctest

    from tichu_scorer.players import season
    result = doctest.testmod(season)
    assert result.attempted >= 4 and result.failed == 0


def test_a_table_not_joined_is_a_404_in_the_files_format(client):
    found = client.get("/season.json?table=nope")
    assert found.status_code == 404 and found.get_json()["error"]
    found = client.get("/season.csv?table=nope")
    assert found.status_code == 404 and found.mimetype == "text/plain"
    assert client.get("/season?table=nope").mimetype == "text/html"
