"""The hand's index that the generators share within one call (`engine/holding.py`): its
tables, however they are asked for and in whichever order, say what they are defined as."""

import random
from itertools import combinations

import pytest

from tichu_scorer.engine.cards import DECK, DOG_CARD, MJ, PH, Card
from tichu_scorer.engine.holding import Holding, card_bits

TWO_DECKS = [c for c in DECK if c != DOG_CARD] + [c for c in DECK if c not in (DOG_CARD, MJ)]


def _hands():
    rng = random.Random(11)
    for i in range(300):
        deck = list(DECK if i % 3 else TWO_DECKS)
        rng.shuffle(deck)
        yield deck[:rng.randint(1, 16)]


@pytest.mark.parametrize("hand", list(_hands()))
@pytest.mark.parametrize("given_bits", [False, True])
def test_the_shared_tables_are_what_they_say(hand: list[Card], given_bits: bool) -> None:
    rng = random.Random(len(hand))
    bits = card_bits(hand)
    assert (bits is None) == (len(set(hand)) < len(hand))
    h = Holding(hand, bits if given_bits else None)
    ranks = range(2, 15)
    first, then = rng.choice([None, *ranks]), rng.choice([None, *ranks])
    for must in (first, then):  # a wish's table first, then another's or none
        trios = h.phoenix_trios(must)
        for r in ranks:
            if r >= (must or 0):
                cards = [c for c in hand if c.rank == r]
                assert trios[r] == [two + (PH,) for two in combinations(cards, 2)]
    for r in ranks:
        cards = [c for c in hand if c.rank == r]
        assert list(h.at[r]) == cards
        assert h.twos[r] == list(combinations(cards, 2))
        assert (r in h.doubled) == (len(cards) > 1) == bool(h.pairs >> r & 1)
        assert bool(h.trios >> r & 1) == (len(cards) > 2)
        assert bool(h.fours >> r & 1) == (len(cards) > 3)
    assert h.held == sum({1 << c.rank for c in hand if 1 <= c.rank <= 14})
    assert (h.mahjong, h.dog, h.phoenix) == (MJ in hand, DOG_CARD in hand, PH in hand)
    lanes = [{c.rank for c in hand if c.suit == suit} for suit in "jspt"]
    flush = any(all(r + i in lane for i in range(5)) for lane in lanes for r in range(2, 11))
    four = any(len([c for c in hand if c.rank == r]) > 3 for r in ranks)
    assert h.may_bomb == (h.bits is None or flush or four)  # (two decks: not told)
    assert bool(h.flush_masks) == flush
    assert h.doubled == [r for r in ranks if h.pairs >> r & 1]
    for above in (0, 7.5, 14):
        cards, of = h.naturals(above, None)
        assert list(cards) == sorted((c for c in hand if 2 <= c.rank <= 14 and c.rank > above),
                               key=lambda c: c.rank)
        assert of == [c.rank for c in cards]
        assert h.doubled_above(above, None) == [r for r in h.doubled if r > above]


@pytest.mark.parametrize("hand", list(_hands()))
def test_what_is_read_without_the_index_is_what_the_index_says(hand: list[Card]) -> None:
    bits = card_bits(hand)
    lazy, full = Holding(hand, bits), Holding(hand, bits)
    at = full.index()
    if bits is not None:  # one deck: no index until a generator asks
        with pytest.raises(AssertionError):
            lazy.at[2]
    assert lazy.dragons == at[15] and lazy.dragons == tuple(c for c in hand if c.rank == 15)
    for r in range(17):
        assert lazy.holds(r) == any(c.rank == r for c in hand)
    for above in [r + half for r in range(2, 17) for half in (0, 0.5)]:
        first = max(2, int(above) + 1)
        assert list(lazy.singles_above(above)) == list(sum(at[first:15], ()))
        assert list(Holding(hand, bits).naturals(above, None)[0]) == list(sum(at[first:15], ()))
