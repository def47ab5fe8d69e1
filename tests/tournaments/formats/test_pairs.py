"""`formats.pairs`: the pairs tournament's hooks ([TN3]) — a line read as a pair, whom a table
credits, the standing by match points, the knockout after the rounds, and each pairing's
ground: Swiss (who met, the byes, the standing), all against all (the circle method while
the field is as entered, then the look-ahead, then Swiss), each seating as `pairing`'s.
Pure."""

from __future__ import annotations

import pytest

from tests.tournaments.formats.past import Past, Row, pairs, table
from tichu_scorer.tournaments import draw, pairing, standings
from tichu_scorer.tournaments.formats import PAIRS_ALL, PAIRS_SWISS, Entry, Knockout, Refused
from tichu_scorer.tournaments.formats.pairs import LookAhead, RoundRobin, SwissGround


@pytest.mark.parametrize("line, entry", [
    ("Ann & Bob", Entry("", ("Ann", "Bob"))),
    ("Dragons: Ann & Bob", Entry("Dragons", ("Ann", "Bob"))),
    (" Ann ,Bob", Entry("", ("Ann", "Bob"))),
    ("Ann / Bob", Entry("", ("Ann", "Bob"))),
    ("Ann + Bob", Entry("", ("Ann", "Bob"))),
    ("Ann und Bob", Entry("", ("Ann", "Bob"))),
    ("Ann AND  Bob Lee", Entry("", ("Ann", "Bob Lee"))),
    ("Ann", Entry("", ("Ann",))),  # one player: refused by the entries' check
])
def test_a_line_is_a_pair(line, entry):
    assert PAIRS_SWISS.read_entry(line) == entry == PAIRS_ALL.read_entry(line)


def test_a_side_credits_its_pair_or_its_two_players():
    known = {frozenset({"ann", "cy"}): "Dragons"}
    assert PAIRS_SWISS.sides(["ANN", "Bob", "cy", "Dee"], known) == (("Dragons",),
                                                                    ("Bob & Dee",))


def test_the_standing_ranks_by_match_points_first():
    won = standings.Table(1, (("P1",), ("P2",)), (2, 0), (50, 40), 1, True, 0)
    big = standings.Table(2, (("P3",), ("P4",)), (0, 2), (0, 400), 1, True, 1)
    lines = PAIRS_SWISS.standing([standings.Round(1, (won, big))], [])
    assert [(line.name, line.match_points) for line in lines[:2]] == [("P4", 2), ("P1", 2)]


@pytest.mark.parametrize("fmt, words", [
    (PAIRS_SWISS, ("Pairs tournament, Swiss (TN3)", "Swiss: pairs of close standing")),
    (PAIRS_ALL, ("Pairs tournament, all against all (TN3)", "All against all")),
])
def test_the_pages_words(fmt, words):
    assert (fmt.title, fmt.pairing_choice) == words
    assert (fmt.entry_label, fmt.entries_title, fmt.arrival_hint, fmt.choice) == (
        "Pair", "Pairs", "Ann & Bob", "Pairs: fixed partners")
    assert fmt.match_points and fmt.takes_knockout


@pytest.mark.parametrize("planned, knockout, number, last, knocks", [
    (3, None, 3, 3, False), (3, 2, 4, 4, True), (2, 4, 3, 4, True), (2, 8, 2, 5, False),
])
def test_the_knockout_follows_the_planned_rounds(planned, knockout, number, last, knocks):
    assert PAIRS_SWISS.rounds_in(planned, knockout) == last
    stage = PAIRS_SWISS.draws(number, planned)
    assert stage.knockout == knocks
    assert stage == (Knockout(PAIRS_SWISS) if knocks else PAIRS_SWISS)
    assert PAIRS_SWISS.stage_named(stage.stage) == stage


def test_a_round_of_fewer_than_two_pairs_is_refused():
    past = Past([Row("P0", ("A", "B")), Row("P1", ("C", "D"), left=2)])
    for fmt in (PAIRS_SWISS, PAIRS_ALL):
        with pytest.raises(Refused) as refused:
            fmt.ground(past, 2)
        assert (refused.value.rule, refused.value.field) == ("TN3", "entries")
        assert "1 play" in refused.value.message


def played_once() -> Past:
    """Five pairs after round 1: P1 beat P0, P3 beat P2, P4 sat out."""
    past = pairs(5)
    past.played = [standings.Round(1, (table(1, "P0", "P1", 1), table(2, "P2", "P3", 1)),
                                   ("P4",))]
    return past


def test_the_swiss_ground_is_who_met_the_byes_and_the_standing_read_once():
    past = played_once()
    ground = PAIRS_SWISS.ground(past, 2)
    assert past.reads == 1
    assert ground.met == {frozenset({"P0", "P1"}), frozenset({"P2", "P3"})}
    assert ground.had == ("P4",) and ground.ranked[:2] == ("P1", "P3")
    assert set(ground.ranked) == {f"P{i}" for i in range(5)}
    made = pairing.swiss(ground.ranked, ground.met, ground.had)
    seating = ground.seating(draw.nothing)
    assert seating.byes == (made.bye,) and len(seating.tables) == 2
    a, b = made.tables[0]
    assert seating.tables[0] == (f"A{a[1]}", f"A{b[1]}", f"B{a[1]}", f"B{b[1]}")


def test_a_pair_that_left_is_not_paired_and_one_that_arrived_is_ranked_last():
    past = played_once()
    past.entries[1] = Row("P1", ("A1", "B1"), left=2)
    past.entries.append(Row("New", ("X", "Y"), joined=2))
    ground = PAIRS_SWISS.ground(past, 2)
    assert "P1" not in ground.ranked and ground.ranked[-1] == "New"


def test_all_against_all_is_the_circle_method_while_the_field_is_as_entered():
    past = pairs(5)
    for number in (1, 2, 5, 6):
        ground = PAIRS_ALL.ground(past, number)
        assert isinstance(ground, RoundRobin) and past.reads == 0  # nothing else read
        games = pairing.round_robin([f"P{i}" for i in range(5)])[(number - 1) % 5]
        seating = ground.seating(draw.nothing)
        assert [(t[0], t[1]) for t in seating.tables] == [
            (f"A{a[1]}", f"A{b[1]}") for a, b in games if b is not None]
        assert seating.byes == tuple(a for a, b in games if b is None)


def test_all_against_all_after_a_change_plans_the_rounds_left():
    past = played_once()
    past.entries.append(Row("New", ("X", "Y"), joined=2))
    ground = PAIRS_ALL.ground(past, 2)
    assert ground == LookAhead(2, PAIRS_SWISS.ground(past, 2))
    seating = ground.seating(draw.nothing)
    met = {frozenset({t[0], t[1]}) for t in seating.tables}
    assert not met & {frozenset({"A0", "A1"}), frozenset({"A2", "A3"})}  # nobody meets again
    assert len(seating.tables) == 3 and seating.byes == ()


def test_without_a_plan_all_against_all_pairs_the_swiss_way():
    swiss = SwissGround((("P0", ("A0", "B0")), ("P1", ("A1", "B1"))),
                        frozenset({frozenset({"P0", "P1"})}), (), ("P0", "P1"))
    seating = LookAhead(1, swiss).seating(draw.nothing)  # the two met: no plan
    assert seating == swiss.seating(draw.nothing)
    assert seating.tables == (("A0", "A1", "B0", "B1"),) and seating.unmet[0].rule == "TN3"
