"""`matches.hand_entry`: a hand previewed, derived and added."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, SWEEP_A, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import hand_entry, writes
from tichu_scorer.models import Hand


def test_score_previews_a_hand_without_storing_it(ctx):
    match = add(new_match().key, LEVEL)
    preview, problems, row = hand_entry.score(match, SWEEP_A)
    assert problems == [] and preview.sweep and preview.scores == [200, 0]
    assert preview.totals == [250, 50] and not preview.finished
    assert row["sweep"] and row["team_scores"] == [200, 0]
    assert db.session.execute(db.select(db.func.count()).select_from(Hand)).scalar() == 1


def test_score_names_each_problem_and_refuses_a_hand_after_the_end(ctx):
    _preview, problems, row = hand_entry.score(new_match(), {"out_order": [1, 1]})
    assert problems and row == {}
    over = add(new_match(target=200, table="U").key, SWEEP_A)
    assert over.finished
    _preview, problems, _row = hand_entry.score(over, LEVEL)
    assert problems[0].rule == "E1" and problems[0].field == "match"


def test_add_hand_stores_once_per_client_id_and_updates_the_match(ctx):
    key = new_match().key
    match = writes.lock_match(key)
    added = hand_entry.add_hand(match, SWEEP_A, 1, client_id="phone-1")
    assert added.position == 1 and added.problems == []
    again = hand_entry.add_hand(writes.lock_match(key), SWEEP_A, 2, client_id="phone-1")
    assert again.hand.id == added.hand.id  # the hand already stored, exactly once
    db.session.rollback()
    stored = writes.match_by_key(key)
    assert (stored.hand_count, stored.totals) == (1, [200, 0])


def test_a_form_opened_before_another_save_is_stale(ctx):
    key = add(new_match().key, LEVEL).key
    with pytest.raises(writes.Stale) as caught:
        hand_entry.add_hand(writes.lock_match(key), LEVEL, 1, entry=1)
    db.session.rollback()
    assert (caught.value.current, caught.value.entry) == (2, 2)
    assert [place for place, _hand in caught.value.saved] == [1]


def test_derive_fills_in_the_other_teams_points_and_threechu_shuffles_in_turn(ctx):
    match = new_match()
    derived = hand_entry.derive(match, {"out_order": [1, 2], "card_points": [30, None]})
    assert derived.card_points == (30, 70) and derived.sweep_team is None
    three = new_match(["A", "B", "C"], 1000, variants.THREECHU, table="U")
    assert hand_entry.next_shuffler(three) == variants.THREECHU.shuffler(1)
    assert hand_entry.next_shuffler(match) is None
    assert hand_entry.next_entry(match) == 1
