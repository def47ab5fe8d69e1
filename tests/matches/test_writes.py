"""`matches.writes`: the one way into a write, the match looked up by key, the log."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.matches import writes
from tichu_scorer.models import Group, HandEvent


def test_writing_commits_at_the_end_and_rolls_back_on_an_error(ctx):
    with writes.writing():
        db.session.add(Group(name="kept"))
    with pytest.raises(RuntimeError), writes.writing():
        db.session.add(Group(name="dropped"))
        db.session.flush()
        raise RuntimeError("boom")
    names = set(db.session.execute(db.select(Group.name)).scalars())
    assert "kept" in names and "dropped" not in names


def test_lock_match_reads_the_match_and_its_seats_or_none(ctx):
    key = new_match().key
    held = writes.lock_match(key)
    assert held is not None and held.key == key
    assert [s.player.name for s in held.seats] == ["Ann", "Bob", "Cy", "Dee"]
    db.session.rollback()
    assert writes.lock_match("no-such-key") is None
    db.session.rollback()


def test_match_by_key_refuses_an_overlong_key_without_a_query(ctx):
    key = new_match().key
    assert writes.match_by_key(key).key == key
    assert writes.match_by_key("x" * 25) is None


def test_position_and_log_name_the_hand_by_its_place_in_play(ctx):
    match = add(new_match().key, LEVEL, LEVEL)
    first, second = match.hands
    assert writes.position(match, second) == 2
    assert writes.position(match, object()) == 0
    writes.lock_match(match.key)
    writes.log(match, second, "edited", "words", {"a": 1}, {"a": 2})
    db.session.commit()
    logged = db.session.execute(db.select(HandEvent).filter_by(
        match_id=match.id, action="edited")).scalar_one()
    assert (logged.position, logged.summary, logged.before, logged.after) == (
        2, "words", {"a": 1}, {"a": 2})


def test_stale_names_the_first_hand_saved_since(ctx):
    match = add(new_match().key, LEVEL)
    hand = match.hands[0]
    stale = writes.Stale([(1, hand)], current=2, entry=2)
    assert isinstance(stale, writes.Conflict)
    assert (stale.hand, stale.current, stale.entry, stale.saved) == (hand, 2, 2, [(1, hand)])
    assert writes.Stale([], 3, 4).hand is None
