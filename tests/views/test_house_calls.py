"""[R9] in a match: its own calls, chosen when it starts ("blind = 400"), offered beside
Tichu and Grand Tichu on the hand form, scored like Tichu by the match state (stored as
their names, worth what the match's rules say), named on the match page, changed in its
settings (refused while a hand calls one that would go), and bad input refused with R9."""

import csv
import io
import json

import pytest

from tests.conftest import hand_form, post_hand
from tests.views.test_house_match import start, stored, text, words
from tests.views.test_transfer import fresh_client, upload
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, Match


def test_a_match_with_its_own_call_scores_it_like_tichu(app, client):
    url = start(client, house="own", custom_calls="blind = 400, Small: 50")
    match = stored(app, url)
    assert match.house.custom_calls == (("blind", 400), ("Small", 50))
    assert "blind" in words(client.get(url))  # the house rules line names it
    form = text(client.get(url + "/hands/new"))
    assert 'value="blind"' in form and 'value="Small"' in form
    made = post_hand(client, url, hand_form([0, 1], calls={0: "blind"}, a=50))
    assert made.status_code == 303
    failed = post_hand(client, url, hand_form([0, 1], calls={1: "Small"}, a=50))
    assert failed.status_code == 303
    assert stored(app, url).totals == [50 + 400 + 50, 50 + 50 - 50]
    with app.app_context():
        assert db.session.execute(db.select(Hand.calls).order_by(Hand.number)).scalars(
        ).all() == [{"0": "blind"}, {"1": "Small"}]
    page = words(client.get(url))
    assert "blind ✓ made" in page and "Small ✗ failed" in page
    # a call the match does not have is refused, naming the rule
    other = post_hand(client, url, hand_form([0, 1], calls={2: "huge"}, a=50))
    assert other.status_code == 422


def test_a_call_in_use_cannot_be_taken_out_of_the_rules(app, client):
    url = start(client, house="own", custom_calls="blind = 400")
    assert post_hand(client, url, hand_form([0, 1], calls={0: "blind"}, a=50)).status_code == 303
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    refused = client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": ""})
    assert refused.status_code == 422 and "R9" in text(refused)
    assert stored(app, url).house.custom_calls == (("blind", 400),)
    changed = client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": "blind = 500"})
    assert changed.status_code == 303
    assert stored(app, url).totals == [50 + 500, 50]  # re-scored by the new worth


@pytest.mark.parametrize("typed", ["blind = 401"])  # every one: tests/forms/
def test_own_calls_that_cannot_be_played_are_refused_with_r9(client, typed):
    data = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    response = client.post("/matches/new", data=data | {
        "target": "1000", "house": "own", "custom_calls": typed})
    assert response.status_code == 422
    assert "R9" in text(response)



# --- a match with its own call, everywhere a stored call word is read --------------------

def blind_match(client):
    """A match with its own call "blind" (400), and a hand where Ann made it."""
    url = start(client, house="own", custom_calls="blind = 400")
    assert post_hand(client, url, hand_form([0, 1], calls={0: "blind"}, a=50)).status_code == 303
    return url


def test_an_edit_of_an_own_call_is_scored_and_logged_in_words(app, client):
    url = blind_match(client)
    edit = client.get(url + "/hands/1/edit")
    assert edit.status_code == 200
    assert '<input checked id="call_0-3" name="call_0" type="radio" value="blind">' in text(edit)
    r = client.post(url + "/hands/1/edit",
                    data=hand_form([0, 1], calls={0: "tichu"}, a=50) | {"version": "1"})
    assert r.status_code == 303, text(r)[-600:]  # was a 500: 'blind' is not a valid Call
    assert stored(app, url).totals == [50 + 100, 50]
    log = words(client.get(url + "/log"))
    assert "Ann's call blind → Tichu" in log and "cannot be read" not in log
    german = words(client.get(url + "/log", headers={"Accept-Language": "de"}))
    assert "blind → Tichu" in german and "nicht gelesen" not in german


def test_a_stale_edit_of_a_hand_with_an_own_call_is_the_conflict_page(app, client):
    url = blind_match(client)
    assert client.post(url + "/hands/1/edit", data=hand_form(
        [0, 1], calls={0: "blind"}, a=60) | {"version": "1"}).status_code == 303
    r = client.post(url + "/hands/1/edit",
                    data=hand_form([0, 1], calls={0: "blind"}, a=70) | {"version": "1"})
    page = words(r)
    assert r.status_code == 409, page[-600:]  # was a 500 summing up both versions
    assert "Another phone changed this hand meanwhile" in page
    assert "Ann blind made · card points 60 : 40" in page
    assert "Ann blind made · card points 70 : 30" in page


def test_a_match_with_an_own_call_exports_and_imports_again(app, client, tmp_path):
    url = blind_match(client)
    assert client.post(url + "/hands/1/edit", data=hand_form(
        [0, 1], calls={0: "tichu", 2: "blind"}, a=50) | {"version": "1"}).status_code == 303
    assert stored(app, url).totals == [50 + 100 - 400, 50]
    sheet = client.get(url + "/export.csv")
    assert sheet.status_code == 200  # was a 500: Call("blind")
    [row] = list(csv.DictReader(io.StringIO(sheet.get_data(as_text=True))))
    assert row["calls"] == "Ann: Tichu; Cy: blind" and row["house_rules"] == "R9"
    blob = client.get("/export.json").get_data()
    other, other_client = fresh_client(tmp_path, "other")
    r = upload(other_client, blob)
    assert r.status_code == 303, text(r)[-600:]  # was a 422: after.calls must map …
    with other.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        key, totals = match.key, match.totals
    assert totals == [50 + 100 - 400, 50]
    log = words(other_client.get(f"/matches/{key}/log"))
    assert "cannot be read" not in log and "Ann's call blind → Tichu" in log
    assert "Cy's call no call → blind" in log


def test_an_own_call_dropped_later_still_reads_in_the_log_and_the_export(app, client,
                                                                        tmp_path):
    """A call may go from the rules once no hand in play names it; the log entries that
    named it stay readable, on the log page and in an import of the export."""
    url = blind_match(client)
    assert client.post(url + "/hands/1/edit", data=hand_form(
        [0, 1], calls={0: "tichu"}, a=50) | {"version": "1"}).status_code == 303
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    assert client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": ""}).status_code == 303
    assert stored(app, url).house.custom_calls == ()
    log = words(client.get(url + "/log"))
    assert "cannot be read" not in log and "Ann's call blind → Tichu" in log
    other, other_client = fresh_client(tmp_path, "other")
    r = upload(other_client, client.get("/export.json").get_data())
    assert r.status_code == 303, text(r)[-600:]


def test_an_imported_log_naming_a_call_its_match_does_not_have_is_refused_with_r9(
        client, tmp_path):
    blind_match(client)
    data = client.get("/export.json").get_json()
    [match] = data["matches"]
    match["log"][0]["after"]["calls"] = {"0": "deaf"}
    other, other_client = fresh_client(tmp_path, "other")
    r = upload(other_client, json.dumps(data).encode())
    assert r.status_code == 422
    assert ('match 1, log entry 1: after.calls must map seats 0–3 to "tichu", "grand" or '
            'one of this match\'s calls ("blind"). (R9)') in text(r)


LONG_CALLS = ", ".join(f"{c * 30} = 50" for c in "abcdefg")  # seven sound calls, 265 long
TOO_LONG = ('data-problem="house">Own calls: at most 200 characters; shorten their names.'
            '\n      <a class="rule" href="/rules#R9">R9</a>')


def test_over_long_own_calls_are_refused_where_the_page_shows_it_citing_r9(app, client):
    """Not a 422 whose reason no part of the page shows (a group of its own, citing P5)."""
    names = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    r = client.post("/matches/new", data=names | {"target": "1000", "house": "own",
                                                   "custom_calls": LONG_CALLS})
    assert r.status_code == 422 and TOO_LONG in text(r)
    url = start(client, house="own", custom_calls="blind = 400")
    r = client.post(url + "/settings", data=names | {
        "target": "1000", "house_shown": "1", "custom_calls": LONG_CALLS})
    assert r.status_code == 422 and TOO_LONG in text(r)
    assert stored(app, url).house.custom_calls == (("blind", 400),)
