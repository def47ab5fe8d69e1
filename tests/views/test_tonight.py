"""The evening at a table (`tichu_scorer/tables/evenings.py`, /tables/<key>/tonight): tonight's
matches added up per player and partnership; with five or six players, who plays the next
four-player match and who sits out (fewest played first, partners changing), started with
one tap; a match older than the evening is not counted; a viewer sees the standing only."""

import html
import re
from datetime import timedelta

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match
from tichu_scorer.tables import evenings


def words(response):
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(
        response.get_data(as_text=True))).split())


def table_key(app):
    with app.app_context():
        return db.session.query(Group).one().key


def rows(response, kind):
    """The standing's rows of `kind` (players, pairs) as lists of cell texts."""
    body = html.unescape(response.get_data(as_text=True))
    table = re.search(rf'data-tonight="{kind}">(.*?)</table>', body, re.S).group(1)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
            for r in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)]


def test_tonight_adds_up_the_matches_and_says_who_plays_next(app, client):
    first = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    assert post_hand(client, first, hand_form([1, 0], a=30)).status_code == 303  # 30 : 70
    second = new_match(client, ["Eve", "Ann", "Bob", "Cy"])
    assert post_hand(client, second, hand_form([0, 2])).status_code == 303  # Eve & Bob 200
    key = table_key(app)
    page = client.get(f"/tables/{key}/tonight")
    assert page.status_code == 200
    assert rows(page, "players")[:2] == [["Bob", "2", "0", "270"], ["Eve", "1", "0", "200"]]
    assert ["Bob & Dee", "1", "0", "70"] in rows(page, "pairs")
    text = words(page)
    # everyone who played tonight is here: Dee and Eve played once, Ann, Bob and Cy twice
    following = evenings.next_match(["Ann", "Bob", "Cy", "Dee", "Eve"], [
        evenings.Evening.Match(("Ann", "Bob", "Cy", "Dee"), ((0, 2), (1, 3)), (30, 70), None),
        evenings.Evening.Match(("Eve", "Ann", "Bob", "Cy"), ((0, 2), (1, 3)), (200, 0), None)])
    assert following.sitting_out == ("Cy",)  # played twice, and last listed of those
    assert f"Sitting out: {following.sitting_out[0]}" in text
    assert "Dee" in following.seats and "Eve" in following.seats


def test_one_tap_starts_the_next_match_with_those_seats(app, client):
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    key = table_key(app)
    page = html.unescape(client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "Dee", "Eve"]}).get_data(as_text=True))
    form = re.search(r'<form method="post" action="/matches/new">(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
    assert "Eve" in {fields[f"seat_{i}"] for i in range(4)}  # new tonight: plays first
    r = client.post("/matches/new", data=fields)
    assert r.status_code == 303
    with app.app_context():
        started = db.session.get(Match, match_id(r.headers["Location"]))
        assert list(started.player_names) == [fields[f"seat_{i}"] for i in range(4)]
        assert started.group.key == key


def test_who_is_here_decides_and_a_name_too_long_is_left_out(app, client):
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    key = table_key(app)
    page = words(client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "x" * 41, ""]}))
    assert "Next match" not in page  # three players: no match of four
    page = words(client.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "Dee"]}))
    assert "Next match" in page and "Sitting out" not in page


def test_an_older_match_is_not_tonight_and_a_viewer_sees_no_rotation(app, client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        match = db.session.get(Match, match_id(url))
        match.started_at -= timedelta(hours=13)
        invite = match.group.invite_code
        db.session.commit()
    key = table_key(app)
    assert "No match at this table in the last 12 hours." in words(
        client.get(f"/tables/{key}/tonight"))
    viewer = app.test_client()
    assert viewer.get(f"/join?code={invite}").status_code == 303
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    page = words(viewer.get(f"/tables/{key}/tonight", query_string={
        "here": ["Ann", "Bob", "Cy", "Dee"]}))
    assert "Players tonight" in page and "Next match" not in page
    assert app.test_client().get(f"/tables/{key}/tonight").status_code == 404
