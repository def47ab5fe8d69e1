"""The two games a match can be, each a class with the same hooks (as python-chess's
`variant.py` gives each variant a board class): the points game (Nanking, Threechu,
Tientsin: card points and calls, RULES.md §7–§8) and the ranking game (Grand Seigneur: a
finishing order, no points, §9.3).

A hook answers one question about one hand or one match, so that nothing outside the core
branches on `ranked`, `has_dummy` or `teams`:

- `asks`: what a hand form asks (the fields of the docs/API.md hand);
- `has_target`: whether a match plays to a target score (its settings may change it);
- `order_change`: how the match's log says an edited order;
- `read(data, names, shuffler)`: how a hand reads, with every problem;
- `derive(hand, shuffler)`: what the form may fill in while a hand is entered;
- `score(hand, seats, shuffler)`: what one recorded hand scores;
- `sides(seats)`: how many totals a match keeps;
- `end(before, totals, played, rules)`: the match's end after one more hand;
- `dealer(number, last)`: who shuffles the hand of this number (`last`: the out-order of
  the hand before);
- `layout(shuffler)`: the scoring seating of a hand (None where nothing is scored by seat);
- `plays_dummy(shuffler)`: whether the shuffler also plays the dummy's hand;
- `records_shuffler`: whether a hand stores who shuffled it (the seating follows it);
- `titles(seats)`: the titles of the seats, best first (none in the points game).

>>> from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU
>>> game_of(NANKING).asks, game_of(SEIGNEUR).asks
(('out_order', 'calls', 'card_points', 'wish_penalty'), ('out_order',))
>>> game_of(NANKING).has_target, game_of(SEIGNEUR).has_target
(True, False)
>>> game_of(THREECHU).records_shuffler, game_of(NANKING).records_shuffler
(True, False)
>>> game_of(THREECHU).plays_dummy(2), game_of(NANKING).plays_dummy(2)
(True, False)
>>> game_of(NANKING).titles(4), game_of(SEIGNEUR).titles(5)[0], game_of(SEIGNEUR).layout(0)
((), 'Great Lord', None)
>>> game_of(THREECHU).score(HandInput((0, 1, 2, 3), {}, (60, 40)), 4, 1).scores
(40, 60, 40, 60)
>>> game_of(SEIGNEUR).score(HandInput((2, 0, 4, 1), {}, (None, None)), 5, None).order
(2, 0, 4, 1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from ..game.house import RULE_BOOK, HouseRules
from ..game.i18n import N_
from ..game.layouts import Layout
from ..game.variants import VARIANTS, Variant
from . import seigneur
from .hand import Derived, HandInput, HandResult, Problem, derive, full_out_order, tally_hand
from .match import DEFAULT_TARGET, winner
from .read import read_hand

_new = tuple.__new__


class Scored(NamedTuple):
    """What one recorded hand scores (the match state spreads it into its `PlayedHand`)."""

    result: HandResult | None  # the points game's scoring; None in the ranking game
    order: tuple[int, ...]  # the out-order completed ([H7]), or the whole ranking ([GS1])
    scores: tuple[int, ...]  # what the hand adds to each of the match's totals
    teams: tuple[int, ...]  # each seat's team in this hand; () without teams


class Rules(NamedTuple):
    """How long a match lasts and what its hands score by: to a target ([E1]), a fixed
    number of hands ([T3.5], [R7]), until a side leads by N ([R6]); the house rules
    ([R2]–[R5], [R8], [R9]), the rule book by default."""

    target: int | None
    hand_limit: int | None
    lead_by: int | None = None
    house: HouseRules = RULE_BOOK


class End(NamedTuple):
    """Where a match stands after some hands: the winning side and the hand (its place,
    from 1) that decided it, whether a fixed-length match has been played out, and the
    rule that ends it."""

    winner: int | None = None
    after: int | None = None
    finished: bool = False
    rule: str = "E1"


NOT_OVER = End()


class Game:
    """The hooks every game answers (see the module's docstring)."""

    asks: tuple[str, ...] = ()
    has_target = False
    order_change = ""  # message id: the log's words for an edited order

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.variant.key})"

    def read(self, data: Mapping[str, Any], names: tuple[str, ...],
             shuffler: int | None, house: HouseRules = RULE_BOOK,
             ) -> tuple[HandInput | None, list[Problem]]:
        raise NotImplementedError

    def derive(self, hand: HandInput, shuffler: int | None) -> Derived | None:
        return None

    def score(self, hand: HandInput, seats: int, shuffler: int | None,
              house: HouseRules = RULE_BOOK) -> Scored:
        raise NotImplementedError

    def sides(self, seats: int) -> int:
        """How many totals a match of this many seats keeps."""
        return self.variant.side_count(seats)

    def end(self, before: End, totals: tuple[int, ...], played: int, rules: Rules,
            victory: tuple[int, ...] = ()) -> End:
        return NOT_OVER

    def dealer(self, number: int, last: tuple[int, ...] | None) -> int | None:
        """Who shuffles hand `number`, given the hand before it (None: anyone may)."""
        return None

    def layout(self, shuffler: int | None) -> Layout | None:
        """The scoring seating of a hand; None in a game that scores no seat's points."""
        return None

    def plays_dummy(self, shuffler: int | None) -> bool:
        """Whether the shuffler of a hand also plays the dummy's hand ([T3.1])."""
        return False

    @property
    def records_shuffler(self) -> bool:
        """Whether each hand stores who shuffled it: the seating it is scored in follows
        the shuffler ([T3.1])."""
        return False

    def titles(self, seats: int) -> tuple[str, ...]:
        """The titles a hand's finishing order gives, best first (message ids)."""
        return ()


class PointsGame(Game):
    """Nanking, Threechu and Tientsin: card points, calls and a target or a fixed length."""

    asks = ("out_order", "calls", "card_points", "wish_penalty")
    has_target = True
    order_change = N_("out-order %(before)s → %(after)s")

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self._layouts: dict[int | None, Layout] = {}

    def layout(self, shuffler: int | None) -> Layout:
        """The scoring seating of a hand (Threechu: the one its shuffler plays the dummy in),
        built once per shuffler."""
        layout = self._layouts.get(shuffler)
        if layout is None:
            layout = self.variant.layout(shuffler=shuffler)
            self._layouts[shuffler] = layout
        return layout

    @property
    def records_shuffler(self) -> bool:
        return self.variant.has_dummy

    def plays_dummy(self, shuffler: int | None) -> bool:
        return shuffler is not None and self.layout(shuffler).dummy is not None

    def read(self, data: Mapping[str, Any], names: tuple[str, ...],
             shuffler: int | None, house: HouseRules = RULE_BOOK,
             ) -> tuple[HandInput | None, list[Problem]]:
        hand, problems = read_hand(data, self.layout(shuffler).named(names), house)
        if hand is not None and shuffler is not None:
            hand = replace(hand, shuffler=shuffler)
        return hand, problems

    def derive(self, hand: HandInput, shuffler: int | None) -> Derived:
        return derive(hand, self.layout(shuffler))

    def score(self, hand: HandInput, seats: int, shuffler: int | None,
              house: HouseRules = RULE_BOOK) -> Scored:
        layout = self._layouts.get(shuffler) or self.layout(shuffler)
        result = tally_hand(hand, layout, house)
        teams = layout.teams
        scores = result.team_scores if self.variant.teams else tuple(
            map(result.team_scores.__getitem__, teams))
        # built as a tuple: a named tuple's __new__ is a Python call, once per hand
        return _new(Scored, (result, full_out_order(hand.out_order, layout), scores, teams))

    def end(self, before: End, totals: tuple[int, ...], played: int, rules: Rules,
            victory: tuple[int, ...] = ()) -> End:
        """[E1], [E2]: the first hand after which one side reached the target alone decides
        the match; [R6]: or the first after which a side leads by N; [T3.5], [R7]: a
        fixed-length match ends after its last hand, the highest total winning (under
        [R4] the most victory points, then points; none when the top is shared).

        >>> from tichu_scorer.game.variants import NANKING
        >>> game = game_of(NANKING)
        >>> game.end(NOT_OVER, (300, 90), 3, Rules(1000, None, lead_by=200))
        End(winner=0, after=3, finished=False, rule='R6')
        >>> game.end(NOT_OVER, (300, 90), 4, Rules(None, 4), victory=(3, 5)).winner
        1
        """
        if rules.target is None and rules.hand_limit is not None:
            if before.rule == "R6" and before.winner is not None:  # [R6] came first
                return before
            if (rules.lead_by and len(totals) == 2
                    and abs(totals[0] - totals[1]) >= rules.lead_by):
                return End(0 if totals[0] > totals[1] else 1, played, False, "R6")
            if played < rules.hand_limit:
                return NOT_OVER
            rule = "T3.5" if self.variant.lasts_hands else "R7"
            if victory:  # [R4]: victory points first, then points
                ranked = [(v, t) for v, t in zip(victory, totals, strict=True)]
                best = max(ranked)
                won = ranked.index(best) if ranked.count(best) == 1 else None
            else:
                won = winner(totals, min(totals, default=0))
            return End(won, played if won is not None else None, True, rule)
        if before.winner is not None:
            return before
        won = winner(totals, rules.target or DEFAULT_TARGET)
        if won is None and rules.lead_by and len(totals) == 2 and (
                abs(totals[0] - totals[1]) >= rules.lead_by):
            return End(0 if totals[0] > totals[1] else 1, played, False, "R6")
        return End(won, played) if won is not None else NOT_OVER

    def dealer(self, number: int, last: tuple[int, ...] | None) -> int | None:
        """[T3.1]: in Threechu the shuffle passes to the left each hand; in the team games
        the page names the player who went out first in the hand before."""
        if self.variant.has_dummy:
            return self.variant.shuffler(number)
        return last[0] if last else None


class RankingGame(Game):
    """Grand Seigneur: each hand is a finishing order; titles and pushes follow from it."""

    asks = ("out_order",)
    order_change = N_("finishing order %(before)s → %(after)s")

    def read(self, data: Mapping[str, Any], names: tuple[str, ...],
             shuffler: int | None, house: HouseRules = RULE_BOOK,
             ) -> tuple[HandInput | None, list[Problem]]:
        order = data.get("out_order", []) if isinstance(data, Mapping) else None
        problems = seigneur.ranking_problems(order if isinstance(order, list) else [None],
                                             len(names))
        if problems or not isinstance(order, list):
            return None, problems
        return HandInput(tuple(order), {}, (None, None)), []

    def score(self, hand: HandInput, seats: int, shuffler: int | None,
              house: HouseRules = RULE_BOOK) -> Scored:
        return Scored(None, seigneur.full_ranking(hand.out_order, seats), (), ())

    def titles(self, seats: int) -> tuple[str, ...]:
        return seigneur.titles(seats)


GAMES: dict[str, Game] = {key: RankingGame(v) if v.ranked else PointsGame(v)
                          for key, v in VARIANTS.items()}


def game_of(variant: Variant) -> Game:
    """The game a variant is played as."""
    return GAMES[variant.key]


