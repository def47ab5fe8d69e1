"""`statistics.store`: the stored rows of each match and the sums of each table, called
directly. A match's rows are rewritten and its table's sums changed by the difference
(`replace`), a hand's counts added to both (`add`, refused when a row is missing),
imported matches' rows and sums inserted at once (`insert_new`); the reads of all matches
(`table_sums`, a name at several tables counted once, games without points left out) and
of a period (`period_sums`); and after hands added, edited, deleted, undone and restored,
each match's rows equal a recount from its hands and each table's sums its matches' rows
summed. `tests/test_statistics.py` checks the same through random writes and a recount of
its own; here each function is checked on a case worked out by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from tests.matches.conftest import add, new_match
from tests.statistics.test_counting import GRAND_FAILED, SWEEP_TICHU, counts
from tichu_scorer.clock import utcnow
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import corrections, roster, writes
from tichu_scorer.models import Group, Match, MatchTally, TableTally
from tichu_scorer.scoring.stats import COUNTS
from tichu_scorer.statistics import counting, store

ANN, BOB = (0, "Ann"), (0, "Bob")
PAIR_A = counting.who(("Ann", "Cy"))
ZERO = [0] * len(COUNTS)


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def sums(group_id: int, variant: str = "nanking") -> dict:
    """The table's stored sums of one variant, read with plain SQL."""
    found = db.session.execute(db.select(TableTally).filter_by(group_id=group_id,
                                                               variant=variant)).scalars()
    return {(t.side, t.who): [getattr(t, c) for c in COUNTS] for t in found}


def summed_rows(group_id: int, variant: str = "nanking") -> dict:
    """The table's matches' rows of one variant, added up here."""
    out: dict = {}
    for row in db.session.execute(db.select(MatchTally).join(Match).where(
            Match.group_id == group_id, Match.variant == variant)).scalars():
        key = (row.side, row.who)
        out[key] = [a + getattr(row, c) for a, c in zip(out.get(key, ZERO), COUNTS,
                                                        strict=True)]
    return out


def assert_consistent(match: Match) -> None:
    """The match's rows equal a recount from its hands in play; its table's sums equal its
    matches' rows summed (a sum whose matches are all gone is all zeros)."""
    db.session.expire_all()
    match = db.session.get(Match, match.id)
    assert store.read(match.id) == counting.rows(counting.counted(match))
    kept = sums(match.group_id, match.variant)
    rows = summed_rows(match.group_id, match.variant)
    assert {k: c for k, c in kept.items() if any(c)} == rows


def test_a_new_match_has_a_row_per_player_and_partnership(ctx):
    match = new_match()
    found = store.read(match.id)
    assert set(found) == {ANN, BOB, (0, "Cy"), (0, "Dee"), PAIR_A,
                          counting.who(("Bob", "Dee"))}
    assert all(c == counts(matches=1) for c in found.values())
    assert sums(match.group_id) == found  # the table's only match


def test_replace_rewrites_the_rows_and_moves_the_sums_by_the_difference(ctx):
    first = add(new_match().key, SWEEP_TICHU)
    other = new_match(table="U")  # the same players at another table
    group_id = first.group_id
    before, elsewhere = sums(group_id), sums(other.group_id)
    old = store.read(first.id)
    new = {ANN: counts(matches=1, hands=3, points=250), (0, "Zed"): counts(matches=1)}
    store.replace(first, new)
    assert store.read(first.id) == new
    after = sums(group_id)
    assert after[ANN] == [s + n - o for s, n, o in zip(before[ANN], new[ANN], old[ANN],
                                                       strict=True)]
    assert after[(0, "Zed")] == counts(matches=1)
    assert after[BOB] == ZERO and after[PAIR_A] == ZERO  # taken out; nothing else there
    assert sums(other.group_id) == elsewhere  # another table's sums: left alone
    db.session.rollback()


def test_replace_with_no_rows_takes_the_match_out_of_its_tables_sums(ctx):
    key = add(new_match().key, SWEEP_TICHU).key
    match = writes.lock_match(key)
    group_id = match.group_id
    assert sums(group_id)[ANN] == counts(matches=1, hands=1, points=300, first_out=1,
                                         double_victories=1, tichu_called=1, tichu_made=1,
                                         hands_won=1)
    store.replace(match, {})
    assert store.read(match.id) == {}
    assert all(c == ZERO for c in sums(group_id).values())
    db.session.commit()
    group = db.session.get(Group, group_id)
    assert counting.shown(store.table_sums([group.id])) == []  # no match left to show


def test_replace_with_the_same_rows_changes_nothing(ctx):
    match = add(new_match().key, SWEEP_TICHU)
    before = sums(match.group_id)
    store.replace(match, store.read(match.id))
    store.replace(match, dict(store.read(match.id)), old=store.read(match.id))
    assert sums(match.group_id) == before
    db.session.rollback()


def test_add_adds_a_hand_to_the_rows_and_the_sums(ctx):
    match = add(new_match().key, SWEEP_TICHU)
    before_rows, before_sums = store.read(match.id), sums(match.group_id)
    hand = {ANN: counts(hands=1, points=-170), BOB: counts(hands=1, points=70, first_out=1)}
    assert store.add(match, hand) is True
    assert store.read(match.id)[ANN] == [a + b for a, b in zip(before_rows[ANN], hand[ANN],
                                                                strict=True)]
    assert sums(match.group_id)[BOB] == [a + b for a, b in zip(before_sums[BOB], hand[BOB],
                                                                strict=True)]
    assert store.read(match.id)[(0, "Cy")] == before_rows[(0, "Cy")]  # not named: as it was
    db.session.rollback()


def test_add_refuses_a_row_that_is_not_there_and_leaves_the_sums(ctx):
    match = new_match()
    before = sums(match.group_id)
    assert store.add(match, {(0, "Stranger"): counts(hands=1)}) is False
    assert sums(match.group_id) == before
    db.session.rollback()


def test_a_hand_added_to_a_match_missing_one_row_keeps_the_sums_right(ctx):
    match = add(new_match().key, GRAND_FAILED)
    ann = store.read(match.id)[ANN]
    # Ann's row missing, from the match's rows and its table's sums alike (consistent)
    db.session.execute(db.delete(MatchTally).where(MatchTally.match_id == match.id,
                                                   MatchTally.side == 0,
                                                   MatchTally.who == "Ann"))
    store.replace(match, store.read(match.id), old={**store.read(match.id), ANN: ann})
    db.session.commit()
    assert sums(match.group_id)[ANN] == ZERO
    match = add(match.key, GRAND_FAILED)  # record_hand: add refused, the match recounted
    assert store.read(match.id) == counting.rows(counting.counted(match))  # rows: right
    assert sums(match.group_id)[BOB] == summed_rows(match.group_id)[BOB]


def test_insert_new_writes_the_rows_and_one_sum_per_table_and_variant(ctx):
    one, two = roster.create_group("One"), roster.create_group("Two")
    db.session.commit()
    made = []
    for group, names, game in ((one, ["Ann", "Bob", "Cy", "Dee"], variants.NANKING),
                               (one, ["Ann", "Eve", "Cy", "Fay"], variants.NANKING),
                               (one, ["Ann", "Bob", "Cy"], variants.THREECHU),
                               (two, ["Ann", "Bob", "Cy", "Dee"], variants.NANKING)):
        match = Match(group_id=group.id, variant=game.key, totals=[0] * 4)
        db.session.add(match)
        db.session.flush()
        rows = {ANN: counts(matches=1, points=10), (0, names[1]): counts(matches=1)}
        made.append((match, rows))
    store.insert_new(made)
    for match, rows in made:
        assert store.read(match.id) == rows
    assert sums(one.id) == {ANN: counts(matches=2, points=20), BOB: counts(matches=1),
                            (0, "Eve"): counts(matches=1)}
    assert sums(one.id, "threechu") == {ANN: counts(matches=1, points=10),
                                        BOB: counts(matches=1)}
    assert sums(two.id) == {ANN: counts(matches=1, points=10), BOB: counts(matches=1)}
    store.insert_new([])  # nothing to write: no statement fails
    db.session.rollback()


def test_table_sums_count_a_name_at_several_tables_once(ctx):
    first = add(new_match().key, SWEEP_TICHU)
    second = add(new_match(table="U").key, GRAND_FAILED)
    add(new_match(["A", "B", "C", "D", "E"], None, variants.SEIGNEUR, table="U").key,
        {"out_order": [0, 1, 2, 3]})
    found = {(v, side, who): c for v, side, who, c in store.table_sums(
        [first.group_id, second.group_id])}
    assert {v for v, _s, _w in found} == {"nanking"}  # no game without points
    assert found["nanking", 0, "Ann"] == counts(
        matches=2, hands=2, points=300 - 170, first_out=1, double_victories=1,
        tichu_called=1, tichu_made=1, hands_won=1)  # the first hand's, not the second's
    assert found["nanking", 0, "Cy"][COUNTS.index("grand_called")] == 1
    assert store.table_sums([second.group_id]) != store.table_sums([first.group_id])
    assert store.table_sums([10**6]) == []


def test_period_sums_count_only_the_matches_started_since(ctx):
    old = new_match()
    recent = new_match(["Ann", "Eve", "Fay", "Gus"], table="T")
    group_ids = [old.group_id, recent.group_id]
    db.session.get(Match, old.id).started_at = utcnow() - timedelta(days=40)
    db.session.commit()
    month = {(side, who): c for _v, side, who, c in store.period_sums(
        group_ids, utcnow() - timedelta(days=30))}
    assert month[ANN] == counts(matches=1) and BOB not in month and (0, "Eve") in month
    ever = {(side, who): c for _v, side, who, c in store.period_sums(
        group_ids, utcnow() - timedelta(days=400))}
    assert ever[ANN] == counts(matches=2) and ever[BOB] == counts(matches=1)
    assert ever == {(side, who): c for _v, side, who, c in store.table_sums(group_ids)}


def test_hands_reads_the_hands_in_play_afresh_in_order(ctx):
    key = add(new_match().key, SWEEP_TICHU, GRAND_FAILED, SWEEP_TICHU).key
    match = writes.lock_match(key)
    corrections.delete_hand(match, match.hands[1], match.hands[1].version)
    match = writes.match_by_key(key)
    assert [h.number for h in store.hands(match)] == [1, 3]
    with db.engine.begin() as conn:  # another phone deletes hand 3 meanwhile
        conn.execute(text("UPDATE hand SET deleted_at = created_at WHERE number = 3"))
    db.session.rollback()
    assert [h.number for h in store.hands(match)] == [1]


def test_rows_and_sums_equal_a_recount_after_every_kind_of_write(ctx):
    key = new_match(target=10000).key
    match = add(key, SWEEP_TICHU, GRAND_FAILED)
    assert_consistent(match)
    assert store.read(match.id)[ANN][COUNTS.index("points")] == 130
    match = writes.lock_match(key)
    first = match.hands[0]
    corrections.edit_hand(match, first, GRAND_FAILED, first.version)  # edited
    assert_consistent(match)
    assert store.read(match.id)[ANN][COUNTS.index("points")] == -340
    match = writes.lock_match(key)
    corrections.delete_hand(match, match.hands[0], match.hands[0].version)  # deleted
    assert_consistent(match)
    assert store.read(match.id)[ANN][COUNTS.index("hands")] == 1
    match = writes.lock_match(key)
    corrections.undo_last(match, match.hands[-1].number)  # undone
    assert_consistent(match)
    assert store.read(match.id)[ANN] == counts(matches=1)
    match = writes.lock_match(key)
    for hand in [h for h in match.all_hands if h.deleted_at is not None]:
        corrections.restore_hand(writes.lock_match(key), hand)  # restored
    match = add(key, SWEEP_TICHU)
    assert_consistent(match)
    assert store.read(match.id)[ANN][COUNTS.index("hands")] == 3
