"""Hand entry through the form: saved hands, every refusal next to its field, nothing lost;
and the hidden numbers a form carries (`_form_int`), read directly in a request context."""

import pytest
from sqlalchemy import func
from werkzeug.exceptions import BadRequest

from tests.conftest import hand_form, make_app, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, Match
from tichu_scorer.views import hands


@pytest.fixture()
def url(client):
    return new_match(client)


def stored(app, url):
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        return m.totals, [(h.out_order, h.calls, h.card_points, h.team_scores)
                          for h in m.hands]


def test_form_page(client, url):
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert "Hand 1" in page and "Save hand" in page
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert name in page
    for label in ("Tichu", "Grand", "Mah Jong wish missed?", "Team A card points"):
        assert label in page


@pytest.mark.parametrize("data, totals, out, scores", [
    (hand_form([0, 1], a=75), [75, 25], [0, 1], [75, 25]),
    (hand_form([0, 1, 2], b=40), [60, 40], [0, 1, 2, 3], [60, 40]),
    (hand_form([1, 3], {"1": "grand"}), [0, 400], [1, 3], [0, 400]),
    (hand_form([2, 1], {"0": "tichu", "2": "tichu"}, a=50, b=50), [50, 50], [2, 1], [50, 50]),
    (hand_form([0], a=20, wish=2), [0, 200], [0], [0, 200]),
    (hand_form([], {"1": "tichu"}, wish=0), [0, 100], [], [0, 100]),
])
def test_saving_hands(client, app, url, data, totals, out, scores):
    r = post_hand(client, url, data)
    assert r.status_code == 303
    saved_totals, hands = stored(app, url)
    assert saved_totals == totals
    assert hands[0][0] == out and hands[0][3] == scores


@pytest.mark.parametrize("data, group, rule", [
    # one the form refuses, one scoring refuses; every refusal of each: tests/forms/,
    # tests/scoring/test_read.py
    ({"place_2": "1", "card_a": "50"}, "out_order", "H7"),
    (hand_form([0, 1], a=33), "card_points", "P1"),
])
def test_refusals_name_field_and_rule(client, app, url, data, group, rule):
    r = post_hand(client, url, data)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert f'data-problem="{group}"' in page
    assert f'href="/rules#{rule}">{rule}</a>' in page
    assert stored(app, url) == ([0, 0], [])


def test_every_problem_reported_at_once(client, url):
    r = post_hand(client, url, hand_form([0, 0], a=33, b=33))
    page = r.get_data(as_text=True)
    assert page.count('data-problem="card_points"') == 3
    assert page.count('data-problem="out_order"') == 1


def test_refused_form_keeps_what_was_entered(client, url):
    r = post_hand(client, url, hand_form([2, 1], {"3": "grand"}, a=33))
    page = r.get_data(as_text=True)
    assert 'value="33"' in page
    assert 'checked id="call_3-2" name="call_3" type="radio" value="grand"' in page
    assert '<option selected value="2">Cy</option>' in page


def test_hands_are_numbered_and_totals_run(client, app, url):
    for a in (40, 65, 10):
        post_hand(client, url, hand_form([0, 1], a=a))
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert [h.number for h in m.hands] == [1, 2, 3]
        assert m.totals == [115, 185] and m.hand_count == 3
    page = client.get(url).get_data(as_text=True)
    assert "Add hand 4" in page


def test_malformed_form_bodies_never_500(client, app, url):
    bad = [{"place_1": "x" * 5000}, {"call_0": ["tichu", "grand"]}, {"card_a": "1e9"},
           {"card_a": "99999999999999999999"}, {"wish_offender": "-1"}, {}]
    for data in bad:
        r = post_hand(client, url, data)
        assert r.status_code == 422
    r = client.post(url + "/hands/new", data=b"\xff" * 100,
                    content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400 and "not valid UTF-8" in r.get_data(as_text=True)
    # a JSON body is no form: read as the form reads it, it lacks the hand's number
    r = client.post(url + "/hands/new", json=hand_form(out=[0, 1], a=50) | {"number": "1"})
    assert r.status_code == 400 and "“number” is missing" in r.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(func.count()).select_from(Hand)) == 0


@pytest.mark.parametrize("data", [{"place_1": "\r"}, {"place_1": " ", "card_a": "50"},
                                  {"wish_offender": "\t", "place_1": "0"}])
def test_whitespace_selects_count_as_blank(client, url, data):
    assert post_hand(client, url, data).status_code == 422


def test_a_script_asking_for_json_reads_the_refusal_as_data(client, app):
    """The outbox replays a queued hand asking for JSON: a refusal comes back as each
    problem with its rule and field group (no page to pick apart), and nothing is stored."""
    url = new_match(client)
    json_accept = {"Accept": "application/json"}
    r = post_hand(client, url, hand_form(out=[0, 1], a=33), headers=json_accept)
    assert r.status_code == 422 and r.is_json
    assert {(e["rule"], e["group"]) for e in r.get_json()["errors"]} == {("P1", "card_points")}
    assert "multiple of 5" in r.get_json()["errors"][0]["message"]
    assert post_hand(client, url, hand_form(out=[0, 1], a=50)).status_code == 303
    r = post_hand(client, url, hand_form(out=[1, 0], a=50) | {"number": "1"},
                  headers=json_accept)
    assert r.status_code == 409 and r.get_json()["conflict"] is True
    assert r.get_json()["current"] == 2
    page = post_hand(client, url, hand_form(out=[0, 1], a=33))  # a page still gets the page
    assert page.status_code == 422 and "text/html" in page.content_type
    with app.app_context():
        assert db.session.scalar(db.select(func.count(Hand.id))) == 1


# --- the hidden numbers, read directly --------------------------------------------------

@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """One app for these tests, without tables: reading a form asks no database."""
    return make_app(tmp_path_factory.mktemp("hidden"))


@pytest.mark.parametrize("field, raw", [
    ("version", None), ("version", ""), ("version", "x"), ("version", "1.0"),
    ("version", "-1"), ("version", "１"), ("version", "9" * 30), ("version", str(10**30)),
    ("version", "99999999999999999999"), ("version", "1234567890"),
    ("number", None), ("number", ""), ("number", "three"), ("number", "0x3"),
    ("number", "4" * 12),
])
def test_a_missing_or_malformed_hidden_number_is_a_400_naming_its_field(plain, field, raw):
    with plain.test_request_context(method="POST", data={} if raw is None else {field: raw}):
        with pytest.raises(BadRequest) as caught:
            hands._form_int(field)
    assert f"The form field “{field}” is missing or not a whole number" in (
        caught.value.description)


@pytest.mark.parametrize("raw, number", [("1", 1), ("0", 0), ("999999999", 999_999_999)])
def test_a_hidden_number_of_up_to_nine_digits_is_read(plain, raw, number):
    with plain.test_request_context(method="POST", data={"version": raw}):
        assert hands._form_int("version") == number
