"""`matches.corrections`: a hand edited, deleted, undone and restored in a held match (the
version the phone read checked, totals and result recomputed, no hand left after the end
of the match, every change logged), and the log's words for an edit, a change of settings
and a hand in one line."""

from __future__ import annotations

import pytest

from tests.matches.conftest import FOUR, LEVEL, SWEEP_A, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game.house import HouseRules
from tichu_scorer.matches import corrections, creation, ending, roster, writes
from tichu_scorer.models import Hand, HandEvent

# seat 1 (team B) out first and seat 0 second; Ann (seat 0) called Tichu and failed [P3]:
# team A 50 - 100, team B 50
ANN_FAILS = {"out_order": [1, 0], "calls": {"0": "tichu"}, "card_points": [50, None]}


@pytest.fixture()
def german(app):
    with app.test_request_context(headers={"Accept-Language": "de"}):
        yield app


def hand_of(match, number: int) -> Hand:
    return next(h for h in match.all_hands if h.number == number)


def logged(match_id: int) -> list[HandEvent]:
    return list(db.session.execute(db.select(HandEvent).filter_by(match_id=match_id)
                                   .order_by(HandEvent.id)).scalars())


def after_edit(key: str) -> tuple[list[int], int, list[int]]:
    """The stored totals, hand count and numbers of the hands in play, read afresh."""
    db.session.rollback()
    match = writes.match_by_key(key)
    return match.totals, match.hand_count, [h.number for h in match.hands]


# ------------------------------------------------------------------------------ edit


def test_an_edit_rescores_the_hand_recomputes_the_totals_and_logs_the_change(ctx):
    key = add(new_match().key, LEVEL, LEVEL).key  # 50 : 50 twice
    match = writes.lock_match(key)
    revision = match.revision
    hand = hand_of(match, 1)
    problems = corrections.edit_hand(match, hand, {"out_order": [1, 2],
                                                   "card_points": [60, None]}, version=1)
    assert problems == []
    assert after_edit(key) == ([60 + 50, 40 + 50], 2, [1, 2])  # [P1]: B took the other 40
    stored = writes.match_by_key(key)
    assert hand_of(stored, 1).version == 2 and stored.revision > revision
    event = logged(stored.id)[-1]
    assert (event.action, event.position) == ("edited", 1)
    assert event.summary == "team A card points 50 → 60; team B card points 50 → 40"
    assert event.before["counted_points"] == [50, 50]
    assert event.after["counted_points"] == [60, 40]
    assert event.after["card_points"] == [60, None]  # as entered


def test_an_edit_keeps_the_bombs_and_the_note_and_says_so(ctx):
    key = add(new_match().key, LEVEL).key
    match = writes.lock_match(key)
    assert corrections.edit_hand(match, hand_of(match, 1), LEVEL, 1,
                                 extras={"bombs": [0, 2, 0, 0], "note": "  late   hand "}) == []
    hand = hand_of(writes.match_by_key(key), 1)
    assert (hand.bombs, hand.note) == ([0, 2, 0, 0], "late hand")
    assert logged(hand.match_id)[-1].summary == "Bob's bombs 0 → 2; note “” → “late hand”"


def test_an_edit_made_on_an_older_version_is_a_conflict_naming_the_current_one(ctx):
    key = add(new_match().key, LEVEL).key
    match = writes.lock_match(key)
    assert corrections.edit_hand(match, hand_of(match, 1), SWEEP_A, 1) == []
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:  # another phone's edit came first
        corrections.edit_hand(match, hand_of(match, 1), LEVEL, 1)
    assert caught.value.hand is hand_of(match, 1) and caught.value.current == 2
    assert after_edit(key)[0] == [200, 0]  # the first edit stands, not overwritten
    assert [e.action for e in logged(match.id)] == ["added", "edited"]


def test_an_edit_of_a_hand_deleted_meanwhile_is_a_conflict_without_a_hand(ctx):
    key = add(new_match().key, LEVEL, LEVEL).key
    match = writes.lock_match(key)
    corrections.delete_hand(match, hand_of(match, 1), 1)
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:
        corrections.edit_hand(match, hand_of(match, 1), SWEEP_A, 2)  # its current version
    assert caught.value.hand is None
    assert after_edit(key) == ([50, 50], 1, [2])  # not brought back by the edit


def test_an_edit_the_rules_refuse_returns_the_problems_and_changes_nothing(ctx):
    key = add(new_match().key, LEVEL).key
    match = writes.lock_match(key)
    problems = corrections.edit_hand(match, hand_of(match, 1),
                                     {"out_order": [1, 2], "card_points": [33, None]}, 1)
    assert [p.rule for p in problems] == ["P1"]  # card points come in steps of 5
    db.session.rollback()
    assert hand_of(writes.match_by_key(key), 1).version == 1
    assert [e.action for e in logged(match.id)] == ["added"]


def test_an_edit_that_would_end_the_match_before_its_last_hand_is_refused_with_e1(ctx):
    key = add(new_match(target=300).key, SWEEP_A, LEVEL).key  # 200 : 0, then 250 : 50
    match = writes.lock_match(key)
    # A's double victory with a Tichu made would reach 300 after hand 1, with hand 2 after it
    won = SWEEP_A | {"calls": {"0": "tichu"}}
    problems = corrections.edit_hand(match, hand_of(match, 1), won, 1)
    assert [(p.field, p.rule) for p in problems] == [("match", "E1")]
    assert after_edit(key) == ([250, 50], 2, [1, 2])
    assert [e.action for e in logged(match.id)] == ["added", "added"]


def test_an_edit_that_decides_the_match_with_its_last_hand_finishes_it(ctx):
    key = add(new_match(target=300).key, LEVEL, LEVEL).key  # 100 : 100
    match = writes.lock_match(key)
    assert corrections.edit_hand(match, hand_of(match, 2), SWEEP_A | {"calls": {"0": "tichu"}},
                                 1) == []
    stored = writes.match_by_key(key)
    assert stored.totals == [50 + 300, 50] and stored.winner_team == 0 and stored.finished


# ------------------------------------------------------------------------------ delete


def test_a_delete_takes_the_hand_out_of_play_and_logs_what_it_was(ctx):
    key = add(new_match().key, LEVEL, SWEEP_A).key
    match = writes.lock_match(key)
    recorded = hand_of(match, 1).recorded()
    corrections.delete_hand(match, hand_of(match, 1), 1)
    assert after_edit(key) == ([200, 0], 1, [2])
    stored = writes.match_by_key(key)
    gone = hand_of(stored, 1)
    assert gone.deleted_at is not None and gone.version == 2
    event = logged(stored.id)[-1]
    assert (event.action, event.position, event.before, event.after) == (
        "deleted", 1, recorded, None)


def test_a_delete_on_an_older_version_or_of_a_deleted_hand_is_a_conflict(ctx):
    key = add(new_match().key, LEVEL, LEVEL).key
    match = writes.lock_match(key)
    corrections.edit_hand(match, hand_of(match, 1), SWEEP_A, 1)
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:
        corrections.delete_hand(match, hand_of(match, 1), 1)  # read before the edit
    assert caught.value.current == 2
    db.session.rollback()
    match = writes.lock_match(key)
    corrections.delete_hand(match, hand_of(match, 1), 2)
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:  # two phones deleting the same hand
        corrections.delete_hand(match, hand_of(match, 1), 3)
    assert caught.value.hand is None
    assert after_edit(key) == ([50, 50], 1, [2])


def test_a_delete_that_would_leave_hands_after_the_end_raises_and_changes_nothing(ctx):
    # 200 : 0, 150 : 50, 350 : 50, 400 : 100 - won by A with hand 4 (target 400)
    key = add(new_match(target=400).key, SWEEP_A, ANN_FAILS, SWEEP_A, LEVEL).key
    assert writes.match_by_key(key).finished
    match = writes.lock_match(key)
    with pytest.raises(ending.AfterTheEnd) as caught:  # without hand 2, won with hand 3
        corrections.delete_hand(match, hand_of(match, 2), 1)
    assert caught.value.problem.rule == "E1"
    assert after_edit(key) == ([400, 100], 4, [1, 2, 3, 4])
    assert [e.action for e in logged(match.id)] == ["added"] * 4


# ------------------------------------------------------------------------------ undo


def test_undo_takes_back_only_the_latest_hand_the_phone_saw(ctx):
    key = add(new_match().key, LEVEL, SWEEP_A).key
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:  # the phone saw hand 1 as the latest
        corrections.undo_last(match, 1)
    assert (caught.value.hand.number, caught.value.current) == (2, 2)
    db.session.rollback()
    undone = corrections.undo_last(writes.lock_match(key), 2)
    assert undone.number == 2 and undone.deleted_at is not None
    assert after_edit(key) == ([50, 50], 1, [1])
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict) as caught:  # a second undo of the same hand
        corrections.undo_last(match, 2)
    assert caught.value.current == 1
    assert [(e.action, e.position) for e in logged(match.id)][-1] == ("undone", 2)


def test_undo_in_a_match_without_hands_is_a_conflict(ctx):
    match = writes.lock_match(new_match().key)
    with pytest.raises(writes.Conflict) as caught:
        corrections.undo_last(match, 1)
    assert (caught.value.hand, caught.value.current) == (None, None)
    db.session.rollback()


# ------------------------------------------------------------------------------ restore


def test_restore_brings_a_hand_back_in_its_place_once(ctx):
    key = add(new_match().key, LEVEL, SWEEP_A, LEVEL).key
    match = writes.lock_match(key)
    corrections.delete_hand(match, hand_of(match, 2), 1)
    assert after_edit(key) == ([100, 100], 2, [1, 3])
    match = writes.lock_match(key)
    assert corrections.restore_hand(match, hand_of(match, 2)) is True
    assert after_edit(key) == ([300, 100], 3, [1, 2, 3])
    stored = writes.match_by_key(key)
    event = logged(stored.id)[-1]
    assert (event.action, event.position, event.before) == ("restored", 2, None)
    assert event.after == hand_of(stored, 2).recorded()
    assert corrections.restore_hand(writes.lock_match(key), hand_of(stored, 2)) is False
    db.session.rollback()
    assert [e.action for e in logged(stored.id)] == ["added"] * 3 + ["deleted", "restored"]


def test_restore_right_after_an_undo_is_refused_once_the_match_moved_on(ctx):
    key = add(new_match().key, LEVEL, SWEEP_A).key
    corrections.undo_last(writes.lock_match(key), 2)
    match = writes.lock_match(key)
    hand = hand_of(match, 2)
    assert corrections.restore_hand(match, hand, moved_on_ok=False) is True  # nothing since
    assert after_edit(key) == ([250, 50], 2, [1, 2])
    corrections.undo_last(writes.lock_match(key), 2)
    add(key, SWEEP_A)  # another phone saved the hand again meanwhile
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict):
        corrections.restore_hand(match, hand_of(match, 2), moved_on_ok=False)
    assert after_edit(key) == ([250, 50], 2, [1, 3])  # not counted twice


def test_restore_from_the_log_names_the_revision_the_log_showed(ctx):
    key = add(new_match().key, LEVEL, SWEEP_A).key
    corrections.undo_last(writes.lock_match(key), 2)
    shown = writes.match_by_key(key).revision
    add(key, LEVEL)  # the match changed after the log was opened
    match = writes.lock_match(key)
    with pytest.raises(writes.Conflict):
        corrections.restore_hand(match, hand_of(match, 2), revision=shown)
    assert after_edit(key) == ([100, 100], 2, [1, 3])
    match = writes.lock_match(key)
    assert corrections.restore_hand(match, hand_of(match, 2), revision=match.revision)
    assert after_edit(key) == ([300, 100], 3, [1, 2, 3])


def test_a_restore_that_would_leave_hands_after_the_end_raises_and_changes_nothing(ctx):
    key = add(new_match(target=250).key, LEVEL).key
    match = writes.lock_match(key)
    corrections.delete_hand(match, hand_of(match, 1), 1)
    add(key, SWEEP_A, LEVEL)  # 200 : 0, 250 : 50: won with its last hand
    match = writes.lock_match(key)
    with pytest.raises(ending.AfterTheEnd) as caught:  # hand 1 back: won with hand 2
        corrections.restore_hand(match, hand_of(match, 1))
    assert caught.value.problem.rule == "E1"
    assert after_edit(key) == ([250, 50], 2, [2, 3])


# ------------------------------------------------------------------------------ settings


def test_change_settings_logs_english_words_whatever_the_readers_language(german):
    key = new_match().key
    rules = HouseRules(grand_tichu=False)
    assert corrections.change_settings(writes.lock_match(key), 500,
                                       ["Ann", "Robert", "Cy", "Dee"], rules, 300)
    match = writes.match_by_key(key)
    assert (match.target, match.player_names[1], match.lead_by) == (500, "Robert", 300)
    assert match.house.grand_tichu is False
    event = logged(match.id)[-1]
    assert event.action == "settings"
    assert event.summary == ("target 1000 → 500; Bob → Robert; house rules rule book → "
                             "No Grand Tichu, Ends at a lead of 300")
    # said anew on the log page, in the reader's language
    assert corrections.describe_settings(event.before, event.after).startswith(
        "Zielwert 1000 → 500; Bob → Robert")


def test_change_settings_that_change_nothing_write_nothing(ctx):
    key = new_match().key
    assert corrections.change_settings(writes.lock_match(key), 1000, list(FOUR)) is False
    assert [e.action for e in logged(writes.match_by_key(key).id)] == []


def test_describe_settings_names_the_target_each_renamed_player_and_the_house_rules(ctx):
    before = {"target": 1000, "names": list(FOUR)}
    assert corrections.describe_settings(before, dict(before)) == "no change"
    after = {"target": 1000, "names": ["Ann", "Bob", "Cyrus", "Dee"],
             "house": {"double_victory_points": 100, "custom_calls": {"blind": 400}}}
    assert corrections.describe_settings(before, after) == (
        "Cy → Cyrus; house rules rule book → Double victory worth 100, Call “blind”: 400")
    # an imported entry with house rules no version wrote: said as "?", never a failure
    odd = {"target": 500, "names": list(FOUR), "house": {"grand_tichu": "no"}}
    assert corrections.describe_settings(before, odd) == (
        "target 1000 → 500; house rules rule book → ?")


# ------------------------------------------------------------------------------ words


def test_describe_change_says_each_field_that_changed_with_the_players_names(ctx):
    match = new_match()
    before = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, None],
              "counted_points": [50, 50], "wish_penalty": None}
    assert corrections.describe_change(match, before, dict(before)) == "no change"
    after = {"out_order": [1, 0], "calls": {"2": "grand"}, "card_points": [None, 40],
             "counted_points": [60, 40], "wish_penalty": {"offender": 3},
             "bombs": [0, 1], "note": "re-counted"}
    assert corrections.describe_change(match, before, after).split("; ") == [
        "out-order Ann, Bob → Bob, Ann",
        "Ann's call Tichu → no call", "Cy's call no call → Grand Tichu",
        # the points as counted: entered for the other team, they still compare
        "team A card points 50 → 60", "team B card points 50 → 40",
        "missed wish nobody → Dee", "Bob's bombs 0 → 1", "note “” → “re-counted”"]
    stopped = corrections.describe_change(match, {"out_order": [2]}, {"out_order": []})
    assert stopped == "out-order Cy → nobody"


def test_describe_change_in_the_readers_language(german):
    match = new_match()
    said = corrections.describe_change(match, {"calls": {}}, {"calls": {"1": "tichu"}})
    assert said.startswith("Ansage von Bob ") and "no call" not in said


def test_summarize_puts_a_stored_hand_or_a_scored_row_in_one_line(ctx):
    called = {"out_order": [1, 2], "calls": {"1": "tichu", "0": "grand"},
              "card_points": [50, None], "wish_penalty": {"offender": 2}}
    match = add(new_match().key, called)
    hand = match.hands[0]
    # Bob went out first: his Tichu made (+100), Ann's Grand Tichu failed (-200) [P3]
    # [P4]: the wish penalty gives B 200 card points and A none
    assert hand.card_points == [0, 200]
    assert corrections.summarize(match, hand) == (
        "out: Bob, Cy · Ann Grand Tichu failed · Bob Tichu made · card points 0 : 200 · "
        "missed wish: Cy · A -200 / B +300")


# ------------------------------------------------------------------------------ own calls

OWN_CALL = HouseRules(custom_calls=(("blind", 400),))


def own_call_match():
    return creation.create_match(roster.create_group("T"), FOUR, 1000, house=OWN_CALL)


def test_describe_change_names_a_matchs_own_call(ctx):
    """[R9]: an own call by its name (it was read as a rule-book call: ValueError, and an
    edit of it answered 500)."""
    match = own_call_match()
    said = corrections.describe_change(match, {"calls": {"0": "blind"}},
                                       {"calls": {"0": "tichu", "1": "blind"}})
    assert said == "Ann's call blind → Tichu; Bob's call no call → blind"


def test_describe_change_names_an_own_call_the_match_dropped_since_as_it_is(ctx):
    match = new_match()  # the rule book: "blind" is no call of it (any longer)
    said = corrections.describe_change(match, {"calls": {"0": "blind"}},
                                       {"calls": {"0": "grand"}})
    assert said == "Ann's call blind → Grand Tichu"


def test_an_edit_of_an_own_call_is_logged_in_words(ctx):
    key = add(own_call_match().key, {"out_order": [0, 1], "calls": {"0": "blind"},
                                    "card_points": [50, None]}).key
    assert writes.match_by_key(key).totals == [50 + 400, 50]
    match = writes.lock_match(key)
    assert corrections.edit_hand(match, hand_of(match, 1), {
        "out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, None]}, 1) == []
    stored = writes.match_by_key(key)
    assert stored.totals == [50 + 100, 50]
    assert logged(stored.id)[-1].summary == "Ann's call blind → Tichu"


def test_summarize_names_a_matchs_own_call(ctx):
    """[R9] (it was read as a rule-book call: a hand with an own call could not be shown in
    a conflict, ValueError)."""
    match = add(own_call_match().key, {"out_order": [0, 1], "calls": {"0": "blind",
                                                                      "1": "tichu"},
                                      "card_points": [50, None]})
    assert corrections.summarize(match, match.hands[0]) == (
        "out: Ann, Bob · Ann blind made · Bob Tichu failed · card points 50 : 50 · "
        "A +450 / B -50")


def test_summarize_says_the_calls_in_the_readers_language(german):
    match = add(new_match().key, {"out_order": [0, 1], "calls": {"1": "grand"},
                                  "card_points": [50, None]})
    assert "Bob Großes Tichu " in corrections.summarize(match, match.hands[0])


def test_a_conflicts_page_shows_their_hand_mine_scored_and_each_hand_saved_meanwhile(ctx):
    match = add(new_match().key, LEVEL, SWEEP_A)
    first, second = match.hands
    stale = writes.Stale([(1, first), (2, second)], current=2, entry=1)
    theirs, mine, lines = corrections.conflict_versions(match, ANN_FAILS, None, stale)
    assert theirs == corrections.summarize(match, first)
    # Ann's failed Tichu [P3], scored as a new hand: A 50 - 100, B 50
    assert mine == "out: Bob, Ann · Ann Tichu failed · card points 50 : 50 · A -50 / B +50"
    assert lines == [(1, corrections.summarize(match, first)),
                     (2, corrections.summarize(match, second))]
    # mine refused by the rules [H7: one seat out twice]: no line of mine; a hand deleted
    # meanwhile (an edit's conflict) has none of theirs
    gone = writes.Conflict(None, 3)
    refused = {"out_order": [1, 1], "card_points": [50, None]}
    assert corrections.conflict_versions(match, refused, first, gone) == ("", None, [])
