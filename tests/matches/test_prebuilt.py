"""`matches.prebuilt`: the prebuilt statements and the stamps, called directly."""

from __future__ import annotations

from tests.matches.conftest import LEVEL, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.matches import creation, hand_entry, prebuilt, writes
from tichu_scorer.models import Group, Match


def test_next_stamp_is_one_past_the_highest_of_the_table_and_its_deleted_matches(ctx):
    match = new_match()
    group_id = match.group_id
    stamp = db.session.execute(db.select(prebuilt.next_stamp(group_id))).scalar_one()
    assert stamp == match.stamp + 1
    writes.begin_write()
    prebuilt.keep_stamp(group_id, 40)
    prebuilt.keep_stamp(group_id, 7)  # never lowered
    db.session.commit()
    assert db.session.get(Group, group_id).stamp == 40
    assert db.session.execute(db.select(prebuilt.next_stamp(group_id))).scalar_one() == 41


def test_insert_hand_numbers_entries_past_the_highest(ctx):
    match = add(new_match().key, LEVEL)
    writes.lock_match(match.key)
    assert prebuilt.next_entry(match.id) == 2
    row = hand_entry.score(match, LEVEL)[2]
    _id, number = prebuilt.insert_hand(match.id, {"match_id": match.id, **row})
    assert number == 2 and prebuilt.next_entry(match.id) == 3
    db.session.rollback()


def test_store_match_writes_the_derived_columns_and_a_new_stamp(ctx):
    match = writes.lock_match(new_match().key)
    before = match.stamp
    match.totals = [123, -23]
    match.hand_count = 9
    prebuilt.store_match(match)
    assert not db.session.is_modified(match)  # nothing left for the ORM to write
    db.session.commit()
    db.session.expire_all()
    again = db.session.get(Match, match.id)
    assert (again.totals, again.hand_count) == ([123, -23], 9) and again.stamp > before


def test_line_rows_give_the_revision_and_the_hands_in_play(ctx):
    empty = new_match(table="E")
    rows = prebuilt.line_rows(empty.id)
    assert len(rows) == 1 and rows[0][1] is None  # the match, no hand
    match = add(new_match().key, LEVEL, LEVEL)
    rows = prebuilt.line_rows(match.id)
    assert [r[1] for r in rows] == [1, 2] and rows[0][0] == match.revision
    assert prebuilt.line_rows(10_000) == []


def test_unlink_rematches_keeps_the_rematch_as_a_match_of_its_own(ctx):
    first = new_match()
    again = creation.rematch(first)
    assert again.rematch_of_id == first.id
    writes.begin_write()
    prebuilt.unlink_rematches(first.id)
    db.session.commit()
    db.session.expire_all()
    assert db.session.get(Match, again.id).rematch_of_id is None
