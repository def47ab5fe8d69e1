"""Scoring one hand of a team game (RULES.md §7), for any seating in `layouts`.

Pure: plain values in, plain values out. Validation reports every problem at once,
each citing its rule id, so a player can fix the whole form in one go.

>>> hand = HandInput(out_order=(0, 1), calls={0: Call.TICHU}, card_points=(60, None))
>>> score_hand(hand).team_scores
(160, 40)
>>> score_hand(HandInput(out_order=(1, 3), calls={}, card_points=(None, None))).team_scores
(0, 200)

House rules (RULES.md §10.1, `game.house`) come as a `HouseRules` value, the rule book by
default: a double victory worth 100 ([R3]) with victory points ([R4]):

>>> club = HouseRules(double_victory_points=100, victory_points=True)
>>> result = score_hand(HandInput((1, 3), {}, (None, None)), rules=club)
>>> result.team_scores, result.victory_points
((0, 100), (0, 3))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..game.house import RULE_BOOK, HouseRules
from ..game.i18n import _
from ..game.layouts import NANKING, TEAM_LETTERS, Layout
from .calls import GRAND_POINTS, TICHU_POINTS, AnyCall, Call

CARD_POINTS_TOTAL = 100  # [D2] / [P1]
CARD_POINTS_MIN = -25  # [P1]: a team holding only the Phoenix
CARD_POINTS_MAX = 125  # [P1]: a team holding everything but the Phoenix
CARD_POINTS_STEP = 5  # [P1]


@dataclass(frozen=True)
class Problem:
    """One violated rule: the input field it concerns, the rule id, a sentence."""

    field: str
    rule: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "rule": self.rule, "message": self.message}


class InvalidHand(ValueError):
    """Raised by `score_hand` with every problem of the hand."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"[{p.rule}] {p.message}" for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class HandInput:
    """What the table records of a hand.

    `out_order` lists seats in the order they went out, as far as recorded;
    `card_points` is per team, `None` meaning "derive as 100 minus the other".
    """

    out_order: tuple[int, ...]
    calls: Mapping[int, AnyCall]
    card_points: tuple[int | None, int | None]
    wish_offender: int | None = None
    shuffler: int | None = None  # Threechu: who shuffled and played the dummy ([T3.1])


class CallResult(NamedTuple):
    """A call and its outcome ([P3]): made or failed, and the points it gave its side."""

    seat: int
    call: AnyCall
    made: bool
    points: int

    def as_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "call": self.call.value, "made": self.made,
                "points": self.points}


class HandResult(NamedTuple):
    """A scored hand: per-team totals and how they came about ([P5]). (Named tuples: the
    match state builds hundreds of these, at a third of a frozen dataclass's cost.)"""

    team_scores: tuple[int, int]
    card_points: tuple[int, int]
    sweep: bool  # double victory (or triple in Tientsin)
    wish_penalty: bool
    calls: tuple[CallResult, ...] = ()
    victory_points: tuple[int, int] | None = None  # [R4], under that house rule only

    def player_scores(self, layout: Layout) -> dict[int, int]:
        """[T3.4]: each seat (the Threechu dummy included) scores what its side scores."""
        return {s: self.team_scores[layout.team_of(s)] for s in range(layout.seats)}



def call_made(seat: int, out_order: Sequence[int]) -> bool:
    """[P3]: a call is made when its caller went out first, whatever the partner did. The
    one place a call's outcome is decided.

    >>> call_made(2, (2, 0, 1)), call_made(0, (2, 0, 1)), call_made(0, ())
    (True, False, False)
    """
    return bool(out_order) and out_order[0] == seat


def full_out_order(out_order: tuple[int, ...], layout: Layout = NANKING) -> tuple[int, ...]:
    """The out-order completed when only one seat is missing (the tailender is derivable).

    >>> full_out_order((2, 1, 0))
    (2, 1, 0, 3)
    """
    if len(out_order) != layout.seats - 1:
        return out_order
    missing = [s for s in range(layout.seats) if s not in out_order]
    return out_order + (missing[0],) if len(missing) == 1 else out_order


def is_sweep(out_order: tuple[int, ...], layout: Layout = NANKING) -> bool:
    """True when one team's players all went out first ([P2] double, [T6.6] triple victory).

    >>> is_sweep((0, 2)), is_sweep((0, 1, 2))
    (True, False)
    """
    size = layout.team_size
    first = out_order[:size]
    if len(first) < size or len(set(first)) < size or not all(
            0 <= seat < layout.seats for seat in first):
        return False  # a seat twice, or none at this table: reported by `hand_problems`
    team = layout.team_of(first[0])
    return all(layout.team_of(seat) == team for seat in first)


@dataclass(frozen=True)
class Derived:
    """What follows from a hand as far as it is entered, problems or not: the whole
    out-order once only the tailender is missing, the team that swept, and the card points
    as they count (the other team's 100 minus a valid figure; the sweep's bonus)."""

    out_order: tuple[int, ...]
    sweep_team: int | None
    card_points: tuple[int | None, int | None]

    def as_dict(self) -> dict[str, object]:
        return {"out_order": list(self.out_order), "sweep_team": self.sweep_team,
                "card_points": list(self.card_points)}


def derive(hand: HandInput, layout: Layout = NANKING, rules: HouseRules = RULE_BOOK) -> Derived:
    """[H7], [P1], [P2]: what the form may fill in for the players while they enter a hand.

    >>> derive(HandInput((0, 2), {}, (None, None))).card_points
    (200, 0)
    >>> derive(HandInput((1, 0, 3), {}, (None, 35))).as_dict()
    {'out_order': [1, 0, 3, 2], 'sweep_team': None, 'card_points': [65, 35]}
    >>> derive(HandInput((1,), {}, (130, None))).card_points
    (130, None)
    """
    order = hand.out_order if len(set(hand.out_order)) == len(hand.out_order) else ()
    order = full_out_order(order, layout)
    if hand.wish_offender is None and is_sweep(order, layout):
        team = layout.team_of(order[0])
        points = rules.sweep_points(layout.sweep_bonus)  # [R3]
        return Derived(order, team, (points, 0) if team == 0 else (0, points))
    a, b = hand.card_points
    if (a is None) != (b is None):
        given = a if a is not None else b
        if given is not None and not card_point_problems((given, None)):
            other = CARD_POINTS_TOTAL - given
            return Derived(order, None, (given, other) if a is not None else (other, given))
    return Derived(order, None, hand.card_points)


def hand_problems(hand: HandInput, layout: Layout = NANKING,
                  rules: HouseRules = RULE_BOOK) -> list[Problem]:
    """Every rule the recorded hand breaks, under the house rules; empty when it can be
    scored."""
    problems: list[Problem] = []
    seats = range(layout.seats)
    out = hand.out_order

    last = layout.seats - 1

    def no_seat(seat: int) -> str:
        return _("Seat {seat} does not exist: seats are 0 to {last}.").format(seat=seat,
                                                                              last=last)

    for seat in out:
        if seat not in seats:
            problems.append(Problem("out_order", "H1", no_seat(seat)))
    repeated = sorted({s for s in out if out.count(s) > 1})
    for seat in repeated:
        problems.append(Problem("out_order", "H7",
                                _("{name} is listed more than once in the out-order; a player "
                                  "goes out only once.").format(name=layout.seat_name(seat))))
    if not out and hand.wish_offender is None:
        problems.append(Problem("out_order", "H7",
                                _("Record who went out first (the order may be empty only when "
                                  "a wish penalty stopped the hand).")))

    for seat, call in hand.calls.items():
        if seat not in seats:
            problems.append(Problem(f"calls.{seat}", "H1", no_seat(seat)))
        elif call is Call.GRAND and not rules.grand_tichu:
            problems.append(Problem(f"calls.{seat}", "R2",
                                    _("{name} may not call Grand Tichu: this match plays "
                                      "without it (house rule).").format(
                                          name=layout.seat_name(seat))))
        elif call is Call.GRAND and seat in layout.no_grand_seats:
            problems.append(Problem(f"calls.{seat}", layout.no_grand_rule,
                                    _("{name} may not call Grand Tichu: in Threechu neither "
                                      "the shuffler nor the dummy may.").format(
                                          name=layout.seat_name(seat))))

    if hand.wish_offender is not None and not rules.wish_penalty:
        problems.append(Problem("wish_penalty", "R8",
                                _("This match charges no wish penalty (house rule): a missed "
                                  "wish is not scored.")))
    elif hand.wish_offender is not None and hand.wish_offender not in seats:
        problems.append(Problem("wish_penalty.offender", "P4",
                                no_seat(hand.wish_offender)))
    elif hand.wish_offender is not None and hand.wish_offender == layout.dummy:
        problems.append(Problem("wish_penalty.offender", "T3.3",
                                _("The dummy never has to fulfil the wish.")))

    counts_cards = hand.wish_offender is None and not is_sweep(out, layout)
    if counts_cards:
        problems.extend(card_point_problems(hand.card_points))
    return problems


def card_point_problems(points: tuple[int | None, int | None]) -> list[Problem]:
    """[P1]: each team's card points a multiple of 5 in −25…125, the two totalling 100."""
    problems: list[Problem] = []
    given = [(team, p) for team, p in enumerate(points) if p is not None]
    if not given:
        return [Problem("card_points", "P1",
                        _("Enter one team's card points; the other team gets 100 minus "
                          "them."))]
    for team, p in given:
        name = f"card_points.{team}"
        if p % CARD_POINTS_STEP:
            problems.append(Problem(name, "P1", _("Team {team}'s card points ({points}) must "
                                                  "be a multiple of 5.").format(
                                                      team=TEAM_LETTERS[team], points=p)))
        if not CARD_POINTS_MIN <= p <= CARD_POINTS_MAX:
            problems.append(Problem(name, "P1",
                                    _("Team {team}'s card points ({points}) must lie between "
                                      "{low} and {high}.").format(
                                          team=TEAM_LETTERS[team], points=p, low=CARD_POINTS_MIN,
                                          high=CARD_POINTS_MAX)))
    if len(given) == 2 and given[0][1] + given[1][1] != CARD_POINTS_TOTAL:
        a, b = given[0][1], given[1][1]
        problems.append(Problem("card_points", "P1",
                                _("The teams' card points must total 100, not {a} + {b} = "
                                  "{total}.").format(a=a, b=b, total=a + b)))
    return problems


def score_hand(hand: HandInput, layout: Layout = NANKING,
               rules: HouseRules = RULE_BOOK) -> HandResult:
    """Score a hand ([P1]–[P5], and the house rules); raises `InvalidHand` listing every
    problem."""
    problems = hand_problems(hand, layout, rules)
    if problems:
        raise InvalidHand(problems)
    return tally_hand(hand, layout, rules)


_TICHU, _GRAND = Call.TICHU, Call.GRAND
# named tuples built as tuples: their generated __new__ is a Python call each, and the match
# state scores every hand of a long match (benchmarks/bench_match_state.py)
_new = tuple.__new__


def tally_hand(hand: HandInput, layout: Layout = NANKING,
               rules: HouseRules = RULE_BOOK) -> HandResult:
    """Score a hand already read and checked (`read_hand`, `hand_problems`): a recorded
    hand, as the match state scores it without checking it again.

    >>> tally_hand(HandInput((1, 0), {1: Call.GRAND}, (None, 45))).team_scores
    (55, 245)
    """
    out = hand.out_order
    teams = layout.teams
    first = out[:len(teams) // 2]
    # [P2] / [T6.6] as `is_sweep` says, on seats already checked (none repeated, [H7])
    sweep = (hand.wish_offender is None and len(first) == len(teams) // 2
             and len({teams[seat] for seat in first}) == 1)
    # [R3]: the house rules' sweep (the rule book's value itself, the common case, at once)
    sweep_points = layout.sweep_bonus if rules is RULE_BOOK else rules.sweep_points(
        layout.sweep_bonus)
    card: tuple[int, int]
    if hand.wish_offender is not None:  # [P4]: as if the opponents had a double victory
        offended = 1 - teams[hand.wish_offender]
        card = (sweep_points, 0) if offended == 0 else (0, sweep_points)
    elif sweep:  # [P2] / [T6.6]
        card = (sweep_points, 0) if teams[out[0]] == 0 else (0, sweep_points)
    else:  # [P1]
        a, b = hand.card_points
        if a is not None:
            card = (a, CARD_POINTS_TOTAL - a)
        elif b is not None:
            card = (CARD_POINTS_TOTAL - b, b)
        else:  # hand_problems refuses a counted hand with neither
            raise InvalidHand(card_point_problems(hand.card_points))

    if not hand.calls:
        result = _new(HandResult, (card, card, sweep, hand.wish_offender is not None, (),
                                   None))
        return result if not rules.victory_points else _with_victory_points(
            result, hand, layout)
    results = []
    totals = list(card)
    calls = hand.calls
    for seat in sorted(calls):  # [P3]: only the caller's own first place counts
        call = calls[seat]
        made = call_made(seat, out)
        # `Call.points` without a property's call for the two common calls: a long match
        # has hundreds ([R9]'s custom calls carry their own)
        points = (TICHU_POINTS if call is _TICHU else GRAND_POINTS if call is _GRAND
                  else rules.call_points(call.value) or call.points)
        if not made:
            points = -points
        totals[teams[seat]] += points
        results.append(_new(CallResult, (seat, call, made, points)))
    result = _new(HandResult, ((totals[0], totals[1]), card, sweep,
                               hand.wish_offender is not None, tuple(results), None))
    return result if not rules.victory_points else _with_victory_points(result, hand, layout)


def _with_victory_points(result: HandResult, hand: HandInput, layout: Layout) -> HandResult:
    return result._replace(victory_points=victory_points(result, hand, layout))


def victory_points(result: HandResult, hand: HandInput,
                   layout: Layout = NANKING) -> tuple[int, int]:
    """[R4]: the hand as a game of its own: 2 to the team with more points, 1 each when
    equal; a double victory (Tientsin: the triple victory) 3 to its team, 0 to the other.
    **Ruling**: a wish penalty, scored "as if the opponents had a double victory" ([P4]),
    gives them 3 as well.

    >>> hand = HandInput((0, 1), {}, (50, 50))
    >>> victory_points(tally_hand(hand), hand)
    (1, 1)
    """
    if hand.wish_offender is not None:
        winner = 1 - layout.team_of(hand.wish_offender)
    elif result.sweep:
        winner = layout.team_of(hand.out_order[0])
    else:
        a, b = result.team_scores
        return (2, 0) if a > b else (0, 2) if b > a else (1, 1)
    return (3, 0) if winner == 0 else (0, 3)
