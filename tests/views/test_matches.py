"""Pages through the test client: new match, match page, history, rematch, refusals."""

import re

import pytest
from sqlalchemy import func

from tests.conftest import NAMES, hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, Match, Player


def test_empty_history(client):
    r = client.get("/")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "Start a match" in page and 'name="code"' in page  # a new phone: start or join
    assert client.post("/tables/new", data={"name": "Fridays"}).status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "No matches yet" in page and "Fridays" in page


def test_new_match_page_offers_known_names(client):
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    page = client.get("/matches/new").get_data(as_text=True)
    assert all(f'<option value="{n}">' in page for n in NAMES)


def test_players_are_reused_by_name(client, app):
    new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    new_match(client, ["  ann ", "BOB", "Eve", "Dee"])
    with app.app_context():
        assert db.session.scalar(db.select(func.count()).select_from(Player)) == 5


@pytest.mark.parametrize("target, custom, expected", [
    ("1000", "", 1000), ("500", "", 500), ("custom", "1500", 1500)])
def test_target(client, app, target, custom, expected):
    url = new_match(client, target=target, custom=custom)
    with app.app_context():
        assert db.session.get(Match, match_id(url)).target == expected


@pytest.mark.parametrize("data, message", [
    # one of the players, one of the target; every refusal: tests/forms/
    ({"seat_0": "Ann", "seat_1": "Bob", "seat_2": "ann", "seat_3": "Dee"},
     "“Ann” and “ann” are the same player (names match whatever their capitals); each "
     "seat needs a different player."),
    ({"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee", "target": "custom",
      "custom_target": "1234"}, "multiple of 50"),
    # a name that reads as another, or turns the names beside it around
    ({"seat_0": "Fritz", "seat_1": "Bob", "seat_2": "Fr\u200bitz", "seat_3": "Dee"},
     "holds a character that cannot be seen (U+200B)"),
    ({"seat_0": "Anne\u202e", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee"},
     "(U+202E)"),
    ({"seat_0": "Ann\x7f", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee"}, "(U+007F)"),
])
def test_new_match_refusals(client, app, data, message):
    r = client.post("/matches/new", data=data)
    assert r.status_code == 422
    assert message in r.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(func.count()).select_from(Match)) == 0


def test_match_page_shows_totals_hands_and_shuffler(client):
    url = new_match(client)
    post_hand(client, url, hand_form([1, 0], {"1": "tichu"}, a=30))
    page = client.get(url).get_data(as_text=True)
    assert 'data-total="0">30<' in page and 'data-total="1">170<' in page
    assert "<strong>Bob</strong> shuffles next" in page
    assert "Bob: Tichu ✓ made" in page


def test_unknown_match_is_404(client):
    assert client.get("/matches/999").status_code == 404
    assert client.get("/matches/999/hands/new").status_code == 404


def test_a_whole_match_to_1000_then_rematch(client, app):
    url = new_match(client)
    # Team A wins big hands: double victory with a Tichu (300) four times = 1200
    for n in range(1, 5):
        r = post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
        assert r.status_code == 303
        page = client.get(url).get_data(as_text=True)
        if n < 4:
            assert "wins!" not in page
    assert "Team A wins!" in page
    assert "Ann &amp; Cy won 1200 to 0 after 4 hands" in page
    # No more hands once the match is over ([E1])
    r = post_hand(client, url, hand_form([1, 3]))
    assert r.status_code == 422 and "E1" in r.get_data(as_text=True)
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert m.winner_team == 0 and m.finished_at is not None and m.totals == [1200, 0]
        assert db.session.scalar(db.select(func.count()).select_from(Hand)) == 4
    # History lists it with the winner
    history = client.get("/").get_data(as_text=True)
    assert "Won by Team A" in history and "4 hands" in history
    # Rematch: same players and seats, fresh totals
    r = client.post(url + "/rematch")
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Add hand 1" in page
    assert re.search(r"Ann &amp; Cy.*Bob &amp; Dee", page, re.S)


def test_history_newest_first(client):
    """Compared by the matches' links: a name's letters may also occur inside a random match
    key (a key with "P1" in it made the names' order look wrong once in 300 runs)."""
    older = new_match(client, ["P1", "P2", "P3", "P4"])
    newer = new_match(client, ["Q1", "Q2", "Q3", "Q4"])
    page = client.get("/").get_data(as_text=True)
    listed = page[page.index('class="match-list"'):]
    assert re.findall(r'class="match-item" href="([^"]+)"', listed) == [newer, older]


def test_rules_page_has_anchors(client):
    page = client.get("/rules").get_data(as_text=True)
    for rule in ("P1", "P4", "E1", "W2", "T6.6"):
        assert f'id="{rule}"' in page
    # players see the rules, not the rule book's note to the app's developers
    assert "should cite these ids" not in page and "Rules of Tichu" in page
    assert page.index("Rules of Tichu") < page.index('id="D1"')


def test_hostile_names_are_escaped(client):
    url = new_match(client, ["<script>x()</script>", "Bob", "Cy", "Dee"])
    for page in (client.get(url), client.get("/"), client.get(url + "/hands/new")):
        text = page.get_data(as_text=True)
        assert "<script>x()" not in text and "&lt;script&gt;" in text


def test_csrf_enabled_refuses_a_form_without_token(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    r = client.post("/matches/new", data={f"seat_{i}": n for i, n in enumerate(NAMES)})
    assert r.status_code == 400 and "CSRF" in r.get_data(as_text=True)
    page = client.get("/matches/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"csrf_token": token,
                                                              "target": "1000"}
    r = client.post("/matches/new", data=data)
    assert r.status_code == 303
    page = client.get(r.headers["Location"] + "/hands/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = post_hand(client, r.headers["Location"], hand_form([0, 1], a=50) | {"csrf_token": token})
    assert r.status_code == 303


def test_a_tie_at_the_target_says_why_play_goes_on(client):
    """[E2]: 500 : 500 with a target of 500 is no win; the page says so instead of leaving
    the table to wonder."""
    url = new_match(client, target="500")
    for out in ([0, 2], [1, 3], [0, 2], [1, 3]):  # four double victories: 400 : 400
        assert post_hand(client, url, hand_form(out=out)).status_code == 303
    assert "Tied at" not in client.get(url).get_data(as_text=True)
    for _ in range(2):  # 50 : 50 twice: 500 : 500
        assert post_hand(client, url, hand_form(out=[0, 1], a=50)).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "Tied at 500 at the top: play goes on until one side leads alone at or above 500." \
        in page
    assert "wins!" not in page
