"""No hand is played after the end of a match ([E1], [T3.5]): a correction (an edit, a
delete, a restore, a new target) that would end the match before its last hand in play is
refused with the rule, and changes nothing; a record already so (left by an older version)
can still be mended."""

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_variants import start
from tichu_scorer.extensions import db
from tichu_scorer.matches import ending
from tichu_scorer.models import Hand, HandEvent, Match

NAMES = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}


def stored(app, url):
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        return (m.totals, m.hand_count, m.winner_team, m.finished_at is not None,
                [h.team_scores for h in m.hands], len(m.events))


@pytest.fixture()
def url(client):
    """Target 500, team A (Ann & Cy) against B; running totals 400 : 0, 250 : 50,
    350 : 50, 400 : 100 (a made and a failed Grand Tichu of Ann's): not over."""
    url = new_match(client, target="custom", custom="500")
    for data in (hand_form([0, 2], {"0": "grand"}),
                 hand_form([1, 0], {"0": "grand"}, a=50),
                 hand_form([0, 1], a=100),
                 hand_form([1, 0], a=50)):
        assert post_hand(client, url, data).status_code == 303
    return url


def test_the_fixture_is_a_match_going_on(app, url):
    totals, count, winner, over, _, _ = stored(app, url)
    assert (totals, count, winner, over) == ([400, 100], 4, None, False)


def test_an_edit_that_would_end_the_match_earlier_is_refused(client, app, url):
    before = stored(app, url)
    # hand 3 as Ann's made Tichu and a double victory: A at 550 after hand 3, hand 4 after
    r = client.post(url + "/hands/3/edit", data=hand_form([0, 2], {"0": "tichu"})
                    | {"version": "1"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "would have been won after hand 3 (Ann &amp; Cy), but it goes on to hand 4" in page
    assert "E1" in page
    assert stored(app, url) == before  # nothing changed, nothing logged


def test_a_delete_that_would_end_the_match_earlier_is_refused(client, app, url):
    before = stored(app, url)
    # without hand 2 (Ann's failed Grand Tichu) A reaches 500 with hand 3, hand 4 after
    r = client.post(url + "/hands/2/delete", data={"version": "1"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "would have been won after hand 2" in page
    assert "(E1)" in page
    assert stored(app, url) == before


def test_a_new_target_reached_hands_ago_is_refused(client, app, url):
    before = stored(app, url)
    r = client.post(url + "/settings", data={"target": "300"}
                    | NAMES)
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "E1" in page
    assert "would have been won after hand 1 (Ann &amp; Cy), but it goes on to hand 4" in page
    assert stored(app, url) == before
    r = client.post(url + "/settings", data={"target": "1000"} | NAMES)
    assert r.status_code == 303  # a target not yet reached: the match goes on


def log_restore(client, url, number):
    """The log page's Restore, with the match revision the page carries."""
    log = client.get(url + "/log").get_data(as_text=True)
    revision = log.split('name="revision" value="', 1)[1].split('"', 1)[0]
    return client.post(f"{url}/hands/{number}/restore", data={"from": "log",
                                                               "revision": revision})


def test_a_restore_past_the_hands_of_a_fixed_length_match_is_refused(client, app):
    url = start(client, "threechu", ["Tom", "Uma", "Vic"], length="hands", hands="3")
    for data in (hand_form([0, 1], a=50), hand_form([1, 2], a=50), hand_form([2, 0], a=50)):
        assert post_hand(client, url, data).status_code == 303
    assert client.post(url + "/undo", data={"number": "3"}).status_code == 303
    assert post_hand(client, url, hand_form([2, 0], a=75)).status_code == 303
    before = stored(app, url)
    r = log_restore(client, url, 3)
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "This match lasts 3 hands" in page and "(T3.5)" in page
    assert stored(app, url) == before and before[1] == 3


def test_a_record_already_past_the_end_can_still_be_mended(client, app, url):
    """A match stored with hands after its end (by a version before this check): deleting
    those hands one by one is allowed, each step leaving fewer of them."""
    with app.app_context():  # hand 2 becomes A's double victory behind the app's back
        m = db.session.get(Match, match_id(url))
        hand = m.hands[1]
        hand.calls, hand.out_order = {}, [0, 2, 1, 3]
        hand.card_points, hand.team_scores = [200, 0], [200, 0]
        ending.recompute(m)  # as an import: kept as it is
        db.session.commit()
        assert ending.after_the_end(m) == 2
    for number in (4, 3):
        r = client.post(f"{url}/hands/{number}/delete", data={"version": "1"})
        assert r.status_code == 303, r.get_data(as_text=True)
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        assert ending.after_the_end(m) == 0 and m.totals == [600, 0]
        assert m.winner_team == 0 and m.finished_at is not None
        assert db.session.scalar(db.select(db.func.count(HandEvent.id)).where(
            HandEvent.match_id == m.id, HandEvent.action == "deleted")) == 2
        assert db.session.scalar(db.select(db.func.count(Hand.id)).where(
            Hand.match_id == m.id)) == 4


def test_the_live_preview_of_such_an_edit_says_so_before_the_save(client, url):
    body = {"out_order": [0, 2], "calls": {"0": "tichu"}, "card_points": [None, None]}
    r = client.post(url + "/hands/preview?edit=3", json=body)
    assert r.status_code == 422
    assert [(e["rule"], e["group"]) for e in r.get_json()["errors"]] == [("E1", "match")]
    # the same hand without the Tichu leaves A at 450 after hand 3: fine
    r = client.post(url + "/hands/preview?edit=3", json=body | {"calls": {}})
    assert r.status_code == 200, r.get_json()


def test_two_hands_entered_in_the_wrong_order_are_swapped_as_the_message_says(client, app):
    """Hands 3 and 4 (double victories of A and B) were entered in the wrong order. Either
    edit alone would end the match before hand 5, so each is refused; as the message says,
    hand 5 is deleted, both are corrected, and hand 5 is restored from the log."""
    url = new_match(client, target="custom", custom="500")
    for data in (hand_form([0, 2]), hand_form([1, 3]), hand_form([0, 2]), hand_form([1, 3]),
                 hand_form([1, 0], a=50)):
        assert post_hand(client, url, data).status_code == 303
    assert stored(app, url)[:4] == ([450, 450], 5, None, False)
    for number, out in ((3, [1, 3]), (4, [0, 2])):
        r = client.post(f"{url}/hands/{number}/edit", data=hand_form(out) | {"version": "1"})
        assert r.status_code == 422 and "delete the later ones, correct, then restore" in \
            r.get_data(as_text=True)
    assert client.post(url + "/hands/5/delete", data={"version": "1"}).status_code == 303
    for number, out in ((3, [1, 3]), (4, [0, 2])):
        r = client.post(f"{url}/hands/{number}/edit", data=hand_form(out) | {"version": "1"})
        assert r.status_code == 303, r.get_data(as_text=True)
    assert log_restore(client, url, 5).status_code == 303
    assert stored(app, url)[:4] == ([450, 450], 5, None, False)
    assert stored(app, url)[4][2:4] == [[0, 200], [200, 0]]
