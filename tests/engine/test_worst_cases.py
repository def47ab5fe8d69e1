"""The benchmark's worst cases (issue 11), enumerated and checked against every subset of
the hand: leading, every card set with a reading is a legal play, listed once in its
highest reading; with a wish, exactly the sets holding the wished rank (W2)."""

import pytest

from tests.engine.positions import subsets
from tichu_scorer.engine.cards import parse_cards
from tichu_scorer.engine.combos import Kind, contains_rank, readings
from tichu_scorer.engine.plays import legal_plays

HANDS = [
    "2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj PH",  # the hand: 381 plays
    "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt PH",  # the same from the Mah Jong
    "PH 3j 3s 3p 3t 4j 4s 4p 4t 5j 5s 5p 5t 6j",  # the densest lead: 1,576 plays
    "PH 2j 2s 2p 2t 3j 3s 3p 3t 4j 4s 4p 4t 5j",
    "PH 7j 7s 7p 8j 8s 8p 9j 9s 9p 10j 10s MJ DR",  # three ranks, both ends
    "4j 5j 6j 7j 8j 9j 10j Js 4s 5s 6s 7s PH Aj",  # straight flushes beside the Phoenix
]


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("wish", [None, 4, 7, 14])
def test_a_lead_lists_every_card_set_that_reads(hand, wish):
    cards = parse_cards(hand.split())
    listed = legal_plays(cards, None, wish)
    sets = [frozenset(p.cards) for p in listed]
    assert len(sets) == len(set(sets)), "each card set once"
    held = wish is not None and contains_rank(cards, wish)
    expected = {}
    for subset in subsets(cards):
        options = readings(subset)
        if options and (not held or contains_rank(subset, wish)):
            expected[frozenset(subset)] = options[0]
    assert set(sets) == set(expected)
    for play in listed:  # the highest reading, the Phoenix where the table puts it
        best = expected[frozenset(play.cards)]
        assert (play.kind, play.rank, play.phoenix_as) == (best.kind, best.rank, best.phoenix_as)
    assert all(p.kind is not Kind.PASS for p in listed)  # the leader may not pass
