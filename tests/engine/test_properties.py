"""Properties on thousands of random positions (hypothesis drives the seeds)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.positions import brute_wish, position, subsets
from tichu_scorer.engine.cards import DECK
from tichu_scorer.engine.combos import Kind, contains_rank
from tichu_scorer.engine.plays import legal_plays, wish_play
from tichu_scorer.engine.referee import Question, TrickPlay, judge
from tichu_scorer.engine.simulate import simulate_hand

SEEDS = st.integers(min_value=0, max_value=2 ** 32)
FAST = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(SEEDS, st.integers(min_value=4, max_value=10))
def test_wish_search_equals_exhaustive_search(seed, size):
    rng = random.Random(seed)
    hand, top, wish = position(rng, size)
    wish = wish or rng.randint(2, 14)
    found = wish_play(hand, wish, top)
    assert (found is not None) == brute_wish(hand, wish, top)
    if found is not None:  # the play it offers is itself lawful and holds the wished rank
        assert contains_rank(found, wish) and set(found) <= set(hand)


def _judge_subset(subset, hand, top, wish):
    trick = (TrickPlay(top.cards),) if top is not None else ()
    q = Question(play=tuple(subset), trick=trick, hand=tuple(hand), wish=wish)
    return judge(q).legal


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=3, max_value=9))
def test_enumerated_plays_are_exactly_the_legal_subsets(seed, size):
    rng = random.Random(seed)
    hand, top, wish = position(rng, size)
    if top is not None and top.phoenix_single:
        top = None  # a Phoenix's value depends on what it was played on; judged as a lead
    listed = legal_plays(hand, top, wish)
    listed_sets = {frozenset(p.cards) for p in listed if p.kind is not Kind.PASS}
    judged = {frozenset(s) for s in subsets(hand) if _judge_subset(s, hand, top, wish)}
    assert listed_sets == judged
    pass_listed = any(p.kind is Kind.PASS for p in listed)
    if top is not None or not pass_listed:
        assert pass_listed == _judge_subset((), hand, top, wish)


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_simulated_hands_keep_every_card_and_100_points(seed):
    state = simulate_hand(random.Random(seed))
    assert state.over
    assert sorted(state.all_cards()) == sorted(DECK)
    assert sum(state.team_points()) == 100
    assert len(state.out_order) >= 2 and len(set(state.out_order)) == len(state.out_order)
