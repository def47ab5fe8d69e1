"""The hand in play through HTTP (views/follow.py; the rules' cases are unit tests,
tests/core/test_follow.py): a tap as JSON and as a plain form, each refusal with its rule
and field, the same tap counted once, rights, the live version, and what the events fill:
the hand form, the saved hand's page and log, the referee, the board, the export."""

from __future__ import annotations

import io
import json

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.follow_rows import FollowEvent
from tichu_scorer.models import Match

JSON = {"Accept": "application/json"}


def tap(client, url, event, **fields):
    return client.post(url + "/follow", data={"event": event, **fields}, headers=JSON)


def follow_to_the_end(client, url):
    for event in ("start", "grand:1", "dealt", "passed", "tichu:0", "wish::8", "bomb:3",
                  "out:0", "out:3", "out:1"):
        r = tap(client, url, event)
        assert r.status_code == 200, (event, r.get_json())
    return r.get_json()


@pytest.fixture()
def url(client):
    return new_match(client)


def stored(app, url):
    with app.app_context():
        return list(db.session.execute(db.select(FollowEvent.kind, FollowEvent.seat).where(
            FollowEvent.match_id == match_id(url)).order_by(FollowEvent.id)))


def test_a_tap_as_json_answers_the_hand_and_its_panel(app, client, url):
    answer = tap(client, url, "start").get_json()
    assert answer["stored"] and answer["seen"] == 1 and answer["hand"] == 1
    assert answer["follow"]["phase"] == "deal" and "Hand 1 in play" in answer["panel"]
    answer = client.post(url + "/follow", json={"kind": "tichu", "seat": 2}).get_json()
    assert answer["follow"]["calls"] == {"2": "tichu"} and answer["seen"] == 2
    assert stored(app, url) == [("start", None), ("tichu", 2)]


def test_a_plain_form_comes_back_to_the_match_page_with_the_refusal(client, url):
    r = client.post(url + "/follow", data={"event": "start"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#follow")
    client.post(url + "/follow", data={"event": "dealt"})
    r = client.post(url + "/follow", data={"event": "grand:0"}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Grand Tichu only before all cards are dealt" in page and "(L1)" in page


@pytest.mark.parametrize("events, refused, rule", [
    (("start", "dealt"), "grand:0", "L1"),
    (("start", "out:1"), "tichu:1", "L2"),
    (("start",), "fulfilled", "L3"),
    (("start", "out:0", "out:1", "out:2"), "out:3", "L4"),
    (("start", "out:0", "out:0"), "out:0", "L4"),  # the second out:0 is a second phone's
    (("start", *["bomb:2"] * 4), "bomb:2", "L5"),
    ((), "undo", "L6"),
])
def test_a_refusal_is_422_with_its_rule_and_stores_nothing(app, client, url, events, refused,
                                                           rule):
    for event in events:
        tap(client, url, event)
    before = stored(app, url)
    r = tap(client, url, refused)
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["rule"] == rule
    assert stored(app, url) == before


@pytest.mark.parametrize("fields, field", [
    ({"event": "shout"}, "kind"),
    ({"event": "tichu:9"}, "seat"),
    ({"event": "tichu"}, "seat"),
    ({"event": "wish::1"}, "rank"),
    ({"event": "start", "client_id": "not ok!"}, "client_id"),
    ({"event": "start", "seen": "-1"}, "seen"),
])
def test_an_event_that_is_not_one_is_400_naming_the_field(client, url, fields, field):
    r = client.post(url + "/follow", data=fields, headers=JSON)
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_a_json_body_that_is_not_an_object_is_400(client, url):
    r = client.post(url + "/follow", data=b"[1]", content_type="application/json")
    assert r.status_code == 400


def test_a_tap_sent_twice_or_by_two_phones_at_once_counts_once(app, client, url):
    tap(client, url, "start", client_id="tap-1")
    assert tap(client, url, "start", client_id="tap-1").get_json()["stored"] is False
    tap(client, url, "bomb:1", client_id="a", seen="1")
    # a second phone that also saw one event taps the same bomb: it is the same bomb
    answer = tap(client, url, "bomb:1", client_id="b", seen="1").get_json()
    assert answer["stored"] is False and answer["follow"]["bombs"] == [0, 1, 0, 0]
    # a phone that saw the first bomb taps another one: a second bomb
    assert tap(client, url, "bomb:1", client_id="c", seen="2").get_json()["stored"]
    assert [k for k, _ in stored(app, url)] == ["start", "bomb", "bomb"]
    # a second "Follow this hand" is the hand followed already
    assert tap(client, url, "start").get_json()["stored"] is False


def test_only_a_scorer_taps_and_a_viewer_sees(app, client, url):
    tap(client, url, "start")
    tap(client, url, "wish::Q")
    with app.app_context():
        code = db.session.get(Match, match_id(url)).code
    viewer = app.test_client()
    viewer.get(f"/v/{code}")
    assert viewer.post(url + "/follow", data={"event": "out:1"}).status_code == 403
    seen = viewer.get(url + "/follow.json").get_json()
    assert seen["follow"]["wish"] == "Q" and "<button" not in seen["panel"]
    page = viewer.get(url).get_data(as_text=True)
    assert "Wished: Q" in page and "data-follow-facts" not in page
    assert app.test_client().post(url + "/follow", data={"event": "out:1"}).status_code == 404


def test_each_event_raises_the_revision_live_pages_follow(app, client, url):
    def revision():
        with app.app_context():
            return db.session.get(Match, match_id(url)).revision
    first = revision()
    answer = tap(client, url, "start").get_json()
    assert revision() == first + 1 and answer["tag"] == f"m{first + 1}.0"
    tap(client, url, "start")  # stored nothing: no new version
    assert revision() == first + 1
    assert "Follow this hand" not in client.get(url).get_data(as_text=True)


def test_the_hand_form_opens_filled_and_the_saved_hand_keeps_its_story(app, client, url):
    follow_to_the_end(client, url)
    form = client.get(url + "/hands/new").get_data(as_text=True)
    assert "Filled from the hand as it was followed" in form
    assert 'name="place_1"' in form and 'value="0" checked' in form or 'selected' in form
    r = post_hand(client, url, hand_form([0, 3, 1], calls={1: "grand", 0: "tichu"}, a=30)
                  | {"bombs_3": "1"})
    assert r.status_code == 303
    log = client.get(url + "/log").get_data(as_text=True)
    assert "Ann called Tichu after the pass, before his first card." in log
    assert "Bob called Grand Tichu with the first 8 cards." in log
    page = client.get(url + "/hands/1/edit").get_data(as_text=True)
    assert "As the hand was followed" in page and "Dee went out, number 2." in page
    # the next hand is not followed: the match page offers to follow it
    assert "Follow this hand" in client.get(url).get_data(as_text=True)
    assert client.get(url + "/follow.json").get_json()["follow"]["followed"] is False


def test_the_referee_opens_with_the_open_wish_and_the_calls(client, url):
    for event in ("start", "tichu:2", "passed", "wish::9"):
        tap(client, url, event)
    key = url.rsplit("/", 1)[1]
    page = client.get(f"/referee?match={key}").get_data(as_text=True)
    assert "Cy: Tichu" in page and "The wish for a 9 is open." in page
    assert '<option selected value="9">' in page or 'value="9" selected' in page


def test_the_board_shows_the_open_wish_large(client, url):
    for event in ("start", "passed", "wish::K", "out:2"):
        tap(client, url, event)
    board = client.get(url + "/board").get_data(as_text=True)
    assert 'class="follow-wish open"' in board and "Wished: K" in board and "out 1." in board


def test_a_finished_match_has_no_hand_in_play(app, client):
    url = new_match(client, target="custom", custom="100")
    post_hand(client, url, hand_form([0, 2], a=None))
    assert tap(client, url, "start").get_json()["errors"][0]["rule"] == "E1"
    assert client.get(url + "/follow.json").status_code == 404


def test_a_followed_hand_goes_out_and_comes_back_with_the_export(app, client, url):
    follow_to_the_end(client, url)
    post_hand(client, url, hand_form([0, 3, 1], calls={1: "grand", 0: "tichu"}, a=30))
    blob = client.get(url + "/export.json").get_data()
    hand = json.loads(blob)["matches"][0]["hands"][0]
    assert [e["kind"] for e in hand["follow"]][:3] == ["start", "grand", "dealt"]
    assert hand["follow"][1] == {"kind": "grand", "seat": 1, "at": hand["follow"][1]["at"]}
    other = app.test_client()
    r = other.post("/import", data={"file": (io.BytesIO(blob), "export.json")})
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:500]
    again = other.get("/export.json").get_json()["matches"][0]["hands"][0]
    assert again["follow"] == hand["follow"]
    theirs = other.get("/export.json").get_json()["matches"][0]
    assert theirs["hands"][0]["follow"][4]["kind"] == "tichu"


@pytest.mark.parametrize("follow_field, said", [
    ("nope", "follow must be a list"),
    ([{"kind": "shout"}], "Unknown event"),
    ([{"kind": "tichu", "seat": 7}], "Seat 7 does not exist"),
    ([{"kind": "start", "phone": "x" * 30}], "at most 24 characters"),
])
def test_an_import_with_events_that_are_not_refuses_the_file(app, client, url,
                                                              follow_field, said):
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303
    data = client.get(url + "/export.json").get_json()
    data["matches"][0]["hands"][0]["follow"] = follow_field
    other = app.test_client()
    r = other.post("/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})
    assert said in r.get_data(as_text=True)
    assert other.get("/export.json").get_json()["matches"] == []


def test_a_closed_tournament_table_takes_no_event(client, url, monkeypatch):
    from tichu_scorer.matches import closing
    from tichu_scorer.scoring import Problem
    monkeypatch.setattr(closing, "closed", lambda match, hold=True: Problem(
        "match", "TN5", "Round 1 is closed."))
    r = tap(client, url, "start")
    assert r.status_code == 422 and r.get_json()["errors"][0]["rule"] == "TN5"


@pytest.mark.parametrize("variant, names, extra, taps, form", [
    # Threechu: hand 1 shuffled by Tom (seat 0), who calls no Grand Tichu [T3.3]; the
    # dummy (seat 3) calls Tichu
    ("threechu", ["Tom", "Uma", "Vic"], {"length": "hands", "hands": "3"},
     [("start", 200), ("grand:0", 422), ("grand:1", 200), ("tichu:3", 200), ("out:3", 200),
      ("out:1", 200)], {"out_order": [3, 1], "calls": {"1": "grand", "3": "tichu"}}),
    # Tientsin: 6 first cards; a triple victory ends the hand
    ("tientsin", ["A", "B", "C", "D", "E", "F"], {"target": "1000"},
     [("start", 200), ("tichu:5", 200), ("out:0", 200), ("out:2", 200), ("out:4", 200),
      ("out:1", 422)], {"out_order": [0, 2, 4], "calls": {"5": "tichu"}}),
    # Grand Seigneur: no calls, the order of going out
    ("seigneur", ["G1", "G2", "G3", "G4", "G5"], {},
     [("start", 200), ("tichu:1", 422), ("out:3", 200), ("out:1", 200)],
     {"out_order": [3, 1]}),
])
def test_each_variant_follows_by_its_rules(client, variant, names, extra, taps, form):
    data = {"variant": variant} | {f"seat_{i}": n for i, n in enumerate(names)} | extra
    url = client.post("/matches/new", data=data).headers["Location"]
    for event, status in taps:
        assert tap(client, url, event).status_code == status, event
    answer = client.get(url + "/follow.json").get_json()
    assert {k: v for k, v in answer["follow"]["form"].items() if k in form} == form
    assert "in play" in client.get(url).get_data(as_text=True)
    assert client.get(url + "/hands/new").status_code == 200
    assert client.get(url + "/board").status_code == 200


@pytest.mark.parametrize("variant, names, followed, only", [
    ("nanking", ["Ann", "Bob", "Cy", "Dee"], False, False),
    ("nanking", ["Ann", "Bob", "Cy", "Dee"], True, True),  # filled from the followed taps
    ("threechu", ["Tom", "Uma", "Vic"], False, True),  # a seating for this hand alone [T3.1]
    ("seigneur", ["G1", "G2", "G3", "G4", "G5"], False, False),
])
def test_a_new_hand_form_says_when_it_is_drawn_for_its_hand_alone(client, variant, names,
                                                                  followed, only):
    """A phone's copy of a new-hand form may be renumbered for a later hand (live.js, adopt)
    unless the form is drawn for its own hand alone: its followed taps, Threechu's seating."""
    data = {"variant": variant} | {f"seat_{i}": n for i, n in enumerate(names)}
    url = client.post("/matches/new", data=data).headers["Location"]
    if followed:
        for event in ("start", "tichu:0"):
            assert tap(client, url, event).status_code == 200, event
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert ("data-this-hand-only" in page) is only
    assert ("data-followed" in page) is followed


def test_threechu_draws_the_forms_of_the_hands_after_the_next_with_their_seating(client):
    """[T3.1]: the seating follows the shuffler, who changes every hand, so the scorer's match
    page names the forms of the next hands after the next (`?number=`), which a phone keeps
    for no signal; each is drawn for its hand: its number, entry number and shuffler.
    Another number, or another game, gets the next hand's form."""
    data = {"variant": "threechu", "seat_0": "Tom", "seat_1": "Uma", "seat_2": "Vic"}
    url = client.post("/matches/new", data=data).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    ahead = [f"{url}/hands/new?number={n}" for n in range(2, 7)]
    assert f'data-hand-ahead="{" ".join(ahead)}"' in page
    for number, shuffler in ((2, "Uma"), (3, "Vic"), (4, "Tom"), (6, "Vic"), (7, "Tom"),
                             (1, "Tom"), ("x", "Tom")):
        form = client.get(f"{url}/hands/new?number={number}").get_data(as_text=True)
        shown = number if number in range(2, 7) else 1
        assert f'name="number" value="{shown}"' in form and f'name="entry" value="{shown}"' in form
        assert f"<strong>{shuffler}</strong> shuffles and plays the dummy" in form, number
        assert "data-this-hand-only" in form
    for junk in ("²", "٣", "9" * 5000, "-2", "2.0", " 3"):  # the next hand's form, never a 500
        form = client.get(f"{url}/hands/new", query_string={"number": junk})
        assert form.status_code == 200 and 'name="number" value="1"' in form.get_data(
            as_text=True), junk
    four = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    other = client.post("/matches/new", data=four).headers["Location"]
    assert "data-hand-ahead" not in client.get(other).get_data(as_text=True)
    assert 'name="number" value="1"' in client.get(f"{other}/hands/new?number=2").get_data(
        as_text=True)


def test_threechu_names_no_form_past_its_length_or_its_end(client):
    """A Threechu match of a fixed length offers the forms of its hands only ([T3.5]); an
    ended one offers none."""
    data = {"variant": "threechu", "seat_0": "Tom", "seat_1": "Uma", "seat_2": "Vic",
            "length": "hands", "hands": "3"}
    url = client.post("/matches/new", data=data).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    assert f'data-hand-ahead="{url}/hands/new?number=2 {url}/hands/new?number=3"' in page
    assert 'name="number" value="1"' in client.get(f"{url}/hands/new?number=4").get_data(
        as_text=True)
    for number in (1, 2, 3):
        assert client.post(f"{url}/hands/new", data={"number": str(number), "place_1": "1",
                                                     "card_a": "50"}).status_code == 303
    assert "data-hand-ahead" not in client.get(url).get_data(as_text=True)
