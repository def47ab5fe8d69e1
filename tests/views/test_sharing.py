"""Sharing without accounts: join code, viewer and scorer links, the big-screen board."""

import re

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


@pytest.fixture()
def shared(app, client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 1], a=60))
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        return url, m.code, m.group.scorer_key


def test_share_page_has_code_links_and_qr(client, shared):
    url, code, _key = shared
    page = client.get(url + "/share").get_data(as_text=True)
    assert f">{code[:4]} {code[4:]}<" in page and f"/v/{code}" in page and "/join?" not in page
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg"') == 1
    assert re.fullmatch(r"[0-9A-HJKMNP-Z]{8}", code)


def test_viewer_is_read_only_on_the_server(app, shared):
    url, code, _key = shared
    viewer = app.test_client()
    page = viewer.get(f"/v/{code.lower()}").get_data(as_text=True)
    assert "Viewing only" in page and "Add hand" not in page and "Undo" not in page
    assert viewer.get(url).get_data(as_text=True).count("data-readonly") == 1
    number = "/hands/1"
    for path, data in [(url + "/hands/new", hand_form([0, 1], a=50)),
                       (url + number + "/edit", hand_form([0, 1], a=55) | {"version": "1"}),
                       (url + number + "/delete", {}), (url + number + "/restore", {}),
                       (url + "/undo", {}), (url + "/rematch", {})]:
        r = viewer.post(path, data=data)
        assert r.status_code == 403, path
        assert "can only view this match" in r.get_data(as_text=True)
    assert viewer.get(url + "/hands/new").status_code == 403
    with app.app_context():
        assert db.session.get(Match, match_id(url)).hand_count == 1


def test_scorer_link_lets_a_second_phone_enter_hands(app, shared):
    url, _code, key = shared
    second = app.test_client()
    assert second.get(url).status_code == 404  # not yet at the table: it sees nothing
    r = second.get(f"/join?key={key}")
    assert r.status_code == 303 and "/tables/" in r.headers["Location"]
    assert post_hand(second, url, hand_form([1, 0], a=40)).status_code == 303
    assert "Add hand 3" in second.get(url).get_data(as_text=True)
    assert app.test_client().get("/join?key=not-a-key").status_code == 404


def test_join_by_code(app, shared):
    _url, code, _key = shared
    phone = app.test_client()
    assert phone.get("/join").status_code == 200
    r = phone.get("/join", query_string={"code": f" {code[:3].lower()} {code[3:]} "})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/v/{code}")
    r = phone.get("/join", query_string={"code": "ZZZZZZ"})
    assert r.status_code == 404 and "No table or match has the code ZZZ ZZZ" in r.get_data(
        as_text=True)


def test_board_and_revision(client, shared):
    url, _code, _key = shared
    board = client.get(url + "/board").get_data(as_text=True)
    assert 'data-live="/live/m/' in board and "live.js" in board and ">60<" in board
    # the icon comes with the page (no request of its own, no /favicon.ico 404)
    assert '<link rel="icon" href="data:image/svg+xml,<svg ' in board
    before = client.get(url + "/revision").get_json()
    post_hand(client, url, hand_form([1, 0], a=40))
    after = client.get(url + "/revision").get_json()
    assert after["revision"] > before["revision"] and after["hands"] == 2


def test_a_stale_new_hand_offers_discard_or_next(client, shared):
    url, _code, _key = shared
    r = client.post(url + "/hands/new", data=hand_form([0, 1], a=50) | {"number": "1"})
    assert r.status_code == 409
    assert f'href="{url}" data-discard="">Discard mine</a>' in r.get_data(as_text=True)


def test_installable_web_app(client):
    with client.get("/manifest.webmanifest") as manifest:  # file responses: closed after use
        assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
        data = manifest.get_json(force=True)
    assert data["display"] == "standalone" and {i["sizes"] for i in data["icons"]} >= {
        "192x192", "512x512"}
    for icon in data["icons"]:
        with client.get(icon["src"]) as r:
            assert r.status_code == 200 and r.mimetype.startswith("image/")
    with client.get("/sw.js") as sw:
        assert sw.status_code == 200 and sw.mimetype == "text/javascript"
        # a deploy reaches the phone within minutes (see views/pages.py, SW_MAX_AGE)
        assert sw.headers["Cache-Control"] == "max-age=600"
    assert client.get("/offline").status_code == 200
    page = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in page and "offline.js" in page


def test_fresh_csrf_token_for_replays(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    token = client.get("/csrf-token").get_json()["csrf_token"]
    data = {f"seat_{i}": n for i, n in enumerate(["A", "B", "C", "D"])} | {"csrf_token": token}
    assert client.post("/matches/new", data=data).status_code == 303
