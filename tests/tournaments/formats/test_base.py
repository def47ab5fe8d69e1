"""`formats.base`: what every format shares. The entries' problems (`Format.check_entries`,
each format's own checks through its hooks) with the field and the rule ([TN1], [TN3]),
the names, who plays a round, the standing's columns, the round's table rules. Pure."""

from __future__ import annotations

import pytest

from tests.tournaments.formats.past import Row
from tichu_scorer import models
from tichu_scorer.tournaments.formats import (
    HOUSE,
    INDIVIDUAL,
    MOST_ENTRIES,
    PAIRS_ALL,
    PAIRS_SWISS,
    Entry,
    Refused,
    base,
    clean,
    pair_name,
    pair_names,
    playing,
)


def refusal(call, *args, **kwargs) -> tuple[str, str, str]:
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)
    return caught.value.field, caught.value.rule, caught.value.message


def test_names_are_cleaned_and_a_pair_is_named_by_its_players():
    assert clean("  Ann \t  Lee ") == "Ann Lee"
    assert pair_name([" Ann ", "Bob  Lee"]) == "Ann & Bob Lee"
    assert base.name_key(" ANN  Lee") == models.Player.key_of(" ANN  Lee") == "ann lee"
    assert base.NAME_MAX == models.NAME_MAX  # the bound checked is the bound stored


@pytest.mark.parametrize("fmt, entries, rule, words", [
    (INDIVIDUAL, ["Ann", "Bob", "Cy"], "TN1", "at least four players."),
    (INDIVIDUAL, ["Ann", "Bob", "Cy", " ANN "], "TN1", "ANN is entered twice"),
    (INDIVIDUAL, ["Ann", "Bob", "Cy", "A\u200bnn"], "TN1", "cannot be seen (U+200B)"),
    (INDIVIDUAL, ["Ann", "Bob", "Cy", "  "], "TN1", "1 to 40 characters"),
    (INDIVIDUAL, ["Ann", "Bob", "Cy", "x" * 41], "TN1", "1 to 40 characters"),
    (PAIRS_SWISS, [("Ann", "Bob")], "TN3", "at least four players (two pairs)"),
    (PAIRS_ALL, [("Ann", "Bob")], "TN3", "at least four players (two pairs)"),
    (PAIRS_SWISS, [("Ann", "Bob"), ("Cy",)], "TN3", "A pair is two players: Cy"),
    (PAIRS_SWISS, [("Ann", "Bob"), ("Cy", " ")], "TN3", "A pair is two players"),
    (PAIRS_SWISS, [("Ann", "Bob"), ("Cy", "D", "E")], "TN3", "A pair is two players"),
    (PAIRS_SWISS, [("Ann", "Bob"), ("Cy", "ann")], "TN1", "ann is entered twice"),
    (PAIRS_ALL, [("Ann", "Bob"), ("Bob", "Ann")], "TN1", "entered twice"),
])
def test_entries_that_cannot_play_are_refused_with_the_rule(fmt, entries, rule, words):
    asked = [Entry(e) if fmt is INDIVIDUAL else Entry("", e) for e in entries]
    field, cited, message = refusal(fmt.check_entries, asked)
    assert (field, cited) == ("entries", rule) and words in message


@pytest.mark.parametrize("fmt, entries", [
    (INDIVIDUAL, [Entry(n) for n in ("Ann", "Bob", "Cy", "Dee")]),
    (PAIRS_SWISS, [Entry("", ("Ann", "Bob")), Entry("Dragons", ("Cy", "Dee"))]),
    (PAIRS_ALL, [Entry("Ann", ("Ann", "Bob")), Entry("", ("Cy", "Dee"))]),  # its own player
])
def test_entries_that_can_play_pass(fmt, entries):
    fmt.check_entries(entries)


def test_two_pairs_of_one_name_are_refused():
    entries = [Entry("Dragons", ("Ann", "Bob")), Entry(" dragons ", ("Cy", "Dee"))]
    assert refusal(PAIRS_SWISS.check_entries, entries)[:2] == ("entries", "TN3")
    # a pair named as another pair's players are: the same name twice
    made = [Entry("", ("Ann", "Bob")), Entry("Ann & Bob", ("Cy", "Dee"))]
    assert "entered twice" in refusal(PAIRS_SWISS.check_entries, made)[2]


def test_a_late_arrival_needs_no_minimum_but_a_new_name():
    known = ["Ann", "Bob", "Cy", "Dee"]
    INDIVIDUAL.check_entries([Entry("Eve")], known=known)  # one is enough
    assert refusal(INDIVIDUAL.check_entries, [Entry("cy")], known)[:2] == ("entries", "TN1")
    many = [f"P{i}" for i in range(MOST_ENTRIES)]
    assert "At most 256" in refusal(INDIVIDUAL.check_entries, [Entry("X")], many)[2]
    INDIVIDUAL.check_entries([Entry("X")], many[:-1])  # the 256th still arrives


@pytest.mark.parametrize("fmt, stored, taken", [
    (INDIVIDUAL, [Row("Ann"), Row("Bob")], ["Ann", "Bob"]),
    (PAIRS_SWISS, [Row("Dragons", ("Ann", "Bob"))], ["Dragons", "Ann", "Bob"]),
])
def test_a_late_arrival_may_take_no_name_already_entered(fmt, stored, taken):
    assert fmt.known_names(stored) == taken


def test_who_plays_a_round_arrived_by_then_and_has_not_left():
    entries = [Row("A"), Row("B", joined=2), Row("C", left=2), Row("D", joined=2, left=3)]
    assert [[e.name for e in playing(entries, n)] for n in (1, 2, 3)] == [
        ["A", "C"], ["A", "B", "D"], ["A", "B"]]


def test_pairs_are_found_by_their_players_names():
    assert pair_names([Row("Dragons", ("Ann", "Cy ")), Row("Solo")]) == {
        frozenset({"ann", "cy"}): "Dragons", frozenset(): "Solo"}


@pytest.mark.parametrize("fmt, columns", [
    (INDIVIDUAL, ("place", "name", "victory_points", "points", "difference", "played",
                  "byes")),
    (PAIRS_SWISS, ("place", "name", "match_points", "victory_points", "points",
                   "difference", "played", "byes")),
])
def test_the_standing_is_exported_with_the_formats_columns(fmt, columns):
    assert fmt.columns == columns


@pytest.mark.parametrize("fmt", [INDIVIDUAL, PAIRS_SWISS, PAIRS_ALL])
def test_a_rounds_tables_play_its_hands_by_the_tournaments_rules(fmt):
    rules = fmt.table_rules(4)
    assert (rules.target, rules.hands, rules.house) == (None, 4, HOUSE)
    assert HOUSE.victory_points and not HOUSE.grand_tichu  # [TN1]: [R4], [R2]
    assert HOUSE.double_victory_points == 100  # [R3]
    assert (fmt.stage, fmt.knockout, fmt.stage_title, fmt.target) == ("round", False, None,
                                                                       None)
