"""The wish search ([W2], issue 26): the same answers as the enumerator it replaced and as
every subset of the hand, on small hands; an answer within `MAX_STEPS` windows on the
largest questions the API admits. (Its CPU time is measured in benchmarks/bench_referee.py,
not here.)"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.positions import brute_wish, enumerated_wish_play
from tichu_scorer.engine.budget import Budget, OutOfTime
from tichu_scorer.engine.cards import ACE, DECK, MJ, PH, SUITS, Card, parse_cards
from tichu_scorer.engine.combos import Kind, beats, contains_rank, readings
from tichu_scorer.engine.plays import DEFAULT_TABLE, legal_plays
from tichu_scorer.engine.questions import deck_of
from tichu_scorer.engine.referee import Question, TrickPlay, judge
from tichu_scorer.engine.wish import MAX_STEPS, wish_play

SEEDS = st.integers(min_value=0, max_value=2 ** 32)
SEIGNEUR = Question(play=(), variant="seigneur", decks=2).table
TWO_DECKS = [card for card, copies in deck_of("seigneur", 2).items() for _ in range(copies)]


def _dense_position(rng, size, two_decks):
    """A hand of a few neighbouring ranks (pairs, trios, runs, bombs, often the Phoenix)
    and a combination of another hand on the table: the positions where every kind of
    play competes."""
    deck = list(TWO_DECKS if two_decks else DECK)
    low = rng.randint(2, 10)
    near = [c for c in deck if low <= c.rank <= low + rng.randint(3, 6)]
    hand = rng.sample(near, min(size, len(near)))
    if rng.random() < 0.5 and PH not in hand:
        hand[0] = PH
    if rng.random() < 0.3 and MJ not in hand:
        hand.append(MJ)
    rest = list(deck)
    for card in hand:
        rest.remove(card)
    table = SEIGNEUR if two_decks else DEFAULT_TABLE
    others = rng.sample([c for c in rest if low - 2 <= c.rank <= low + 6 or not c.suit], 10)
    tops = [p for p in legal_plays(others, None, table=table)
            if p.cards and not p.phoenix_single and p.kind is not Kind.DOG]
    top = rng.choice(tops) if tops else None
    return hand, top, table


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=4, max_value=14), st.booleans())
def test_the_same_play_as_the_enumerator(seed, size, two_decks):
    """The verdicts stay as they were: the play named is the enumerator's first."""
    rng = random.Random(seed)
    hand, top, table = _dense_position(rng, size, two_decks)
    for wish in sorted({c.rank for c in hand if c.suit}):
        assert wish_play(hand, wish, top, table) == enumerated_wish_play(hand, wish, top, table)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=3, max_value=10), st.booleans())
def test_a_play_exactly_when_some_subset_fulfils_the_wish(seed, size, dense):
    """The brute-force oracle: some subset holding a natural card of the wished rank reads
    as a combination that beats the table. The play offered is such a subset."""
    rng = random.Random(seed)
    if dense:
        hand, top, _table = _dense_position(rng, size, False)
    else:
        deck = list(DECK)
        rng.shuffle(deck)
        hand = deck[:size]
        tops = [p for p in legal_plays(deck[size:size + 10], None)
                if p.cards and not p.phoenix_single]
        top = rng.choice(tops)
    for wish in sorted({c.rank for c in hand if c.suit}):
        found = wish_play(hand, wish, top)
        assert (found is not None) == brute_wish(hand, wish, top), (hand, top, wish)
        if found is not None:
            assert contains_rank(found, wish) and set(found) <= set(hand)
            assert len(set(found)) == len(found)
            assert any(beats(r, top) for r in readings(found))


def _longest_table(rng, two_decks):
    """The longest combination of a random kind that the deck allows, in random suits:
    a straight of 13 or 14 cards, stairs of seven pairs, a straight flush from the 2 to
    the Ace, a full house, a trio, a pair, four of a kind or a single."""
    kind = rng.choice(["straight", "stairs", "flush", "full", "trio", "pair", "four", "single"])
    suit = lambda: rng.choice(SUITS)  # noqa: E731
    if kind == "straight":
        low = rng.choice([1, 1, 2])
        cards = [MJ if r == 1 else Card(r, suit()) for r in range(low, low + 13)]
        if low == 1 and rng.random() < 0.5:
            cards.append(Card(ACE, suit()))
        if len({c.suit for c in cards if c.suit}) == 1:
            cards[-1] = Card(cards[-1].rank, SUITS[SUITS.index(cards[-1].suit) - 1])
    elif kind == "stairs":
        low = rng.randint(2, 8)
        cards = [Card(r, s) for r in range(low, low + 7) for s in rng.sample(SUITS, 2)]
    elif kind == "flush":
        cards = [Card(r, "j") for r in range(rng.choice([2, 3]), ACE + 1)]
    else:
        r, p = rng.sample(range(2, ACE + 1), 2)
        size = {"full": 3, "trio": 3, "pair": 2, "four": 4, "single": 1}[kind]
        cards = [Card(r, s) for s in rng.sample(SUITS, size)]
        if kind == "full":
            cards += [Card(p, s) for s in rng.sample(SUITS, 2)]
    if rng.random() < 0.3 and kind not in ("flush", "four", "single"):
        cards[rng.randrange(1, len(cards))] = PH
    top = readings(cards, two_decks)
    assert top, cards
    rest = list(TWO_DECKS if two_decks else DECK)
    for card in cards:
        rest.remove(card)
    return tuple(cards), top[0], rest


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.booleans())
def test_the_largest_questions_are_answered_in_a_bounded_search(seed, two_decks):
    """The longest table combinations, the fullest hands the API admits (every other card
    of the deck; 56 of Grand Seigneur's two decks), every wish: a pass is judged, and the
    search looks at no more than MAX_STEPS windows."""
    rng = random.Random(seed)
    cards, top, rest = _longest_table(rng, two_decks)
    hand = tuple(rng.sample(rest, 56) if two_decks else rest)
    variant = {"variant": "seigneur", "decks": 2} if two_decks else {}
    for wish in range(2, ACE + 1):
        budget = Budget()
        q = Question(play=(), trick=(TrickPlay(cards),), hand=hand, wish=wish, **variant)
        verdict = judge(q, budget)
        assert verdict.rule in ("W2", "W3", "H5")
        assert budget.steps <= MAX_STEPS + 1  # (the judge's own check, once)
        if verdict.fulfilling_play is not None:
            play = verdict.fulfilling_play
            assert contains_rank(play, wish) and all(c in hand for c in play)
            assert any(beats(r, top, q.table.dragon_beats_dragon)
                       for r in readings(play, q.table.distinct_suit_fours))


ISSUE_26 = parse_cards(["MJ", "2j", "3s", "4p", "5t", "6j", "7s", "8p", "9t", "10j", "Js",
                        "Qp", "Kt"])


@pytest.mark.parametrize("wish", range(2, ACE + 1))
def test_the_issue_question_a_pass_on_a_13_card_straight(wish):
    """Issue 26: a pass on the straight from the Mah Jong to the King, the other 43 cards
    in hand. The straight from the 2 to the Ace beats it and holds every rank."""
    hand = tuple(c for c in DECK if c not in ISSUE_26)
    budget = Budget()
    verdict = judge(Question(play=(), trick=(TrickPlay(ISSUE_26),), hand=hand, wish=wish),
                    budget)
    assert (verdict.legal, verdict.rule) == (False, "W2")
    assert [c.rank for c in verdict.fulfilling_play] == list(range(2, ACE + 1))
    assert budget.steps <= 3


def test_a_spent_budget_stops_the_search_in_its_loops():
    """The clock advances one unit a call: the judge's check passes, and the search's
    windows (the straights 4–8 to 8–Q, none held) run until the allowance is spent."""
    ticks = iter(range(100))
    budget = Budget(4, clock=ticks.__next__)
    question = Question(play=(), trick=(TrickPlay(parse_cards(["2j", "3s", "4p", "5t", "6j"])),),
                        hand=parse_cards(["8j", "8s", "Kt"]), wish=8)
    with pytest.raises(OutOfTime):
        judge(question, budget)
    assert budget.steps == 4  # the judge's, then the third window's
    assert judge(question).rule == "W3"  # with no budget: judged
