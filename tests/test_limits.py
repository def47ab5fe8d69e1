"""Whom the rate limits count: a client by its address, an IPv6 client by its /64; the
expensive reads per address and page; a room of phones behind one address (a club) by
table and code as well, while unknown codes keep the strict budget of their address
(docs/security-limits.md)."""

from __future__ import annotations

import io

import pytest
from limits import parse

from tests.conftest import NAMES, hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.limits import client_address, limiter
from tichu_scorer.matches.early_limits import EarlyLimits
from tichu_scorer.models import Group, Match

FORM = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"}


def limited_app(tmp_path, **config):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI="memory://",
                   **config)
    with app.app_context():
        db.create_all()
    return app


def phone(app, address: str):
    """A client whose requests come from `address` (the address the app sees)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.mark.parametrize("address, counted", [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped: the IPv4 client it is
    ("fe80::1%eth0", "fe80::/64"),
    ("not an address", "not an address"),
    ("", "unknown"),
])
def test_a_client_is_counted_by_its_address_and_an_ipv6_client_by_its_64(app, address,
                                                                           counted):
    with app.test_request_context(environ_base={"REMOTE_ADDR": address}):
        assert client_address() == counted


def test_the_addresses_of_one_ipv6_64_share_one_budget(tmp_path):
    app = limited_app(tmp_path)  # the default: 30 unknown codes a minute
    answers = [phone(app, f"2001:db8:5:6::{n:x}").get(f"/join?code=ZZZZ{n:04d}").status_code
               for n in range(200)]
    assert answers[:30] == [404] * 30 and set(answers[30:]) == {429}
    assert phone(app, "2001:db8:5:7::1").get("/join?code=ZZZZ0000").status_code == 404
    assert phone(app, "::ffff:198.51.100.1").get("/join?code=ZZZZ0000").status_code == 404


def test_anonymous_imports_from_one_64_are_bounded(tmp_path):
    app = limited_app(tmp_path, CREATE_RATE_LIMIT="3 per hour")
    answers = [phone(app, f"2001:db8:9:9::{n}").post("/import", data={
        "file": (io.BytesIO(b'{"matches": []}'), "x.json")}).status_code for n in range(1, 6)]
    assert answers[3:] == [429, 429] and 429 not in answers[:3]


def test_expensive_reads_are_limited_per_client_with_retry_after(tmp_path):
    app = limited_app(tmp_path, READ_RATE_LIMIT="2 per minute",
                      EXPORT_RATE_LIMIT="2 per hour")
    me = phone(app, "203.0.113.5")
    url = new_match(me)
    assert post_hand(me, url, hand_form([0, 1], a=60)).status_code == 303
    for path in (url + "/log", url + "/every-hand", url + "/board", "/stats",
                 url + "/export.json", "/export.csv"):
        answers = [me.get(path) for _ in range(3)]
        assert [r.status_code for r in answers] == [200, 200, 429], path
        refused = answers[-1]
        assert 1 <= int(refused.headers["Retry-After"]) <= 3600
        assert "from this network" in refused.get_data(as_text=True)
    # JSON for a caller that reads JSON (API.md's error shape)
    refused = me.get(url + "/log", headers={"Accept": "application/json"})
    assert refused.status_code == 429 and refused.get_json()["field"] == "request"
    assert "wait a minute" in refused.get_json()["error"]
    # the match page (kept per revision) and its revision poll stay unlimited
    assert all(me.get(url).status_code == 200 for _ in range(5))
    assert all(me.get(url + "/revision").status_code == 200 for _ in range(5))
    # another client is not refused with this one: its twin cookie, another address
    other = phone(app, "203.0.113.6")
    other.set_cookie("session", me.get_cookie("session").value)
    assert other.get(url + "/log").status_code == 200


def test_a_refused_read_is_in_german_for_a_german_phone(tmp_path):
    app = limited_app(tmp_path, READ_RATE_LIMIT="1 per minute")
    me = phone(app, "203.0.113.5")
    me.get("/stats")
    refused = me.get("/stats", headers={"Accept-Language": "de"})
    assert refused.status_code == 429 and "Netz" in refused.get_data(as_text=True)


def room(app, players: int = 64, address: str = "198.51.100.40"):
    """A club night behind one public address: the director starts a table and one match
    per four players; every player's phone joins with the scorer link."""
    director = phone(app, address)
    urls = [new_match(director, [f"P{4 * m + i}" for i in range(4)])
            for m in range(players // 4)]
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        scorer_key, invite = group.scorer_key, group.invite_code
    return director, urls, scorer_key, invite


def test_a_room_of_64_phones_behind_one_address_joins_saves_and_reads(tmp_path):
    app = limited_app(tmp_path)  # every limit at its default
    address = "198.51.100.40"
    director, urls, scorer_key, _invite = room(app, address=address)
    phones = [phone(app, address) for _ in range(64)]
    joined = [p.get(f"/join?key={scorer_key}").status_code for p in phones]
    assert joined == [303] * 64  # the address's 30 a minute would refuse the 31st
    for round_ in range(2):  # 128 saves in a minute: above one address's 120
        for n, p in enumerate(phones):
            r = post_hand(p, urls[n // 4], hand_form([0, 1], a=60))
            assert r.status_code == 303, (round_, n, r.status_code)
    for n, p in enumerate(phones):
        assert p.get(urls[n // 4]).status_code == 200
        assert p.get(urls[n // 4] + "/log").status_code == 200
        assert p.get("/stats").status_code == 200
    # the next round: 16 rematches, 32 matches in the hour (one address may start 30)
    for url in urls:
        r = director.post(url + "/rematch")
        assert r.status_code == 303, r.status_code
    assert director.post("/matches/new", data=FORM | {"table": "new"}).status_code == 303


def test_a_guesser_behind_the_rooms_address_is_still_limited(tmp_path):
    app = limited_app(tmp_path)
    address = "198.51.100.40"
    _director, urls, _key, invite = room(app, players=8, address=address)
    # 40 phones join with the table's code: a known code counts against its own budget
    assert [phone(app, address).get(f"/join?code={invite}").status_code
            for _ in range(40)] == [303] * 40
    guesser = phone(app, address)
    tries = [guesser.get(f"/join?code=ZZZZ{n:04d}").status_code for n in range(31)]
    assert tries[:30] == [404] * 30 and tries[30] == 429
    # past its budget the address learns nothing: a right code is refused as a wrong one
    assert guesser.get(f"/join?code={invite}").status_code == 429
    assert guesser.get("/v/ZZZZ9999").status_code == 429
    # another address is not affected
    assert phone(app, "198.51.100.41").get(f"/join?code={invite}").status_code == 303


def test_a_known_code_has_a_budget_of_its_own(tmp_path):
    app = limited_app(tmp_path, CODE_JOIN_RATE_LIMIT="3 per minute")
    _director, _urls, _key, invite = room(app, players=4)
    answers = [phone(app, f"203.0.113.{n}").get(f"/join?code={invite}").status_code
               for n in range(1, 5)]
    assert answers == [303, 303, 303, 429]  # from four addresses: the code's own budget


def test_the_rooms_ceiling_bounds_one_address_across_its_tables(tmp_path):
    app = limited_app(tmp_path, WRITE_RATE_LIMIT="2 per minute", ROOM_FACTOR=2)
    me = phone(app, "203.0.113.9")
    url = new_match(me)  # a new table: the address's own budget (1 of 2)
    saves = [post_hand(me, url, hand_form([0, 1], a=60)).status_code for _ in range(5)]
    assert saves == [303] * 4 + [429]  # 2 x 2 at a table this phone scores


def test_a_write_to_a_table_the_phone_does_not_score_keeps_the_strict_budget(tmp_path):
    app = limited_app(tmp_path, WRITE_RATE_LIMIT="2 per minute")
    owner = phone(app, "203.0.113.1")
    url = new_match(owner)
    stranger = phone(app, "203.0.113.2")
    answers = [stranger.post(url + "/hands/new", data=hand_form([0, 1], a=60)).status_code
               for _ in range(3)]
    assert answers == [404, 404, 429]
    assert post_hand(owner, url, hand_form([0, 1], a=60)).status_code == 303


def flask_calls(app, endpoint: str) -> list[int]:
    """One entry per request that reached Flask's view of `endpoint` (its limits' wrapper
    included): the others were answered before Flask (`matches.repeat_views`)."""
    calls: list[int] = []
    view = app.view_functions[endpoint]

    def counted(*args, **kwargs):
        calls.append(1)
        return view(*args, **kwargs)
    app.view_functions[endpoint] = counted
    return calls


def test_a_read_limit_counts_the_answers_before_flask_too(tmp_path):
    """The page of every hand, kept whole and answered before Flask, or its 304: each
    counts against the same budget as Flask's answers, so alternating gains nothing."""
    app = limited_app(tmp_path, READ_RATE_LIMIT="4 per minute")
    me = phone(app, "203.0.113.5")
    url = new_match(me)
    me.get(url)  # the message of the new match shown (a page with one is not kept)
    url += "/every-hand"
    calls = flask_calls(app, "matches.show_every")
    first = me.get(url)  # Flask's (kept)
    kept = me.get(url)  # the kept response, before Flask
    copy = me.get(url, headers={"If-None-Match": first.headers["ETag"]})  # 304 before Flask
    other = me.get(url, headers={"Accept-Encoding": "gzip"})  # Flask's again
    assert [first.status_code, kept.status_code, copy.status_code, other.status_code] == [
        200, 200, 304, 200] and len(calls) == 2
    assert kept.data == first.data
    for headers in ({}, {"If-None-Match": first.headers["ETag"]}, {"Accept-Encoding": "gzip"}):
        refused = me.get(url, headers=headers)
        assert refused.status_code == 429 and refused.headers["Retry-After"], headers
    assert "from this network" in refused.get_data(as_text=True)
    other = phone(app, "203.0.113.6")  # the same phone at another address: its own budget
    other.set_cookie("session", me.get_cookie("session").value)
    assert other.get(url).status_code == 200


def test_a_viewer_link_answered_before_flask_counts_against_the_join_limits(tmp_path):
    """The viewer link (`limit_joins`): an answer before Flask counts against its code's
    budget as Flask's does, and is refused once the address spent its unknown codes."""
    app = limited_app(tmp_path, CODE_JOIN_RATE_LIMIT="4 per minute")
    url = new_match(phone(app, "203.0.113.5"))
    with app.app_context():
        code = db.session.execute(db.select(Match.code).where(
            Match.key == url.rsplit("/", 1)[1])).scalar_one()
    calls = flask_calls(app, "matches.view")
    viewer = phone(app, "198.51.100.7")
    given = [viewer.get(f"/v/{code}") for _ in range(3)]  # the cookie set; kept; before Flask
    copy = viewer.get(f"/v/{code}", headers={"If-None-Match": given[-1].headers["ETag"]})
    assert [r.status_code for r in given] + [copy.status_code] == [200, 200, 200, 304]
    assert len(calls) == 2  # (the first two: the right given, then the page kept)
    assert phone(app, "198.51.100.8").get(f"/v/{code}").status_code == 429  # the code's 4
    # an address that spent its budget of unknown codes is refused the known one too
    app = limited_app(tmp_path / "guesser", JOIN_RATE_LIMIT="2 per minute")
    url = new_match(phone(app, "203.0.113.5"))
    with app.app_context():
        code = db.session.execute(db.select(Match.code)).scalar_one()
    guesser = phone(app, "198.51.100.9")
    assert [guesser.get(f"/v/{code}").status_code for _ in range(3)] == [200] * 3
    assert [guesser.get(f"/v/ZZZZ{n:04d}").status_code for n in range(3)] == [404, 404, 429]
    etag = guesser.get(f"/v/{code}").headers.get("ETag")
    assert guesser.get(f"/v/{code}").status_code == 429 and etag is None
    assert guesser.get(f"/v/{code}", headers={"If-None-Match": "x"}).status_code == 429


def test_behind_a_proxy_the_answers_before_flask_count_the_client_it_names(tmp_path):
    """PROXY_COUNT=1: the client is the address the proxy names, before Flask too (two
    clients of one proxy have a budget each, and neither gets more than its own)."""
    app = limited_app(tmp_path, READ_RATE_LIMIT="2 per minute", PROXY_COUNT=1)
    one, two = phone(app, "10.0.0.1"), phone(app, "10.0.0.1")
    one.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.1"
    url = new_match(one)
    one.get(url)  # (its message shown)
    url += "/every-hand"
    two.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.2"
    two.set_cookie("session", one.get_cookie("session").value)  # the same phone, elsewhere
    assert [one.get(url).status_code for _ in range(4)] == [200, 200, 429, 429]
    assert [two.get(url).status_code for _ in range(3)] == [200, 200, 429]


def strategy_calls(monkeypatch) -> list[tuple[str, str, int, int, int]]:
    """Every call the limits' strategy (the `limits` library's, which Flask-Limiter counts
    with) is given from now on: test or hit, the storage key, the window in seconds, the
    amount and the cost."""
    calls: list[tuple[str, str, int, int, int]] = []
    strategy = limiter.limiter
    for name, method in (("hit", strategy.hit), ("test", strategy.test)):
        def recorded(item, *args, cost=1, _name=name, _method=method):
            calls.append((_name, item.key_for(*args), item.get_expiry(), item.amount, cost))
            return _method(item, *args, cost=cost)
        monkeypatch.setattr(strategy, name, recorded)
    return calls


@pytest.mark.parametrize("proxied", [False, True])
def test_the_early_path_counts_the_keys_and_windows_flask_limiter_counts(tmp_path,
                                                                           monkeypatch,
                                                                           proxied):
    """Each answer before Flask makes the very hits Flask-Limiter makes for Flask's answer
    of the same request: the same storage keys (client, IPv6 /64, code as typed, the
    proxy's client), windows, amounts and costs; and tests what it tests. Counted without
    Flask-Limiter's request path (`EarlyLimits.checked` is never called)."""
    app = limited_app(tmp_path, READ_RATE_LIMIT="50 per minute; 500 per hour",
                      CODE_JOIN_RATE_LIMIT="40 per minute", JOIN_RATE_LIMIT="20 per 2 minutes",
                      **({"PROXY_COUNT": 1} if proxied else {}))
    me = phone(app, "10.0.0.1" if proxied else "2001:db8:1:2::5")
    if proxied:
        me.environ_base["HTTP_X_FORWARDED_FOR"] = "2001:db8:7:8::9"
    url = new_match(me)
    me.get(url)  # (the message of the new match shown)
    with app.app_context():
        code = db.session.execute(db.select(Match.code)).scalar_one()
    monkeypatch.setattr(EarlyLimits, "checked",
                        lambda *args: pytest.fail("counted by Flask-Limiter's request path"))
    calls = strategy_calls(monkeypatch)
    typed = f"{code[:4].lower()}-{code[4:]}"  # as a phone may type it: the same budget
    for path, endpoint in ((url + "/every-hand", "matches.show_every"),
                           (f"/v/{typed}", "matches.view")):
        reached = flask_calls(app, endpoint)
        seen = {True: [], False: []}  # the calls of each request, by who answered it
        etag = None
        for n in range(5):
            before, flask_before = len(calls), len(reached)
            answer = me.get(path, headers={"If-None-Match": etag} if n == 4 else {})
            assert answer.status_code == (304 if n == 4 else 200), (path, n)
            etag = answer.headers.get("ETag", etag)
            seen[len(reached) > flask_before].append(sorted(calls[before:]))
        assert seen[True] and len(seen[False]) >= 2, path  # Flask's, and kept + 304 early
        flask = seen[True][-1]
        hits = [c for c in flask if c[0] == "hit"]
        assert hits and all(c[1].split("/")[1] != "" for c in hits)
        for early in seen[False]:
            assert [c for c in early if c[0] == "hit"] == hits, path
            tested = {c[1:] for c in early if c[0] == "test"}
            assert {c[1:] for c in flask if c[0] == "test"} <= tested <= {c[1:] for c in flask}
    counted_as = {c[1] for c in calls}
    client = "2001:db8:7:8::/64" if proxied else "2001:db8:1:2::/64"
    assert any(client in key for key in counted_as)
    assert not any("10.0.0.1" in key for key in counted_as)


def test_a_spent_limit_leaves_the_routes_other_limit_counted_as_flask_counts_it(tmp_path,
                                                                                 monkeypatch):
    """Two limits on the page of every hand, the hour's spent (Flask-Limiter counts the
    minute's first): a request refused leaves the minute's budget as Flask alone would
    leave it (the early path counted nothing before it sent the request to Flask, which
    counts and refuses it)."""
    def minute_left(name: str, early: bool) -> tuple[list[int], int, int]:
        app = limited_app(tmp_path / name, READ_RATE_LIMIT="50 per minute; 3 per hour")
        me = phone(app, "203.0.113.5")
        url = new_match(me)
        me.get(url)  # (the message of the new match shown)
        url += "/every-hand"
        if not early:
            monkeypatch.setattr(EarlyLimits, "within", lambda *args, **kwargs: False)
        calls = flask_calls(app, "matches.show_every")
        answers = [me.get(url).status_code for _ in range(7)]
        minute = parse("50 per minute")
        left = limiter.limiter.get_window_stats(minute, "203.0.113.5", "matches.show_every")
        return answers, len(calls), left.remaining
    early, flask = minute_left("early", True), minute_left("flask", False)
    assert early[0] == flask[0] == [200] * 3 + [429] * 4
    assert early[1] == 5 and flask[1] == 7  # two kept pages given before Flask
    assert early[2] == flask[2] < 50
