"""The tests' oracle for a whole hand: the four-player game as a state machine (RULES.md
§2, §4, §5, §6) and random hands played through it by the rules. The referee judges one
play at a time; this second, independent account of a hand's flow lets the properties
check that whole hands keep every card and 100 points.

Seats 0–3 in turn order; partners are `s` and `s + 2`. `HandState` knows whose turn it
is, the trick on the table, passes, out-of-turn bombs, the Dog's lead transfer, the Dragon
gift, players going out and the end of the hand with the tailender's hand-over. Every move
is verified before it is applied (`verify_*` raise `IllegalMove` citing the rule).

>>> from tichu_scorer.engine.cards import parse_cards
>>> hands = [parse_cards(h) for h in (["MJ", "5j"], ["6s", "Kt"], ["9p", "DR"], ["2j", "3s"])]
>>> state = HandState(hands)
>>> state.turn
0
>>> state.play(0, parse_cards(["MJ"]), wish=6)
<single Mah Jong: MJ>
>>> state.wish, state.turn
(6, 1)
>>> state.play(1, parse_cards(["6s"])).describe(), state.wish
('single 6', None)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tichu_scorer.engine.cards import DECK, DR, MJ, Card, show
from tichu_scorer.engine.combos import Combination, Kind, contains_rank, on_table, readings
from tichu_scorer.engine.plays import DEFAULT_TABLE, Table, legal_plays
from tichu_scorer.game.layouts import NANKING

SEATS = NANKING.seats


class IllegalMove(ValueError):
    """A move the rules forbid now; `rule` is the RULES.md id."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule


team = NANKING.team_of


def partner(seat: int) -> int:
    return next(s for s in NANKING.members(team(seat)) if s != seat)


class HandState:
    """Whose turn it is, the trick, the wish, the won piles; moves verified, then applied."""

    def __init__(self, hands: Sequence[Sequence[Card]], table: Table = DEFAULT_TABLE) -> None:
        self.hands = [list(h) for h in hands]
        self.table = table
        self.won: list[list[Card]] = [[] for _ in range(SEATS)]
        self.trick: list[Card] = []
        self.top: Combination | None = None
        self.owner: int | None = None
        self.passes = 0
        self.wish: int | None = None
        self.out_order: list[int] = []
        self.dragon_gift_from: int | None = None  # a seat that must give the Dragon trick away
        self.over = False
        # [H4] the holder of the Mah Jong leads the first trick
        self.turn = next((s for s in range(SEATS) if MJ in self.hands[s]), 0)

    # --- queries -------------------------------------------------------------------------
    def active_seats(self) -> list[int]:
        return [s for s in range(SEATS) if self.hands[s]]

    def next_active(self, seat: int) -> int:
        """[H7]: the next seat in turn order after `seat` that still holds cards."""
        for step in range(1, SEATS + 1):
            candidate = (seat + step) % SEATS
            if self.hands[candidate]:
                return candidate
        return seat

    def legal(self, seat: int) -> Sequence[Combination]:
        """Every lawful move of `seat` now: on turn, plays and maybe a pass; off turn, bombs."""
        if self.over or self.dragon_gift_from is not None or not self.hands[seat]:
            return []
        if seat == self.turn:
            return legal_plays(self.hands[seat], self.top, self.wish, self.table)
        if self.top is None or self.top.kind is Kind.DOG:  # [B5]
            return []
        return [p for p in legal_plays(self.hands[seat], self.top, None, self.table,
                                       out_of_turn=True) if p.is_bomb]

    def all_cards(self) -> list[Card]:
        return [c for pile in self.won for c in pile] + self.trick + \
            [c for h in self.hands for c in h]

    # --- moves ---------------------------------------------------------------------------
    def verify_play(self, seat: int, cards: Sequence[Card]) -> Combination:
        """The combination `cards` makes as played now, or IllegalMove."""
        if self.over:
            raise IllegalMove("H8", "The hand is over.")
        if self.dragon_gift_from is not None:
            raise IllegalMove("S6", "The Dragon trick must be given away first.")
        missing = [c for c in cards if c not in self.hands[seat]]
        if missing:
            raise IllegalMove("H5", f"Seat {seat} does not hold {show(missing)}.")
        if not cards:
            raise IllegalMove("H5", "A play needs cards; use pass_turn to pass.")
        want = sorted(cards)
        for option in self.legal(seat):
            if sorted(option.cards) == want:
                return on_table(option, self.top)
        if seat != self.turn:
            raise IllegalMove("B4", f"Seat {seat} is not on turn: only a bomb that beats the "
                                    "table may be played out of turn.")
        if not readings(cards, self.table.distinct_suit_fours):
            raise IllegalMove("C7", f"{show(cards)} is not a combination.")
        if self.wish is not None:
            raise IllegalMove("W2", f"{show(cards)} is not lawful now (the wish may oblige "
                                    "another play).")
        raise IllegalMove("H5", f"{show(cards)} does not beat the table.")

    def play(self, seat: int, cards: Sequence[Card], wish: int | None = None) -> Combination:
        """Play `cards` from `seat` (on turn, or a bomb out of turn); `wish` with the Mah Jong."""
        combo = self.verify_play(seat, cards)
        for c in cards:
            self.hands[seat].remove(c)
        self.trick.extend(cards)
        self.top, self.owner, self.passes = combo, seat, 0
        if self.wish is not None and contains_rank(cards, self.wish):
            self.wish = None  # [W1]
        if MJ in cards and wish is not None:
            self.wish = wish  # [S1]
        if not self.hands[seat]:
            self.out_order.append(seat)
        if self._hand_ends():
            self._finish()
            return combo
        if combo.kind is Kind.DOG:  # [S2]: the lead passes at once to the partner
            self._gather(seat)
            mate = partner(seat)
            self.turn = mate if self.hands[mate] else self.next_active(mate)
            return combo
        self.turn = self.next_active(seat)
        return combo

    def verify_pass(self, seat: int) -> None:
        if self.over:
            raise IllegalMove("H8", "The hand is over.")
        if seat != self.turn:
            raise IllegalMove("H5", f"Seat {seat} is not on turn.")
        if self.top is None:
            raise IllegalMove("H5", "The leader of a trick may not pass.")
        if not any(p.kind is Kind.PASS for p in self.legal(seat)):
            raise IllegalMove("W2", "The wish must be fulfilled: a pass is not allowed.")

    def pass_turn(self, seat: int) -> None:
        self.verify_pass(seat)
        self.passes += 1
        owner = self.owner if self.owner is not None else seat
        others = [s for s in self.active_seats() if s != owner]
        if self.passes >= len(others):  # [H6]: everyone else passed: the trick ends
            self._end_trick()
        else:
            self.turn = self.next_active(seat)

    def give_dragon(self, seat: int, to: int) -> None:
        """[S6]: the Dragon's player gives the trick to an opponent and still leads next."""
        if self.dragon_gift_from != seat:
            raise IllegalMove("S6", "There is no Dragon trick for this seat to give away.")
        if team(to) == team(seat):
            raise IllegalMove("S6", "The Dragon trick goes to an opponent.")
        if self.over and len(self.out_order) == SEATS and to == self.out_order[-1]:
            to = self.out_order[0]  # [H9]: the tailender's tricks go to the first out
        self.won[to].extend(self.trick)
        self.trick = []
        self.dragon_gift_from = None
        if not self.over:
            self.turn = seat if self.hands[seat] else self.next_active(seat)

    # --- internals -----------------------------------------------------------------------
    def _hand_ends(self) -> bool:
        """[H8]: one player left, or a team out first and second."""
        if len(self.active_seats()) <= 1:
            return True
        out = self.out_order
        return len(out) >= 2 and team(out[0]) == team(out[1])

    def _gather(self, winner: int) -> None:
        self.won[winner].extend(self.trick)
        self.trick = []
        self.top, self.owner, self.passes = None, None, 0

    def _end_trick(self) -> None:
        winner = self.owner if self.owner is not None else self.turn
        dragon = self.top is not None and self.top.cards == (DR,)
        self.top, self.owner, self.passes = None, None, 0
        if dragon:
            self.dragon_gift_from = winner
            return
        self._gather(winner)
        self.turn = winner if self.hands[winner] else self.next_active(winner)

    def _finish(self) -> None:
        """[H8], [H9]: the last trick to its winner (a Dragon given away), the hand-over."""
        self.over = True
        winner = self.owner if self.owner is not None else self.turn
        if self.top is not None and self.top.cards == (DR,):
            self.dragon_gift_from = winner
        else:
            self._gather(winner)
        double = len(self.out_order) >= 2 and team(self.out_order[0]) == team(self.out_order[1])
        if not double:
            tail = self.active_seats()
            for seat in tail:  # [H9]
                self.won[(seat + 1) % SEATS].extend(self.hands[seat])
                self.hands[seat] = []
                self.won[self.out_order[0]].extend(self.won[seat])
                self.won[seat] = []
                self.out_order.append(seat)

    def team_points(self) -> tuple[int, int]:
        """Card points per team in the won piles and, for a double victory, held cards."""
        points = [0, 0]
        for seat in range(SEATS):
            points[team(seat)] += sum(c.points for c in self.won[seat])
            points[team(seat)] += sum(c.points for c in self.hands[seat])
        points[team(self.owner or 0)] += sum(c.points for c in self.trick)
        return points[0], points[1]


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
