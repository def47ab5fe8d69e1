"""Whose phone this is (`tichu_scorer/tables/phones.py`): the name a phone gives itself on the
`/phone` page, kept in a cookie on that phone, written into the match log with every change
the phone makes, told to the other phones' live pages (their note says "Hand 12 saved on
Bob's phone"), and carried by an export and an import."""

import html
import json

import pytest

from tests.conftest import hand_form, post_hand
from tests.views.test_live import ask, watched
from tests.views.test_log_import import one_match
from tests.views.test_transfer import upload
from tichu_scorer.extensions import db
from tichu_scorer.live import poll
from tichu_scorer.models import HandEvent
from tichu_scorer.tables import phones


@pytest.fixture(autouse=True)
def _fresh_answers(monkeypatch):
    monkeypatch.setattr(poll, "FRESH", 0.0)


def named(client, name, **query):
    return client.post("/phone", data={"name": name}, query_string=query)


def test_a_phone_names_itself_and_goes_back_where_it_came_from(client, two_phones):
    url, _other = two_phones
    page = client.get("/phone", query_string={"next": url})
    assert page.status_code == 200
    assert 'name="name"' in page.get_data(as_text=True)
    r = named(client, "  Bob\u200b ", next=url)
    assert r.status_code == 303 and r.headers["Location"] == url
    assert client.get_cookie(phones.COOKIE).value == "Bob"
    assert "This phone is now Bob&#39;s phone." in client.get(url).get_data(as_text=True)
    # shown again on the page, to change or to clear
    assert 'value="Bob"' in client.get("/phone").get_data(as_text=True)
    assert named(client, "").status_code == 303
    assert client.get_cookie(phones.COOKIE) is None


@pytest.mark.parametrize("away", ["https://evil.example/", "//evil.example/x", "/\\evil.example",
                                  # a browser drops tabs and line breaks from a URL: "//evil"
                                  "/\t/evil.example", "/\n/evil.example", "/\r/evil.example"])
def test_back_only_to_a_page_of_this_app(client, away):
    r = named(client, "Bob", next=away)
    assert r.status_code == 303 and r.headers["Location"] == "/"  # the list of matches


def test_the_back_link_of_the_page_never_leads_away(client):
    page = client.get("/phone", query_string={"next": "/\t/evil.example"})
    assert page.status_code == 200 and "evil.example" not in page.get_data(as_text=True)


def test_a_name_too_long_is_refused_naming_the_field(client):
    r = named(client, "x" * 25)
    assert r.status_code == 422
    body = html.unescape(r.get_data(as_text=True))
    assert 'aria-invalid="true"' in body and "24" in body
    assert client.get_cookie(phones.COOKIE) is None


@pytest.mark.parametrize(("raw", "kept"), [("Ann", "Ann"), ("\x00\x1b", None),
                                           ("é" * 30, "é" * 24)])
def test_a_cookie_set_by_hand_is_read_clean(app, raw, kept):
    with app.test_request_context(headers={"Cookie": f"{phones.COOKIE}={raw}"}):
        assert phones.name() == kept


def test_the_log_and_the_live_answer_name_the_phone_that_saved(app, client, two_phones):
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    named(other, "Hans")
    assert post_hand(other, url, hand_form([0, 1], a=60)).status_code == 303
    data = ask(client, path, tag).get_json()
    assert data["last"] == {"action": "added", "hand": 1, "phone": "Hans"}
    # this phone has no name: its own change is told without one
    assert client.post(url + "/undo", data={"number": "1"}).status_code == 303
    assert ask(client, path, data["tag"]).get_json()["last"] == {"action": "undone", "hand": 1}
    with app.app_context():
        assert [e.phone for e in db.session.query(HandEvent).order_by(HandEvent.id)] == [
            "Hans", None]
    log = html.unescape(client.get(url + "/log").get_data(as_text=True))
    assert "(on Hans's phone)" in log and log.count("phone)") == 1
    client.get("/lang/de")
    assert "(auf Hans’ Handy)" in html.unescape(client.get(url + "/log").get_data(as_text=True))


def test_an_export_carries_the_name_and_an_import_takes_it(app, client, two_phones):
    url, other = two_phones
    named(other, "Bob")
    assert post_hand(other, url, hand_form([0, 1], a=60)).status_code == 303
    [match] = client.get("/export.json").get_json()["matches"]
    assert [e.get("phone") for e in match["log"]] == ["Bob"]
    log = [{"hand_number": 1, "position": 1, "action": "added", "summary": "",
            "before": None, "after": None, "phone": "Ann"}]
    assert upload(client, json.dumps(one_match(log)).encode()).status_code == 303
    with app.app_context():
        assert db.session.query(HandEvent).filter_by(phone="Ann").count() == 1


def test_an_import_with_a_phone_that_is_no_text_is_refused(client):
    log = [{"hand_number": 1, "position": 1, "action": "added", "summary": "",
            "before": None, "after": None, "phone": 7}]
    r = upload(client, json.dumps(one_match(log)).encode())
    assert r.status_code == 422
    assert "phone must be text" in html.unescape(r.get_data(as_text=True))
