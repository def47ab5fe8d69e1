"""Fair partnerships (`tichu_scorer/fairness.py`, `tables/fair_evening.py`): each side's
chance from the ratings, and the fairest split of the players present, checked against a
search of every split made here."""

import doctest
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tichu_scorer import fairness
from tichu_scorer.fairness import Table, chances, fairest_tables, partnerships, teams_of_three
from tichu_scorer.ratings import Outcome, rate, strengths
from tichu_scorer.tables import evenings, fair_evening

NAMES = [f"P{i}" for i in range(12)]
strength = st.tuples(st.floats(0, 50), st.floats(0.5, 25 / 3))


def rated(values):
    return {fairness.key_of(n): v for n, v in zip(NAMES, values, strict=False)}


def every_pair_split(four, ratings):
    """The three partnerships of four players, found without `fairness`'s search."""
    a, b, c, d = four
    return [fairness.table(s, ratings) for s in (((a, b), (c, d)), ((a, c), (b, d)),
                                                 ((a, d), (b, c)))]


def test_the_modules_examples():
    for module in (fairness, fair_evening, evenings):
        assert doctest.testmod(module).failed == 0


def test_even_ratings_are_a_coin_toss_and_a_stronger_side_is_favoured():
    assert chances([["Ann", "Bob"], ["Cy", "Dee"]], {}) == (0.5, 0.5)
    strong = {"ann": (35.0, 2.0)}
    ann, other = chances([["Ann", "Bob"], ["Cy", "Dee"]], strong)
    assert ann > 0.5 > other and ann + other == pytest.approx(1)
    assert chances([["ANN  ", "Bob"], ["Cy", "Dee"]], strong)[0] == ann  # a name's key
    assert Table((("A", "C"), ("B", "D")), (0.504, 0.496)).percents == (50, 50)
    assert Table((("A", "C"), ("B", "D")), (0.5, 0.5)).seats == ("A", "B", "C", "D")


@given(st.lists(strength, min_size=4, max_size=4))
def test_the_fairest_partnership_is_closest_to_even(values):
    ratings = rated(values)
    found = partnerships(NAMES[:4], ratings)
    assert len(found) == 3 and {frozenset(frozenset(s) for s in t.sides) for t in found} == {
        frozenset(frozenset(s) for s in t.sides) for t in every_pair_split(NAMES[:4], ratings)}
    closest = min(abs(t.chances[0] - 0.5) for t in every_pair_split(NAMES[:4], ratings))
    assert abs(found[0].chances[0] - 0.5) == pytest.approx(closest)
    assert sum(found[0].chances) == pytest.approx(1)


@given(st.lists(strength, min_size=8, max_size=8))
def test_two_tables_whose_least_fair_is_as_fair_as_any(values):
    ratings = rated(values)
    tables = fairest_tables(NAMES[:8], ratings)
    assert len(tables) == 2
    assert sorted(n for t in tables for n in t.seats) == sorted(NAMES[:8])
    best = 1.0
    for first in combinations(NAMES[:8], 4):
        if "P0" not in first:
            continue
        second = [n for n in NAMES[:8] if n not in first]
        best = min(best, max(min(t.unfairness for t in every_pair_split(first, ratings)),
                             min(t.unfairness for t in every_pair_split(second, ratings))))
    assert max(t.unfairness for t in tables) == pytest.approx(best)


@given(st.lists(strength, min_size=6, max_size=6))
def test_two_teams_of_three_closest_to_even(values):
    ratings = rated(values)
    found = teams_of_three(NAMES[:6], ratings)
    assert len(found) == 10 and all(len(s) == 3 for t in found for s in t.sides)
    every = [fairness.table((team, [n for n in NAMES[:6] if n not in team]), ratings)
             for team in combinations(NAMES[:6], 3)]
    assert found[0].unfairness == pytest.approx(min(t.unfairness for t in every))
    assert found[0].seats[::2] == found[0].sides[0]  # team A in seats 0, 2, 4


def test_twelve_players_make_three_tables_and_the_same_answer_twice():
    ratings = rated([(20.0 + i, 3.0 + i % 3) for i in range(12)])
    tables = fairest_tables(NAMES, ratings)
    assert len(tables) == 3 and fairest_tables(NAMES, ratings) == tables
    with pytest.raises(ValueError):
        fairest_tables(NAMES[:6], ratings)


def test_ratings_feed_the_split_a_strong_pair_is_parted():
    """Ann and Cy won every match together: the fairest split puts them on opposite
    sides."""
    won = Outcome("x", (("Ann", "Cy"), ("Bob", "Dee")), (1, 2))
    ratings = strengths(rate([won] * 6))
    best = partnerships(["Ann", "Bob", "Cy", "Dee"], ratings)[0]
    assert {"Ann", "Cy"} not in [set(side) for side in best.sides]
    worst = partnerships(["Ann", "Bob", "Cy", "Dee"], ratings)[-1]
    assert {"Ann", "Cy"} in [set(side) for side in worst.sides]
    assert worst.unfairness > best.unfairness


def test_the_evening_plays_those_who_played_least_and_six_also_make_tientsin():
    played = [evenings.Evening.Match(("A", "B", "C", "D"), ((0, 2), (1, 3)), (0, 0), None)]
    nanking, tientsin = fair_evening.suggest(list("ABCDEF"), played, {}, {})
    assert set(nanking.tables[0].seats) >= {"E", "F"} and len(nanking.sitting_out) == 2
    assert tientsin.variant == "tientsin" and sorted(tientsin.tables[0].seats) == list("ABCDEF")
    assert fair_evening.suggest(list("ABC"), [], {}, {}) == []
    nine = fair_evening.suggest(list("ABCDEFGHI"), [], {}, {})
    assert len(nine) == 1 and len(nine[0].tables) == 2 and nine[0].sitting_out == ("I",)
