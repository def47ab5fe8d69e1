"""The match page's kept body and its 304s are never stale: a change made through another
app process shows at once, a one-time message is never hidden behind a 304, and a copy
revalidated by the browser never carries a CSRF token its session no longer accepts."""

from __future__ import annotations

import random
import re

import pytest

from benchmarks.bench_history import export
from benchmarks.bench_history import match as generated
from tests.conftest import (
    hand_form,
    match_key,
    new_match,
    post_hand,
    same_phone,
)
from tichu_scorer.extensions import db
from tichu_scorer.matches import creation, hand_reads, kept_pages, match_view, roster, writes
from tichu_scorer.models import Group, Match
from tichu_scorer.transfer import json_import

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
NAMES = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}


@pytest.fixture()
def url(client):
    url = new_match(client, target="1000")
    for data in (hand_form([0, 1], a=60), hand_form([1, 0], {"1": "tichu"}, a=40),
                 hand_form([2, 3], a=55)):
        assert post_hand(client, url, data).status_code == 303
    client.get(url)  # the messages of the saves are shown
    return url


def shown(response) -> str:
    """The page without its time-signed CSRF tokens (which differ from second to second)."""
    assert response.status_code == 200, response.status_code
    return TOKEN.sub('name="csrf_token" value=""', response.get_data(as_text=True))


def restore_after_delete(client, url):
    assert client.post(url + "/hands/2/restore").status_code == 303


WRITES = {
    "add": lambda c, url: post_hand(c, url, hand_form([3, 2], {"3": "tichu"}, a=25)),
    "edit": lambda c, url: c.post(url + "/hands/1/edit",
                                  data=hand_form([1, 0], a=35) | {"version": "1"}),
    "delete": lambda c, url: c.post(url + "/hands/2/delete", data={"version": "1"}),
    "undo": lambda c, url: c.post(url + "/undo", data={"number": "3"}),
    "restore": lambda c, url: c.post(url + "/hands/2/restore"),
    "target": lambda c, url: c.post(url + "/settings", data={"target": "500"} | NAMES),
    "names": lambda c, url: c.post(url + "/settings", data={"target": "1000"} | NAMES
                                   | {"seat_0": "Anna"}),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_change_through_another_server_shows_at_once(app, client, url, other_server, write):
    if write == "restore":  # a deleted hand to restore, deleted before the page is kept
        assert client.post(url + "/hands/2/delete", data={"version": "1"}).status_code == 303
        client.get(url)
    before = client.get(url)
    tag = before.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert shown(client.get(url)) == shown(before)  # kept: the same page again
    phone = same_phone(client, other_server)
    assert WRITES[write](phone, url).status_code == 303
    phone.get(url)  # shows the change's message
    fresh = shown(phone.get(url))  # rendered by the other server from the stored match
    after = client.get(url, headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert shown(after) == fresh != shown(before)


def test_the_kept_body_is_the_page_rendered_afresh(app, client, url, other_server):
    """In each language and role; the other server never rendered this revision."""
    code = app_code(app, url)
    viewer, viewer_there = app.test_client(), other_server.test_client()
    for language in ("en", "de"):
        headers = {"Accept-Language": language}
        client.get(url, headers=headers)
        viewer.get(f"/v/{code}", headers=headers)
        assert shown(client.get(url, headers=headers)) == shown(
            same_phone(client, other_server).get(url, headers=headers))
        assert shown(viewer.get(f"/v/{code}", headers=headers)) == shown(
            viewer_there.get(f"/v/{code}", headers=headers))
    page = shown(client.get(url, headers={"Accept-Language": "de"}))
    assert "Runde 3 bearbeiten" in page and "Runde 3 rückgängig" in page


def app_code(app, url) -> str:
    with app.app_context():
        return db.session.execute(db.select(Match.code).filter_by(
            key=match_key(url))).scalar_one()


def test_a_repeat_view_is_a_304_without_a_body(client, url):
    first = client.get(url, headers={"Accept-Encoding": "br"})
    tag = first.headers["ETag"]
    assert tag.endswith(':br"') and first.headers["Cache-Control"] == "private, no-cache"
    again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert again.headers["Cache-Control"] == "private, no-cache"
    plain = client.get(url, headers={"If-None-Match": tag})  # a copy from before, any encoding
    assert plain.status_code == 304


def test_a_message_is_never_hidden_behind_a_304(client, url):
    tag = client.get(url).headers["ETag"]
    # a change with its message: the stored match moved on, and the message shows
    assert client.post(url + "/hands/3/delete", data={"version": "1"}).status_code == 303
    page = client.get(url, headers={"If-None-Match": tag})
    assert page.status_code == 200 and "Hand 3 deleted." in page.get_data(as_text=True)
    assert "ETag" not in page.headers  # a copy with a message is never revalidated
    tag = client.get(url).headers["ETag"]
    assert client.post(url + "/hands/3/restore").status_code == 303
    client.get(url)
    tag = client.get(url).headers["ETag"]
    # a message without a change (restored twice): the copy is the same page, but not 304
    assert client.post(url + "/hands/3/restore").status_code == 303
    page = client.get(url, headers={"If-None-Match": tag})
    assert page.status_code == 200 and "already back in play" in page.get_data(as_text=True)
    assert "ETag" not in page.headers
    # the message shown, the page is kept again: the browser's next copy revalidates. (The
    # tag before the message named the session cookie of then; the cookie the message's page
    # wrote is signed at its own second, so only a copy made after it can match.)
    again = client.get(url)
    assert "already back" not in again.get_data(as_text=True)
    assert client.get(url, headers={"If-None-Match": again.headers["ETag"]}).status_code == 304


def test_a_background_copy_leaves_the_message_for_the_page(client, url):
    tag = client.get(url).headers["ETag"]
    assert client.post(url + "/hands/3/restore").status_code == 303  # "already back in play"
    quiet = client.get(url, headers={"If-None-Match": tag, "X-Tichu-Prefetch": "1"})
    assert quiet.status_code == 200 and "already back" not in quiet.get_data(as_text=True)
    assert "already back in play" in client.get(url).get_data(as_text=True)


def test_a_background_copy_of_an_unchanged_page_is_a_304_both_ways(app, client, url):
    """The service worker's copy (X-Tichu-Prefetch) and the page the player opens share
    their validator: either revalidates the other without a body."""
    app.config["WTF_CSRF_ENABLED"] = True
    tag = client.get(url).headers["ETag"]
    quiet = client.get(url, headers={"If-None-Match": tag, "X-Tichu-Prefetch": "1"})
    assert quiet.status_code == 304 and quiet.headers["ETag"] == tag
    copy = client.get(url, headers={"X-Tichu-Prefetch": "1"})
    assert copy.status_code == 200 and copy.headers["ETag"] == tag
    assert client.get(url, headers={"If-None-Match": copy.headers["ETag"]}).status_code == 304


def test_a_revalidated_copy_keeps_a_token_the_session_accepts(app, client, url):
    app.config["WTF_CSRF_ENABLED"] = True
    first = client.get(url)
    token = TOKEN.search(first.get_data(as_text=True)).group(1)
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # the copy's undo form works
    assert client.post(url + "/undo", data={"number": "3", "csrf_token": token}).status_code == 303


def test_another_session_never_gets_a_304_for_a_copy_with_a_token(app, client, url):
    """The same rights in a new session (cookies cleared, the scorer link opened again)
    carry another CSRF secret: the old copy's token would be refused, so it is not 304."""
    app.config["WTF_CSRF_ENABLED"] = True
    tag = client.get(url).headers["ETag"]
    with app.app_context():
        scorer_key = db.session.execute(db.select(Group.scorer_key)).scalar_one()
    again = app.test_client()
    assert again.get(f"/join?key={scorer_key}", follow_redirects=True).status_code == 200
    page = again.get(url, headers={"If-None-Match": tag})
    assert page.status_code == 200 and page.headers["ETag"] != tag
    token = TOKEN.search(page.get_data(as_text=True)).group(1)
    assert again.post(url + "/undo", data={"number": "3", "csrf_token": token}).status_code == 303


def test_a_new_secret_key_is_a_new_page(app, client, url):
    """After a key rotation the old session stays valid (a fallback key) but tokens are
    signed with the new key: a copy from before is replaced."""
    app.config["WTF_CSRF_ENABLED"] = True
    tag = client.get(url).headers["ETag"]
    app.config["SECRET_KEY_FALLBACKS"] = [app.config["SECRET_KEY"]]
    app.config["SECRET_KEY"] = "rotated"
    page = client.get(url, headers={"If-None-Match": tag})
    assert page.status_code == 200 and page.headers["ETag"] != tag
    token = TOKEN.search(page.get_data(as_text=True)).group(1)
    assert client.post(url + "/undo", data={"number": "3", "csrf_token": token}).status_code == 303


def test_each_reader_gets_their_own_token_in_a_kept_body(app, client, url):
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        scorer_key = db.session.execute(db.select(Group.scorer_key)).scalar_one()
    other = app.test_client()
    other.get(f"/join?key={scorer_key}", follow_redirects=True)
    mine = TOKEN.search(client.get(url).get_data(as_text=True)).group(1)
    page = other.get(url).get_data(as_text=True)  # the body kept from the page above
    theirs = TOKEN.search(page).group(1)
    assert mine not in page and kept_pages.stand_in(app) not in page
    assert other.post(url + "/undo", data={"number": "3", "csrf_token": theirs}).status_code == 303


def test_language_role_and_build_each_make_another_page(app, client, url):
    tag = client.get(url).headers["ETag"]
    german = client.get(url, headers={"If-None-Match": tag, "Accept-Language": "de"})
    assert german.status_code == 200 and "Runde 3 rückgängig" in german.get_data(as_text=True)
    viewer = app.test_client()
    code = app_code(app, url)
    assert viewer.get(f"/v/{code}").status_code == 200
    seen = viewer.get(f"/v/{code}", headers={"If-None-Match": tag})
    assert seen.status_code == 200 and "Viewing only" in seen.get_data(as_text=True)
    assert viewer.get(f"/v/{code}", headers={
        "If-None-Match": seen.headers["ETag"]}).status_code == 304
    app.extensions["tichu_build"] = "another deploy"
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200


def test_the_build_hash_covers_templates_and_code(app):
    with app.test_request_context():
        build = kept_pages.build()
        assert re.fullmatch(r"[0-9a-f]{16}", build) and kept_pages.build() == build
    files = [p for folder in kept_pages.SOURCES for p in folder.rglob("*.html")]
    assert any(p.name == "show.html" for p in files)


def test_a_match_deleted_or_moving_while_read(app, client, url, monkeypatch):
    def gone(match):
        raise hand_reads.Gone(match.key)

    def moving(match):
        raise hand_reads.Moving(match.key)
    app.extensions["tichu_match_pages"].clear()  # nothing kept: the page is read
    monkeypatch.setattr(match_view, "match_page", gone)
    assert client.get(url).status_code == 404
    monkeypatch.setattr(match_view, "match_page", moving)
    assert client.get(url).status_code == 503
    assert client.get(url + "/board").status_code == 503


def test_hands_read_after_a_change_read_the_match_again(app, client, url):
    """PostgreSQL reads each statement at its own moment: a match row read before another
    phone's change would not match the hands read after it. Simulated by an older revision
    on the row as read: the hands' statement sees the stored one, and the row is re-read."""
    from sqlalchemy.orm.attributes import set_committed_value
    with app.test_request_context():
        match = writes.match_by_key(match_key(url))
        stored = match.revision
        set_committed_value(match, "revision", stored - 1)
        set_committed_value(match, "totals", [0, 0])
        lines = hand_reads.hand_lines(match)
        assert match.revision == stored and match.totals == [155, 245] and len(lines) == 3


def test_a_match_that_never_holds_still_is_refused(app, client, url, monkeypatch):
    from sqlalchemy.orm.attributes import set_committed_value
    with app.test_request_context():
        match = writes.match_by_key(match_key(url))
        set_committed_value(match, "revision", match.revision - 1)
        monkeypatch.setattr(db.session, "refresh", lambda _obj: None)
        with pytest.raises(hand_reads.Moving):
            hand_reads.hand_lines(match)


def test_a_deleted_match_is_gone(app, client, url):
    with app.test_request_context():
        match = writes.match_by_key(match_key(url))
        db.session.expunge(match)
        creation.delete_match(db.session.get(Match, match.id))
        with pytest.raises(hand_reads.Gone):
            hand_reads.hand_lines(match)


@pytest.mark.parametrize("variant", ["nanking", "threechu", "tientsin"])
def test_hands_read_as_columns_equal_the_stored_hands(app, variant):
    """The JSON columns are decoded for all hands at once: every value comes back as
    the ORM reads it (null player scores, empty calls, a double victory's points)."""
    rng = random.Random(variant)
    players = [f"P{n}" for n in range(8)]
    with app.test_request_context():
        group = roster.create_group("Columns")
        json_import.import_json(export([generated(rng, players, 60, "2026-11-20", variant)]),
                             group)
        match = db.session.execute(db.select(Match)).scalar_one()
        match_id = match.id
        db.session.expunge_all()
        lines = hand_reads.hand_lines(db.session.get(Match, match_id))
        loaded = db.session.get(Match, match_id)
        assert lines == [hand_reads.HandLine.of(h) for h in loaded.hands]
        assert len(lines) == 60 and any(line.calls for line in lines)


def test_a_page_read_across_another_servers_save_adds_up(app, client, url, other_server):
    """A save through another process commits right after this request read the match
    row, before it reads the hands (PostgreSQL reads each statement at its own moment):
    the page shows one state of the match, its totals the running totals of its latest
    row and its hand count its rows; and the page kept is the new one."""
    from sqlalchemy import event
    writer = same_phone(client, other_server)
    app.extensions["tichu_match_pages"].clear()
    armed = [True]

    def save_now(conn, cursor, statement, *args):
        if armed[0] and re.match(r'SELECT "?match"?\.id', statement):  # the match row
            armed[0] = False
            saved = post_hand(writer, url, hand_form([2, 3], {"2": "tichu"}, a=20))
            assert saved.status_code == 303
    with app.app_context():
        event.listen(db.engine, "after_cursor_execute", save_now)
    try:
        page = client.get(url).get_data(as_text=True)
    finally:
        with app.app_context():
            event.remove(db.engine, "after_cursor_execute", save_now)
    assert not armed[0]
    totals = re.findall(r'data-total="\d">(-?\d+)<', page)
    latest = re.findall(r'<span class="running">(-?\d+)</span>', page)[:2]
    played = int(re.search(r"(\d+) hands? played", page).group(1))
    assert totals == latest and page.count('<tr><th scope="row">') == played, page
    assert shown(client.get(url)) == shown(writer.get(url) and writer.get(url))
