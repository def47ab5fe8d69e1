"""`formats.knockout`: the knockout after a pairs tournament's rounds ([TN3]) — its size
checked, its stages, its tables played to a target, the first stage seeded by the
standing (dropped-out pairs left out), later stages by the winners, and the stages drawn
before a correction named ([TN4]). Pure."""

from __future__ import annotations

import pytest

from tests.tournaments.formats.past import Row, pairs, table
from tichu_scorer.tournaments import draw, standings
from tichu_scorer.tournaments.formats import PAIRS_SWISS, Knockout, Refused, knockout_changed
from tichu_scorer.tournaments.formats.knockout import (
    KNOCKOUT_HOUSE,
    KnockoutGround,
    checked,
    stages,
)

KNOCKOUT = Knockout(PAIRS_SWISS)


@pytest.mark.parametrize("size, stages_", [(None, 0), (0, 0), (2, 1), (4, 2), (8, 3)])
def test_the_stages_follow_the_size(size, stages_):
    assert stages(size) == stages_


@pytest.mark.parametrize("size, entries, kept", [
    (None, 2, None), (0, 2, None), (2, 2, 2), (4, 5, 4), (8, 8, 8),
    (3, 8, Refused), (4, 3, Refused), (16, 20, Refused),
])
def test_a_knockout_is_of_the_best_2_4_or_8_and_no_more_than_play(size, entries, kept):
    if kept is Refused:
        with pytest.raises(Refused) as refused:
            checked(size, entries)
        assert (refused.value.field, refused.value.rule) == ("knockout", "TN3")
    else:
        assert checked(size, entries) == kept == PAIRS_SWISS.check_knockout(size, entries)


def test_a_knockout_match_is_played_to_a_target_without_victory_points():
    rules = KNOCKOUT.table_rules(4)
    assert (rules.target, rules.hands, rules.house) == (1000, None, KNOCKOUT_HOUSE)
    assert not KNOCKOUT_HOUSE.victory_points and not KNOCKOUT_HOUSE.grand_tichu
    assert (KNOCKOUT.stage, KNOCKOUT.knockout, KNOCKOUT.stage_title, KNOCKOUT.target) == (
        "knockout", True, "Knockout", 1000)


def test_the_first_stage_seeds_the_pairs_that_still_play_by_the_standing():
    past = pairs(5, rounds=1, knockout=2)
    past.entries[3] = Row("P3", ("A3", "B3"), left=2)  # the best pair dropped out
    past.played = [standings.Round(1, (table(1, "P3", "P0", 0, points=(300, 0)),
                                       table(2, "P1", "P2", 0)), ("P4",))]
    ground = KNOCKOUT.ground(past, 2)
    assert past.reads == 1
    assert ground.winners is None and ground.seeded[:2] == ("P1", "P4")
    assert "P3" not in ground.seeded
    assert ground.seating(draw.nothing).tables == (("A1", "A4", "B1", "B4"),)


def test_a_later_stage_pairs_the_winners_of_the_stage_before():
    past = pairs(4, rounds=1, knockout=4)
    past.played = [standings.Round(1, (table(1, "P0", "P1", 0), table(2, "P2", "P3", 0))),
                   standings.Round(2, (table(1, "P0", "P3", 1), table(2, "P1", "P2", 0)),
                                   knockout=True)]
    ground = KNOCKOUT.ground(past, 3)
    assert ground.winners == ("P3", "P1") and ground.seeded == ()
    assert ground.seating(draw.nothing).tables == (("A3", "A1", "B3", "B1"),)


def test_a_knockout_of_more_pairs_than_play_is_refused_at_its_draw():
    ground = KnockoutGround(4, ("P0", "P1", "P2"), None, (("P0", ("A", "B")),))
    with pytest.raises(Refused) as refused:
        ground.seating(draw.nothing)
    assert (refused.value.field, refused.value.rule) == ("round", "TN3")


def test_a_knockout_stage_drawn_before_a_correction_is_named():
    def final_table(board, a, b, winner):
        return standings.Table(board, ((a,), (b,)), (), (1000, 500), 5, True, winner)
    semis = standings.Round(4, (final_table(1, "P1", "P4", 0), final_table(2, "P2", "P3", 1)),
                            knockout=True)
    final = standings.Round(5, (final_table(1, "P1", "P3", None),), knockout=True)
    assert knockout_changed([semis, final]) == []
    corrected = standings.Round(4, (final_table(1, "P1", "P4", 1),
                                    final_table(2, "P2", "P3", 1)), knockout=True)
    (said,) = knockout_changed([corrected, final])  # P4 now won the first semi-final
    assert said.startswith("Table 1 of round 5 seats P1") and "round 4" in said
    ordinary = standings.Round(1, (final_table(1, "P1", "P2", 1),))
    assert knockout_changed([ordinary, corrected]) == []
