"""Live pages (`tichu_scorer/live/poll.py`): the version a page polls, 304 while nothing changed,
the new version (and what happened) after another phone's change, its signature, and no
rate limit on it."""

import re
import time

import pytest

from tests.conftest import hand_form, make_app, match_id, match_key, new_match, post_hand
from tichu_scorer import create_app
from tichu_scorer.extensions import db
from tichu_scorer.live import poll
from tichu_scorer.models import Match

LIVE = re.compile(r'data-live="([^"]+)" data-live-tag="([^"]+)"')


@pytest.fixture(autouse=True)
def _fresh_answers(monkeypatch):
    """Every question read afresh (in use an answer may be up to `poll.FRESH` old; one
    test below keeps that)."""
    monkeypatch.setattr(poll, "FRESH", 0.0)


def watched(page: str) -> tuple[str, str]:
    """The path a page polls and the version it shows."""
    found = LIVE.search(page)
    assert found, "the page polls nothing"
    return found.group(1), found.group(2)


def ask(client, path, tag=None):
    headers = {"If-None-Match": f'"{tag}"'} if tag else {}
    return client.get(path, headers=headers)


def test_unchanged_is_304_and_another_phones_save_is_200_with_the_hand(client, two_phones):
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    assert path.startswith("/live/m/")
    r = ask(client, path, tag)
    assert r.status_code == 304 and r.get_data() == b"" and r.headers["ETag"] == f'"{tag}"'
    assert post_hand(other, url, hand_form([0, 1], a=60)).status_code == 303
    r = ask(client, path, tag)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    data = r.get_json()
    assert data["tag"] != tag and data["hands"] == 1
    assert data["last"] == {"action": "added", "hand": 1}
    assert r.headers["ETag"] == f'"{data["tag"]}"'
    # the new version is the one a fresh match page shows, and is then unchanged
    assert watched(client.get(url).get_data(as_text=True))[1] == data["tag"]
    assert ask(client, path, data["tag"]).status_code == 304
    # an undo on the other phone: changed again, and said so
    assert other.post(url + "/undo", data={"number": "1"}).status_code == 303
    data2 = ask(client, path, data["tag"]).get_json()
    assert data2["hands"] == 0 and data2["last"] == {"action": "undone", "hand": 1}


def test_a_viewer_and_the_board_poll_the_same_version(app, client, two_phones):
    url, _other = two_phones
    with app.app_context():
        code = db.session.get(Match, match_id(url)).code
    viewer = app.test_client()
    page = viewer.get(f"/v/{code}", follow_redirects=True).get_data(as_text=True)
    path, tag = watched(page)
    assert (path, tag) == watched(client.get(url + "/board").get_data(as_text=True))
    assert ask(viewer, path, tag).status_code == 304


def test_a_hand_form_polls_the_match(client, two_phones):
    url, _other = two_phones
    page = client.get(url + "/hands/new").get_data(as_text=True)
    path, _tag = watched(page)
    assert path == watched(client.get(url).get_data(as_text=True))[0]
    assert "was just saved on another phone" in page and "live.js" in page


def test_tables_and_history_change_with_a_new_match_or_hand(app, client, two_phones):
    url, other = two_phones
    history = client.get("/").get_data(as_text=True)
    path, tag = watched(history)
    assert path.startswith("/live/t/")
    table_url = re.search(r'href="(/tables/[^"]+)"', history).group(1)
    table_path, table_tag = watched(client.get(table_url).get_data(as_text=True))
    assert ask(client, path, tag).status_code == 304
    assert ask(client, table_path, table_tag).status_code == 304
    post_hand(other, url, hand_form([0, 1], a=60))
    changed = ask(client, path, tag)
    assert changed.status_code == 200 and changed.get_json()["matches"] == 1
    assert ask(client, table_path, table_tag).status_code == 200
    tag = changed.get_json()["tag"]
    new_match(other)
    again = ask(client, path, tag)
    assert again.status_code == 200 and again.get_json()["matches"] == 2
    # a rename changes the version too (the table page shows the name), and is shown
    key = table_url.removeprefix("/tables/")
    table_tag = watched(client.get(table_url).get_data(as_text=True))[1]
    assert other.post(f"/tables/{key}/rename", data={"name": "Friday night"}).status_code == 303
    renamed = ask(client, table_path, table_tag)
    assert renamed.status_code == 200 and renamed.get_json()["matches"] == 2
    page = client.get(table_url, headers={"X-Tichu-Prefetch": "1"}).get_data(as_text=True)
    assert re.search(r'data-live-part="head">\s*<h1>Friday night</h1>', page)
    assert watched(page)[1] == renamed.get_json()["tag"]


def test_a_wrong_signature_or_path_is_404_without_reading(client, two_phones):
    url, _other = two_phones
    path, _tag = watched(client.get(url).get_data(as_text=True))
    kind, key, sig = path.removeprefix("/live/").split("/")
    table = watched(client.get("/").get_data(as_text=True))[0]
    other_key = key[:-1] + ("B" if key.endswith("A") else "A")
    for bad in (f"/live/m/{key}/{'A' * len(sig)}", f"/live/m/{other_key}/{sig}",
                f"/live/t/{key}/{sig}", f"/live/m/{key}", "/live/", "/live/x/y/z",
                f"/live/m/{key}.{key}/{sig}", table.replace("/live/t/", "/live/m/"),
                f"/live/m/{key}\x00/{sig}", f"/live/m/{'a' * 2000}/{sig}"):
        r = client.get(bad)
        assert r.status_code == 404, bad
        assert r.get_json() == {"error": "not found"}
    assert client.post(path).status_code == 405
    assert client.head(path).status_code == 200


def test_a_deleted_match_is_404(app, client, two_phones):
    url, _other = two_phones
    path, _tag = watched(client.get(url).get_data(as_text=True))
    with app.app_context():
        db.session.delete(db.session.get(Match, match_id(url)))
        db.session.commit()
    assert client.get(path).status_code == 404


def test_polling_never_meets_a_rate_limit(tmp_path):
    """A table's phones poll all evening behind one address: with every limit on and at
    its lowest, hundreds of questions are all answered."""
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, READ_RATE_LIMIT="2 per minute",
                   WRITE_RATE_LIMIT="1000 per minute", JOIN_RATE_LIMIT="2 per minute",
                   REFEREE_RATE_LIMIT="2 per minute")
    with app.app_context():
        db.create_all()
    phone = app.test_client()
    url = new_match(phone)
    path, tag = watched(phone.get(url).get_data(as_text=True))
    board = [phone.get(url + "/board").status_code for _ in range(4)]
    assert 429 in board  # the limits are on
    answers = {ask(phone, path, tag).status_code for _ in range(300)}
    assert answers == {304}


def test_the_database_away_is_503(app, client, two_phones, monkeypatch):
    url, _other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    middleware = app.wsgi_app

    def away(*_args):
        raise OSError("no database")
    monkeypatch.setattr(middleware, "_read", away)
    r = ask(client, path, tag)
    assert r.status_code == 503 and r.get_json() == {"error": "try again"}


def test_answers_are_read_together_and_at_most_fresh_seconds_old(app, client, two_phones,
                                                                 monkeypatch):
    """A process reads the matches it was asked about in one statement, at most every
    FRESH seconds: a change shows at the latest FRESH seconds later."""
    monkeypatch.setattr(poll, "FRESH", 0.5)
    url, other = two_phones
    second = new_match(client)
    path, tag = watched(client.get(url).get_data(as_text=True))
    path2, tag2 = watched(client.get(second).get_data(as_text=True))
    middleware = app.wsgi_app
    reads = []
    real = middleware._read
    monkeypatch.setattr(middleware, "_read", lambda sql, params: reads.append(params)
                        or real(sql, params))
    assert ask(client, path, tag).status_code == 304  # asked about: read with the others
    assert ask(client, path2, tag2).status_code == 304
    time.sleep(0.6)
    reads.clear()
    assert ask(client, path, tag).status_code == 304
    assert ask(client, path2, tag2).status_code == 304
    assert ask(client, path, tag).status_code == 304
    assert len(reads) == 1 and set(reads[0]) == {match_key(url), match_key(second)}
    post_hand(other, url, hand_form([0, 1], a=60))
    time.sleep(0.6)  # FRESH later, the change is told
    assert ask(client, path, tag).status_code == 200
    assert len(reads) == 3  # the versions again, and the changed match's latest event


def test_a_change_through_another_app_process_is_told(app, client, two_phones, tmp_path):
    """Two app processes (two servers) over one database: a phone asking one of them
    hears of a hand saved through the other."""
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    assert ask(client, path, tag).status_code == 304
    settings = {name: app.config[name] for name in (
        "TESTING", "WTF_CSRF_ENABLED", "SECRET_KEY", "RATELIMIT_ENABLED",
        "SQLALCHEMY_DATABASE_URI", "PAGE_STORE_URI")}
    elsewhere = create_app(settings, instance_path=str(tmp_path / "elsewhere"))
    try:
        twin = elsewhere.test_client()
        twin.set_cookie("session", other.get_cookie("session").value)
        assert post_hand(twin, url, hand_form([0, 1], a=60)).status_code == 303
        r = ask(client, path, tag)
        assert r.status_code == 200 and r.get_json()["last"] == {"action": "added", "hand": 1}
        # and the other process answers the question this one signed, alike
        assert ask(twin, path, r.get_json()["tag"]).status_code == 304
    finally:
        with elsewhere.app_context():
            db.engine.dispose()
