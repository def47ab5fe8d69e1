"""Fix any mistake, lose nothing: edit, delete, undo, restore, and the append-only log."""

import re

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Hand, HandEvent, Match


@pytest.fixture()
def url(client):
    url = new_match(client)
    for data in (hand_form([0, 1], a=60), hand_form([1, 0], {"1": "tichu"}, a=40),
                 hand_form([2, 3], a=55)):
        assert post_hand(client, url, data).status_code == 303
    return url


def state(app, url):
    with app.app_context():
        m = db.session.get(Match, match_id(url))
        return (m.totals, [h.team_scores for h in m.hands], m.finished_at is not None,
                [(e.position, e.action, e.summary) for e in m.events])


def test_edit_an_old_hand(client, app, url):
    page = client.get(url + "/hands/1/edit").get_data(as_text=True)
    assert "Edit hand 1" in page and 'value="60"' in page
    r = client.post(url + "/hands/1/edit", data=hand_form([0, 1], a=65) | {"version": "1"})
    assert r.status_code == 303
    totals, hands, _, events = state(app, url)
    assert hands[0] == [65, 35] and totals == [65 + 40 + 55, 35 + 160 + 45]
    assert events[-1] == (1, "edited", "team A card points 60 → 65; team B card points 40 → 35")
    log = client.get(url + "/log").get_data(as_text=True)
    assert "hand 1 edited: team A card points 60 → 65" in log


def test_edit_refusals_name_the_rule(client, app, url):
    r = client.post(url + "/hands/2/edit", data=hand_form([1, 0], a=33) | {"version": "1"})
    assert r.status_code == 422 and 'href="/rules#P1">P1</a>' in r.get_data(as_text=True)
    assert state(app, url)[1][1] == [40, 160]


def test_a_stale_edit_is_refused_not_overwritten(client, app, url):
    assert client.post(url + "/hands/1/edit",
                       data=hand_form([0, 1], a=70) | {"version": "1"}).status_code == 303
    mine = hand_form([0, 1], a=20) | {"version": "1"}
    r = client.post(url + "/hands/1/edit", data=mine)
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and "Another phone changed this hand meanwhile" in page
    # both versions side by side, and the form still names the version this phone read
    assert "card points 70 : 30" in page and "card points 20 : 80" in page
    assert 'name="version" value="1"' in page and 'name="overwrite" value="2"' in page
    assert state(app, url)[1][0] == [70, 30]
    # saving the same form again is refused again: no silent overwrite
    assert client.post(url + "/hands/1/edit", data=mine).status_code == 409
    assert state(app, url)[1][0] == [70, 30]
    # only the explicit choice overwrites, and only the version it was shown
    r = client.post(url + "/hands/1/edit", data=mine | {"overwrite": "2"})
    assert r.status_code == 303 and state(app, url)[1][0] == [20, 80]
    assert client.post(url + "/hands/1/edit",
                       data=mine | {"overwrite": "2"}).status_code == 409


@pytest.mark.parametrize("version", [None, "9" * 30])  # every value: test_hands.py
def test_a_missing_or_malformed_version_is_refused(client, app, url, version):
    data = hand_form([0, 1], a=20) | ({} if version is None else {"version": version})
    r = client.post(url + "/hands/1/edit", data=data)
    assert r.status_code == 400 and "“version”" in r.get_data(as_text=True)
    r = client.post(url + "/hands/1/delete", data={} if version is None else
                    {"version": version})
    assert r.status_code == 400
    assert state(app, url)[1][0] == [60, 40]


def test_delete_and_restore(client, app, url):
    assert client.post(url + "/hands/2/delete", data={"version": "1"}).status_code == 303
    totals, hands, _, events = state(app, url)
    assert totals == [115, 85] and len(hands) == 2 and events[-1][:2] == (2, "deleted")
    page = client.get(url).get_data(as_text=True)
    assert "Add hand 3" in page
    log = client.get(url + "/log").get_data(as_text=True)
    assert "hand 2 deleted" in log and "/hands/2/restore" in log
    assert client.post(url + "/hands/2/restore").status_code == 303
    totals, hands, _, events = state(app, url)
    assert totals == [155, 245] and hands[1] == [40, 160] and events[-1][:2] == (2, "restored")
    # restoring twice (two phones, one log): the second changes and logs nothing
    r = client.post(url + "/hands/2/restore", follow_redirects=True)
    assert "already back in play" in r.get_data(as_text=True)
    assert [e[1] for e in state(app, url)[3]].count("restored") == 1


def test_restore_after_the_hand_was_saved_again_is_refused_not_doubled(client, app, url):
    """Phone A undoes hand 3; phone B saves the corrected hand 3; A then taps the Restore
    its "Hand 3 undone" message offers. Bringing the old hand back in front of B's would
    count the hand twice: refused, nothing changed. The log's Restore still may."""
    assert client.post(url + "/undo", data={"number": "3"}).status_code == 303
    snack = client.get(url).get_data(as_text=True)
    assert "/hands/3/restore" in snack  # the message's Restore button
    assert post_hand(client, url, hand_form([2, 3], a=70)).status_code == 303  # phone B
    before = state(app, url)
    r = client.post(url + "/hands/3/restore")
    assert r.status_code == 409 and "not restored" in r.get_data(as_text=True)
    assert state(app, url) == before and len(before[1]) == 3
    # chosen in the log, with every change in view: it comes back as a fourth hand's worth
    log = client.get(url + "/log").get_data(as_text=True)
    revision = log.split('name="revision" value="', 1)[1].split('"', 1)[0]
    assert client.post(url + "/hands/3/restore", data={"from": "log", "revision": revision}
                       ).status_code == 303
    assert len(state(app, url)[1]) == 4


def test_restore_right_after_an_undo_works(client, app, url):
    assert client.post(url + "/undo", data={"number": "3"}).status_code == 303
    assert client.post(url + "/hands/3/restore").status_code == 303
    totals, hands, _, events = state(app, url)
    assert len(hands) == 3 and events[-1][:2] == (3, "restored")


def test_deleting_a_changed_hand_is_refused(client, app, url):
    assert client.post(url + "/hands/2/edit",
                       data=hand_form([1, 0], a=45) | {"version": "1"}).status_code == 303
    r = client.post(url + "/hands/2/delete", data={"version": "1"})
    assert r.status_code == 409 and "was not deleted" in r.get_data(as_text=True)
    assert len(state(app, url)[1]) == 3
    # and an edit of a hand deleted meanwhile is refused, not resurrected
    assert client.post(url + "/hands/2/delete", data={"version": "2"}).status_code == 303
    r = client.post(url + "/hands/2/edit", data=hand_form([1, 0], a=5) | {"version": "3"})
    assert r.status_code == 409 and "deleted this hand" in r.get_data(as_text=True)
    totals, hands, _, _ = state(app, url)
    assert len(hands) == 2 and totals == [115, 85]


def test_undo_last(client, app, url):
    assert client.post(url + "/undo", data={"number": "3"}).status_code == 303
    totals, hands, _, events = state(app, url)
    assert len(hands) == 2 and events[-1][:2] == (3, "undone")
    # the same undo again (a second phone, a double tap) undoes nothing more
    r = client.post(url + "/undo", data={"number": "3"})
    assert r.status_code == 409 and "nothing was undone" in r.get_data(as_text=True)
    totals, hands, _, events = state(app, url)
    assert len(hands) == 2 and [e[1] for e in events].count("undone") == 1
    assert client.post(url + "/undo").status_code == 400
    # the next hand takes the place of the undone one
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "Add hand 4" in page


def test_an_edit_that_changes_the_result_reopens_the_match(client, app):
    url = new_match(client, target="500")
    for _ in range(2):
        post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    assert state(app, url)[2] is True  # 600 to 0: over
    r = client.post(url + "/hands/2/edit", data=hand_form([1, 0], a=50) | {"version": "1"})
    assert r.status_code == 303
    totals, _, finished, _ = state(app, url)
    assert totals == [300 + 50, 50] and finished is False
    assert "Add hand 3" in client.get(url).get_data(as_text=True)


def test_a_client_id_counts_once(client, app, url):
    data = hand_form([0, 1], a=50) | {"client_id": "phone-1-hand-abc"}
    assert post_hand(client, url, data).status_code == 303
    assert post_hand(client, url, data).status_code == 303  # replayed
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand).filter_by(
            client_id="phone-1-hand-abc")) == 1
        assert len(db.session.get(Match, match_id(url)).hands) == 4


def test_two_phones_saving_the_same_hand(client, app, url):
    # this phone opened the form for hand 3, which another phone saved meanwhile
    mine = hand_form([0, 1], a=50) | {"number": "3", "client_id": "late-phone"}
    r = client.post(url + "/hands/new", data=mine)
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and "Another phone saved hand 3 meanwhile" in page
    assert "card points 55 : 45" in page  # hand 3 as the other phone saved it
    assert "card points 50 : 50" in page  # and this phone's, not saved
    assert f'href="{url}" data-discard="late-phone">Discard mine</a>' in page
    assert 'name="number" value="4"' in page and "Save mine as hand 4" in page
    assert len(state(app, url)[1]) == 3
    r = client.post(url + "/hands/new", data=mine | {"number": "4"})
    assert r.status_code == 303
    assert len(state(app, url)[1]) == 4
    assert "Hand 4 saved." in client.get(url).get_data(as_text=True)


@pytest.mark.parametrize("number", ["three"])  # every value: test_hands.py
def test_a_missing_or_malformed_hand_number_is_refused(client, app, url, number):
    data = hand_form([0, 1], a=50) | ({} if number is None else {"number": number})
    r = client.post(url + "/hands/new", data=data)
    assert r.status_code == 400 and "“number”" in r.get_data(as_text=True)
    assert len(state(app, url)[1]) == 3


def test_log_is_append_only(client, app, url):
    client.post(url + "/hands/1/edit", data=hand_form([0, 1], a=65) | {"version": "1"})
    client.post(url + "/undo", data={"number": "3"})
    with app.app_context():
        actions = [e.action for e in db.session.execute(
            db.select(HandEvent).order_by(HandEvent.id)).scalars()]
    assert actions == ["added", "added", "added", "edited", "undone"]


def test_unknown_hand_is_404(client, url):
    assert client.get(url + "/hands/99/edit").status_code == 404
    assert client.post(url + "/hands/99/delete").status_code == 404


def test_an_undo_offers_restore_at_once(client, app, url):
    """Undo needs no confirmation: the match page says what was undone with a Restore
    button that brings the hand back in its place."""
    page = client.post(url + "/undo", data={"number": "3"}, follow_redirects=True)
    html = page.get_data(as_text=True)
    assert "Hand 3 undone." in html
    action = re.search(r'<form class="snack" method="post" action="([^"]+)"', html).group(1)
    assert action.endswith("/hands/3/restore")
    assert len(state(app, url)[1]) == 2
    restored = client.post(action, follow_redirects=True).get_data(as_text=True)
    assert "Hand restored." in restored
    assert len(state(app, url)[1]) == 3
    # the next page no longer offers it
    assert 'class="snack"' not in client.get(url).get_data(as_text=True)


def test_the_log_says_an_edit_in_the_readers_language(client, app, url):
    """The log stores what changed and says it when read: a German reader sees German, an
    English one English, whoever made the edit; the stored words (for exports) are English."""
    client.post(url + "/hands/1/edit", data=hand_form([0, 1], {0: "tichu"}, a=65)
                | {"version": "1"}, headers={"Accept-Language": "de"})
    english = client.get(url + "/log", headers={"Accept-Language": "en"}).get_data(as_text=True)
    german = client.get(url + "/log", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Ann&#39;s call no call → Tichu" in english
    assert "Ansage von Ann keine Ansage → Tichu" in german
    assert "team A card points" in english and "Kartenpunkte Team A" in german
    with app.app_context():
        stored = db.session.execute(db.select(HandEvent.summary).where(
            HandEvent.action == "edited")).scalar_one()
    assert stored.startswith("Ann's call no call → Tichu")


def test_a_client_id_of_another_match_is_refused_not_a_500(client, app, url):
    """A phone's hand id already stored in another match (a reused or forged id): 409 with
    a message on the form's HTML path, nothing stored in either match."""
    post_hand(client, url, hand_form([0, 1], a=60) | {"client_id": "shared-id-1"})
    other = new_match(client)
    r = post_hand(client, other, hand_form([0, 1], a=60) | {"client_id": "shared-id-1"})
    assert r.status_code == 409 and "another match" in r.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Match, match_id(other)).hand_count == 0


def test_a_hand_number_ahead_of_the_match_says_which_is_next(client, url):
    r = post_hand(client, url, hand_form([0, 1], a=60) | {"number": "99"})
    page = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "This form was for hand 99; the next hand is 4" in page and "99–" not in page


def test_a_hand_replayed_after_its_undo_is_not_brought_back(client, app, url):
    """The outbox sends a hand again (same client id) after it was undone: nothing is
    stored again, and the message says so instead of "Hand 0 saved"."""
    r = post_hand(client, url, hand_form([0, 1], a=60) | {"client_id": "replayed-1"})
    assert r.status_code == 303
    assert client.post(url + "/undo", data={"number": "4"}).status_code == 303
    r = client.post(url + "/hands/new", data=hand_form([0, 1], a=60) | {
        "client_id": "replayed-1", "number": "4"}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Hand 0" not in page and "not saved again" in page
    assert len(state(app, url)[1]) == 3


def opened_form(client, url) -> dict[str, str]:
    """What a phone's new-hand form carries when opened now: its hand and entry numbers."""
    page = client.get(url + "/hands/new").get_data(as_text=True)
    return {name: re.search(rf'name="{name}" value="(\d+)"', page).group(1)
            for name in ("number", "entry")}


def test_a_hand_saved_and_another_deleted_meanwhile_is_not_doubled(client, app, url):
    """Two phones open the form for hand 4; one saves it, a third deletes hand 2, so the
    match has 3 hands again and the next is "hand 4" once more. The second phone's hand 4
    is the same hand: refused as a conflict naming the hand saved meanwhile at its place
    now (3), never stored twice. Its "Save mine as hand 4" carries the new entry number."""
    late = opened_form(client, url)
    assert late == {"number": "4", "entry": "4"}
    same = hand_form([0, 1], a=70)
    assert client.post(url + "/hands/new", data=same | late).status_code == 303
    assert client.post(url + "/hands/2/delete", data={"version": "1"}).status_code == 303
    before = state(app, url)
    r = client.post(url + "/hands/new", data=same | late | {"client_id": "late-phone"})
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and "Another phone saved hand 3 meanwhile" in page
    assert "Hand 3:" in page and "card points 70 : 30" in page
    assert 'name="entry" value="5"' in page and "Save mine as hand 4" in page
    assert state(app, url) == before  # nothing stored, nothing logged
    # the player says it is the next hand after all: saved once, as hand 4
    r = client.post(url + "/hands/new", data=same | {"number": "4", "entry": "5",
                                                      "client_id": "late-phone"})
    assert r.status_code == 303
    totals, hands, _, _ = state(app, url)
    assert len(hands) == 4 and totals == [60 + 55 + 70 + 70, 40 + 45 + 30 + 30]


def test_a_hand_saved_and_deleted_again_meanwhile_leaves_nothing_to_double(client, app, url):
    """The hand another phone saved meanwhile was deleted again: nothing in play could be
    doubled, so the hand is saved (with the next entry number)."""
    late = opened_form(client, url)
    assert client.post(url + "/hands/new", data=hand_form([0, 1], a=70) | late
                       ).status_code == 303
    assert client.post(url + "/hands/4/delete", data={"version": "1"}).status_code == 303
    r = client.post(url + "/hands/new", data=hand_form([1, 0], a=35) | late)
    assert r.status_code == 303
    _, hands, _, events = state(app, url)
    assert len(hands) == 4 and hands[-1] == [35, 65] and events[-1][:2] == (4, "added")
    with app.app_context():
        assert db.session.scalar(db.select(Hand.number).where(
            Hand.match_id == match_id(url), Hand.deleted_at.is_(None)).order_by(
            Hand.number.desc()).limit(1)) == 5


@pytest.mark.parametrize("entry", ["", "four", "-1", "9" * 12])
def test_a_malformed_entry_number_is_refused(client, app, url, entry):
    data = hand_form([0, 1], a=50) | {"number": "4", "entry": entry}
    r = client.post(url + "/hands/new", data=data)
    assert r.status_code == 400 and "“entry”" in r.get_data(as_text=True)
    assert len(state(app, url)[1]) == 3
