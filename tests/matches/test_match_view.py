"""`matches.match_view`: the match page's view models built straight from stored matches,
without HTTP. Each row's deltas and running totals follow the scoring rules ([P1]–[P5],
[T6.6]); its words (who went out first, the calls made or failed, a missed wish, a sweep,
the bombs, the note) are in the reader's language; the totals name their side and the
winner ([E1]); a tie at the top is shown while play goes on ([E2]); who shuffles next
([T3.1]); Threechu ranks its players ([T3.5]); Grand Seigneur has titles, pushes and
records instead of points ([GS4], [GS5], [GS7])."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, SWEEP_A, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import hand_entry, match_view, writes
from tichu_scorer.scoring import SideKind

# Ann (seat 0) out first, Bob (seat 1) second; 50 card points each; Ann called Tichu
# (made: +100 to A), Bob called Grand Tichu (failed: -200 to B) [P3], [P5]
CALLED = {"out_order": [0, 1], "card_points": [50, None],
          "calls": {"0": "tichu", "1": "grand"}}


def add_with(key: str, data: dict, extras: dict | None = None):
    """Add one hand with its bombs and note; the match read afresh after."""
    match = writes.lock_match(key)
    added = hand_entry.add_hand(match, data, match.hand_count + 1, extras=extras)
    assert added.hand is not None, added.problems
    db.session.rollback()
    return writes.match_by_key(key)


def test_a_row_has_the_calls_results_in_its_scores_and_words(ctx):
    match = add_with(new_match().key, CALLED, {"bombs": [0, 2, 0, 1], "note": "slow deal"})
    page = match_view.match_page(match)
    (row,) = page.rows
    assert row.position == 1
    assert row.deltas == (150, -150) and row.running == (150, -150)  # 50+100, 50-200
    assert row.first_out == "Ann"
    assert row.call_notes == [("Ann", "Tichu", True), ("Bob", "Grand Tichu", False)]
    notes = row.notes
    assert notes.first_out == "Ann out first"
    assert notes.calls == (("Ann: Tichu ✓ made", True), ("Bob: Grand Tichu ✗ failed", False))
    assert notes.bombs == ("Bob: 2 bombs", "Dee: 1 bomb")  # seats without a bomb: no words
    assert notes.note == "slow deal" and notes.edit == "Edit hand 1"
    assert notes.wish == "" and notes.sweep == "" and notes.shuffled == ""
    assert [t.total for t in page.sides] == [150, -150]


def test_a_missed_wish_is_named_and_scored_as_the_opponents_double_victory(ctx):
    # Bob (team B) missed the wish: A scores 200, B 0 card points ([P4])
    match = add_with(new_match().key, {"out_order": [0, 1], "card_points": [50, None],
                                       "wish_penalty": {"offender": 1}})
    (row,) = match_view.match_page(match).rows
    assert row.deltas == (200, 0)
    assert row.notes.wish == "Wish missed by Bob"
    assert row.notes.sweep == ""  # scored like one, but nobody went out first and second
    assert row.hand.wish_offender == 1


def test_running_totals_add_up_the_deltas_hand_by_hand(ctx):
    match = add(new_match().key, SWEEP_A, LEVEL, CALLED)
    rows = match_view.match_page(match).rows
    assert [r.deltas for r in rows] == [(200, 0), (50, 50), (150, -150)]
    running = (0, 0)
    for row in rows:
        running = tuple(a + b for a, b in zip(running, row.deltas, strict=True))
        assert row.running == running
    assert [r.position for r in rows] == [1, 2, 3]
    assert rows[0].notes.sweep == "Double victory"  # [P2]
    assert [r.notes.edit for r in rows] == ["Edit hand 1", "Edit hand 2", "Edit hand 3"]


def test_in_a_team_game_the_player_out_first_last_hand_shuffles_next(ctx):
    match = new_match()
    assert match_view.match_page(match).next_shuffler is None  # anyone may, at the start
    page = match_view.match_page(add(match.key, LEVEL))  # Bob out first
    assert page.next_shuffler == "Bob" and page.dummy_partner is None
    assert not page.notes_below and page.ranking == []


def test_the_totals_name_their_sides_and_the_winner(ctx):
    match = add(new_match(target=200).key, SWEEP_A)  # A reaches 200, B has 0 ([E1])
    assert match.finished and match.winner_team == 0
    sides = match_view.sides_of(match)
    assert [(t.side.label, t.side.names, t.total, t.won) for t in sides] == [
        ("A", ("Ann", "Cy"), 200, True), ("B", ("Bob", "Dee"), 0, False)]
    assert [t.css for t in sides] == [t.side.css for t in sides]
    assert match_view.side_labels(match) == ["A", "B"]
    assert match_view.match_page(match).tied_at is None


def test_sides_of_a_match_without_stored_totals_are_zero(ctx):
    match = new_match()
    match.totals = []  # as a row stored before totals were
    assert [t.total for t in match_view.sides_of(match)] == [0, 0]
    assert not any(t.won for t in match_view.sides_of(match))
    db.session.rollback()


def test_a_tie_at_the_top_at_the_target_is_shown_while_play_goes_on(ctx):
    key = add(new_match(target=100).key, LEVEL, LEVEL).key  # 100 to 100: [E2]
    page = match_view.match_page(writes.match_by_key(key))
    assert [t.total for t in page.sides] == [100, 100]
    assert not page.match.finished and page.tied_at == 100
    page = match_view.match_page(add(key, SWEEP_A))  # 300 to 100: A wins
    assert page.match.finished and page.tied_at is None
    assert [t.won for t in page.sides] == [True, False]


def test_tientsin_has_teams_of_three_and_a_triple_victory(ctx):
    names = ["P0", "P1", "P2", "P3", "P4", "P5"]
    match = add(new_match(names, 1000, variants.TIENTSIN).key,
                {"out_order": [0, 2, 4], "card_points": [None, None]})
    page = match_view.match_page(match)
    assert [t.side.names for t in page.sides] == [("P0", "P2", "P4"), ("P1", "P3", "P5")]
    assert page.rows[0].deltas == (300, 0)  # [T6.6]
    assert page.rows[0].notes.sweep == "Triple victory"


def test_threechu_ranks_players_and_the_dummy_and_passes_the_shuffle_left(ctx):
    match = new_match(["A", "B", "C"], None, variants.THREECHU, hand_limit=9)
    assert match_view.side_labels(match) == ["A", "B", "C", "Dummy"]
    first = match_view.match_page(match)
    assert first.next_shuffler == first.dummy_partner == "A"  # seat 0 shuffles hand 1
    page = match_view.match_page(add(match.key, LEVEL))
    assert page.notes_below
    assert page.rows[0].notes.shuffled == "A shuffled and played the dummy."
    assert page.next_shuffler == page.dummy_partner == "B"  # to the left ([T3.1])
    assert [t.side.kind for t in page.sides][-1] is SideKind.DUMMY
    totals = [t.total for t in page.ranking]
    assert totals == sorted(totals, reverse=True) and len(page.ranking) == 4
    assert sorted(t.total for t in page.ranking) == sorted(t.total for t in page.sides)


def test_the_words_are_in_the_readers_language(app):
    with app.test_request_context(headers={"Accept-Language": "de"}):
        match = add_with(new_match().key, CALLED, {"bombs": [0, 2, 0, 0]})
        notes = match_view.match_page(match).rows[0].notes
    assert notes.first_out == "Ann als Erste(r) raus"
    assert notes.edit == "Runde 1 bearbeiten"
    assert notes.bombs == ("Bob: 2 Bomben",)
    assert notes.calls[0] == ("Ann: Tichu ✓ geschafft", True)


def test_grand_seigneur_titles_pushes_and_records_follow_the_last_hands(ctx):
    names = ["A", "B", "C", "D", "E"]
    key = new_match(names, None, variants.SEIGNEUR).key
    page = match_view.match_page(add(key, {"out_order": [2, 0, 4, 1]},
                                     {"out_order": [2, 1, 0, 3]}))
    assert page.sides == [] and page.next_shuffler is None
    assert [r.ranking for r in page.rows] == [("C", "A", "E", "B", "D"),
                                              ("C", "B", "A", "D", "E")]
    assert [r.first_out for r in page.rows] == ["C", "C"]
    # [GS4]: five players' titles, by the last hand's finishing order
    assert page.titles == [("Great Lord", "C"), ("Lord", "B"), ("Squire", "A"),
                           ("Pauper", "D"), ("Wretch", "E")]
    # [GS5] with five players: the Wretch pushes 2 to the Great Lord, the Pauper 1 to the Lord
    assert [(names[p.giver], names[p.receiver], p.cards) for p in page.pushes] == [
        ("E", "C", 2), ("D", "B", 1)]
    # [GS7]: most hands as Great Lord first, then the best average rank
    assert [name for name, _r in page.records] == ["C", "A", "B", "E", "D"]
    c = dict(page.records)["C"]
    assert (c.great_lord, c.longest_reign, c.average_rank, c.hands) == (2, 2, 1.0, 2)


@pytest.mark.parametrize("game, names", [(variants.NANKING, ["Ann", "Bob", "Cy", "Dee"]),
                                         (variants.SEIGNEUR, ["A", "B", "C", "D", "E"])])
def test_a_match_without_hands_has_an_empty_page(ctx, game, names):
    page = match_view.match_page(new_match(names, 1000 if game.scored else None, game))
    assert page.rows == [] and page.titles == [] and page.pushes == []
    assert [t.total for t in page.sides] == ([0, 0] if game.scored else [])
