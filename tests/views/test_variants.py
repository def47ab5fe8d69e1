"""Threechu, Tientsin and Grand Seigneur end to end through the test client."""

import pytest

from tests.conftest import hand_form, match_id, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


def start(client, variant, names, **extra):
    data = {"variant": variant} | {f"seat_{i}": n for i, n in enumerate(names)} | extra
    r = client.post("/matches/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


@pytest.mark.parametrize("variant", ["nanking", "threechu", "tientsin", "seigneur"])
def test_new_match_page_for_each_variant(client, variant):
    page = client.get(f"/matches/new?variant={variant}").get_data(as_text=True)
    assert f'name="variant" value="{variant}"' in page
    assert 'aria-current="page"' in page


@pytest.mark.parametrize("variant, names, rule", [
    ("threechu", ["A", "B"], "T3.1"), ("threechu", ["A", "B", "C", "D"], "T3.1"),
    ("tientsin", ["A", "B", "C", "D", "E"], "T6.1"), ("seigneur", ["A", "B", "C", "D"], "GS1"),
    ("seigneur", [f"P{i}" for i in range(13)][:12] + [], None),
])
def test_player_counts(client, variant, names, rule):
    data = {"variant": variant, "target": "1000", "length": "hands", "hands": "9"}
    data |= {f"seat_{i}": n for i, n in enumerate(names)}
    r = client.post("/matches/new", data=data)
    if rule is None:
        assert r.status_code == 303
    else:
        assert r.status_code == 422 and f'href="/rules#{rule}">{rule}</a>' in \
            r.get_data(as_text=True)


def test_threechu_match(client, app):
    url = start(client, "threechu", ["Tom", "Uma", "Vic"], length="hands", hands="3")
    page = client.get(url).get_data(as_text=True)
    assert "<strong>Tom</strong> shuffles and plays the dummy this hand" in page
    assert "Dummy" in page
    # hand 1: Tom shuffles; the dummy (seat 3) calls Tichu and goes out first
    r = post_hand(client, url, hand_form([3, 1], {"3": "tichu"}, a=50))
    assert r.status_code == 303
    # hand 2: Uma shuffles, so she may not call Grand Tichu (T3.3)
    r = post_hand(client, url, hand_form([0, 2], {"1": "grand"}))
    assert r.status_code == 422 and "T3.3" in r.get_data(as_text=True)
    r = post_hand(client, url, hand_form([0, 2], {"0": "grand"}))
    assert r.status_code == 303  # Tom and Vic double victory, Tom's Grand made
    r = post_hand(client, url, hand_form([2, 0], a=25))
    assert r.status_code == 303
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert [h.shuffler for h in m.hands] == [0, 1, 2]
        # hand 1: Tom+dummy 150/others 50; hand 2: Tom, Vic 400, Uma+dummy 0;
        # hand 3: Vic (shuffler)+dummy 25, Tom and Uma 75
        assert m.totals == [150 + 400 + 75, 50 + 0 + 75, 50 + 400 + 25, 150 + 0 + 25]
        assert m.finished_at is not None and m.winner_team == 0
    page = client.get(url).get_data(as_text=True)
    assert "Tom wins!" in page and "Rematch" in page
    r = post_hand(client, url, hand_form([2, 0], a=25))
    assert r.status_code == 422 and "E1" in r.get_data(as_text=True)
    assert "Won by Tom" in client.get("/").get_data(as_text=True)


def test_threechu_to_a_target(client, app):
    url = start(client, "threechu", ["Tom", "Uma", "Vic"], length="target", target="500")
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert (m.target, m.hand_limit) == (500, None)


def test_tientsin_match(client, app):
    url = start(client, "tientsin", ["A1", "B1", "A2", "B2", "A3", "B3"], target="500")
    r = post_hand(client, url, hand_form([0, 2, 4], {"0": "tichu"}))
    assert r.status_code == 303
    r = post_hand(client, url, hand_form([1, 3, 0], a=50, b=50))
    assert r.status_code == 303  # partners first and second: no bonus in Tientsin
    page = client.get(url).get_data(as_text=True)
    assert "Triple victory" in page and "A1 &amp; A2 &amp; A3" in page
    with app.app_context():
        assert db.session.get(Match, match_id(url)).totals == [450, 50]
    r = post_hand(client, url, hand_form([0, 1], {"5": "grand"}, a=60))
    assert r.status_code == 303
    assert "Team A wins!" in client.get(url).get_data(as_text=True)


def test_seigneur_match(client, app):
    names = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]
    url = start(client, "seigneur", names)
    page = client.get(url).get_data(as_text=True)
    assert "two decks" in page and "without pushing" in page
    order = {f"place_{i + 1}": str(s) for i, s in enumerate([3, 1, 0, 7, 6, 5, 2])}
    assert post_hand(client, url, order).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "<strong>Great Lord</strong>: G4" in page and "<strong>Wretch</strong>: G5" in page
    assert "<strong>G5</strong> (Wretch) pushes 3 best cards to <strong>G4</strong>" in page
    assert "<strong>G3</strong> (Petty Pauper) pushes 2 best cards to <strong>G2</strong>" in page
    assert "<strong>G6</strong> (Pauper) pushes 1 best card to <strong>G1</strong>" in page
    bad = {"place_1": "3", "place_2": "3"}
    r = post_hand(client, url, bad)
    assert r.status_code == 422 and "GS1" in r.get_data(as_text=True)
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert m.hand_count == 1 and m.hands[0].out_order == [3, 1, 0, 7, 6, 5, 2, 4]


def test_seigneur_hand_page(client):
    url = start(client, "seigneur", ["A", "B", "C", "D", "E"])
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert "Finishing order" in page and "Great Lord" in page and "Grand Tichu" not in page


def test_preview_for_each_variant(client):
    url = start(client, "tientsin", ["A1", "B1", "A2", "B2", "A3", "B3"])
    r = client.post(url + "/hands/preview", json={"out_order": [1, 3, 5], "calls": {}})
    assert r.get_json() == {"scores": [0, 300], "totals": [0, 300], "sweep": True,
                            "winner": None, "finished": False, "derived": {
                                "out_order": [1, 3, 5], "sweep_team": 1,
                                "card_points": [0, 300],
                                "note": "B1 & B2 & B3: Triple victory, 300 to 0; no card "
                                        "points counted."}}
    r = client.post(url + "/hands/preview", json={"out_order": [1, 3], "card_points": [33, None]})
    assert r.status_code == 422 and r.get_json()["errors"][0]["rule"] == "P1"
    assert r.get_json()["errors"][0]["group"] == "card_points"
    assert r.get_json()["derived"]["card_points"] == [33, None]  # 33 is no figure to follow


def test_preview_says_what_follows_from_the_hand(client):
    """The page holds no rule: the server derives the tailender, the other team's card
    points (from the figure the player typed) and groups each problem by its field."""
    url = start(client, "nanking", ["Ann", "Bob", "Cy", "Dee"])
    r = client.post(url + "/hands/preview", json={"out_order": [1, 0, 3],
                                                   "card_points": [None, 35]})
    assert r.status_code == 200
    assert r.get_json()["derived"] == {"out_order": [1, 0, 3, 2], "sweep_team": None,
                                       "card_points": [65, 35]}
    r = client.post(url + "/hands/preview", json={"out_order": [1], "card_points": [None, 130],
                                                   "calls": {"2": "grand"}})
    errors = r.get_json()["errors"]
    assert r.status_code == 422
    assert [(e["field"], e["group"]) for e in errors] == [("card_points.1", "card_points")]
    assert "Team B" in errors[0]["message"]  # the team the player typed, not the other one
    r = client.post(url + "/hands/preview", json={"out_order": [1], "calls": {"7": "tichu"},
                                                   "card_points": [50, None]})
    assert {(e["field"], e["group"]) for e in r.get_json()["errors"]} == {("calls.7", "call_7")}
    assert client.post(url + "/hands/preview", data=b"{").status_code == 400
