"""The rulings of issue 11 through the web layer: the referee API ([H6], [W2]/[W5]), the
Threechu dummy's wish penalty refused by the score API and the hand form ([T3.3]), and the
Grand Seigneur push by place with its card strength ([GS5])."""

import html

import pytest

from tests.conftest import hand_form, match_id, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match

REFEREE = "/api/v1/referee/check"
SCORE = "/api/v1/score"
OWNED = [{"cards": ["4j"], "seat": 0}, {"cards": [], "seat": 1}, {"cards": [], "seat": 2},
         {"cards": [], "seat": 3}]


def start(client, variant, names, **extra):
    data = {"variant": variant} | {f"seat_{i}": n for i, n in enumerate(names)} | extra
    r = client.post("/matches/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


# --- the referee ---------------------------------------------------------------------------

@pytest.mark.parametrize("hand", [["8s", "Kj"], ["8s", "9j", "9s", "9p", "9t"]])
def test_h6_the_owner_gathers_with_the_wished_rank_in_hand(client, hand):
    r = client.post(REFEREE, json={"trick": OWNED, "play": [], "hand": hand, "wish": "8",
                                   "seat": 0})
    body = r.get_json()
    assert r.status_code == 200
    assert (body["legal"], body["rule"]) == (True, "H6")
    assert "fulfilling_play" not in body


def test_h6_the_owner_may_bomb_his_own_trick_without_the_wished_rank(client):
    r = client.post(REFEREE, json={"trick": OWNED, "play": ["9j", "9s", "9p", "9t"],
                                   "hand": ["8s", "9j", "9s", "9p", "9t"], "wish": "8",
                                   "seat": 0})
    assert (r.get_json()["legal"], r.get_json()["rule"]) == (True, "W5")


def test_h6_another_seat_still_owes_the_wish(client):
    r = client.post(REFEREE, json={"trick": OWNED, "play": [], "hand": ["8s", "Kj"],
                                   "wish": "8", "seat": 2})
    body = r.get_json()
    assert (body["legal"], body["rule"], body["fulfilling_play"]) == (False, "W2", ["8s"])


def test_w2_leading_a_bomb_while_holding_the_wished_rank(client):
    r = client.post(REFEREE, json={"play": ["9j", "9s", "9p", "9t"], "wish": "8",
                                   "hand": ["8s", "9j", "9s", "9p", "9t"]})
    body = r.get_json()
    assert (body["legal"], body["rule"], body["fulfilling_play"]) == (False, "W2", ["8s"])
    assert body["combination"]["kind"] == "bomb" and "W5" in body["reason"]
    again = client.post(REFEREE, json={"play": body["fulfilling_play"], "wish": "8",
                                       "hand": ["8s", "9j", "9s", "9p", "9t"]}).get_json()
    assert (again["legal"], again["rule"]) == (True, "W1")


# --- [T3.3] no wish penalty on the Threechu dummy ------------------------------------------

@pytest.mark.parametrize("offender, status", [(1, 422), (3, 200), (0, 200)])
def test_t3_3_score_api_refuses_a_wish_penalty_on_the_dummy(client, offender, status):
    r = client.post(SCORE, json={"variant": "threechu", "dummy": 1, "out_order": [0, 2],
                                 "card_points": [None, None],
                                 "wish_penalty": {"offender": offender}})
    assert r.status_code == status
    if status == 422:
        errors = r.get_json()["errors"]
        assert [(e["field"], e["rule"]) for e in errors] == [("wish_penalty.offender",
                                                             "T3.3")]
    else:
        assert r.get_json()["team_scores"].count(200) == 1


def test_t3_3_hand_form_refuses_a_wish_penalty_on_the_dummy(client, app):
    url = start(client, "threechu", ["Tom", "Uma", "Vic"], length="hands", hands="3")
    r = post_hand(client, url, hand_form([1, 0], a=50, wish=3))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'href="/rules#T3.3">T3.3</a>' in page
    assert "The dummy never has to fulfil the wish." in page
    with app.app_context():
        assert db.session.get(Match, match_id(url)).hand_count == 0
    r = post_hand(client, url, hand_form([1, 0], a=50, wish=1))
    assert r.status_code == 303  # a player's own wish penalty is still scored ([P4])


# --- [GS5] the push by place ----------------------------------------------------------------

def test_gs5_pushes_by_place_with_eight_players(client):
    names = [f"G{i}" for i in range(1, 9)]
    url = start(client, "seigneur", names)
    order = {f"place_{i + 1}": str(s) for i, s in enumerate([3, 1, 0, 7, 6, 5, 2])}
    assert post_hand(client, url, order).status_code == 303
    page = client.get(url).get_data(as_text=True)
    # places 8, 7, 6 push 3, 2, 1 cards to places 1, 2, 3
    assert "<strong>G5</strong> (Wretch) pushes 3 best cards to <strong>G4</strong>" in page
    assert "<strong>G3</strong> (Petty Pauper) pushes 2 best cards to <strong>G2</strong>" \
        in page
    assert "<strong>G6</strong> (Pauper) pushes 1 best card to <strong>G1</strong>" in page
    assert page.count("best card") == 3
    assert "Card strength: Dragon > Phoenix > Mah Jong > A > … > 2." in html.unescape(page)


def test_gs5_twelve_players_the_tenth_pushes_one(client):
    names = [f"P{i}" for i in range(12)]
    url = start(client, "seigneur", names)
    order = {f"place_{i + 1}": str(i) for i in range(11)}
    assert post_hand(client, url, order).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "<strong>P11</strong> (Wretch) pushes 3 best cards to <strong>P0</strong>" in page
    assert "<strong>P10</strong> (Beggar) pushes 2 best cards to <strong>P1</strong>" in page
    assert "<strong>P9</strong> (Petty Pauper) pushes 1 best card to <strong>P2</strong>" \
        in page
    seating = page[page.index('class="ranking-list seating"'):]
    shown = [seating.index(f"<strong>{t}</strong>") for t in
             ("Great Lord", "Lord", "Squire", "Knight", "Grand Burgher", "Burgher",
              "Petty Burgher", "Grand Pauper", "Pauper", "Petty Pauper", "Beggar", "Wretch")]
    assert shown == sorted(shown)
