"""One match's state from its settings and its recorded hands: every derived fact in one
immutable object (pokerkit's `State`, python-chess replaying moves onto a `Board`).

Each hand's result with each call's outcome, the totals after each hand, who shuffles (and
plays the dummy) next, whether and why the match ended ([E1], [E2], [T3.5]), and Grand
Seigneur's titles, seating and pushes ([GS4], [GS5], [GS7]). The hands are recorded inputs,
read and checked when they were entered (`Game.read`): the state scores them again without
checking them again. Pure: no I/O.

>>> from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU
>>> from tichu_scorer.scoring.calls import Call
>>> names = ("Ann", "Bob", "Cy", "Dee")
>>> state = MatchState.of(Settings(NANKING, names, target=500), [
...     HandInput((0, 2), {0: Call.TICHU}, (None, None)),
...     HandInput((1, 0, 3), {}, (None, 35))])
>>> state.running, state.winner, [c.made for c in state.hands[0].calls]
(((300, 0), (365, 35)), None, [True])
>>> state.with_hands([HandInput((2, 0), {}, (None, None))]).winner_names
('Ann', 'Cy')
>>> MatchState.of(Settings(THREECHU, ("Ann", "Bob", "Cy", "Dummy"), None, 3), []).next_shuffler
0
>>> gs = MatchState.of(Settings(SEIGNEUR, ("A", "B", "C", "D", "E")), [
...     HandInput((3, 0, 4, 1), {}, (None, None))])
>>> gs.titles[0], [(p.giver, p.receiver, p.cards) for p in gs.pushes]
(('Great Lord', 3), [(2, 3, 2), (1, 0, 1)])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import add
from typing import Any, NamedTuple

from ..game.house import RULE_BOOK, HouseRules
from ..game.variants import Side, Variant
from . import seigneur
from .calls import CustomCall, read_call
from .games import NOT_OVER, End, Game, Rules, game_of
from .hand import CallResult, HandInput, HandResult
from .match import DEFAULT_TARGET, tied_at_top
from .stats import HandFacts, MatchFacts


@dataclass(frozen=True)
class Settings:
    """What a match is played as: its variant, the names by seat (the dummy's seat
    included), and how long it lasts: a target, or a fixed number of hands ([T3.5])."""

    variant: Variant
    names: tuple[str, ...]
    target: int | None = DEFAULT_TARGET
    hand_limit: int | None = None
    lead_by: int | None = None  # [R6]
    house: HouseRules = RULE_BOOK  # [R2]–[R5], [R8], [R9]

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def game(self) -> Game:
        return game_of(self.variant)

    @property
    def rules(self) -> Rules:
        return Rules(self.target, self.hand_limit, self.lead_by, self.house)


class PlayedHand(NamedTuple):
    """One hand in play as the state knows it: its place, what was recorded, who shuffled,
    what it scored (the game's `Scored`, spread out: a long match keeps one object per hand,
    not two), and the totals after it."""

    number: int  # its place among the hands in play, from 1
    hand: HandInput  # as recorded
    shuffler: int | None  # Threechu: who shuffled and played the dummy
    result: HandResult | None  # the points game's scoring; None in the ranking game
    order: tuple[int, ...]  # the out-order completed, or Grand Seigneur's whole ranking
    scores: tuple[int, ...]  # what this hand added to each total
    teams: tuple[int, ...]  # each seat's team in this hand; () without teams
    running: tuple[int, ...]  # the match's totals after this hand

    @property
    def first_out(self) -> int | None:
        return self.order[0] if self.order else None

    @property
    def calls(self) -> tuple[CallResult, ...]:
        """Each call with its outcome ([P3]), by seat."""
        return self.result.calls if self.result is not None else ()

    @property
    def sweep(self) -> bool:
        return self.result is not None and self.result.sweep

    def seat_scores(self) -> tuple[int, ...]:
        """What the hand gave each seat: its side's score ([T3.4])."""
        if self.result is None:
            return ()
        scores = self.result.team_scores
        return tuple([scores[team] for team in self.teams])


@dataclass(frozen=True)
class MatchState:
    """Every derived fact of a match (see the module's docstring). Build it with `of`."""

    settings: Settings
    hands: tuple[PlayedHand, ...]
    totals: tuple[int, ...]
    end: End = NOT_OVER
    victory: tuple[int, ...] = ()  # [R4]: the victory points per side; () without them

    @classmethod
    def of(cls, settings: Settings, hands: Iterable[HandInput]) -> MatchState:
        """The state after these hands in play, in order."""
        sides = settings.game.sides(settings.seats)
        victory = (0,) * sides if settings.house.victory_points else ()
        return cls(settings, (), (0,) * sides, victory=victory).with_hands(hands)

    def with_hands(self, hands: Iterable[HandInput], start: int | None = None) -> MatchState:
        """The state with these hands played after the ones in it, which are not scored
        again (after hand `start` when the hands before are not known, only their totals:
        see `next_hand`)."""
        settings = self.settings
        game, variant, seats, rules = (settings.game, settings.variant, settings.seats,
                                       settings.rules)
        score, ends, shuffler_of = game.score, game.end, variant.shuffler
        # a named tuple built as a tuple: its generated __new__ is a Python call a hand
        new = tuple.__new__
        shuffles = variant.has_dummy  # only Threechu records who shuffled ([T3.1])
        played = list(self.hands)
        totals, end, victory = self.totals, self.end, self.victory
        house = settings.house
        by_victory = bool(victory)  # [R4]
        number = len(played) if start is None else start
        for hand in hands:
            number += 1
            shuffler = hand.shuffler
            if shuffler is None and shuffles:
                shuffler = shuffler_of(number)
            result, order, scores, teams = score(hand, seats, shuffler, house)
            if scores:
                totals = tuple(map(add, totals, scores))  # as many: both per side
                if by_victory and result is not None and result.victory_points:
                    won = result.victory_points  # per team; per seat without teams
                    victory = tuple(map(add, victory, won if len(won) == len(victory)
                                        else map(won.__getitem__, teams)))
                end = ends(end, totals, number, rules, victory)
            played.append(new(PlayedHand, (number, hand, shuffler, result, order, scores,
                                           teams, totals)))
        return MatchState(settings, tuple(played), totals, end, victory)

    def replacing(self, number: int, hand: HandInput) -> MatchState:
        """The state with hand `number` (its place, from 1) recorded differently."""
        inputs = list(self.inputs)
        inputs[number - 1] = hand
        return self.of(self.settings, inputs)

    @property
    def inputs(self) -> tuple[HandInput, ...]:
        """The hands as recorded, each with its shuffler."""
        return tuple(_with_shuffler(h.hand, h.shuffler) for h in self.hands)

    # the end of the match ([E1], [E2], [T3.5])

    @property
    def winner(self) -> int | None:
        """The winning side's index (a team, or a Threechu seat), None while play goes on
        or when a fixed-length match ends tied at the top."""
        return self.end.winner

    @property
    def winner_after(self) -> int | None:
        """The place of the hand that decided the match."""
        return self.end.after

    @property
    def finished(self) -> bool:
        """A fixed-length match has been played out ([T3.5])."""
        return self.end.finished

    @property
    def over(self) -> bool:
        return self.end.finished or self.end.winner is not None

    @property
    def end_rule(self) -> str | None:
        """The rule that ended the match ("E1", "T3.5"), None while it goes on."""
        return self.end.rule if self.over else None

    @property
    def tied_at(self) -> int | None:
        """[E2]: the total two sides share at the top at or above the target while play
        goes on (a match to a target only)."""
        if self.over or not self.settings.target:
            return None
        return tied_at_top(self.totals, self.settings.target)

    @property
    def hands_after_the_end(self) -> int:
        """How many hands in play come after the hand that ended the match (0 in a sound
        record: no hand is played after the end)."""
        played = len(self.hands)
        if self.end.rule in ("T3.5", "R7"):
            return max(played - (self.settings.hand_limit or played), 0)
        if self.end.after is None:
            return 0
        return played - self.end.after

    # who holds what

    @property
    def running(self) -> tuple[tuple[int, ...], ...]:
        """The totals after each hand."""
        return tuple(h.running for h in self.hands)

    @cached_property
    def sides(self) -> tuple[Side, ...]:
        """The match's totals in order, with who holds each (none in a ranked game)."""
        return self.settings.variant.sides(self.settings.names)

    @property
    def winner_names(self) -> tuple[str, ...]:
        """The winning team's players, or the winning player; () while none has won."""
        return self.sides[self.end.winner].names if self.end.winner is not None else ()

    def ranking(self) -> list[int]:
        """Sides from the highest total down (ties keep seat order)."""
        return sorted(range(len(self.totals)), key=lambda i: -self.totals[i])

    @property
    def next_shuffler(self) -> int | None:
        """Who shuffles the next hand (in Threechu, also plays the dummy, [T3.1]); None when
        anyone may."""
        last = self.hands[-1].order if self.hands else None
        return self.settings.game.dealer(len(self.hands) + 1, last)

    def facts(self, hands: Iterable[PlayedHand] | None = None) -> MatchFacts:
        """The match as the statistics count it (`stats.tally_match`), with `hands` (by
        default every hand in play)."""
        chosen = self.hands if hands is None else hands
        return MatchFacts(self.settings.variant, self.settings.names, tuple(
            HandFacts(h.order, {seat: call.value for seat, call in h.hand.calls.items()},
                      h.seat_scores(), h.teams, h.sweep) for h in chosen),
            self.winner_names, self.over)

    # Grand Seigneur ([GS4], [GS5], [GS7])

    @property
    def rankings(self) -> tuple[tuple[int, ...], ...]:
        return tuple(h.order for h in self.hands)

    @property
    def titles(self) -> tuple[tuple[str, int], ...]:
        """[GS4]: (title, seat) from the highest down, as the last hand left them: the next
        seating. () before the first hand or in a points game."""
        if not self.settings.variant.ranked or not self.hands:
            return ()
        last = self.hands[-1].order
        return tuple(zip(seigneur.titles(len(last)), last, strict=True))

    @property
    def pushes(self) -> tuple[seigneur.Push, ...]:
        """[GS5]: who pushes how many cards to whom before the next hand."""
        if not self.settings.variant.ranked or not self.hands:
            return ()
        return tuple(seigneur.pushes(self.hands[-1].order))

    def records(self) -> list[seigneur.PlayerRecord]:
        """[GS7]: per player, hands as Great Lord, the longest reign, the average rank."""
        return seigneur.records(self.rankings, self.settings.seats)


def _with_shuffler(hand: HandInput, shuffler: int | None) -> HandInput:
    if hand.shuffler == shuffler:
        return hand
    return HandInput(hand.out_order, hand.calls, hand.card_points, hand.wish_offender,
                     shuffler)


def next_hand(settings: Settings, totals: Sequence[int], played: int,
              hand: HandInput, victory: Sequence[int] = ()) -> tuple[PlayedHand, End]:
    """The hand played after `played` hands that left these totals, and where the match
    stands after it: a new hand's preview and save from the stored totals, without the
    hands before. The match must still be on before it (a finished match takes no hand).

    >>> from tichu_scorer.game.variants import NANKING
    >>> after, end = next_hand(Settings(NANKING, tuple("ABCD"), 500), (400, 90), 7,
    ...                        HandInput((0, 2), {}, (None, None)))
    >>> after.number, after.running, end.winner, end.after
    (8, (600, 90), 0, 8)
    """
    if settings.house.victory_points and not victory:
        victory = (0,) * len(totals)
    state = MatchState(settings, (), tuple(totals), victory=tuple(victory)).with_hands(
        (hand,), start=played)
    return state.hands[0], state.end


def stored_hand(out_order: Sequence[int], calls: Mapping[str, str],
                card_points: Sequence[int | None], wish_offender: int | None,
                shuffler: int | None, rules: HouseRules = RULE_BOOK) -> HandInput:
    """A hand as stored and exported (docs/API.md's shapes: calls keyed by the seat as a
    string, the card points as counted, none in Grand Seigneur) read back as the state's
    input. The inverse of `stored_values`. Each call word is read by `read_call`; a word
    these rules do not define is one of the match's own calls ([R9]), worth what the
    rules it is scored by say (`tally_hand`).

    >>> stored_hand([1, 0, 2, 3], {"0": "tichu"}, [30, 70], None, None).calls
    {0: <Call.TICHU: 'tichu'>}
    """
    points = (card_points[0], card_points[1]) if card_points else (None, None)
    read = {int(seat): read_call(call, rules) or CustomCall(call, 0)
            for seat, call in calls.items()}
    return HandInput(tuple(out_order), read, points, wish_offender, shuffler)


def stored_values(played: PlayedHand, variant: Variant) -> dict[str, Any]:
    """What is stored of a hand: what was recorded and what it scored (a points game's card
    points, team and seat scores; Grand Seigneur's places), as `stored_hand` reads it back.

    >>> from tichu_scorer.game.variants import NANKING
    >>> from tichu_scorer.scoring.calls import Call
    >>> state = MatchState.of(Settings(NANKING, tuple("ABCD")), [
    ...     HandInput((1, 0, 3), {2: Call.TICHU}, (None, 35))])
    >>> stored_values(state.hands[0], NANKING)["team_scores"]
    [-35, 35]
    """
    hand, result = played.hand, played.result
    values: dict[str, Any] = {
        "out_order": list(played.order),
        "calls": {str(seat): call.value for seat, call in sorted(hand.calls.items())},
        "card_points_entered": [], "card_points": [], "team_scores": [], "sweep": False,
        "wish_offender": hand.wish_offender, "shuffler": played.shuffler,
        "player_scores": None}
    if result is None:  # [GS1]: each player's place
        values["player_scores"] = {str(seat): place for place, seat in enumerate(
            played.order, start=1)}
        return values
    values |= {"card_points_entered": list(hand.card_points),
               "card_points": list(result.card_points),
               "team_scores": list(result.team_scores), "sweep": result.sweep}
    if not variant.teams:  # a total per seat (Threechu): each seat's score ([T3.4])
        values["player_scores"] = {str(seat): score
                                   for seat, score in enumerate(played.seat_scores())}
    return values


__all__: Sequence[str] = ("MatchState", "PlayedHand", "Settings", "next_hand", "stored_hand",
                          "stored_values")


def extras_of(extras: Mapping[str, Any] | None) -> dict[str, Any]:
    """A hand's bombs per seat (None when none was counted) and note (None when empty), as
    its row stores them: never scored.

    >>> extras_of({"bombs": [0, 2], "note": "  a  long\tnight "})
    {'bombs': [0, 2], 'note': 'a long night'}
    """
    bombs = list((extras or {}).get("bombs") or [])
    note = " ".join(str((extras or {}).get("note") or "").split())
    return {"bombs": bombs if any(bombs) else None, "note": note or None}
