"""`formats.individual`: the individual tournament's hooks ([TN1], [TN2]) — a line read as a
player, whom a table credits, the standing by victory points, and the draw's ground (who
plays, the seed, who sat where) whose seating is `draw.draw`'s. Pure."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.formats.past import Past, Row
from tichu_scorer.tournaments import draw, standings
from tichu_scorer.tournaments.formats import INDIVIDUAL, Entry, Refused
from tichu_scorer.tournaments.formats.individual import IndividualGround

PLAYERS = [f"P{i}" for i in range(9)]


@pytest.mark.parametrize("line, entry", [
    ("Ann", Entry("Ann")), ("  Ann   Lee ", Entry("Ann Lee")),
    ("Ann & Bob", Entry("Ann & Bob")),  # one player's name, whatever it holds
])
def test_a_line_is_one_player(line, entry):
    assert INDIVIDUAL.read_entry(line) == entry


def test_the_entries_box_is_read_line_by_line_without_blank_lines():
    assert INDIVIDUAL.read_entries("Ann\n\n  \nBob \n") == [Entry("Ann"), Entry("Bob")]


def test_a_side_credits_its_two_partners():
    assert INDIVIDUAL.sides(["Ann", "Bob", "Cy", "Dee"], {}) == (("Ann", "Cy"), ("Bob", "Dee"))


def test_the_standing_ranks_by_victory_points_without_match_points():
    t1 = standings.Table(1, (("A", "C"), ("B", "D")), (2, 0), (40, 60), 1, True, 0)
    lines = INDIVIDUAL.standing([standings.Round(1, (t1,))], ["A", "B", "C", "D", "E"])
    assert [(line.name, line.place, line.match_points) for line in lines] == [
        ("A", 1, 0), ("C", 1, 0), ("B", 3, 0), ("D", 3, 0), ("E", 5, 0)]
    assert lines[-1].victory == Fraction(0)


@pytest.mark.parametrize("attribute, words", [
    ("title", "Individual tournament (TN1)"), ("entry_label", "Player"),
    ("entries_title", "Players"), ("arrival_hint", "Name"),
    ("choice", "Individual: new partners every round"),
])
def test_the_pages_words(attribute, words):
    assert getattr(INDIVIDUAL, attribute) == words
    assert not INDIVIDUAL.match_points and not INDIVIDUAL.takes_knockout


def test_no_knockout_and_every_round_drawn_as_individual():
    assert INDIVIDUAL.check_knockout(4, 8) is None  # asked for: not stored
    assert INDIVIDUAL.rounds_in(3, 8) == 3
    assert INDIVIDUAL.draws(4, 3) is INDIVIDUAL
    assert INDIVIDUAL.stage_named("knockout") is INDIVIDUAL


def test_the_ground_is_who_plays_the_rounds_seed_and_who_sat_where():
    before = (draw.Round((("P0", "P1", "P2", "P3"),), ("P4",)),)
    entries = [Row(n) for n in PLAYERS] + [Row("Late", joined=3), Row("Gone", left=2)]
    ground = INDIVIDUAL.ground(Past(entries, seed=7, sat=before), 2)
    assert ground == IndividualGround(tuple(PLAYERS), 7002, before)


def test_the_seating_is_the_draws_for_that_seed_and_history():
    ground = INDIVIDUAL.ground(Past([Row(n) for n in PLAYERS], seed=3), 1)
    made = draw.draw(PLAYERS, 1, seed=3001)
    seating = ground.seating(draw.nothing)
    assert (seating.tables, seating.byes, seating.unmet) == (
        made.rounds[0].tables, made.rounds[0].byes, made.unmet)
    assert ground.seating(draw.nothing) == seating  # the same ground, the same seating


def test_a_round_of_fewer_than_four_players_is_refused():
    entries = [Row("A"), Row("B"), Row("C"), Row("D", left=2)]
    with pytest.raises(Refused) as refused:
        INDIVIDUAL.ground(Past(entries), 2)
    assert (refused.value.field, refused.value.rule) == ("entries", "TN1")
    assert "3 play" in refused.value.message
