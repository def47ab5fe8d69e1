"""Watch codes (`tichu_scorer/tables/watching.py`, /w/<code>): a table's board (a
tournament's standing) or its evening opens read-only on a screen that never joined the
table, live, and nothing else of the table; only the table's scorers see the code; a wrong
code is a 404; rotating the table's links revokes it."""

import html
import re

import pytest

from tests.conftest import hand_form, new_match, post_hand
from tests.views.test_live import ask, watched
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match, Tournament
from tichu_scorer.tables import codes


def start(client, names, rounds=2, hands=2):
    response = client.post("/tournaments/new", data={
        "name": "Club cup", "kind": "individual", "pairing": "swiss", "rounds": rounds,
        "hands": hands, "entries": "\n".join(names)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def shown_code(page: str) -> str:
    """The watch code a page shows (its scorers'), as stored."""
    found = re.search(r'data-watch-code>.*?data-code="([^"]+)"', page, re.S)
    assert found, "the page shows no watch code"
    return found.group(1)


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(
        response.get_data(as_text=True))).split())


@pytest.fixture()
def cup(app, client):
    """A tournament of four with its first round drawn: (page url, its table's match url,
    its table's key, the watch code its page shows)."""
    url = start(client, ["Ann", "Bob", "Cy", "Dee"])
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    match_url = re.search(r'<li data-board="1"><a class="match-item" href="([^"]+)"',
                          page).group(1)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        group_key, stored = tournament.group.key, tournament.group.watch_code
    code = shown_code(page)
    assert code == stored and len(code) == codes.WATCH_LENGTH
    assert '<div class="qr-box"><svg' in page.split("data-watch-code")[1]
    return url, match_url, group_key, code


def test_the_code_opens_the_board_read_only_and_live_on_a_screen_that_never_joined(
        app, client, cup):
    url, match_url, group_key, code = cup
    screen = app.test_client()
    assert screen.get(url + "/board").status_code == 404  # the club's TV today
    board = screen.get(f"/w/{code}")
    assert board.status_code == 200 and board.headers["Cache-Control"] == "no-store"
    body = board.get_data(as_text=True)
    assert "data-standing" in body and "data-watching" in body and "Club cup" in body
    assert "Table 1" in text(board) and "Back to the tournament" not in body
    assert "/matches/" not in body and f"/tournaments/{url.rsplit('/', 1)[1]}" not in body
    assert "csrf_token" not in body and "data-watch-code" not in body
    # live: the screen polls without a session and sees a hand saved at the table
    path, tag = watched(body)
    assert ask(screen, path, tag).status_code == 304
    assert post_hand(client, match_url, hand_form([0, 1], a=60)).status_code == 303
    assert ask(screen, path, tag).status_code == 200
    again = screen.get(f"/w/{code}")
    assert re.search(r"1 of 2 hands · (\d+) : (\d+)", text(again)), text(again)


def test_the_code_opens_nothing_else(app, client, cup):
    url, match_url, group_key, code = cup
    screen = app.test_client()
    assert screen.get(f"/w/{code}").status_code == 200
    key = url.rsplit("/", 1)[1]
    for other in (url, url + "/board", f"/tournaments/{key}/standing.csv", match_url,
                  match_url + "/log", match_url + "/export.json", f"/tables/{group_key}",
                  f"/tables/{group_key}/tonight"):
        assert screen.get(other).status_code == 404, other
    assert screen.post(match_url + "/hands/new", data=hand_form([0, 1], a=60)).status_code in (
        403, 404)
    assert "Club cup" not in screen.get("/stats").get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(db.select(Match)).scalars().first().hand_count == 0


@pytest.mark.parametrize("typed", ["", "X", "0000000000", "ABCDEFGHJK", "not-a-code",
                                   "A" * 41, "ABCDEFGH"])
def test_a_wrong_code_is_a_404(app, client, cup, typed):
    url, match_url, group_key, code = cup
    screen = app.test_client()
    if typed:
        assert screen.get(f"/w/{typed}").status_code == 404
    with app.app_context():
        group = db.session.execute(db.select(Group).filter_by(key=group_key)).scalar_one()
        invite, match_code = group.invite_code, db.session.execute(
            db.select(Match.code)).scalars().first()
    for other_code in (invite, match_code, code[:-1], code + "A"):
        assert screen.get(f"/w/{other_code}").status_code == 404


def test_the_code_is_read_as_typed_and_through_join(app, client, cup):
    code = cup[3]
    screen = app.test_client()
    dashed = "-".join(codes.shown(code).lower().split())
    assert screen.get(f"/w/{dashed}").status_code == 200
    joined = screen.get("/join", query_string={"code": codes.shown(code)})
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/w/{code}")
    unknown = screen.get("/join", query_string={"code": "ABCD EFGH JK"})
    assert unknown.status_code == 303 and screen.get(unknown.headers["Location"]).status_code == 404


def test_rotating_the_tables_links_revokes_the_code(app, client, cup):
    url, match_url, group_key, code = cup
    screen = app.test_client()
    board = screen.get(f"/w/{code}")
    assert board.status_code == 200
    body = board.get_data(as_text=True)
    assert 'data-gone="This screen no longer updates: its code was replaced' in body
    assert "data-gone" not in client.get(url + "/board").get_data(as_text=True)  # by key
    path, tag = watched(body)
    assert ask(screen, path, tag).status_code == 304
    assert client.post(f"/tables/{group_key}/rotate").status_code == 303
    # the screen is told that something changed (no hand was saved), so it reads the page
    # again, and learns the code is gone (live.js says so: `data-gone`)
    assert ask(screen, path, tag).status_code == 200
    assert screen.get(f"/w/{code}").status_code == 404
    fresh = shown_code(client.get(url).get_data(as_text=True))
    assert fresh != code and screen.get(f"/w/{fresh}").status_code == 200


def test_tonight_opens_by_its_code_for_the_tables_scorers_only(app, client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        key, invite = group.key, group.invite_code
    page = client.get(f"/tables/{key}/tonight").get_data(as_text=True)
    code = shown_code(page)
    member = app.test_client()
    assert member.get(f"/join?code={invite}").status_code == 303
    seen = member.get(f"/tables/{key}/tonight")
    assert seen.status_code == 200 and "data-watch-code" not in seen.get_data(as_text=True)
    screen = app.test_client()
    tonight = screen.get(f"/w/{code}")
    body = tonight.get_data(as_text=True)
    assert tonight.status_code == 200 and "data-watching" in body
    assert "Ann, Bob, Cy, Dee" in text(tonight) and "/matches/" not in body
    path, tag = watched(body)
    assert post_hand(client, url, hand_form([1, 0], a=30)).status_code == 303  # 30 : 70
    assert ask(screen, path, tag).status_code == 200
    rows = re.findall(r'<tr data-name="([^"]+)"><th scope="row">[^<]*</th><td>(\d+)</td>'
                      r'<td>(\d+)</td><td>(-?\d+)</td>', screen.get(f"/w/{code}").get_data(
                          as_text=True))
    assert rows[:2] == [("Bob", "1", "0", "70"), ("Dee", "1", "0", "70")]
    assert screen.get(f"/tables/{key}/tonight").status_code == 404
    assert screen.get(url).status_code == 404


def test_a_screen_is_given_no_right_in_its_session(app, client, cup):
    code = cup[3]
    screen = app.test_client()
    assert screen.get(f"/w/{code}").status_code == 200
    cookie = screen.get_cookie("session")
    if cookie is not None:  # (a session may hold the CSRF secret; never a table or match)
        data = app.session_interface.get_signing_serializer(app).loads(cookie.value)
        assert not set(data) & {"tables", "viewer_of", "scorer_of"}, data


def test_only_the_tables_scorers_see_the_code(app, client, cup):
    url, match_url, group_key, code = cup
    with app.app_context():
        invite = db.session.execute(db.select(Group.invite_code).filter_by(
            key=group_key)).scalar_one()
    member = app.test_client()
    assert member.get(f"/join?code={invite}").status_code == 303
    page = member.get(url)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "data-watch-code" not in body and code not in body


def test_tables_stored_before_get_a_watch_code_each(tmp_path):
    """Migration 4645ea61082c: each table stored before watch codes gets one of its own,
    which opens its page; a downgrade drops the column."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect, text

    from tests.conftest import make_app
    app = make_app(tmp_path)
    with app.app_context():
        upgrade(revision="b2d4f6a8c013")
        with db.engine.begin() as conn:
            for n in (1, 2):
                conn.execute(text(
                    "INSERT INTO tichu_group (id, key, name, invite_code, scorer_key, "
                    "generation, created_at) VALUES (:i, :k, 'T', :c, :s, 1, '2026-01-01')"),
                    {"i": n, "k": f"KEY{n}", "c": f"INVITE{n}", "s": f"SK{n}"})
        upgrade(revision="4645ea61082c")
        with db.engine.connect() as conn:
            made = conn.execute(text("SELECT watch_code FROM tichu_group")).scalars().all()
        assert len(set(made)) == 2 and all(codes.is_code(c, codes.WATCH_LENGTH) for c in made)
        downgrade(revision="b2d4f6a8c013")
        with db.engine.connect() as conn:
            columns = [c["name"] for c in inspect(conn).get_columns("tichu_group")]
        assert "watch_code" not in columns
        upgrade()  # (to the head: the app's models may name columns of later revisions)
        with db.engine.connect() as conn:
            made = conn.execute(text("SELECT watch_code FROM tichu_group")).scalars().all()
    assert app.test_client().get(f"/w/{made[0]}").status_code == 200
