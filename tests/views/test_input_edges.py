"""Edges of input parsing found by an attacker's test: a form field sent twice, seat keys
that are not the API's, huge numbers in JSON, a form body that is not UTF-8. Each gets a
4xx naming the field (and the rule, where one applies), never a silent first value or a 500."""

import functools
import html
import re

import pytest

from tests.conftest import hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db

FORM = "application/x-www-form-urlencoded"


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def problems_of(response) -> list[str]:
    """The problems a re-rendered form shows, each as "message rule"."""
    found = re.findall(r'<p class="problem" role="alert" data-problem="[^"]*">(.*?)</p>',
                       text_of(response), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", p).split()) for p in found]


def hands_saved(client, url) -> int:
    return client.get(url + "/revision").get_json()["hands"]


@pytest.fixture()
def url(client):
    return new_match(client)


# --- 1. a form field sent twice -------------------------------------------------------


@pytest.mark.parametrize("body, field, rule", [  # every field: tests/forms/
    ("place_1=0&place_2=1&card_a=50&card_a=30", "card_a", "P1"),
])
def test_a_hand_field_sent_twice_is_refused_on_the_form(client, url, body, field, rule):
    r = client.post(url + "/hands/new", data=body + "&number=1", content_type=FORM)
    assert r.status_code == 422, text_of(r)[-800:]
    shown = [p for p in problems_of(r) if field in p]
    assert shown and shown[0].endswith(rule), problems_of(r)
    assert "more than once" in shown[0]
    assert 'id="hand-form"' in text_of(r)  # the form again, to fix and send
    assert hands_saved(client, url) == 0


def test_a_hand_field_sent_twice_is_refused_as_json_for_a_script(client, url):
    r = client.post(url + "/hands/new", data="place_1=0&place_2=1&card_a=50&card_a=30&number=1",
                    content_type=FORM, headers={"Accept": "application/json"})
    assert r.status_code == 422
    assert [(e["field"], e["rule"], e["group"]) for e in r.get_json()["errors"]] == [
        ("card_a", "P1", "card_points")]
    assert hands_saved(client, url) == 0


def test_an_edited_hand_field_sent_twice_is_refused(client, url):
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    r = client.post(url + "/hands/1/edit", content_type=FORM,
                    data="place_1=1&place_2=0&card_b=40&card_b=60&version=1")
    assert r.status_code == 422
    assert any("card_b" in p and p.endswith("P1") for p in problems_of(r)), problems_of(r)
    assert client.get(url + "/revision").get_json()["hands"] == 1
    assert "50" in text_of(client.get(url))  # unchanged


@pytest.mark.parametrize("field", ["number", "client_id"])
def test_a_hidden_hand_field_sent_twice_is_a_400_naming_it(client, url, field):
    values = {"number": ("1", "2"), "client_id": ("abc", "def")}[field]
    body = "place_1=0&place_2=1&card_a=50&" + "&".join(f"{field}={v}" for v in values)
    if field != "number":
        body += "&number=1"
    r = client.post(url + "/hands/new", data=body, content_type=FORM)
    assert r.status_code == 400
    assert f"“{field}”" in text_of(r) and "more than once" in text_of(r)
    assert hands_saved(client, url) == 0


def test_the_other_hidden_fields_sent_twice_are_refused(client, url):
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303
    r = client.post(url + "/hands/1/delete", data="version=1&version=1", content_type=FORM)
    assert r.status_code == 400 and "“version”" in text_of(r)
    r = client.post(url + "/undo", data="number=1&number=1", content_type=FORM)
    assert r.status_code == 400 and "“number”" in text_of(r)
    assert hands_saved(client, url) == 1


def test_a_new_match_field_sent_twice_is_refused(client):
    r = client.post("/matches/new", content_type=FORM,
                    data="seat_0=Ann&seat_0=Zed&seat_1=Bob&seat_2=Cy&seat_3=Dee&target=1000")
    assert r.status_code == 422
    assert any("seat_0" in p and "more than once" in p for p in problems_of(r)), problems_of(r)
    assert "Zed" not in text_of(client.get("/matches"))


def test_a_settings_field_sent_twice_is_refused(client, url):
    r = client.post(url + "/settings", content_type=FORM,
                    data="target=1000&target=500&seat_0=Ann&seat_1=Bob&seat_2=Cy&seat_3=Dee")
    assert r.status_code == 422
    assert any("target" in p and p.endswith("E1") for p in problems_of(r)), problems_of(r)


def test_a_table_name_sent_twice_is_refused(client):
    r = client.post("/tables/new", data="name=One&name=Two", content_type=FORM)
    assert r.status_code == 400 and "“name”" in text_of(r)


def test_fields_sent_once_still_save(client, url):
    r = client.post(url + "/hands/new", content_type=FORM,
                    data="place_1=0&place_2=1&card_a=50&card_b=&call_0=tichu&number=1")
    assert r.status_code == 303
    assert hands_saved(client, url) == 1


# --- 2. seat keys of `calls` ------------------------------------------------------------

SCORE = "/api/v1/score"


@pytest.mark.parametrize("key", ["01"])  # every key: tests/scoring/test_read.py
def test_only_canonical_seat_keys_are_calls(client, key):
    r = client.post(SCORE, json={"out_order": [0, 1], "calls": {key: "tichu"},
                                 "card_points": [50, None]})
    assert r.status_code == 422, r.get_json()
    [error] = r.get_json()["errors"]
    assert error["field"] == "calls" and error["rule"] == "P3"
    assert repr(key) in error["message"] and '"0"' in error["message"]


def test_a_canonical_seat_key_is_a_call(client):
    r = client.post(SCORE, json={"out_order": [3, 1], "calls": {"3": "grand", "0": "tichu"},
                                 "card_points": [50, None]})
    assert r.status_code == 200
    assert [(c["seat"], c["made"]) for c in r.get_json()["calls"]] == [(0, False), (3, True)]


@pytest.mark.parametrize("value", [["tichu", "grand"]])  # every one: tests/scoring/test_read.py
def test_a_call_given_as_a_list_says_one_call_is_expected(client, value):
    r = client.post(SCORE, json={"out_order": [0, 1], "calls": {"0": value},
                                 "card_points": [50, None]})
    assert r.status_code == 422
    [error] = r.get_json()["errors"]
    assert (error["field"], error["rule"]) == ("calls.0", "P3")
    assert "not a list" in error["message"] and '"tichu" or "grand"' in error["message"]
    assert "both" not in error["message"]


def test_the_same_call_twice_for_a_seat_says_so(client):
    r = client.post(SCORE, data='{"out_order": [0, 1], "calls": {"0": "tichu", "0": "tichu"}, '
                              '"card_points": [50, 50]}',
                    content_type="application/json")
    assert r.status_code == 422
    [error] = r.get_json()["errors"]
    assert (error["field"], error["rule"]) == ("calls.0", "P3")
    assert "more than once" in error["message"] and "both" not in error["message"]


# --- 3. huge and non-finite numbers -----------------------------------------------------

HUGE = "9" * 400


@pytest.mark.parametrize("raw, field, where", [
    # one each way in; every number: tests/scoring/test_read.py (the API) and
    # tests/core/test_answers.py (the preview)
    ('{"out_order": [0, 1], "card_points": [%s, null]}' % HUGE, "card_points.0", "api"),
    ('{"out_order": [0, 1], "calls": {"0": %s}}' % HUGE, "calls.0", "preview"),
])
def test_huge_numbers_get_a_short_message(client, url, raw, field, where):
    path = SCORE if where == "api" else url + "/hands/preview"
    r = client.post(path, data=raw, content_type="application/json")
    assert r.status_code == 422, r.get_data(as_text=True)[:300]
    errors = r.get_json()["errors"]
    assert field in {e["field"] for e in errors}
    assert all(len(e["message"]) < 160 for e in errors), errors
    assert "9999999999999999999999" not in r.get_data(as_text=True)
    assert "10000000000000000000" not in r.get_data(as_text=True)
    if field.startswith("card_points"):
        mine = [e for e in errors if e["field"] == field]
        assert "-25" in mine[0]["message"] and "125" in mine[0]["message"]


def test_card_points_just_out_of_range_still_say_the_value(client):
    r = client.post(SCORE, json={"out_order": [0, 1], "card_points": [130, None]})
    assert r.status_code == 422
    assert "(130)" in r.get_json()["errors"][0]["message"]


LONG = "k" * 5000


@pytest.mark.parametrize("raw, path", [
    # one each way in; every kind of name: tests/views/test_jsonbody.py
    ({LONG: "NUL\x00"}, SCORE),  # a name of 5,000 characters above a NUL
    ({LONG: {"x": functools.reduce(lambda inner, _: [inner], range(40), 1)}},  # too deep
     "/api/v1/referee/check"),
])
def test_a_long_name_is_not_quoted_back_in_full(client, raw, path):
    r = client.post(path, json=raw)
    assert r.status_code == 400
    answer = r.get_json()
    assert len(answer["error"]) < 160 and len(answer["field"]) <= 80, answer
    assert "kkkkkkkkkkkkkkkkkkk…" in answer["field"] or answer["field"].startswith("…")


# --- 4. a form body that is not UTF-8 ---------------------------------------------------


@pytest.fixture()
def guarded(tmp_path):
    """An app that checks CSRF tokens, as in production."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    with app.app_context():
        db.create_all()
    return app.test_client()


def token(client, path="/matches/new") -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize("bad", [b"seat_0=A%FFn"])  # every kind: tests/views/test_errors.py
def test_a_form_body_that_is_not_utf8_is_a_400_saying_so(guarded, bad):
    body = b"csrf_token=" + token(guarded).encode() + b"&" + bad + b"&seat_1=Bob&seat_2=Cy" \
        b"&seat_3=Dee&target=1000"
    r = guarded.post("/matches/new", data=body, content_type=FORM)
    assert r.status_code == 400
    page = text_of(r)
    assert "UTF-8" in page and "CSRF" not in page
    assert "“seat_0”" in page


def test_a_utf8_form_body_passes_the_check(guarded):
    body = ("csrf_token=" + token(guarded) + "&seat_0=J%C3%BCrgen&seat_1=Bob&seat_2=Cy"
            "&seat_3=Dee&target=1000").encode()
    r = guarded.post("/matches/new", data=body, content_type=FORM)
    assert r.status_code == 303
    assert "Jürgen" in text_of(guarded.get(r.headers["Location"]))


def test_a_json_api_body_that_is_not_utf8_keeps_its_answer(client):
    r = client.post(SCORE, data=b'{"out_order": [0, 1], "x": "\xff"}',
                    content_type="application/json")
    assert r.status_code == 400 and "UTF-8" in r.get_json()["error"]


def test_a_delete_confirmation_sent_twice_is_refused(client, url):
    r = client.post(url + "/delete", data="confirm=y&confirm=y", content_type=FORM)
    assert r.status_code == 422
    assert any("confirm" in p and "more than once" in p for p in problems_of(r))
    assert client.get(url).status_code == 200  # not deleted
    assert client.post(url + "/delete", data="confirm=y", content_type=FORM).status_code == 303


def test_a_place_sent_twice_on_the_grand_seigneur_form_is_refused(client):
    r = client.post("/matches/new", data={"variant": "seigneur",
                                          **{f"seat_{i}": f"G{i}" for i in range(5)}})
    url = r.headers["Location"]
    r = client.post(url + "/hands/new", content_type=FORM,
                    data="place_1=4&place_1=3&place_2=2&place_3=0&place_4=1&number=1")
    assert r.status_code == 422
    assert any("place_1" in p and "more than once" in p for p in problems_of(r)), problems_of(r)
    assert hands_saved(client, url) == 0
