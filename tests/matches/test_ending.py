"""`matches.ending`: the derived columns and the end-of-match rules."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, SWEEP_A, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import ending, writes


def test_recompute_sets_totals_count_and_winner_from_the_hands(ctx):
    match = writes.lock_match(add(new_match(target=300).key, SWEEP_A, LEVEL).key)
    revision = match.revision
    match.totals, match.winner_team, match.finished_at = [0, 0], None, None  # wrong on purpose
    ending.recompute(match)
    assert (match.totals, match.hand_count, match.revision) == ([250, 50], 2, revision + 1)
    assert match.winner_team is None and match.finished_at is None
    db.session.rollback()


def test_a_correction_leaving_hands_after_the_end_is_refused(ctx):
    match = writes.lock_match(add(new_match(target=1000).key, SWEEP_A, LEVEL).key)
    assert ending.after_the_end(match) == 0
    match.target = 200  # reached by the first hand: the second would come after the end
    with pytest.raises(ending.AfterTheEnd) as caught:
        ending.recompute(match, 0)  # none after the end before the change
    assert caught.value.problem.rule == "E1"
    db.session.rollback()


def test_overrun_names_the_rule_a_record_from_a_file_breaks(ctx):
    match = writes.lock_match(add(new_match(target=1000).key, SWEEP_A, LEVEL).key)
    assert ending.overrun(match) is None
    match.target = 200
    assert ending.overrun(match).rule == "E1"
    db.session.rollback()
    fixed = add(new_match(["A", "B", "C"], None, variants.THREECHU, hand_limit=1,
                          table="U").key, LEVEL)
    assert ending.overrun(fixed) is None and fixed.finished


def test_settle_stamps_the_finish_once_and_clears_it_when_play_goes_on(ctx):
    match = writes.lock_match(new_match().key)
    ending.settle(match, [1000, 0], 5, 0, True)
    finished = match.finished_at
    assert finished is not None and match.winner_team == 0
    ending.settle(match, [1000, 0], 5, 0, True)
    assert match.finished_at == finished
    ending.settle(match, [900, 0], 4, None, False)
    assert match.finished_at is None
    db.session.rollback()
