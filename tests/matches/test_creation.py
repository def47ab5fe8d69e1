"""`matches.creation`: a new match, a rematch, a match deleted."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, add, new_match
from tichu_scorer import statistics
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import creation, writes
from tichu_scorer.models import Group, Hand, Match


def test_a_new_match_starts_at_zero_with_its_seats_and_tallies(ctx):
    match = new_match(target=500)
    again = writes.match_by_key(match.key)
    assert list(again.player_names) == ["Ann", "Bob", "Cy", "Dee"]
    assert (again.totals, again.target, again.hand_count or 0) == ([0, 0], 500, 0)
    assert again.stamp >= 1
    counted = statistics.for_tables([again.group])[0]  # played, though no hand yet
    assert [(name, t.matches, t.hands) for name, t in counted.players] == [
        (name, 1, 0) for name in ("Ann", "Bob", "Cy", "Dee")]


def test_a_rematch_keeps_players_and_settings_and_names_the_match_it_follows(ctx):
    first = new_match(["A", "B", "C"], None, variants.THREECHU, hand_limit=6)
    again = creation.rematch(first)
    assert (again.variant, again.hand_limit, again.rematch_of_id) == (
        "threechu", 6, first.id)
    assert again.stamp > first.stamp


def test_a_rematch_of_a_deleted_match_is_a_conflict(ctx):
    first = new_match()
    creation.delete_match(writes.lock_match(first.key))
    with pytest.raises(writes.Conflict):
        creation.rematch(first)


def test_delete_match_removes_its_hands_and_keeps_the_stamp_on_sqlite(ctx):
    match = add(new_match().key, LEVEL)
    group_id, stamp, match_id = match.group_id, match.stamp, match.id
    creation.delete_match(writes.lock_match(match.key))
    assert db.session.get(Match, match_id) is None
    assert db.session.execute(db.select(Hand).filter_by(match_id=match_id)).first() is None
    if db.engine.dialect.name == "sqlite":
        assert db.session.get(Group, group_id).stamp == stamp
