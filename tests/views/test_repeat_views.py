"""A repeat view of an unchanged match page is answered 304 before Flask
(`matches.repeat_views`): one read of the match's row, no view, no session written. Each
test here fails if that early answer broke a guarantee of the page: rights taken back, the
reader's language or role, a one-time message waiting, a change through another process,
the session's CSRF secret, an expired session; and a viewer's request writes no cookie."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import event

from tests.conftest import hand_form, match_key, new_match, post_hand, same_phone
from tests.views.test_match_page_kept import TOKEN, app_code
from tichu_scorer.extensions import db
from tichu_scorer.matches import repeat_views
from tichu_scorer.models import Group, Match


@pytest.fixture()
def url(client):
    url = new_match(client, target="1000")
    for data in (hand_form([0, 1], a=60), hand_form([2, 3], a=55)):
        assert post_hand(client, url, data).status_code == 303
    client.get(url)  # the messages of the saves are shown
    return url


def tag_of(client, path, **headers):
    page = client.get(path, headers=headers)
    assert page.status_code == 200 and "ETag" in page.headers, page.headers
    return page.headers["ETag"]


@pytest.fixture()
def no_view(app, monkeypatch):
    """Flask's match views fail if reached: an answer given now was given before Flask."""
    def reached(*args, **kwargs):
        raise AssertionError("the request reached Flask")
    for endpoint in repeat_views.KINDS:
        monkeypatch.setitem(app.view_functions, endpoint, reached)


@pytest.fixture()
def statements(app):
    """The SQL statements run from now on."""
    run: list[str] = []

    def count(conn, cursor, statement, *args):
        run.append(statement)
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
    yield run
    with app.app_context():
        event.remove(db.engine, "before_cursor_execute", count)


def test_a_repeat_view_is_answered_before_flask_with_one_read(app, client, url, statements,
                                                              request, monkeypatch):
    tag = tag_of(client, url)
    code = app_code(app, url)
    viewer = app.test_client()
    viewer.get(f"/v/{code}")  # the right given: the cookie is set once
    viewer_tag = tag_of(viewer, f"/v/{code}")
    every_tag = tag_of(client, url + "/every-hand")
    request.getfixturevalue("no_view")
    statements.clear()
    reads = []
    read = repeat_views.poll.read
    monkeypatch.setattr(repeat_views.poll, "read", lambda *a: reads.append(a[1]) or read(*a))
    for phone, path, sent in ((client, url, tag), (viewer, f"/v/{code}", viewer_tag),
                              (client, url + "/every-hand", every_tag)):
        again = phone.get(path, headers={"If-None-Match": sent})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == sent
        assert "Set-Cookie" not in again.headers
    assert statements == []  # nothing through SQLAlchemy's engine: no ORM, no session
    assert len(reads) == 3 and all(sql.startswith("SELECT") for sql in reads)


def test_the_early_304_carries_the_headers_of_flasks(app, client, url, monkeypatch):
    """The same Cache-Control, Vary, ETag and security headers as the 304 Flask gives (and
    as the page's 200, less what describes a body)."""
    page = client.get(url, headers={"Accept-Encoding": "br"})
    sent = {"Accept-Encoding": "br", "If-None-Match": page.headers["ETag"]}
    early = client.get(url, headers=sent)
    monkeypatch.setattr(repeat_views.Middleware, "tag_for", lambda *args: None)
    flasks = client.get(url, headers=sent)
    assert early.status_code == flasks.status_code == 304
    assert sorted(early.headers.items()) == sorted(flasks.headers.items())
    body = ("Content-Type", "Content-Length", "Content-Encoding", "Date")
    assert sorted(early.headers.items()) == sorted(
        (k, v) for k, v in page.headers.items() if k not in body)
    assert early.headers["Vary"] == "Accept-Encoding, Cookie"
    assert early.headers["Cache-Control"] == "private, no-cache"


def rotate_from_another_phone(app, url):
    """Another scorer of the table makes new links: rights given by the old ones end."""
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        scorer_key, table = group.scorer_key, group.key
        revision = db.session.execute(db.select(Match.revision).filter_by(
            key=match_key(url))).scalar_one()
    other = app.test_client()
    assert other.get(f"/join?key={scorer_key}").status_code == 303
    assert other.post(f"/tables/{table}/rotate").status_code == 303
    with app.app_context():  # the page itself did not change: only the rights did
        assert db.session.execute(db.select(Match.revision).filter_by(
            key=match_key(url))).scalar_one() == revision


def test_rights_taken_back_get_no_304(app, client, url):
    code = app_code(app, url)
    viewer = app.test_client()
    viewer.get(f"/v/{code}")
    viewer_tags = {path: tag_of(viewer, path) for path in (f"/v/{code}", url)}
    tag = tag_of(client, url)
    rotate_from_another_phone(app, url)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 404
    for path, sent in viewer_tags.items():
        assert viewer.get(path, headers={"If-None-Match": sent}).status_code == 404, path


def test_a_stranger_gets_no_304(app, client, url):
    tag = tag_of(client, url)
    stranger = app.test_client()
    for sent in (tag, "*", f'W/{tag}'):
        assert stranger.get(url, headers={"If-None-Match": sent}).status_code == 404
    # a scorer's copy is not a viewer's page, nor a viewer's a stranger's who has the code
    code = app_code(app, url)
    stranger.get(f"/v/{code}")
    assert stranger.get(f"/v/{code}", headers={"If-None-Match": tag}).status_code == 200


def test_an_expired_session_gets_no_304(app, client, time_machine):
    """Past the session's lifetime Flask reads the cookie as no session: the rights it held
    are gone, and so is the 304."""
    evening = datetime(2026, 12, 5, 20, 0, tzinfo=timezone.utc)
    time_machine.move_to(evening, tick=False)
    url = new_match(client)  # the session cookie is signed at this moment
    client.get(url)
    tag = tag_of(client, url)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    lifetime = app.permanent_session_lifetime
    time_machine.move_to(evening + lifetime - timedelta(minutes=1), tick=False)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    time_machine.move_to(evening + lifetime + timedelta(minutes=1), tick=False)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 404


def test_another_language_or_role_is_another_page(app, client, url):
    tag = tag_of(client, url)
    german = client.get(url, headers={"If-None-Match": tag, "Accept-Language": "de"})
    assert german.status_code == 200 and "Runde 2 rückgängig" in german.get_data(as_text=True)
    client.set_cookie("lang", "de")  # the language switch
    switched = client.get(url, headers={"If-None-Match": tag})
    assert switched.status_code == 200 and "Runde 2 rückgängig" in switched.get_data(
        as_text=True)
    client.delete_cookie("lang")
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    # the same phone (the same cookie) through the viewer link: the page drawn for a
    # viewer, not its copy; and the page of every hand is another page
    code = app_code(app, url)
    client.get(f"/v/{code}")  # the viewer's right: the cookie changes once
    tag = tag_of(client, url)
    seen = client.get(f"/v/{code}", headers={"If-None-Match": tag})
    assert seen.status_code == 200 and "Viewing only" in seen.get_data(as_text=True)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    every = client.get(url + "/every-hand", headers={"If-None-Match": tag})
    assert every.status_code == 200 and every.headers["ETag"] != tag
    # a member who becomes a scorer (the scorer link) is given the scorer's page
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        invite, scorer_key = group.invite_code, group.scorer_key
    member = app.test_client()
    assert member.get(f"/join?code={invite}").status_code == 303
    member.get(url)  # the message of the joining shown
    as_member = tag_of(member, url)
    assert "Undo hand 2" not in member.get(url).get_data(as_text=True)
    member.get(f"/join?key={scorer_key}")
    member.get(f"/tables/{group.key}")
    now = member.get(url, headers={"If-None-Match": as_member})
    assert now.status_code == 200 and "Undo hand 2" in now.get_data(as_text=True)


def test_a_waiting_message_is_never_behind_an_early_304(client, url):
    tag = tag_of(client, url)
    # a message without a change: the page's copy is as stored, but the message shows
    assert client.post(url + "/hands/2/restore").status_code == 303
    page = client.get(url, headers={"If-None-Match": tag})
    assert page.status_code == 200 and "already back in play" in page.get_data(as_text=True)
    assert "ETag" not in page.headers
    # a background copy leaves the message waiting, and gets no tag while it waits
    assert client.post(url + "/hands/2/restore").status_code == 303
    quiet = client.get(url, headers={"If-None-Match": tag, "X-Tichu-Prefetch": "1"})
    assert quiet.status_code == 200 and "ETag" not in quiet.headers
    assert "already back in play" in client.get(url, headers={
        "If-None-Match": tag}).get_data(as_text=True)
    again = tag_of(client, url)  # the message shown: the page is revalidated again
    assert client.get(url, headers={"If-None-Match": again}).status_code == 304


def test_a_change_through_another_server_is_never_behind_an_early_304(app, client, url,
                                                                      other_server):
    tag = tag_of(client, url)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    phone = same_phone(client, other_server)
    other_tag = tag_of(phone, url)
    assert other_tag == tag  # any process computes the same validator from the database
    assert post_hand(phone, url, hand_form([1, 0], a=30)).status_code == 303
    for here in (client, phone):  # this process, and the one that saved
        after = here.get(url, headers={"If-None-Match": tag})
        assert after.status_code == 200 and "3 hands played" in after.get_data(as_text=True)


def test_a_revalidated_copy_carries_a_token_its_session_accepts(app, client, url):
    app.config["WTF_CSRF_ENABLED"] = True
    first = client.get(url)
    token = TOKEN.search(first.get_data(as_text=True)).group(1)
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # another CSRF secret in the same phone's session (cookies lost, the link opened
    # again): the copy's token would be refused, so the copy is not revalidated
    with client.session_transaction() as session:
        session["csrf_token"] = "another secret"
    page = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert page.status_code == 200 and page.headers["ETag"] != first.headers["ETag"]
    assert client.post(url + "/undo", data={"number": "2", "csrf_token": token}).status_code == 400
    fresh = TOKEN.search(page.get_data(as_text=True)).group(1)
    assert client.post(url + "/undo", data={"number": "2", "csrf_token": fresh}).status_code == 303


def test_a_viewers_requests_set_no_cookie(app, url):
    code = app_code(app, url)
    viewer = app.test_client()
    first = viewer.get(f"/v/{code}")
    assert first.status_code == 200 and "Set-Cookie" in first.headers  # the right, once
    again = viewer.get(f"/v/{code}")
    assert again.status_code == 200 and "Set-Cookie" not in again.headers
    unchanged = viewer.get(f"/v/{code}", headers={"If-None-Match": again.headers["ETag"]})
    assert unchanged.status_code == 304 and "Set-Cookie" not in unchanged.headers
    shown = viewer.get(url)  # the match page itself, by the right the viewer link gave
    assert shown.status_code == 200 and "Set-Cookie" not in shown.headers
    assert viewer.get(url, headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304


def test_a_repeat_page_is_the_response_flask_gave_without_flask(app, client, url, statements,
                                                                request):
    """Asked again without a copy, the same reader is given the very bytes Flask gave for
    that validator (compressed, with the same CSRF token), from one read of the row."""
    app.config["WTF_CSRF_ENABLED"] = True
    code = app_code(app, url)
    viewer = app.test_client()
    viewer.get(f"/v/{code}")  # the right given: the cookie is set once
    asks = ((client, url, {}), (client, url + "/every-hand", {"Accept-Encoding": "br"}),
            (viewer, f"/v/{code}", {"Accept-Encoding": "gzip"}), (viewer, url, {}))
    firsts = [phone.get(path, headers=headers) for phone, path, headers in asks]
    request.getfixturevalue("no_view")
    statements.clear()
    for (phone, path, headers), first in zip(asks, firsts, strict=True):
        again = phone.get(path, headers=headers)
        assert again.status_code == 200 and "ETag" in first.headers
        assert again.data == first.data and again.headers == first.headers
    assert statements == []
    token = TOKEN.search(client.get(url).get_data(as_text=True)).group(1)
    assert client.post(url + "/undo", data={"number": "2", "csrf_token": token}).status_code == 303


def test_a_kept_response_goes_to_no_one_else_and_never_outlives_its_page(app, client, url,
                                                                         other_server):
    first = client.get(url)
    assert client.get(url).data == first.data
    kept = app.extensions["tichu_match_responses"]
    assert len(kept) == 1
    assert client.get(url, headers={"If-None-Match": "*"}).status_code == 304  # (Flask's)
    # another phone, a stranger, a copy asked another way: each answered by Flask
    stranger = app.test_client()
    assert stranger.get(url).status_code == 404
    german = client.get(url, headers={"Accept-Language": "de"})
    assert "Runde 2 rückgängig" in german.get_data(as_text=True)
    assert client.get(url, headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"
    assert client.get(url, headers={"X-Tichu-Prefetch": "1"}).status_code == 200
    assert len(kept) == 4  # (the stranger's 404 is not kept)
    # a one-time message waiting: the page shows it
    assert client.post(url + "/hands/2/restore").status_code == 303
    assert "already back in play" in client.get(url).get_data(as_text=True)
    # a change through another server: the new page at once
    phone = same_phone(client, other_server)
    assert post_hand(phone, url, hand_form([1, 0], a=30)).status_code == 303
    assert "3 hands played" in client.get(url).get_data(as_text=True)
    assert client.get(url).data == client.get(url).data  # kept again, at the new revision
    # rights taken back
    rotate_from_another_phone(app, url)
    assert client.get(url).status_code == 404


def test_an_expired_session_gets_no_kept_page(app, client, time_machine):
    evening = datetime(2026, 12, 5, 20, 0, tzinfo=timezone.utc)
    time_machine.move_to(evening, tick=False)
    url = new_match(client)
    client.get(url)
    assert client.get(url).status_code == client.get(url).status_code == 200
    assert len(app.extensions["tichu_match_responses"]) == 1
    time_machine.move_to(evening + app.permanent_session_lifetime + timedelta(minutes=1),
                         tick=False)
    assert client.get(url).status_code == 404


def test_a_long_page_is_not_kept(app, client, url, monkeypatch):
    monkeypatch.setattr(repeat_views, "MAX_KEPT_BYTES", 100)
    first = client.get(url)
    assert first.status_code == 200 and "ETag" in first.headers
    assert client.get(url).status_code == 200  # Flask's, again
    assert len(app.extensions["tichu_match_responses"]) == 0


def test_the_database_held_off_leaves_the_page_to_flask(app, client, url, monkeypatch):
    """While the breaker holds the database off (a wait for it failed and it has not
    answered since), nothing is read before Flask: Flask answers, as it answers every
    request meanwhile (a 503 at once: tests/test_freeze.py), and no request waits for the
    breaker twice. Once it answers again, the early answers come back by themselves. (The
    breaker the early path asks is stood in for: the test's app keeps its connection.)"""
    from tichu_scorer.database import Breaker
    breaker = Breaker(2.0)
    monkeypatch.setitem(app.extensions, "tichu_breaker", breaker)
    first = client.get(url)
    reads = []
    read = repeat_views.poll.read
    monkeypatch.setattr(repeat_views.poll, "read", lambda *a: reads.append(a[1]) or read(*a))
    views = []
    view = app.view_functions["matches.show"]
    monkeypatch.setitem(app.view_functions, "matches.show",
                        lambda **kwargs: views.append(1) or view(**kwargs))
    assert client.get(url).data == first.data and (len(reads), len(views)) == (1, 0)
    breaker.trip()
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # drawn again by Flask: the same page, its CSRF token signed at this second
    again = client.get(url).get_data(as_text=True)
    assert TOKEN.sub("", again) == TOKEN.sub("", first.get_data(as_text=True))
    assert (len(reads), len(views)) == (1, 2)
    breaker.answered()
    assert client.get(url).data == first.data and (len(reads), len(views)) == (2, 2)
