"""House rules in the pure core (RULES.md §10.1): reading the docs/API.md shape, and a
hand's scoring under R2, R3, R4, R8 and R9. With the rule book's defaults every hand scores
as an independent reading of §7 says (the scoring before house rules)."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.game.house import (
    BY_KEY,
    FLAGS,
    KEYS,
    PRESETS,
    RULE_BOOK,
    HouseRules,
    HouseRulesError,
    named_rules,
    preset_of,
    read_house_rules,
)
from tichu_scorer.game.layouts import NANKING, TIENTSIN, Layout, threechu
from tichu_scorer.scoring import (
    Call,
    CustomCall,
    HandInput,
    derive,
    hand_problems,
    read_hand,
    score_hand,
)
from tichu_scorer.scoring.hand import tally_hand, victory_points

CLUB = HouseRules(double_victory_points=100, victory_points=True)  # Göttingen: 2 / 1 / 3
TOURNAMENT = HouseRules(grand_tichu=False, double_victory_points=100, victory_points=True)
BLIND = HouseRules(custom_calls=(("blind", 400),))


# --- reading the API shape ------------------------------------------------------------------

@pytest.mark.parametrize("raw", [None, {}, {"grand_tichu": True}, RULE_BOOK.as_dict(),
                                 {"double_victory_points": 200.0, "custom_calls": {}},
                                 {"custom_calls": None}])
def test_missing_empty_or_the_defaults_read_as_the_rule_book(raw):
    assert read_house_rules(raw) == RULE_BOOK


def test_every_key_reads_and_prints_back():
    raw = {"grand_tichu": False, "double_victory_points": 100, "victory_points": True,
           "wish_penalty": False, "custom_calls": {"blind": 400, "Blitz": 300},
           "dragon_kept_when_out": True}
    rules = read_house_rules(raw)
    assert rules == HouseRules(False, 100, True, False, (("blind", 400), ("Blitz", 300)), True)
    assert rules.as_dict() == raw and read_house_rules(rules.as_dict()) == rules
    assert list(raw) == list(KEYS)
    assert rules.call_points("blind") == 400 and rules.call_points("tichu") is None


@pytest.mark.parametrize("raw, field, rule", [
    ([], "house_rules", "R1"),
    ("tournament", "house_rules", "R1"),
    ({"no_grand": True}, "house_rules.no_grand", "R1"),
    ({"grand_tichu": "false"}, "house_rules.grand_tichu", "R2"),
    ({"grand_tichu": 0}, "house_rules.grand_tichu", "R2"),
    ({"grand_tichu": None}, "house_rules.grand_tichu", "R2"),
    ({"double_victory_points": "100"}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": True}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": 100.5}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": 105}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": -100}, "house_rules.double_victory_points", "R3"),
    ({"double_victory_points": 10**9}, "house_rules.double_victory_points", "R3"),
    ({"victory_points": 1}, "house_rules.victory_points", "R4"),
    ({"wish_penalty": "no"}, "house_rules.wish_penalty", "R8"),
    ({"dragon_kept_when_out": []}, "house_rules.dragon_kept_when_out", "R5"),
    ({"custom_calls": ["blind"]}, "house_rules.custom_calls", "R9"),
    ({"custom_calls": {"blind": "400"}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"blind": 0}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"blind": -400}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"blind": 401}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"Tichu": 400}}, "house_rules.custom_calls.Tichu", "R9"),
    ({"custom_calls": {"grand": 400}}, "house_rules.custom_calls.grand", "R9"),
    ({"custom_calls": {"": 400}}, "house_rules.custom_calls", "R9"),
    ({"custom_calls": {" blind": 400}}, "house_rules.custom_calls", "R9"),
    ({"custom_calls": {"x" * 31: 400}}, "house_rules.custom_calls", "R9"),
    ({"custom_calls": {f"c{i}": 100 for i in range(9)}}, "house_rules.custom_calls", "R9"),
    (True, "house_rules", "R1"),
    ({"grand": False}, "house_rules.grand", "R1"),
    ({"double_victory_points": 99}, "house_rules.double_victory_points", "R3"),
    ({"wish_penalty": None}, "house_rules.wish_penalty", "R8"),
    ({"dragon_kept_when_out": "yes"}, "house_rules.dragon_kept_when_out", "R5"),
    ({"custom_calls": {"blind": True}}, "house_rules.custom_calls.blind", "R9"),
    ({"custom_calls": {"tichu": 400}}, "house_rules.custom_calls.tichu", "R9"),
    # one call a name, whatever its capitals
    ({"custom_calls": {"blind": 400, "BLIND": 50}}, "house_rules.custom_calls.BLIND", "R9"),
])
def test_a_key_that_cannot_be_read_is_named_with_its_rule(raw, field, rule):
    with pytest.raises(HouseRulesError) as caught:
        read_house_rules(raw)
    assert (caught.value.field, caught.value.rule) == (field, rule)
    assert caught.value.message.startswith(field) and f"({rule})" in caught.value.message


# --- R2: no Grand Tichu ---------------------------------------------------------------------

def test_r2_refuses_a_grand_tichu_and_keeps_tichu():
    hand = HandInput((0, 1, 2, 3), {1: Call.GRAND, 2: Call.TICHU}, (50, None))
    assert [(p.field, p.rule) for p in hand_problems(hand, NANKING, TOURNAMENT)] == [
        ("calls.1", "R2")]
    assert hand_problems(hand, NANKING) == []
    _hand, problems = read_hand({"out_order": [0, 1], "calls": {"3": "grand"},
                                 "card_points": [50, 50]}, NANKING, TOURNAMENT)
    assert [(p.field, p.rule) for p in problems] == [("calls.3", "R2")]


def test_r2_in_threechu_is_said_once_for_the_shuffler():
    hand = HandInput((0, 1), {2: Call.GRAND}, (50, None))  # dummy 0: seat 2 shuffles
    assert [p.rule for p in hand_problems(hand, threechu(0))] == ["T3.3"]
    assert [p.rule for p in hand_problems(hand, threechu(0), TOURNAMENT)] == ["R2"]


# --- R3: a double victory worth 100 ----------------------------------------------------------

@pytest.mark.parametrize("layout, out, rules, card", [
    (NANKING, (1, 3), CLUB, (0, 100)),
    (NANKING, (0, 2), HouseRules(double_victory_points=150 - 50), (100, 0)),
    (NANKING, (0, 2), RULE_BOOK, (200, 0)),
    (TIENTSIN, (1, 3, 5), CLUB, (0, 150)),  # Ruling: 3/2 of the double victory
    (TIENTSIN, (0, 2, 4), RULE_BOOK, (300, 0)),
    (NANKING, (0, 2), HouseRules(double_victory_points=0), (0, 0)),
])
def test_r3_a_sweep_scores_the_house_rules_points(layout, out, rules, card):
    hand = HandInput(out, {out[0]: Call.TICHU}, (None, None))
    result = score_hand(hand, layout, rules)
    assert result.sweep and result.card_points == card
    team = layout.team_of(out[0])
    assert result.team_scores[team] == card[team] + 100
    assert derive(hand, layout, rules).card_points == card


def test_r3_the_wish_penalty_scores_as_the_house_rules_double_victory():
    hand = HandInput((), {0: Call.TICHU}, (None, None), wish_offender=1)
    assert score_hand(hand, NANKING, CLUB).team_scores == (100 - 100, 0)
    assert score_hand(hand, TIENTSIN, CLUB).card_points == (150, 0)
    assert score_hand(hand, NANKING).team_scores == (200 - 100, 0)


def test_r3_leaves_counted_card_points_alone():
    hand = HandInput((0, 1, 2, 3), {}, (70, None))
    assert score_hand(hand, NANKING, CLUB).team_scores == score_hand(hand).team_scores


# --- R4: victory points ----------------------------------------------------------------------

@pytest.mark.parametrize("layout, hand, vp", [
    (NANKING, HandInput((0, 1, 2, 3), {}, (60, 40)), (2, 0)),
    (NANKING, HandInput((0, 1, 2, 3), {}, (50, 50)), (1, 1)),
    (NANKING, HandInput((0, 1, 2, 3), {}, (-25, 125)), (0, 2)),
    (NANKING, HandInput((1, 0, 2, 3), {0: Call.TICHU}, (60, 40)), (0, 2)),  # -40 : 40
    (NANKING, HandInput((1, 0, 2, 3), {0: Call.TICHU}, (150 - 50, 0)), (1, 1)),  # 0 : 0
    (NANKING, HandInput((2, 0), {}, (None, None)), (3, 0)),
    (NANKING, HandInput((1, 3), {1: Call.GRAND, 3: Call.GRAND}, (None, None)), (0, 3)),
    (NANKING, HandInput((0, 1), {}, (None, None), wish_offender=2), (0, 3)),  # Ruling
    (TIENTSIN, HandInput((1, 3, 5), {}, (None, None)), (0, 3)),
    (TIENTSIN, HandInput((1, 3, 0, 5, 2, 4), {}, (55, 45)), (2, 0)),
    (threechu(3, shuffler=0), HandInput((1, 0, 2, 3), {}, (30, 70)), (0, 2)),
])
def test_r4_victory_points_per_hand(layout, hand, vp):
    result = score_hand(hand, layout, CLUB)
    assert result.victory_points == vp == victory_points(result, hand, layout)
    assert score_hand(hand, layout).victory_points is None  # only under the house rule


def test_r4_a_double_victory_gives_3_even_when_its_calls_cost_its_points():
    hand = HandInput((0, 2), {2: Call.GRAND}, (None, None))  # 100 - 200 : 0
    result = score_hand(hand, NANKING, CLUB)
    assert result.team_scores == (-100, 0) and result.victory_points == (3, 0)


# --- R8: no wish penalty ---------------------------------------------------------------------

def test_r8_refuses_a_wish_penalty():
    hand = HandInput((), {}, (None, None), wish_offender=1)
    assert [(p.field, p.rule) for p in hand_problems(hand, NANKING, HouseRules(
        wish_penalty=False))] == [("wish_penalty", "R8")]
    assert hand_problems(hand, NANKING) == []
    played = HandInput((0, 1, 2, 3), {}, (40, None))
    assert hand_problems(played, NANKING, HouseRules(wish_penalty=False)) == []


# --- R9: custom calls ------------------------------------------------------------------------

def test_r9_a_custom_call_is_made_or_lost_like_tichu():
    made = score_hand(HandInput((1, 0, 2, 3), {1: CustomCall("blind", 400)}, (50, 50)),
                      NANKING, BLIND)
    assert made.team_scores == (50, 450)
    assert made.calls[0].as_dict() == {"seat": 1, "call": "blind", "made": True, "points": 400}
    lost = score_hand(HandInput((1, 0, 2, 3), {3: CustomCall("blind", 400)}, (50, 50)),
                      NANKING, BLIND)
    assert lost.team_scores == (50, -350) and not lost.calls[0].made


def test_r9_calls_read_by_their_names():
    body = {"out_order": [2, 0], "calls": {"2": "blind", "1": "tichu"},
            "card_points": [None, None]}
    hand, problems = read_hand(body, NANKING, BLIND)
    assert problems == [] and hand.calls == {2: CustomCall("blind", 400), 1: Call.TICHU}
    assert tally_hand(hand, NANKING, BLIND).team_scores == (600, -100)
    _hand, problems = read_hand(body, NANKING)
    assert [(p.field, p.rule) for p in problems] == [("calls.2", "P3")]
    _hand, problems = read_hand(body | {"calls": {"2": "Blind"}}, NANKING, BLIND)
    assert [(p.field, p.rule) for p in problems] == [("calls.2", "R9")]
    assert '"blind"' in problems[0].message


# --- properties ------------------------------------------------------------------------------

LAYOUTS = (NANKING, TIENTSIN, threechu(3, 1), threechu(0), threechu(2, 0))


@st.composite
def scored_hands(draw, layout: Layout | None = None):
    """A hand that can be scored: an out-order, calls, card points, maybe a wish penalty."""
    layout = layout or draw(st.sampled_from(LAYOUTS))
    seats = list(range(layout.seats))
    order = draw(st.permutations(seats))
    out = tuple(order[:draw(st.integers(1, layout.seats))])
    offender = None
    if draw(st.integers(0, 5)) == 0:
        offender = draw(st.sampled_from([s for s in seats if s != layout.dummy]))
        out = out[:draw(st.integers(0, len(out)))]
    calls = {}
    for seat in seats:
        call = draw(st.sampled_from([None, None, Call.TICHU, Call.GRAND]))
        if call is Call.GRAND and seat in layout.no_grand_seats:
            call = Call.TICHU
        if call is not None:
            calls[seat] = call
    given = draw(st.integers(-5, 25)) * 5
    points = draw(st.sampled_from([(given, None), (None, given), (given, 100 - given)]))
    return layout, HandInput(out, calls, points, offender)


def rule_book(layout: Layout, hand: HandInput) -> tuple[tuple[int, int], tuple[int, int], bool]:
    """§7 read on its own ([P1]–[P5], [T6.6]): the team scores, card points and sweep."""
    team = layout.team_of
    size, bonus = layout.seats // 2, layout.sweep_bonus
    first = hand.out_order[:size]
    sweep = (hand.wish_offender is None and len(first) == size
             and len({team(s) for s in first}) == 1)
    if hand.wish_offender is not None:
        card = (bonus, 0) if team(hand.wish_offender) == 1 else (0, bonus)
    elif sweep:
        card = (bonus, 0) if team(first[0]) == 0 else (0, bonus)
    else:
        a, b = hand.card_points
        card = (a, 100 - a) if a is not None else (100 - b, b)
    scores = list(card)
    for seat, call in hand.calls.items():
        worth = 100 if call is Call.TICHU else 200
        made = bool(hand.out_order) and hand.out_order[0] == seat
        scores[team(seat)] += worth if made else -worth
    return (scores[0], scores[1]), card, sweep


DEFAULTS = st.sampled_from([RULE_BOOK, HouseRules(), read_house_rules({}),
                            read_house_rules(RULE_BOOK.as_dict())])


@settings(max_examples=300, deadline=None)
@given(scored_hands(), DEFAULTS)
def test_with_the_rule_book_every_hand_scores_as_before(drawn, rules):
    layout, hand = drawn
    result = score_hand(hand, layout, rules)
    assert (result.team_scores, result.card_points, result.sweep) == rule_book(layout, hand)
    assert result == score_hand(hand, layout) and result.victory_points is None
    assert hand_problems(hand, layout, rules) == []


@settings(max_examples=300, deadline=None)
@given(scored_hands(), st.sampled_from([CLUB, TOURNAMENT, HouseRules(victory_points=True)]))
def test_r4_victory_points_sum_to_2_or_3_for_a_sweep(drawn, rules):
    layout, hand = drawn
    result = tally_hand(hand, layout, rules)
    a, b = result.victory_points
    swept = result.sweep or hand.wish_offender is not None
    assert a + b == (3 if swept else 2) and {a, b} <= {0, 1, 2, 3}
    if not swept:  # the team with more points in the hand wins it
        x, y = result.team_scores
        assert (a > b) == (x > y) and (a == b) == (x == y)
    # victory points add to the scoring; they change nothing of it
    plain = tally_hand(hand, layout, HouseRules(double_victory_points=rules.double_victory_points))
    assert result._replace(victory_points=None) == plain


@settings(max_examples=200, deadline=None)
@given(scored_hands(), st.sampled_from([100, 0, 150 - 30, 400]))
def test_r3_changes_only_a_sweep_and_a_wish_penalty(drawn, points):
    layout, hand = drawn
    book = tally_hand(hand, layout)
    house = tally_hand(hand, layout, HouseRules(double_victory_points=points))
    if not (book.sweep or hand.wish_offender is not None):
        assert house == book
    else:
        swing = layout.sweep_bonus * points // 200 - layout.sweep_bonus
        assert sorted(house.card_points) == [0, layout.sweep_bonus + swing]
        assert sum(house.team_scores) == sum(book.team_scores) + swing


# --- the one table of boxes and the presets (`FLAGS`, `PRESETS`) ----------------------------

def test_every_yes_no_or_points_rule_has_one_row_of_the_table():
    """A field of `HouseRules` besides the own calls is a box of `FLAGS` (its row is what
    the forms, the pages, the rematch and the import read), and each row sets one field."""
    settable = [f.name for f in fields(HouseRules) if f.name != "custom_calls"]
    assert sorted(flag.key for flag in FLAGS) == sorted(settable)
    assert len({flag.box for flag in FLAGS}) == len(FLAGS) == len(BY_KEY)


@pytest.mark.parametrize("flag", FLAGS, ids=lambda f: f.box)
def test_each_box_sets_its_rule_reads_back_and_is_named_by_its_id(flag):
    ticked = flag.rules(RULE_BOOK, True)
    assert [k for k in KEYS if getattr(ticked, k) != getattr(RULE_BOOK, k)] == [flag.key]
    assert flag.ticked(ticked) and not flag.ticked(RULE_BOOK)
    assert flag.rules(ticked, False) == RULE_BOOK
    assert read_house_rules({flag.key: flag.on}) == ticked == read_house_rules(ticked.as_dict())
    assert [rule for rule, _m, _v in named_rules(ticked)] == [flag.rule]


def test_a_match_page_names_the_rules_in_the_order_of_their_ids():
    rules = HouseRules(False, 150, True, False, (("blind", 400),), True)
    assert named_rules(rules, lead_by=300) == [
        ("R2", "No Grand Tichu", {}), ("R3", "Double victory worth %(points)s", {"points": 150}),
        ("R4", "Victory points 2 / 1 / 3", {}),
        ("R5", "The Dragon's trick is kept by a player going out with it", {}),
        ("R6", "Ends at a lead of %(lead)s", {"lead": 300}), ("R8", "No wish penalty", {}),
        ("R9", "Call “%(name)s”: %(points)s", {"name": "blind", "points": 400})]


@pytest.mark.parametrize("key", list(PRESETS))
def test_each_preset_is_known_again_with_its_number_of_hands(key):
    preset = PRESETS[key]
    assert preset_of(preset.rules, preset.hands) == key
    assert preset.hint_for(False) == preset.hint and preset.hint_for(True)


def test_the_tournaments_hint_drops_its_four_hands_where_a_game_lasts_hands_of_its_own():
    tournament = PRESETS["tournament"]
    assert tournament.hint_for(False).startswith("4 hands")
    assert not tournament.hint_for(True).startswith("4 hands")
    assert preset_of(tournament.rules, 9) is None  # its rules, but not its four hands
