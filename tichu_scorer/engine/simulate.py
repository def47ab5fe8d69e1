"""Random whole hands played by the rules, for property tests and the benchmark.

>>> import random
>>> state = simulate_hand(random.Random(7))
>>> state.over, sum(state.team_points())
(True, 100)
"""

from __future__ import annotations

import random

from .cards import DECK, MJ, Card
from .combos import Kind
from .state import SEATS, HandState, team


def deal(rng: random.Random) -> list[list[Card]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[i * 14:(i + 1) * 14] for i in range(SEATS)]


def simulate_hand(rng: random.Random, bomb_rate: float = 0.05, max_moves: int = 2000) -> HandState:
    """Play one hand with random lawful moves (random wishes, out-of-turn bombs, gifts)."""
    state = HandState(deal(rng))
    for _ in range(max_moves):
        if state.dragon_gift_from is not None:
            giver = state.dragon_gift_from
            opponents = [s for s in range(SEATS) if team(s) != team(giver)]
            state.give_dragon(giver, rng.choice(opponents))
        if state.over:
            return state
        if state.top is not None and rng.random() < bomb_rate:
            bombers = [(s, b) for s in range(SEATS) if s != state.turn for b in state.legal(s)]
            if bombers:
                seat, bomb = rng.choice(bombers)
                state.play(seat, bomb.cards)
                continue
        seat = state.turn
        options = state.legal(seat)
        plays = [p for p in options if p.kind is not Kind.PASS]
        passes = [p for p in options if p.kind is Kind.PASS]
        choice = rng.choice(plays) if plays and (not passes or rng.random() < 0.6) else None
        if choice is None:
            state.pass_turn(seat)
        else:
            wish = rng.choice([None, *range(2, 15)]) if MJ in choice.cards else None
            state.play(seat, choice.cards, wish=wish)
    raise RuntimeError("the simulated hand did not end")
