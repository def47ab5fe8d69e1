"""Bad input never gives a 500: each case gets a 4xx, and where a field is to blame the
answer names it. Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL, whose
integers, text and varchar lengths are stricter."""

import html
import io
import json
import runpy
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import url_for
from gunicorn.config import Config
from gunicorn.glogging import Logger

from tests.conftest import NAMES, hand_form, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import NAME_MAX, Match, Player
from tichu_scorer.transfer import json_import
from tichu_scorer.views.jsonbody import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[2]
BEYOND = "99999999999999999999"  # beyond every database's integers (int8 too)
JUST_BEYOND = str(2**31)  # beyond PostgreSQL's integer, the type of ids and numbers
HUGE = 10**30


def nested(depth: int) -> dict:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return {"out_order": [0, 1], "card_points": [50, None], "deep": value}


def export(change) -> bytes:
    """A valid one-match export with one change."""
    data = {"format": "tichu-scorer", "version": 1, "matches": [{
        "variant": "nanking", "players": list(NAMES), "target": 1000,
        "hands": [{"number": 1, "out_order": [0, 1], "card_points": [50, None],
                   "client_id": "abc"}],
        "log": [{"hand_number": 1, "position": 1, "action": "added", "summary": ""}]}]}
    change(data["matches"][0])
    return json.dumps(data).encode()


def upload(blob: bytes) -> dict:
    return {"data": {"file": (io.BytesIO(blob), "x.json")},
            "content_type": "multipart/form-data"}


def hand(**extra) -> dict:
    return {"data": hand_form([0, 1], a=50) | {"number": "2"} | extra}


long_key = len(Player.key_of("ß" * NAME_MAX)) > json_import.KEY_MAX
# One request per guard and per way in; each guard's every case is a unit test of its
# module: path values and NUL in fields tests/views/test_errors.py, hidden numbers
# test_hands.py, JSON bodies and uploads test_jsonbody.py, an import's checks
# tests/transfer/test_json_import.py.
CASES = [
    # ids and hand numbers beyond the database's integers: no such thing (404)
    ("get", "/matches/" + BEYOND, {}, 404, None),
    ("post", "/matches/" + JUST_BEYOND + "/hands/new", hand(), 404, None),
    ("get", "{url}/hands/" + BEYOND + "/edit", {}, 404, None),
    ("post", "{url}/hands/" + JUST_BEYOND + "/edit", hand(version="1"), 404, None),
    ("post", "{url}/hands/preview?edit=" + BEYOND, {"json": {"out_order": [0, 1]}}, 404,
     None),
    # NUL characters: PostgreSQL cannot store them (400 naming the field)
    ("post", "/matches/new", {"data": {"seat_0": "A\x00n", "seat_1": "B", "seat_2": "C",
                                       "seat_3": "D", "target": "1000"}}, 400, "“seat_0”"),
    ("get", "/join?code=AB%00CD", {}, 400, "“code”"),
    ("get", "/v/AB%00CD", {}, 404, None),
    ("get", "/s/key%00", {}, 404, None),
    ("post", "/api/v1/score", {"json": {"out_order": [0, 1], "calls": {"0": "tichu\x00"}}},
     400, "calls.0"),
    # over-long or malformed client ids and hidden numbers
    ("post", "{url}/hands/new", hand(client_id="c" * 65), 400, "client_id"),
    ("post", "{url}/hands/new", hand(number=str(HUGE)), 400, "“number”"),
    ("post", "{url}/hands/1/delete", {"data": {"version": BEYOND}}, 400, "“version”"),
    # deeply nested JSON bodies, and one too large to read
    ("post", "/api/v1/score", {"json": nested(MAX_DEPTH + 5)}, 400,
     f"nested more than {MAX_DEPTH}"),
    ("post", "/api/v1/score", {"data": b'{"a": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
                               "content_type": "application/json"}, 413, None),
    ("post", "{url}/hands/preview", {"json": nested(MAX_DEPTH + 1)}, 400,
     f"nested more than {MAX_DEPTH}"),
    # imports: what the JSON reader refuses and what the import's checks refuse, before
    # storing
    ("post", "/import", upload(export(lambda m: m["hands"][0].update(number=HUGE))), 422,
     "“matches[0].hands[0].number” is too large"),
    ("post", "/import", upload(export(lambda m: m["log"][0].update(position=2**40))), 422,
     "match 1, log entry 1: position must be a whole number"),
    ("post", "/import", upload(b"\xff\xfe{}"), 422, "UTF-8"),
    ("post", "/import", upload(export(lambda m: m["players"].__setitem__(0, "ß" * 40))),
     422 if long_key else 303, "player 1" if long_key else None),
    # the referee's link back to a match
    pytest.param("get", f"/referee?match={BEYOND}&trick=5j&play=6j", {}, 200, None,
                 id="referee-match-beyond"),
]


@pytest.fixture()
def url(client):
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303
    return url


@pytest.mark.parametrize("method, path, kwargs, status, field", CASES)
def test_bad_input_gets_a_4xx_naming_the_field(client, url, method, path, kwargs, status,
                                               field):
    r = getattr(client, method)(path.format(url=url), **kwargs)
    body = html.unescape(r.get_data(as_text=True))
    assert r.status_code == status, body[-800:]
    if field is not None:
        assert field in body, body[-800:]
    assert client.get(url).status_code == 200  # nothing broke: the database still answers


def test_a_value_the_database_refuses_is_a_400_not_a_500(app, client):
    """The last line of defence, for a value no check caught: an id beyond the database's
    integers reaches a query (SQLite: OverflowError; PostgreSQL: DataError)."""
    app.add_url_rule("/test-overflow", "overflow",
                     lambda: str(db.session.get(Match, int(BEYOND))))
    app.add_url_rule("/api/test-overflow", "api_overflow",
                     lambda: str(db.session.get(Match, int(BEYOND))))
    r = client.get("/test-overflow")
    assert r.status_code == 400 and "too long or too large" in r.get_data(as_text=True)
    r = client.get("/api/test-overflow")
    assert r.status_code == 400 and r.get_json()["field"] == "request"
    assert client.get("/").status_code == 200  # the session was rolled back


def test_a_name_longer_once_case_folded_is_stored(client):
    """'ß' * 40 is 40 characters, but 80 once case-folded ('ss'): PostgreSQL refuses it in
    a varchar(40) key."""
    assert json_import.KEY_MAX >= len(Player.key_of("ß" * NAME_MAX))
    r = client.post("/matches/new", data={"seat_0": "ß" * NAME_MAX, "seat_1": "B",
                                          "seat_2": "C", "seat_3": "D", "target": "1000"})
    assert r.status_code == 303
    assert "ß" * NAME_MAX in client.get(r.headers["Location"]).get_data(as_text=True)


def access_line(environ: dict) -> str:
    """The line gunicorn writes to the access log with this repository's settings."""
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    config = Config()
    config.set("access_log_format", settings["access_log_format"])
    logger = Logger(config)
    headers = [(k[5:].replace("_", "-"), v) for k, v in environ.items()
               if k.startswith("HTTP_")]
    atoms = logger.atoms_wrapper_class(logger.atoms(
        SimpleNamespace(status="303 SEE OTHER", sent=0, headers=[]),
        SimpleNamespace(headers=headers), environ, timedelta(milliseconds=3)))
    return config.access_log_format % atoms


def test_the_access_log_keeps_no_query_string_and_no_referrer():
    line = access_line({"REQUEST_METHOD": "GET", "RAW_URI": "/s?key=SECRET1",
                        "PATH_INFO": "/s", "QUERY_STRING": "key=SECRET1",
                        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.1",
                        "HTTP_REFERER": "https://tichu.example/x?key=SECRET2",
                        "HTTP_USER_AGENT": "phone"})
    assert "SECRET" not in line
    assert '"GET /s HTTP/1.1" 303' in line and "10.0.0.1" in line and "phone" in line


def test_no_route_carries_the_scorer_key_in_its_path(app):
    with app.test_request_context():
        link = url_for("matches.join", key="SECRETKEY")
        rules = [rule.rule for rule in app.url_map.iter_rules()]
    assert "SECRETKEY" not in link.split("?")[0] and "SECRETKEY" in link
    assert not any("<key>" in rule and ("/s/" in rule or "join" in rule) for rule in rules)
