"""Tables are private: a stranger sees no other table's matches, log, exports, statistics or
names; rights survive a browser restart and a key rotation; links can be rotated."""

import html
import re
from datetime import datetime, timezone

import pytest

from tests.conftest import hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match


@pytest.fixture()
def table(app, client):
    url = new_match(client, ["Ann", "Bob", "Cy", "Dee"])
    assert post_hand(client, url, hand_form([0, 1], a=60)).status_code == 303
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        return url, match.group.key, match.group.invite_code, match.group.scorer_key


def paths(url, group_key):
    return [url, url + "/log", url + "/board", url + "/revision", url + "/export.json",
            url + "/export.csv", url + "/hands/1/edit", url + "/share",
            f"/tables/{group_key}"]


def test_a_stranger_sees_nothing_of_another_table(app, table):
    url, group_key, _code, _key = table
    stranger = app.test_client()
    for path in paths(url, group_key):
        assert stranger.get(path).status_code == 404, path
    for path in ("/", "/stats", "/matches/new"):
        page = stranger.get(path).get_data(as_text=True)
        assert "Ann" not in page and "Dee" not in page, path
    assert stranger.get("/export.json").get_json()["matches"] == []
    assert stranger.get("/export.csv").get_data(as_text=True).count("\n") == 1  # header only
    # nor can it change anything
    r = stranger.post(url + "/hands/new", data=hand_form([0, 1], a=50) | {"number": "2"})
    assert r.status_code == 404
    # match URLs carry no sequential id
    assert re.fullmatch(r"/matches/[A-Za-z0-9_-]{16}", url)
    assert stranger.get("/matches/1").status_code == 404


def test_the_invite_code_lets_a_phone_see_but_not_score(app, table):
    url, group_key, code, _key = table
    member = app.test_client()
    r = member.get("/join", query_string={"code": code.lower()})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tables/{group_key}")
    assert member.get(url).status_code == 200
    assert "Ann" in member.get("/stats").get_data(as_text=True)
    assert member.get(url + "/hands/new").status_code == 403
    r = member.post(url + "/hands/new", data=hand_form([0, 1], a=50) | {"number": "2"})
    assert r.status_code == 403


def test_rights_survive_a_browser_restart(app, client, table):
    url, *_ = table
    cookie = client.get_cookie("session")
    assert cookie.expires is not None  # a permanent cookie, not a session-only one
    days = (cookie.expires - cookie.expires.now(cookie.expires.tzinfo)).days
    assert 360 <= days <= 366
    reopened = app.test_client()  # a new browser process with only the stored cookie
    reopened.set_cookie("session", cookie.value)
    assert post_hand(reopened, url, hand_form([1, 0], a=30)).status_code == 303


def test_rights_survive_a_secret_key_rotation(tmp_path):
    old = make_app(tmp_path / "old", SECRET_KEY="old-key")
    with old.app_context():
        db.create_all()
    phone = old.test_client()
    url = new_match(phone)
    cookie = phone.get_cookie("session").value
    # the same database, served with a new key and the old one as a fallback
    uri = old.config["SQLALCHEMY_DATABASE_URI"]
    new = make_app(tmp_path / "new", SECRET_KEY="new-key", SECRET_KEY_FALLBACKS=["old-key"],
                   SQLALCHEMY_DATABASE_URI=uri)
    if uri.startswith("postgresql"):  # make_app empties PostgreSQL: start over there
        with new.app_context():
            db.create_all()
        phone = new.test_client()
        url = new_match(phone)
        new.config["SECRET_KEY_FALLBACKS"] = [new.config["SECRET_KEY"]]
        new.config["SECRET_KEY"] = "newer-key"
        cookie = phone.get_cookie("session").value
    again = new.test_client()
    again.set_cookie("session", cookie)
    assert post_hand(again, url, hand_form([0, 1], a=50)).status_code == 303
    # without the fallback the old cookie gives nothing
    new.config["SECRET_KEY_FALLBACKS"] = []
    lost = new.test_client()
    lost.set_cookie("session", cookie)
    assert lost.get(url).status_code == 404


def test_rotating_links_ends_the_old_ones(app, client, table):
    url, group_key, code, key = table
    member, scorer = app.test_client(), app.test_client()
    member.get("/join", query_string={"code": code})
    scorer.get("/join", query_string={"key": key})
    assert member.get(url).status_code == 200 and scorer.get(url + "/share").status_code == 200
    assert client.post(f"/tables/{group_key}/rotate").status_code == 303
    assert member.get(url).status_code == 404  # joined with the old code: out
    assert scorer.get(url).status_code == 404
    assert app.test_client().get("/join", query_string={"key": key}).status_code == 404
    assert post_hand(client, url, hand_form([0, 1], a=50)).status_code == 303  # the rotator
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        assert (group.invite_code, group.scorer_key) != (code, key)
        new_key = group.scorer_key
    assert scorer.get("/join", query_string={"key": new_key}).status_code == 303
    assert post_hand(scorer, url, hand_form([1, 0], a=50)).status_code == 303


def test_only_scorers_rotate_or_rename(app, table):
    _url, group_key, code, _key = table
    member = app.test_client()
    member.get("/join", query_string={"code": code})
    assert member.post(f"/tables/{group_key}/rotate").status_code == 403
    assert member.post(f"/tables/{group_key}/rename", data={"name": "X"}).status_code == 403
    assert app.test_client().post(f"/tables/{group_key}/rotate").status_code == 404


def test_a_scorer_renames_the_table(client, table):
    _url, group_key, *_ = table
    r = client.post(f"/tables/{group_key}/rename", data={"name": "  Friday   night "})
    assert r.status_code == 303
    assert "Friday night" in client.get(f"/tables/{group_key}").get_data(as_text=True)
    client.post(f"/tables/{group_key}/rename", data={"name": "x" * 41})
    assert "Friday night" in client.get("/").get_data(as_text=True)


def test_names_are_suggested_only_from_my_tables(app, table):
    stranger = app.test_client()
    page = stranger.get("/matches/new").get_data(as_text=True)
    assert '<option value="Ann">' not in page
    new_match(stranger, ["Eve", "Fay", "Gus", "Hal"])
    page = stranger.get("/matches/new").get_data(as_text=True)
    assert '<option value="Eve">' in page and '<option value="Ann">' not in page


def test_single_table_instance_needs_no_joining(tmp_path):
    app = make_app(tmp_path, SINGLE_TABLE=True)
    with app.app_context():
        db.create_all()
    first, second = app.test_client(), app.test_client()
    url = new_match(first)
    assert second.get(url).status_code == 200
    assert post_hand(second, url, hand_form([0, 1], a=55)).status_code == 303
    assert "Ann" in second.get("/").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Group)) == 1


def test_creation_is_rate_limited_per_client(tmp_path):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, CREATE_RATE_LIMIT="3 per hour")
    with app.app_context():
        db.create_all()
    phone = app.test_client()
    for _ in range(3):
        new_match(phone)
    data = {f"seat_{i}": n for i, n in enumerate("ABCD")} | {"target": "1000"}
    assert phone.post("/matches/new", data=data).status_code == 429
    assert phone.post("/tables/new", data={"name": "T"}).status_code == 429
    # entering hands is not creation: it goes on
    page = phone.get("/").get_data(as_text=True)
    url = re.search(r'href="(/matches/[A-Za-z0-9_-]{16})"', page).group(1)
    assert post_hand(phone, url, hand_form([0, 1], a=50)).status_code == 303


def test_a_response_that_changes_no_right_sends_no_cookie(client, table):
    """A slow request (a score preview) that began before a right was given must not put
    the older session back: only a changed session is sent."""
    url, *_ = table
    client.get(url)  # shows (and so takes out of the session) the "saved" message
    for response in (client.get(url), client.get("/"),
                     client.post(url + "/hands/preview", json={"out_order": [0, 1],
                                                               "card_points": [50, None]})):
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers


def test_a_device_stays_in_its_newest_tables_and_the_cookie_stays_small(app):
    from tichu_scorer.tables import access
    phone = app.test_client()
    for n in range(access.TABLES_KEPT + 5):
        assert phone.post("/tables/new", data={"name": f"T{n}"}).status_code == 303
    assert len(phone.get_cookie("session").value) < 4000
    page = phone.get("/").get_data(as_text=True)
    assert f">T{access.TABLES_KEPT + 4}<" in page and ">T0<" not in page


def test_rotating_links_also_ends_match_viewer_codes(app, client, table):
    url, group_key, code, _key = table
    with app.app_context():
        old = db.session.execute(db.select(Match)).scalar_one().code
    member, watcher = app.test_client(), app.test_client()
    member.get("/join", query_string={"code": code})
    assert old not in member.get(url).get_data(as_text=True)  # members are not shown it
    assert watcher.get(f"/v/{old}").status_code == 200
    assert watcher.get(url).status_code == 200
    assert client.post(f"/tables/{group_key}/rotate").status_code == 303
    assert watcher.get(url).status_code == 404
    assert watcher.get(f"/v/{old}").status_code == 404
    with app.app_context():
        new = db.session.execute(db.select(Match)).scalar_one().code
    assert len(new) == 8 and new != old


def test_viewer_codes_cannot_be_tried_one_after_another(tmp_path):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, JOIN_RATE_LIMIT="5 per minute")
    with app.app_context():
        db.create_all()
    guesser = app.test_client()
    statuses = [guesser.get(f"/v/AAAA{n:04d}").status_code for n in range(7)]
    assert statuses[:5] == [404] * 5 and statuses[-1] == 429


def test_a_name_at_another_table_tells_nothing(app, table):
    """Players belong to their table: a stranger typing a name used elsewhere gets his own
    spelling back, not the other table's."""
    stranger = app.test_client()
    url = new_match(stranger, ["ANN", "bob", "Cy", "Dee"])
    page = stranger.get(url).get_data(as_text=True)
    assert "ANN" in page and "bob" in page and ">Ann<" not in page
    with app.app_context():
        from tichu_scorer.models import Player
        assert len(db.session.execute(db.select(Player).filter_by(name_key="ann")).all()) == 2


def test_a_device_in_use_keeps_its_tables_a_year_from_its_last_visit(app, table, time_machine):
    """Joined on 20 November 2026, back on 22 December (more than RENEW_DAYS later, and in
    December, where the year of the expiry is not the year of the visit's month plus one
    month's): the cookie now lasts until 22 December 2027. Before that it is not sent."""
    from tichu_scorer.tables import access
    assert access.RENEW_DAYS < 32
    url, _group_key, code, _key = table
    client = app.test_client()
    time_machine.move_to(datetime(2026, 11, 20, 21, 0, tzinfo=timezone.utc), tick=False)
    joined = client.get("/join", query_string={"code": code})
    assert "Expires=Sat, 20 Nov 2027 21:00:00 GMT" in joined.headers["Set-Cookie"]
    client.get(joined.headers["Location"])
    client.get("/")  # (its form's CSRF token is written once)
    assert "Set-Cookie" not in client.get(url).headers  # renewed at most once a month
    time_machine.move_to(datetime(2026, 12, 12, 21, 0, tzinfo=timezone.utc), tick=False)
    assert "Set-Cookie" not in client.get("/").headers  # 22 days: not yet
    time_machine.move_to(datetime(2026, 12, 22, 21, 0, tzinfo=timezone.utc), tick=False)
    cookie = client.get("/").headers.get("Set-Cookie", "")
    assert "Expires=Wed, 22 Dec 2027 21:00:00 GMT" in cookie, cookie
    assert "Set-Cookie" not in client.get("/").headers  # and not again the same day


def test_a_background_copy_never_sends_the_session_back(tmp_path):
    """The service worker's copies (X-Tichu-Prefetch) began with an older cookie: even when
    the page makes a CSRF token, the response must not put that older session back."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    with app.app_context():
        db.create_all()
    fresh = app.test_client()
    r = fresh.get("/matches/new", headers={"X-Tichu-Prefetch": "1"})
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    assert "Set-Cookie" in fresh.get("/matches/new").headers  # a page the player opens does


NEW_MATCH = {"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee",
             "target": "1000"}


def matches_of(app, group_key):
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Match.id)).join(Group).where(
            Group.key == group_key))


def test_a_new_match_at_a_table_this_phone_cannot_score_is_refused(app, client, table):
    """Not a 422 whose "Not a valid choice" no field of the page shows: a stranger learns
    nothing of the table (404), a phone that only views it is told so, naming it (403);
    the link is refused before anyone types the players' names."""
    url, group_key, code, _key = table
    with app.app_context():
        name = db.session.execute(db.select(Group.name).filter_by(key=group_key)).scalar_one()
    stranger = app.test_client()
    assert stranger.get(f"/matches/new?table={group_key}").status_code == 404
    assert stranger.post(f"/matches/new?table={group_key}", data=NEW_MATCH).status_code == 404
    assert stranger.post("/matches/new", data=NEW_MATCH | {"table": group_key}
                         ).status_code == 404
    for odd in ("unknown", "x" * 500, group_key + "x", group_key[:-1]):
        assert client.post(f"/matches/new?table={odd}", data=NEW_MATCH).status_code == 404
    member = app.test_client()
    member.get("/join", query_string={"code": code})
    for response in (member.get(f"/matches/new?table={group_key}"),
                     member.post(f"/matches/new?table={group_key}", data=NEW_MATCH),
                     member.post("/matches/new", data=NEW_MATCH | {"table": group_key})):
        assert response.status_code == 403
        assert (f"This phone only views the table “{name}”: only its scorers may start a "
                "match there.") in html.unescape(response.get_data(as_text=True))
    german = member.get(f"/matches/new?table={group_key}", headers={"Accept-Language": "de"})
    assert german.status_code == 403
    assert f"Dieses Handy sieht den Tisch „{name}“ nur an" in html.unescape(
        german.get_data(as_text=True))
    assert matches_of(app, group_key) == 1
    # its scorer starts one there, by the link or by the form
    assert client.post(f"/matches/new?table={group_key}", data=NEW_MATCH).status_code == 303
    assert client.post("/matches/new", data=NEW_MATCH | {"table": group_key}
                       ).status_code == 303
    assert matches_of(app, group_key) == 3


def test_new_seats_for_a_match_this_phone_only_views_start_at_a_new_table(app, table):
    url, group_key, code, _key = table
    member = app.test_client()
    member.get("/join", query_string={"code": code})
    again = url.rsplit("/", 1)[1]
    assert member.get(f"/matches/new?again={again}").status_code == 200
    r = member.post(f"/matches/new?again={again}", data=NEW_MATCH)
    assert r.status_code == 303
    assert matches_of(app, group_key) == 1  # not at the table it only views
    assert member.get(r.headers["Location"] + "/hands/new").status_code == 200  # it scores
