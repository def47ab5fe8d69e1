"""[TN5] as a tournament's phones meet it: once the next round is drawn, a table of the round
before takes no change of its hands from its score code (a new hand, an edit, a delete, an
undo, a restore: 422 naming the rule, as a page or as JSON for the outbox), and nothing is
changed; the director reopens one table, giving a reason (logged at the table with the
phone, refused without one), its hands are corrected as usual until the next draw closes it
again; the rounds drawn before such a correction, and the standing, say so.

The tests here use the database: marked `every_database` (see test_director.py)."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import hand_form, post_hand
from tests.views.test_tournaments import play, start, tables
from tichu_scorer.extensions import db
from tichu_scorer.matches import closing, creation, hand_entry, roster, writes
from tichu_scorer.models import HandEvent, Tournament
from tichu_scorer.tables import phones
from tichu_scorer.tournaments import director, drawing, formats
from tichu_scorer.tournaments.director import Refused

pytestmark = pytest.mark.every_database
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]  # one table a round


def key_of(match_url: str) -> str:
    return match_url.rsplit("/", 1)[1]


def stored(app, match_url):
    """What a refused write must leave as it was: the hands in play, the revision, the log."""
    with app.app_context():
        match = writes.match_by_key(key_of(match_url))
        found = ([(h.number, h.out_order, h.card_points) for h in match.hands],
                 match.revision, [e.action for e in match.events])
        db.session.remove()
    return found


def table_phone(app, client, match_url):
    """A phone that joined the table by its score code, as a table does ([TN4])."""
    with app.app_context():
        code = writes.match_by_key(key_of(match_url)).scorer_key
        db.session.remove()
    phone = app.test_client()
    assert phone.get("/join?code=" + code).status_code == 303
    return phone


def closed_table(app, client, rounds=2):
    """A tournament of one table a round: round 1 played (hand 1 deleted at its table and
    hand 2 entered in its place, so that a restore has a hand to bring back), round 2
    drawn. The tournament's URL, round 1's match URL and its table's phone."""
    url = start(client, PLAYERS, rounds=rounds, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    (match_url,) = tables(client, url, 1)
    phone = table_phone(app, client, match_url)
    play(phone, match_url, 1)
    assert phone.post(match_url + "/hands/1/delete", data={"version": "1"}).status_code == 303
    play(phone, match_url, 1, out=(1, 0))
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    return url, match_url, phone


def reopen(client, url, match_url, reason="card points misread"):
    return client.post(url + "/reopen", data={"table": key_of(match_url), "reason": reason})


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
                    .split())


WRITES = {
    "new hand": lambda phone, m: post_hand(phone, m, hand_form([0, 1], a=60)),
    "edit": lambda phone, m: phone.post(m + "/hands/2/edit",
                                        data=hand_form([0, 1], a=20) | {"version": "1"}),
    "delete": lambda phone, m: phone.post(m + "/hands/2/delete", data={"version": "1"}),
    "undo": lambda phone, m: phone.post(m + "/undo", data={"number": "2"}),
    "restore": lambda phone, m: phone.post(m + "/hands/1/restore"),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_closed_rounds_table_refuses_every_change_from_its_score_code(app, client, write):
    url, match_url, phone = closed_table(app, client)
    before = stored(app, match_url)
    response = WRITES[write](phone, match_url)
    assert response.status_code == 422, write
    said = text(response)
    assert "(TN5)" in said or "TN5" in said
    assert "Round 1 is closed: round 2 has been drawn" in said and "reopen" in said
    assert stored(app, match_url) == before  # nothing changed, nothing logged


def test_a_closed_table_refuses_the_outboxs_hand_as_json_with_the_rule(app, client):
    _url, match_url, phone = closed_table(app, client)
    before = stored(app, match_url)
    response = post_hand(phone, match_url, hand_form([0, 1], a=60) | {"client_id": "queued-1"},
                         headers={"Accept": "application/json"})
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert (error["field"], error["rule"], error["group"]) == ("match", "TN5", "match")
    assert "Round 1 is closed" in error["message"]
    assert stored(app, match_url) == before


def test_the_latest_rounds_tables_still_take_corrections(app, client):
    url, _match_url, _phone = closed_table(app, client)
    (current,) = tables(client, url, 2)
    play(client, current, 1)
    form = hand_form([1, 0], a=40) | {"version": "1"}
    assert client.post(current + "/hands/1/edit", data=form).status_code == 303


def test_the_director_reopens_a_table_with_a_reason_logged_with_the_phone(app, client):
    url, match_url, phone = closed_table(app, client)
    client.set_cookie(phones.COOKIE, "Director")
    response = reopen(client, url, match_url, "  card points   misread ")
    assert response.status_code == 303
    assert "Table 1 of round 1 is reopened" in text(client.get(url))
    # the table's phone corrects its hand, logged as every change is
    form = hand_form([1, 0], a=20) | {"version": "1"}
    assert phone.post(match_url + "/hands/2/edit", data=form).status_code == 303
    with app.app_context():
        match = writes.match_by_key(key_of(match_url))
        events = [(e.action, e.summary, e.phone, e.after) for e in match.events]
        assert events[-2] == ("reopened", "card points misread", "Director", {"round": 2})
        assert events[-1][0] == "edited"
        assert match.hands[0].card_points == [20, 80]
        db.session.remove()
    log = text(client.get(match_url + "/log"))
    assert ("table reopened by the director (TN5): card points misread (on Director's phone)"
            in log)
    page = html.unescape(client.get(url).get_data(as_text=True))
    listed = re.search(r"data-corrections>(.*?)</details>", page, re.S).group(1)
    assert "table reopened by the director (TN5)" in listed and "card points misread" in listed
    assert "Reopened until the next round is drawn: card points misread" in text(
        client.get(url))


def test_the_next_draw_closes_a_reopened_table_again(app, client):
    url, match_url, phone = closed_table(app, client, rounds=3)
    assert reopen(client, url, match_url).status_code == 303
    again = reopen(client, url, match_url)
    assert again.status_code == 422 and "already reopened" in text(again)
    play(client, tables(client, url, 2)[0], 1)
    assert client.post(url + "/draw", data={"round": 3}).status_code == 303
    refused = WRITES["undo"](phone, match_url)
    assert refused.status_code == 422 and "Round 1 is closed: round 2" in text(refused)
    assert reopen(client, url, match_url, "once more").status_code == 303  # and again


@pytest.mark.parametrize("reason, words", [
    ("", "Give the reason for reopening the table"),
    ("   ", "Give the reason for reopening the table"),
    ("x" * (closing.REASON_MAX + 1), f"at most {closing.REASON_MAX} characters"),
])
def test_a_reopening_without_a_reason_is_refused_and_logs_nothing(app, client, reason, words):
    url, match_url, phone = closed_table(app, client)
    before = stored(app, match_url)
    response = reopen(client, url, match_url, reason)
    assert response.status_code == 422
    assert 'data-refused="reason"' in response.get_data(as_text=True)
    assert words in text(response) and "(TN5)" in text(response)
    assert stored(app, match_url) == before
    assert WRITES["undo"](phone, match_url).status_code == 422  # still closed


def test_only_the_director_reopens_and_only_a_closed_table(app, client):
    url, match_url, phone = closed_table(app, client)
    assert reopen(phone, url, match_url).status_code == 403  # a table's phone: no director
    (current,) = tables(client, url, 2)
    latest = reopen(client, url, current)
    assert latest.status_code == 422 and "Round 2 is the latest drawn" in text(latest)
    other = start(client, PLAYERS, rounds=2, hands=1)  # another tournament's table
    assert client.post(other + "/draw", data={"round": 1}).status_code == 303
    (stranger,) = tables(client, other, 1)
    for table in (stranger, "/matches/nothing"):
        response = reopen(client, url, table)
        assert response.status_code == 422 and "No such table" in text(response)
    missing = client.post(url + "/reopen", data={"reason": "why"})
    assert missing.status_code == 422 and 'data-refused="table"' in missing.get_data(
        as_text=True)


def test_rounds_drawn_before_a_correction_and_the_standing_say_so(app, client):
    url, match_url, phone = closed_table(app, client, rounds=3)
    assert "data-drawn-before" not in client.get(url).get_data(as_text=True)
    assert reopen(client, url, match_url, "nothing to change").status_code == 303
    # a reopening without a change corrects nothing
    assert "data-drawn-before" not in client.get(url).get_data(as_text=True)
    form = hand_form([0, 1], a=25) | {"version": "1"}
    assert phone.post(match_url + "/hands/2/edit", data=form).status_code == 303
    page = client.get(url).get_data(as_text=True)
    rounds = {n: section for n, section in re.findall(
        r'data-round="(\d)">(.*?)</section>', page, re.S)}
    assert "Drawn before a correction to round 1, table 1." in rounds["2"]
    assert "data-drawn-before" not in rounds["1"]
    standing = html.unescape(page[page.index("data-standing"):])
    assert ("This standing counts a correction to round 1, table 1 made after round 2 was "
            "drawn: nothing to change") in standing
    board = client.get(url + "/board").get_data(as_text=True)  # the board shows both
    assert "data-drawn-before" in board and "data-corrected-late" in board
    # round 3, drawn after the correction, is drawn from the corrected standing
    play(client, tables(client, url, 2)[0], 1)
    assert client.post(url + "/draw", data={"round": 3}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    rounds = {n: section for n, section in re.findall(
        r'data-round="(\d)">(.*?)</section>', page, re.S)}
    assert "data-drawn-before" in rounds["2"] and "data-drawn-before" not in rounds["3"]


# the domain, called directly


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def test_the_closure_follows_the_rounds_drawn_and_the_reopenings(ctx):
    ordinary = creation.create_match(roster.create_group("T"), PLAYERS, 1000)
    assert closing.closure(ordinary) is None and closing.closed(ordinary) is None
    made = director.create("Cup", formats.INDIVIDUAL, [formats.Entry(n) for n in PLAYERS],
                           3, 1)
    drawing.draw_round(made, 1)
    key = db.session.get(Tournament, made.id).played[0].tables[0].key
    assert closing.closure(writes.match_by_key(key)) == closing.Closure(1, 1, None)
    assert closing.closed(writes.match_by_key(key)) is None  # the latest round: open
    added = hand_entry.add_hand(writes.lock_match(key), {"out_order": [0, 1],
                                                         "card_points": [60, None]}, 1)
    assert added.hand is not None
    drawing.draw_round(db.session.get(Tournament, made.id), 2)
    match = writes.match_by_key(key)
    assert closing.closure(match) == closing.Closure(1, 2, None)
    problem = closing.closed(match)
    assert problem is not None and (problem.field, problem.rule) == ("match", "TN5")
    with pytest.raises(closing.Closed):
        closing.check(match)
    assert director.reopen(db.session.get(Tournament, made.id), key, " why ") == (1, 1)
    assert closing.closure(writes.match_by_key(key)) == closing.Closure(1, 2, 2)
    with pytest.raises(Refused) as caught:
        director.reopen(db.session.get(Tournament, made.id), key, "again")
    assert (caught.value.field, caught.value.rule) == ("table", "TN5")
    assert closing.reopenings(made.id) == [closing.Reopening(key, 1, 1, 2, "why", False)]
    assert db.session.scalar(db.select(db.func.count()).select_from(HandEvent).where(
        HandEvent.action == closing.REOPENED)) == 1


def test_a_closed_tables_page_says_so_and_offers_no_change(app, client):
    """The table's phone had the page as a scorer's (hand links to edit); once the next
    round is drawn the page is a viewer's with the closure named, and the forms refuse
    before anything is typed; reopened, the page is a scorer's again."""
    url = start(client, PLAYERS, rounds=2, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    (match_url,) = tables(client, url, 1)
    phone = table_phone(app, client, match_url)
    play(phone, match_url, 1)
    phone.get(match_url)  # "Hand 1 saved."
    before = phone.get(match_url)
    assert "data-scorer" in before.get_data(as_text=True) and "data-closed" not in text(before)
    tag, revision = before.headers["ETag"], stored(app, match_url)[1]
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    # a new state: every kept page of it (a viewer's too), live phones and exports follow
    assert stored(app, match_url)[1] == revision + 1
    closed = phone.get(match_url, headers={"If-None-Match": tag})  # the kept copy is stale
    page = closed.get_data(as_text=True)
    assert closed.status_code == 200 and "data-closed" in page and "data-scorer" not in page
    assert "Round 1 is closed: round 2 has been drawn" in text(closed)
    assert "/hands/1/edit" not in page
    for form in ("/hands/new", "/hands/1/edit"):
        refused = phone.get(match_url + form)
        assert refused.status_code == 422 and "(TN5)" in text(refused)
    assert reopen(client, url, match_url).status_code == 303
    again = phone.get(match_url).get_data(as_text=True)
    assert "data-scorer" in again and "data-closed" not in again
    assert phone.get(match_url + "/hands/1/edit").status_code == 200


def test_a_reopening_is_in_the_tables_export(app, client):
    """A reopening changes the table's state (its revision): an export built before it is
    not served after it."""
    url, match_url, phone = closed_table(app, client)
    first = client.get(match_url + "/export.json").get_json()
    assert closing.REOPENED not in [e["action"] for e in first["matches"][0]["log"]]
    assert reopen(client, url, match_url).status_code == 303
    after = client.get(match_url + "/export.json").get_json()
    assert closing.REOPENED in [e["action"] for e in after["matches"][0]["log"]]
