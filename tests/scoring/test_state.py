"""The pure match state (`scoring.state`): every derived fact of a match from its settings
and recorded hands. Property tests compare it with the code paths the app took before it
(each hand scored by `score_hand` in its layout, the totals summed by `match_state` /
`fixed_length_state`, a new hand's preview by `result_after`, the statistics' facts built
from stored rows); rule tests pin [E1], [E2], [T3.1], [T3.5] and [GS4]–[GS7]."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN, Variant
from tichu_scorer.scoring import (
    DEFAULT_TARGET,
    Call,
    HandInput,
    score_hand,
    seigneur,
    tied_at_top,
    winner,
)
from tichu_scorer.scoring.games import PointsGame, RankingGame, game_of
from tichu_scorer.scoring.state import MatchState, Settings
from tichu_scorer.scoring.stats import CountedHand, CountedMatch, tally_match

POINTS = (NANKING, THREECHU, TIENTSIN)

# The code paths the app took before the state, kept here as the oracle the state is
# compared with: each hand's side scores summed, the winner after the first deciding hand
# ([E1]), a fixed length's winner on the final totals ([T3.5]).


@dataclass(frozen=True)
class OldState:
    totals: tuple[int, ...]
    running: list[tuple[int, ...]]
    winner: int | None  # index of the winning team (or player), None while play goes on
    winner_after: int | None = None  # 1-based number of the hand that decided it
    finished: bool = False  # a fixed-length match can end in a tie at the top

    @property
    def over(self) -> bool:
        return self.finished or self.winner is not None

    def ranking(self) -> list[int]:
        """Sides from the highest total down (ties keep seat order)."""
        return sorted(range(len(self.totals)), key=lambda i: -self.totals[i])


def match_state(hand_scores: Iterable[Sequence[int]], target: int = DEFAULT_TARGET,
                sides: int = 2) -> OldState:
    totals = [0] * sides
    running: list[tuple[int, ...]] = []
    won: int | None = None
    after: int | None = None
    for number, scores in enumerate(hand_scores, start=1):
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        running.append(tuple(totals))
        if won is None:
            won = winner(totals, target)
            after = number if won is not None else None
    return OldState(totals=tuple(totals), running=running, winner=won, winner_after=after)


def fixed_length_state(hand_scores: Iterable[Sequence[int]], hand_limit: int | None,
                       target: int | None, sides: int) -> OldState:
    if target is not None:
        return match_state(hand_scores, target, sides)
    state = match_state(hand_scores, 10 ** 9, sides)
    end = result_after(state.totals, len(state.running), None, hand_limit)
    return OldState(state.totals, state.running, end.winner, end.winner_after, end.finished)


def result_after(totals: Sequence[int], played: int, target: int | None,
                 hand_limit: int | None = None) -> OldState:
    if target is None and hand_limit is not None:
        if played < hand_limit:
            return OldState(tuple(totals), [], None)
        top = max(totals)
        won = list(totals).index(top) if list(totals).count(top) == 1 else None
        return OldState(tuple(totals), [], won, played if won is not None else None,
                        finished=True)
    won = winner(totals, target or DEFAULT_TARGET)
    return OldState(tuple(totals), [], won, played if won is not None else None)


def hands_after_the_end(state: OldState, target: int | None,
                        hand_limit: int | None) -> tuple[int, str]:
    played = len(state.running)
    if target is None and hand_limit is not None:
        return max(played - hand_limit, 0), "T3.5"
    if state.winner_after is None:
        return 0, "E1"
    return played - state.winner_after, "E1"


def names_for(variant: Variant, players: int) -> tuple[str, ...]:
    return tuple(f"P{s}" for s in range(players)) + (("Dummy",) if variant.has_dummy else ())


@st.composite
def points_hand(draw, variant: Variant, number: int, record_shuffler: bool) -> HandInput:
    """A hand the scoring accepts: an out-order (a sweep now and then), calls (no Grand
    Tichu where [T3.3] forbids it), card points for either team, or a wish penalty."""
    shuffler = variant.shuffler(number)
    layout = variant.layout(hand_number=number)
    seats = layout.seats
    calls = {}
    for seat in range(seats):
        call = draw(st.sampled_from([None, None, None, Call.TICHU, Call.GRAND]))
        if call is Call.GRAND and seat in layout.no_grand_seats:
            call = Call.TICHU
        if call is not None:
            calls[seat] = call
    kept = shuffler if record_shuffler else None
    kind = draw(st.sampled_from(["points", "points", "points", "sweep", "wish"]))
    if kind == "wish":
        offender = draw(st.sampled_from([s for s in range(seats) if s != layout.dummy]))
        return HandInput((), calls, (None, None), offender, kept)
    order = draw(st.permutations(range(seats)))
    if kind == "sweep":
        first = order[0]
        mates = tuple(s for s in layout.members(layout.team_of(first)) if s != first)
        return HandInput((first, *mates), calls, (None, None), None, kept)
    cut = draw(st.integers(1, seats))
    points = draw(st.integers(-5, 25)) * 5
    card = (points, None) if draw(st.booleans()) else (None, points)
    if draw(st.booleans()) and card[0] is not None:
        card = (points, 100 - points)
    return HandInput(tuple(order[:cut]), calls, card, None, kept)


@st.composite
def points_match(draw):
    """Settings of a points game and its hands (to a target, or Threechu's fixed length)."""
    variant = draw(st.sampled_from(POINTS))
    players = variant.fewest
    if variant.lasts_hands and draw(st.booleans()):
        target, limit = None, draw(st.sampled_from([3, 6, 9]))
    else:
        target, limit = draw(st.sampled_from([50, 200, 500, 1000, None])), None
        if variant.lasts_hands and target is None:
            target = 500
    record = draw(st.booleans())
    count = draw(st.integers(0, 14))
    hands = [draw(points_hand(variant, n, record)) for n in range(1, count + 1)]
    return Settings(variant, names_for(variant, players), target, limit), hands


def old_path(setup: Settings, hands: list[HandInput]):
    """The state as the old glue built it: each hand scored and stored, its side scores summed."""
    variant, seats = setup.variant, setup.seats
    rows = []
    for number, hand in enumerate(hands, start=1):
        shuffler = hand.shuffler if hand.shuffler is not None else variant.shuffler(number)
        layout = variant.layout(setup.names, number, shuffler)
        result = score_hand(hand, layout)
        players = ({str(s): n for s, n in result.player_scores(layout).items()}
                   if not variant.teams else None)
        rows.append((result, shuffler, variant.side_scores(result.team_scores, players, seats),
                     layout, players))
    scores = [row[2] for row in rows]
    if not variant.teams:
        state = fixed_length_state(scores, setup.hand_limit, setup.target, seats)
    else:
        state = match_state(scores, setup.target or DEFAULT_TARGET)
    return state, rows


@settings(max_examples=150, deadline=None)
@given(points_match())
def test_the_state_agrees_with_the_old_paths(match):
    setup, hands = match
    new = MatchState.of(setup, hands)
    old, rows = old_path(setup, hands)
    assert list(new.running) == old.running
    assert new.totals == old.totals
    assert (new.winner, new.winner_after, new.over) == (old.winner, old.winner_after, old.over)
    assert new.finished == old.finished
    limit = setup.hand_limit if setup.variant.lasts_hands else None
    extra, rule = hands_after_the_end(old, setup.target, limit)
    assert new.hands_after_the_end == extra
    if new.over:
        assert new.end_rule == rule
    for played, (result, shuffler, scores, layout, _players) in zip(new.hands, rows,
                                                                    strict=True):
        assert played.result == result  # each call's outcome included
        assert played.shuffler == shuffler
        assert list(played.scores) == scores
        assert played.seat_scores() == setup.variant.seat_scores(
            result.team_scores, _players, setup.seats, layout)
    tied = None if setup.target is None else tied_at_top(new.totals, setup.target)
    assert new.tied_at == (None if old.over else tied)


@settings(max_examples=100, deadline=None)
@given(points_match(), st.data())
def test_a_new_hand_previews_as_the_stored_totals_did(match, data):
    """`hand_entry.score` of a new hand summed the stored totals (`result_after`); the state
    with one more hand says the same, whenever the match was still on."""
    setup, hands = match
    before = MatchState.of(setup, hands)
    if before.over:
        return
    hand = data.draw(points_hand(setup.variant, len(hands) + 1, False))
    after = before.with_hands((hand,))
    assert after == MatchState.of(setup, [*hands, hand])
    limit = setup.hand_limit if setup.variant.lasts_hands else None
    quick = result_after(after.totals, len(hands) + 1, setup.target, limit)
    assert (after.winner, after.over) == (quick.winner, quick.over)


@settings(max_examples=60, deadline=None)
@given(points_match(), st.data())
def test_replacing_a_hand_equals_building_anew(match, data):
    setup, hands = match
    if not hands:
        return
    number = data.draw(st.integers(1, len(hands)))
    hand = data.draw(points_hand(setup.variant, number, True))
    changed = [*hands]
    changed[number - 1] = hand
    assert facts_of(MatchState.of(setup, hands).replacing(number, hand)) == facts_of(
        MatchState.of(setup, changed))


def facts_of(state):
    """What two states of one match must agree on (the hands as given aside)."""
    return (state.running, state.end, [h[2:] for h in state.hands])  # all but the input


@settings(max_examples=80, deadline=None)
@given(points_match())
def test_the_statistics_read_the_same_facts(match):
    """The tallies from the state's facts equal those from the facts the rows gave."""
    setup, hands = match
    state = MatchState.of(setup, hands)
    old, rows = old_path(setup, hands)
    variant, seats = setup.variant, setup.seats
    winners = variant.sides(setup.names)[old.winner].names if old.winner is not None else ()
    facts = CountedMatch(variant, setup.names, tuple(
        CountedHand(tuple(played.order), {s: c.value for s, c in played.hand.calls.items()},
                  variant.seat_scores(result.team_scores, players, seats, layout),
                  tuple(layout.team_of(s) for s in range(seats)), result.sweep)
        for played, (result, _shuffler, _scores, layout, players) in zip(
            state.hands, rows, strict=True)), winners, old.over)
    assert tally_match(state.counted()) == tally_match(facts)


@settings(max_examples=50, deadline=None)
@given(st.integers(5, 12), st.data())
def test_grand_seigneur_titles_pushes_and_records(players, data):
    rankings = [tuple(data.draw(st.permutations(range(players))))
                for _ in range(data.draw(st.integers(0, 8)))]
    cut = data.draw(st.booleans())  # the last place may be left out ([GS1])
    hands = [HandInput(r[:-1] if cut else r, {}, (None, None)) for r in rankings]
    state = MatchState.of(Settings(SEIGNEUR, tuple(f"P{s}" for s in range(players))), hands)
    assert state.rankings == tuple(rankings)
    assert state.totals == () and not state.over and state.next_shuffler is None
    assert state.records() == seigneur.records(rankings, players)
    if rankings:
        assert state.titles == tuple(zip(seigneur.titles(players), rankings[-1], strict=True))
        assert list(state.pushes) == seigneur.pushes(rankings[-1])
    else:
        assert state.titles == () and state.pushes == ()


SWEEP_A, SWEEP_B = HandInput((0, 2), {}, (None, None)), HandInput((1, 3), {}, (None, None))
HALVES = HandInput((0, 1), {}, (50, None))  # 50 each
B_AHEAD = HandInput((1, 0), {}, (None, 60))  # 40 to 60


@pytest.mark.parametrize("hands, target, winner, after, tied", [
    ([SWEEP_A, SWEEP_A, SWEEP_B], 400, 0, 2, None),  # [E1]: 400 to 0 decides it
    ([SWEEP_A, SWEEP_B, HALVES], 250, None, None, 250),  # [E2]: 250 all: play goes on
    ([SWEEP_A, SWEEP_B, HALVES, B_AHEAD], 250, 1, 4, None),  # then one side leads alone
    ([SWEEP_A], 1000, None, None, None),  # nobody reached the target
])
def test_the_end_of_a_match_to_a_target(hands, target, winner, after, tied):
    state = MatchState.of(Settings(NANKING, names_for(NANKING, 4), target), hands)
    assert (state.winner, state.winner_after, state.tied_at) == (winner, after, tied)
    assert state.end_rule == ("E1" if winner is not None else None)
    if winner is not None:
        assert state.winner_names == state.sides[winner].names


def test_threechu_lasts_its_hands_and_passes_the_shuffle():
    setup = Settings(THREECHU, names_for(THREECHU, 3), None, 3)
    state = MatchState.of(setup, [])
    shufflers = []
    for _ in range(3):
        shufflers.append(state.next_shuffler)
        state = state.with_hands((HandInput((0, 1), {}, (50, None)),))
    assert shufflers == [0, 1, 2] and [h.shuffler for h in state.hands] == [0, 1, 2]  # [T3.1]
    assert state.finished and state.end_rule == "T3.5"
    assert state.winner == state.ranking()[0] or state.winner is None
    more = state.with_hands((HandInput((0, 1), {}, (50, None)),))
    assert more.hands_after_the_end == 1


def test_a_fixed_length_match_may_end_tied_at_the_top():
    setup = Settings(THREECHU, names_for(THREECHU, 3), None, 3)
    hands = [HandInput((0, 1), {}, (50, None), None, s) for s in (0, 1, 2)]
    state = MatchState.of(setup, hands)
    assert state.finished and state.over and state.winner is None  # [T3.5]
    assert state.winner_names == ()


def test_the_next_shuffler_of_a_team_game_is_who_went_out_first():
    state = MatchState.of(Settings(TIENTSIN, names_for(TIENTSIN, 6)),
                          [HandInput((3, 0, 1, 2, 4), {}, (40, None))])
    assert state.next_shuffler == 3
    assert state.hands[0].order == (3, 0, 1, 2, 4, 5)


def test_each_call_has_its_outcome():
    hand = HandInput((2, 1), {0: Call.GRAND, 2: Call.TICHU}, (None, 30))
    played = MatchState.of(Settings(NANKING, names_for(NANKING, 4)), [hand]).hands[0]
    assert [(c.seat, c.call, c.made, c.points) for c in played.calls] == [
        (0, Call.GRAND, False, -200), (2, Call.TICHU, True, 100)]
    assert played.first_out == 2 and played.scores == (70 - 200 + 100, 30)


@pytest.mark.parametrize("variant, kind", [(NANKING, PointsGame), (THREECHU, PointsGame),
                                           (TIENTSIN, PointsGame), (SEIGNEUR, RankingGame)])
def test_each_variant_is_played_as_its_game(variant, kind):
    game = game_of(variant)
    assert isinstance(game, kind) and game.variant is variant
    assert ("card_points" in game.asks) is variant.scored


def test_the_games_read_a_hand_with_every_problem():
    names = names_for(NANKING, 4)
    hand, problems = game_of(NANKING).read({"out_order": [0, 0], "calls": {"1": "both"},
                                            "card_points": [33, 67]}, names, None)
    assert [p.rule for p in problems] == ["P3", "H7", "P1", "P1"] and hand is not None
    hand, problems = game_of(THREECHU).read({"out_order": [1, 0], "card_points": [20, None]},
                                            names_for(THREECHU, 3), 2)
    assert problems == [] and hand.shuffler == 2
    hand, problems = game_of(SEIGNEUR).read({"out_order": [0, 1, 2]}, tuple("ABCDE"), None)
    assert hand is None and [p.rule for p in problems] == ["GS1"]
    hand, problems = game_of(SEIGNEUR).read({"out_order": [4, 1, 2, 0]}, tuple("ABCDE"), None)
    assert problems == [] and hand.out_order == (4, 1, 2, 0)
    assert game_of(SEIGNEUR).derive(hand, None) is None
    assert game_of(NANKING).derive(HandInput((1, 0, 3), {}, (None, 35)), None).card_points == (
        65, 35)
