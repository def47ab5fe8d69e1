"""The enumerator's answer (`Plays`) reads as the list of its combinations would: length,
indexing from either end, slices, iteration, membership, equality and the card sets."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.positions import position
from tests.engine.test_worst_cases import HANDS
from tichu_scorer.engine.cards import parse_cards
from tichu_scorer.engine.combos import PASS, Combination, Kind
from tichu_scorer.engine.plays import Plays, legal_plays


def _reads_as_its_list(plays: Plays) -> None:
    listed = list(plays)
    assert len(plays) == len(listed) and bool(plays) == bool(listed)
    assert all(isinstance(p, Combination) for p in listed)
    assert [plays[i] for i in range(len(plays))] == listed
    assert [plays[-i] for i in range(1, len(plays) + 1)] == listed[::-1]
    assert plays[1:-1:2] == listed[1:-1:2]
    assert plays == listed and plays == tuple(listed) and listed == plays
    assert plays.cards() == [p.cards for p in listed]
    assert all(p in plays for p in listed[::5])
    for bad in (len(listed), -len(listed) - 1):
        with pytest.raises(IndexError):
            plays[bad]


@pytest.mark.parametrize("hand", HANDS)
def test_a_dense_lead_reads_as_a_list(hand):
    plays = legal_plays(parse_cards(hand.split()), None)
    _reads_as_its_list(plays)
    assert PASS not in plays and "4j" not in plays
    changed = plays[0]._replace(phoenix_as=99)
    assert changed not in plays
    assert plays != list(plays)[:-1] and plays != [*list(plays)[:-1], changed]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2 ** 32), st.booleans())
def test_every_answer_reads_as_a_list(seed, out_of_turn):
    hand, top, wish = position(random.Random(seed))
    plays = legal_plays(hand, top, wish, out_of_turn=out_of_turn)
    _reads_as_its_list(plays)
    if top is not None and (wish is None or out_of_turn):  # (a wish may forbid a pass)
        assert plays[-1].kind is Kind.PASS
