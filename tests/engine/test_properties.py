"""Properties on thousands of random positions (hypothesis drives the seeds)."""

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.hand_oracle import simulate_hand
from tests.engine.positions import brute_wish, position, subsets
from tests.engine.reading_oracle import brute_readings
from tichu_scorer.engine.cards import DECK, DRAGON, MAHJONG, MJ, PH, SPECIALS, SUITS, Card
from tichu_scorer.engine.combos import Kind, contains_rank, readings
from tichu_scorer.engine.plays import Table, legal_plays
from tichu_scorer.engine.questions import deck_of
from tichu_scorer.engine.referee import Question, TrickPlay, judge
from tichu_scorer.engine.wish import wish_play

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


def _judge_subset(subset, hand, top, wish, strict=False):
    trick = (TrickPlay(top.cards),) if top is not None else ()
    q = Question(play=tuple(subset), trick=trick, hand=tuple(hand), wish=wish,
                 strict_wish=strict)
    return judge(q).legal


def _assert_enumeration_matches_the_referee(hand, top, wish, strict):
    listed = legal_plays(hand, top, wish, Table(strict_wish=strict))
    cards = [frozenset(p.cards) for p in listed if p.kind is not Kind.PASS]
    assert len(cards) == len(set(cards))  # each card set once ([C9]: its highest reading)
    judged = {frozenset(s) for s in subsets(hand) if _judge_subset(s, hand, top, wish, strict)}
    assert set(cards) == judged
    pass_listed = any(p.kind is Kind.PASS for p in listed)
    if top is not None or not pass_listed:
        assert pass_listed == _judge_subset((), hand, top, wish, strict)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=3, max_value=9), st.booleans())
def test_enumerated_plays_are_exactly_the_legal_subsets(seed, size, strict):
    rng = random.Random(seed)
    hand, top, wish = position(rng, size)
    if top is not None and top.phoenix_single:
        top = None  # a Phoenix's value depends on what it was played on; judged as a lead
    _assert_enumeration_matches_the_referee(hand, top, wish, strict)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=1, max_value=5), st.booleans(), st.booleans())
def test_bomb_and_wished_rank_in_hand(seed, extra, lead, strict):
    """A bomb beside the wished rank, leading or following ([W2], [W5]; issue 11)."""
    rng = random.Random(seed)
    bomb_rank, wish = rng.sample(range(2, 15), 2)
    bomb = [Card(bomb_rank, s) for s in SUITS]
    rest = [c for c in DECK if c.rank not in (bomb_rank, wish)]
    hand = bomb + [Card(wish, rng.choice(SUITS))] + rng.sample(rest, extra)
    top = None
    if not lead:
        others = [c for c in DECK if c not in hand]
        top = rng.choice([p for p in legal_plays(rng.sample(others, 8), None)
                          if p.cards and not p.phoenix_single])
    _assert_enumeration_matches_the_referee(hand, top, wish, strict)


def _asked(rng, hand, top, wish):
    """The questions a table may ask in this position: a pass and some plays, by the trick's
    owner after everyone else passed ([H6]) or by another seat, out of turn or not, under
    the strict house rule or not, from the Threechu dummy or not."""
    trick = ((TrickPlay(top.cards, 0), TrickPlay((), 1), TrickPlay((), 2), TrickPlay((), 3))
             if top is not None and top.kind is not Kind.DOG else ())
    options = {"seat": rng.choice([None, 0, 1]), "out_of_turn": rng.random() < 0.15,
               "strict_wish": rng.random() < 0.3}
    if rng.random() < 0.15:
        options |= {"variant": "threechu", "dummy": True}
    plays = [()] + [p.cards for p in rng.sample(legal_plays(hand, None),
                                                 min(6, len(legal_plays(hand, None))))]
    return [Question(play=play, trick=trick, hand=tuple(hand), wish=wish, **options)
            for play in plays]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=2, max_value=14))
def test_a_play_the_referee_demands_is_itself_legal(seed, size):
    """No answer contradicts another answer of the same referee (issue 11): whenever a
    verdict names a play that would have fulfilled the wish, that play is judged legal,
    holds the wished rank and comes from the hand; a refused pass always has one."""
    rng = random.Random(seed)
    hand, top, wish = position(rng, size)
    if wish is None or rng.random() < 0.5:  # mostly positions where the wish is held
        wish = rng.choice([c.rank for c in hand if c.suit] or [rng.randint(2, 14)])
    for q in _asked(rng, hand, top, wish):
        verdict = judge(q)
        if not q.play and not verdict.legal and q.trick:
            assert verdict.rule == "W2" and verdict.fulfilling_play
        if verdict.fulfilling_play is None:
            continue
        demanded = replace(q, play=verdict.fulfilling_play, phoenix_as=None)
        again = judge(demanded)
        assert again.legal, (q, verdict.reason, again.reason)
        assert contains_rank(verdict.fulfilling_play, wish)
        assert set(verdict.fulfilling_play) <= set(hand)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=2, max_value=14))
def test_the_owner_may_always_gather(seed, size):
    """[H6]: after everyone else passed, gathering is never refused, wish or not."""
    rng = random.Random(seed)
    hand, top, wish = position(rng, size)
    if top is None or top.kind is Kind.DOG:  # the Dog passes the lead at once ([S2])
        return
    trick = (TrickPlay(top.cards, 2), TrickPlay((), 3), TrickPlay((), 0), TrickPlay((), 1))
    verdict = judge(Question(play=(), trick=trick, hand=tuple(hand), wish=wish, seat=2,
                             strict_wish=rng.random() < 0.5))
    assert (verdict.legal, verdict.rule, verdict.fulfilling_play) == (True, "H6", None)


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_simulated_hands_keep_every_card_and_100_points(seed):
    state = simulate_hand(random.Random(seed))
    assert state.over
    assert sorted(state.all_cards()) == sorted(DECK)
    assert sum(state.team_points()) == 100
    assert len(state.out_order) >= 2 and len(set(state.out_order)) == len(state.out_order)


def _near_combination(rng, two_decks):
    """Cards of a few neighbouring ranks, one to four of each, sometimes with the Phoenix in
    place of a card, a special card more, or a card less: most read, many nearly do."""
    low, width = rng.randint(MAHJONG, 13), rng.choice((1, 1, 2, 2, 3, 5, 6))
    counts = (1, 1, 1, 2) if width >= 5 else (1, 1, 2, 2, 3, 4)
    flush = rng.choice(SUITS) if rng.random() < 0.15 else None  # a straight flush, nearly
    cards = []
    for rank in range(low, min(low + width, DRAGON)):
        if rank == MAHJONG:
            cards.append(MJ)
            continue
        suits = rng.choices(SUITS, k=4) if two_decks else rng.sample(SUITS, 4)
        cards += [Card(rank, s) for s in suits[:rng.choice(counts)]] if flush is None \
            else [Card(rank, flush)]
    if rng.random() < 0.4:
        cards[rng.randrange(len(cards))] = PH
    if rng.random() < 0.2:
        cards.append(rng.choice(SPECIALS))
    if rng.random() < 0.2 and len(cards) > 1:
        cards.pop(rng.randrange(len(cards)))
    return cards


@settings(max_examples=1000, deadline=None)
@given(SEEDS, st.booleans(), st.booleans())
def test_readings_table_equals_the_search(seed, two_decks, distinct_suit_fours):
    """The table of rank patterns reads every card set as the search over every rank the
    Phoenix could stand for does: the same readings, in the same order."""
    cards = _near_combination(random.Random(seed), two_decks)
    assert readings(cards, distinct_suit_fours) == brute_readings(cards, distinct_suit_fours)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=3, max_value=9))
def test_grand_seigneur_two_decks_enumeration_matches_the_referee(seed, size):
    """[GS2], [GS3]: with two decks (identical cards, no Dog, one Mah Jong), four of a kind
    of four suits, a Dragon on a Dragon: the enumerator lists each card set once, and
    exactly those the referee judges legal."""
    rng = random.Random(seed)
    deck = deck_of("seigneur", 2)
    double = [card for card, copies in deck.items() for _ in range(copies)]
    low = rng.randint(2, 9)  # neighbouring ranks: dense hands, both copies of a card
    hand = rng.sample([c for c in double if low <= c.rank <= low + 5 or not c.suit], size)
    rest = list(double)
    for card in hand:
        rest.remove(card)
    table = Question(play=(), variant="seigneur", decks=2).table
    top = rng.choice([None, *[p for p in legal_plays(rng.sample(rest, 10), None, table=table)
                              if not p.phoenix_single]])
    wish = rng.choice([None, rng.randint(2, 14)])
    listed = [tuple(sorted(p.cards)) for p in legal_plays(hand, top, wish, table)
              if p.kind is not Kind.PASS]
    assert len(listed) == len(set(listed))
    trick = (TrickPlay(top.cards),) if top is not None else ()
    judged = {play for play in {tuple(sorted(s)) for s in subsets(hand)}
              if judge(Question(play=play, trick=trick, hand=tuple(hand), wish=wish,
                                variant="seigneur", decks=2)).legal}
    assert set(listed) == judged
