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

from ..game import variants
from ..game.house import RULE_BOOK, HouseRules, read_house_rules
from ..game.variants import Side, Variant
from . import seigneur
from .games import NOT_OVER, End, Game, Rules, game_of
from .hand import CallResult, HandInput, HandResult
from .match import DEFAULT_TARGET, tied_at_top
from .stats import CountedHand, CountedMatch

OVER = End(finished=True)  # a match known as over by its summary alone (`MatchState.after`)
# The serialised state (`MatchState.to_dict`): the settings and what the hands left; the
# page's data-facts lists them in this order (`as_list`), docs/OFFLINE_CORE.md
FACTS = ("variant", "names", "target", "hand_limit", "hand_count", "totals", "finished",
         "house", "lead_by", "victory")


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
    before: int = 0  # hands in play not in `hands`, known only by what they left (`after`)

    @classmethod
    def of(cls, settings: Settings, hands: Iterable[HandInput]) -> MatchState:
        """The state after these hands in play, in order."""
        sides = settings.game.sides(settings.seats)
        victory = (0,) * sides if settings.house.victory_points else ()
        return cls(settings, (), (0,) * sides, victory=victory).with_hands(hands)

    @classmethod
    def after(cls, settings: Settings, played: int, totals: Sequence[int] = (),
              over: bool = False, victory: Sequence[int] = ()) -> MatchState:
        """The state after `played` hands known only by what they left (the stored
        totals, whether the match is over, [R4]'s victory points): what a new hand is
        scored against without the hands before, on the server and on the phone
        (`to_dict`). An ended match is known as over, not by its winner.

        >>> from tichu_scorer.game.variants import NANKING
        >>> state = MatchState.after(Settings(NANKING, tuple("ABCD"), 500), 7, (400, 90))
        >>> after = state.with_hands((HandInput((0, 2), {}, (None, None)),))
        >>> after.hands[0].number, after.totals, after.winner, after.winner_after, after.played
        (8, (600, 90), 0, 8, 8)
        """
        sides = settings.game.sides(settings.seats)
        if not victory and settings.house.victory_points:
            victory = (0,) * sides
        return cls(settings, (), tuple(totals) or (0,) * sides, OVER if over else NOT_OVER,
                   tuple(victory), played)

    def with_hands(self, hands: Iterable[HandInput]) -> MatchState:
        """The state with these hands played after the ones in it, which are not scored
        again."""
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
        number = self.before + len(played)
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
        return MatchState(settings, tuple(played), totals, end, victory, self.before)

    def replacing(self, number: int, hand: HandInput) -> MatchState:
        """The state with hand `number` (its place, from 1) recorded differently."""
        inputs = list(self.inputs)  # (a state of every hand: `before` is 0)
        inputs[number - 1] = hand
        return self.of(self.settings, inputs)

    @property
    def played(self) -> int:
        """How many hands are in play."""
        return self.before + len(self.hands)

    @property
    def inputs(self) -> tuple[HandInput, ...]:
        """The hands as recorded, each with its shuffler."""
        return tuple(_with_shuffler(h.hand, h.shuffler) for h in self.hands)

    # the serialised state: what the phone and the save path score a new hand against

    def to_dict(self) -> dict[str, Any]:
        """The settings and what the hands left (`after` reads it back, `from_dict`): the
        state a new hand is scored against, as the phone receives it (JSON).

        >>> from tichu_scorer.game.variants import THREECHU
        >>> state = MatchState.after(Settings(THREECHU, ("A", "B", "C", "D"), None, 9), 4)
        >>> state.to_dict()["totals"], MatchState.from_dict(state.as_list()) == state
        ((0, 0, 0, 0), True)
        """
        settings, house = self.settings, self.settings.house
        return {"variant": settings.variant.key, "names": settings.names,
                "target": settings.target, "hand_limit": settings.hand_limit,
                "hand_count": self.played, "totals": self.totals, "finished": self.over,
                "house": None if house == RULE_BOOK else house.as_dict(),
                "lead_by": settings.lead_by, "victory": self.victory}

    def as_list(self) -> list[Any]:
        """`to_dict`'s values in `FACTS`' order: the page's data-facts, a few bytes (the
        house rules' facts left off while they are the rule book's)."""
        listed = list(self.to_dict().values())
        while len(listed) > 7 and listed[-1] in (None, (), []):
            listed.pop()
        return listed

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | Sequence[Any]) -> MatchState:
        """The state `to_dict` or `as_list` gave (a page kept from before house rules
        lists 7 facts); KeyError for an unknown variant, HouseRulesError for bad rules."""
        if not isinstance(data, Mapping):
            data = dict(zip(FACTS, data, strict=False))
        settings = Settings(variants.variant(str(data["variant"])), tuple(data["names"]),
                            data["target"], data["hand_limit"], data.get("lead_by"),
                            read_house_rules(data.get("house")))
        return cls.after(settings, int(data["hand_count"]), tuple(data["totals"]),
                         bool(data["finished"]), tuple(data.get("victory") or ()))

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
        played = self.played
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
        return self.settings.game.dealer(self.played + 1, last)

    @property
    def next_seating(self) -> int | None:
        """The shuffler the next hand is read and scored with, where its seating follows
        him (Threechu's dummy, [T3.1]: `next_shuffler`); None in the other games."""
        return self.next_shuffler if self.settings.game.records_shuffler else None

    def counted(self, hands: Iterable[PlayedHand] | None = None) -> CountedMatch:
        """The match as the statistics count it (`stats.tally_match`), with `hands` (by
        default every hand in play)."""
        chosen = self.hands if hands is None else hands
        return CountedMatch(self.settings.variant, self.settings.names, tuple(
            CountedHand(h.order, {seat: call.value for seat, call in h.hand.calls.items()},
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


__all__: Sequence[str] = ("MatchState", "PlayedHand", "Settings")
