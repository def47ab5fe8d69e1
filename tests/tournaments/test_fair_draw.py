"""An individual round drawn fair (`tournaments/fair_draw.py`, `drawing.draw_round(fair=)`):
the draw's tables and byes, each table partnered the fairest way that brings back no
partner the draw avoided."""

import doctest

from hypothesis import given
from hypothesis import strategies as st

from tichu_scorer import fairness
from tichu_scorer.tournaments import draw, fair_draw

NAMES = [f"P{i}" for i in range(10)]
strengths = st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 25 / 3)), min_size=10,
                     max_size=10)


def test_the_examples():
    assert doctest.testmod(fair_draw).failed == 0


@given(strengths, st.integers(0, 2**16), st.integers(0, 4))
def test_fair_tables_keep_the_draw_and_never_repeat_more_partners(values, seed, played):
    rated = {fairness.key_of(n): v for n, v in zip(NAMES, values, strict=True)}
    made = draw.draw(NAMES, played + 1, seed=seed)
    history, new = made.rounds[:-1], made.rounds[-1]
    met = fair_draw.partnered(history)
    fair = fair_draw.fair_tables(new.tables, history, rated)
    for drawn, table in zip(new.tables, fair, strict=True):
        assert sorted(table.seats) == sorted(drawn)  # the same four at the same table

        def repeats(sides):
            return sum(met[tuple(sorted(draw.key(n) for n in side))] for side in sides)

        assert repeats(table.sides) <= repeats(((drawn[0], drawn[2]), (drawn[1], drawn[3])))
        allowed = [t for t in fairness.partnerships(drawn, rated)
                   if repeats(t.sides) <= repeats(((drawn[0], drawn[2]), (drawn[1], drawn[3])))]
        assert table.unfairness == min(t.unfairness for t in allowed)
    assert fair_draw.fair_tables(new.tables, history, rated) == fair  # deterministic
