"""The match page along one path: `hand_reads` -> `match_view` -> `hand_rows` and `chart`."""

from __future__ import annotations

import pytest

from tests.matches.conftest import LEVEL, SWEEP_A, add, new_match
from tichu_scorer.core import hand_rows as rows
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import chart, hand_reads, match_view
from tichu_scorer.models import Match
from tichu_scorer.scoring.state import MatchState


def test_hand_lines_read_the_hands_in_play_as_values(ctx):
    match = add(new_match().key, SWEEP_A, LEVEL)
    lines = hand_reads.hand_lines(match)
    assert [(line.number, line.out_order, line.sweep) for line in lines] == [
        (1, [0, 2], True), (2, [1, 2], False)]
    assert lines == [hand_reads.HandLine.of(h) for h in match.hands]
    state = MatchState.of(match.settings, [line.input for line in lines])
    assert list(state.totals) == [250, 50]


def test_hand_lines_of_a_deleted_match_is_gone(ctx):
    match = add(new_match().key, LEVEL)
    db.session.execute(db.delete(Match).where(Match.id == match.id))  # by another phone
    db.session.commit()
    with pytest.raises(hand_reads.Gone):
        hand_reads.hand_lines(match)


def test_the_points_page_has_running_totals_and_words(ctx):
    match = add(new_match().key, SWEEP_A, LEVEL)
    page = match_view.match_page(match)
    assert [t.total for t in page.sides] == [250, 50] and not page.ranking
    assert [r.running for r in page.rows] == [(200, 0), (250, 50)]
    assert page.rows[0].notes.sweep and page.rows[1].notes.first_out == "Bob out first"
    assert match_view.side_labels(match) == [s.side.label for s in page.sides]
    html = str(rows.hand_rows(page.rows, ("/m/", "/edit"), dummy=False))
    assert html.index('href="/m/2/edit"') < html.index('href="/m/1/edit"')  # latest first
    drawn = chart.match_chart(page)
    assert drawn is not None and len(drawn.lines) == 2


def test_threechu_ranks_its_players_and_names_the_dummys_partner(ctx):
    match = add(new_match(["A", "B", "C"], 1000, variants.THREECHU).key, LEVEL)
    page = match_view.match_page(match)
    assert page.dummy_partner == page.next_shuffler is not None
    assert [t.total for t in page.ranking] == sorted((t.total for t in page.sides),
                                                     reverse=True)
    assert "shuffled and played the dummy" in str(rows.hand_rows(page.rows, None, dummy=True))


def test_grand_seigneur_has_titles_and_records_and_no_totals(ctx):
    match = add(new_match(["A", "B", "C", "D", "E"], None, variants.SEIGNEUR).key,
                {"out_order": [2, 0, 4, 1]})
    page = match_view.match_page(match)
    assert page.sides == [] and page.rows[0].ranking == ("C", "A", "E", "B", "D")
    assert page.titles and len(page.records) == 5
    assert chart.match_chart(match_view.MatchPage(match, [], [], None)) is None


def test_a_row_escapes_every_name(ctx):
    match = add(new_match(["<b>", "Bob", "Cy", "Dee"]).key, {"out_order": [0, 1],
                                                             "card_points": [50, None]})
    html = str(rows.hand_rows(match_view.match_page(match).rows, None, dummy=False))
    assert "<b>" not in html and "&lt;b&gt;" in html
    db.session.rollback()
