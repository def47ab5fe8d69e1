"""Tonight's fairest partnerships (`tables/fair_evening.py` on /tables/<key>/tonight): from
the table's ratings, each side's chance shown, one tap starts the match with those
partners; a viewer sees none."""

import html
import re

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_ratings_page import won_match
from tests.views.test_tonight import table_key
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


def fair_tables(page):
    """Each suggested table: its variant, its chances as shown and its form's fields."""
    body = html.unescape(page.get_data(as_text=True))
    found = []
    for variant, block in re.findall(
            r'data-fair-table data-variant="(\w+)">(.*?)</form>', body, re.S):
        found.append((variant, re.findall(r"data-chance>([^<]+)<", block),
                      dict(re.findall(r'name="([^"]+)" value="([^"]*)"', block))))
    return found


def test_a_winning_pair_is_parted_and_one_tap_starts_that_match(app, client):
    for _ in range(3):
        won_match(client)  # Ann & Cy beat Bob & Dee three times
    key = table_key(app)
    page = client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "Dee"]})
    [(variant, shown, fields)] = fair_tables(page)
    assert variant == "nanking" and "Fairest partnerships" in page.get_data(as_text=True)
    seats = [fields[f"seat_{i}"] for i in range(4)]
    assert sorted(seats) == ["Ann", "Bob", "Cy", "Dee"]
    assert {seats[0], seats[2]} != {"Ann", "Cy"} and {seats[1], seats[3]} != {"Ann", "Cy"}
    percents = [int(s.rstrip("%")) for s in shown]
    assert sum(percents) == 100 and all(35 <= p <= 65 for p in percents)
    assert fields["table"] == key and fields["variant"] == "nanking"
    started = client.post("/matches/new", data=fields)
    assert started.status_code == 303
    with app.app_context():
        match = db.session.get(Match, match_id(started.headers["Location"]))
        assert list(match.names) == seats and match.group.key == key


def test_eight_make_two_tables_six_also_tientsin_and_the_rest_sit_out(app, client):
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    key = table_key(app)
    eight = fair_tables(client.get(f"/tables/{key}/tonight", query_string={
        "here": list("ABCDEFGH")}))
    assert [v for v, *_ in eight] == ["nanking", "nanking"]
    assert sorted(f[f"seat_{i}"] for *_x, f in eight for i in range(4)) == list("ABCDEFGH")
    six = client.get(f"/tables/{key}/tonight", query_string={"here": list("ABCDEF")})
    tables = fair_tables(six)
    assert [v for v, *_ in tables] == ["nanking", "tientsin"]
    tientsin = tables[1][2]
    assert sorted(tientsin[f"seat_{i}"] for i in range(6)) == list("ABCDEF")
    started = client.post("/matches/new", data=tientsin)
    assert started.status_code == 303, started.get_data(as_text=True)
    assert "Sitting out:" in six.get_data(as_text=True)


def test_fewer_than_four_or_a_viewer_get_no_suggestion(app, client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    key = table_key(app)
    three = client.get(f"/tables/{key}/tonight", query_string={"here": ["Ann", "Bob", "Cy"]})
    assert "data-fair" not in three.get_data(as_text=True)
    with app.app_context():
        invite = db.session.get(Match, match_id(url)).group.invite_code
    viewer = app.test_client()
    assert viewer.get(f"/join?code={invite}").status_code == 303
    page = viewer.get(f"/tables/{key}/tonight", query_string={"here": list("ABCD")})
    assert page.status_code == 200 and "data-fair" not in page.get_data(as_text=True)


def chance_line(client, url):
    body = html.unescape(client.get(url).get_data(as_text=True))
    found = re.search(r"<p class=\"hint\" data-chances>(.*?)</p>", body, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else None


def test_a_new_match_shows_each_sides_chance_until_its_first_hand(app, client):
    won_match(client)
    won_match(client)
    favoured = new_match(client, ["Ann", "Bob", "Cy", "Dee"])  # the winners together again
    line = chance_line(client, favoured)
    a, b = (int(p) for p in re.findall(r"(\d+)\s?%", line))
    assert line.startswith("Chance to win, by the ratings: Team A") and a > 50 > b
    assert a + b == 100
    with app.app_context():
        invite = db.session.get(Match, match_id(favoured)).group.invite_code
    viewer = app.test_client()
    assert viewer.get(f"/join?code={invite}").status_code == 303
    assert chance_line(viewer, favoured) is None  # the ratings stay with the scorers
    assert post_hand(client, favoured, hand_form([0, 2])).status_code == 303
    assert chance_line(client, favoured) is None  # quiet once a hand is in
    client.set_cookie("lang", "de")
    even = new_match(client, ["Ann", "Bob", "Dee", "Cy"])  # a winner and a loser each side
    assert re.fullmatch(r"Gewinnchance laut Wertungen: Team A \d+ % · Team B \d+ %",
                        chance_line(client, even).replace("\xa0", " "))
    three = client.post("/matches/new", data={"variant": "threechu", "seat_0": "Ann",
                                              "seat_1": "Bob", "seat_2": "Cy",
                                              "length": "hands", "hands": "3"})
    assert chance_line(client, three.headers["Location"]) is None  # three sides: no line


def test_no_chance_line_when_nobody_at_the_match_is_rated(app, client):
    first = new_match(client, ["Ann", "Bob", "Cy", "Dee"])  # nobody at the table has finished
    assert chance_line(client, first) is None  # a match yet: not "50 % · 50 %"
    won_match(client)
    strangers = new_match(client, ["Eve", "Fay", "Gus", "Hal"])  # rated players elsewhere
    assert chance_line(client, strangers) is None
    one_rated = new_match(client, ["Ann", "Fay", "Gus", "Hal"])
    assert chance_line(client, one_rated).startswith("Chance to win, by the ratings:")
