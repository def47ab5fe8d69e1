"""Reading a hand from API-shaped data: shape errors are problems too, all at once."""

import pytest

from tichu_scorer.scoring import Call, read_hand


@pytest.mark.parametrize("data, fields", [
    ({"out_order": "0,1", "card_points": [50, 50]}, ["out_order"]),
    ({"out_order": [0, "x"], "card_points": [50, 50]}, ["out_order"]),
    ({"out_order": [0, True], "card_points": [50, 50]}, ["out_order"]),
    ({"out_order": [0, 1], "calls": [0], "card_points": [50, 50]}, ["calls"]),
    ({"out_order": [0, 1], "calls": {"x": "tichu"}, "card_points": [50, 50]}, ["calls"]),
    ({"out_order": [0, 1], "calls": {"0": "small"}, "card_points": [50, 50]}, ["calls.0"]),
    ({"out_order": [0, 1], "calls": {"0": ["tichu", "grand"]}, "card_points": [50, 50]},
     ["calls.0"]),
    ({"out_order": [0, 1], "card_points": [50]}, ["card_points"]),
    ({"out_order": [0, 1], "card_points": ["50", None]}, ["card_points.0"]),
    ({"out_order": [0, 1], "card_points": [50, 50], "wish_penalty": {"offender": "0"}},
     ["wish_penalty.offender"]),
    ({"out_order": [0, 1], "card_points": [50, 50], "wish_penalty": 2},
     ["wish_penalty.offender"]),
])
def test_shape_problems_name_the_field(data, fields):
    hand, problems = read_hand(data)
    assert [p.field for p in problems] == fields
    assert all(p.rule and p.message for p in problems)


def test_reads_a_valid_hand():
    hand, problems = read_hand({"out_order": [3, 0], "calls": {"3": "grand", "0": "tichu"},
                                "card_points": [None, 70], "wish_penalty": None})
    assert problems == []
    assert hand.out_order == (3, 0)
    assert hand.calls == {3: Call.GRAND, 0: Call.TICHU}
    assert hand.card_points == (None, 70)


def test_not_an_object():
    assert read_hand([1, 2])[1][0].field == "body"


def test_whole_float_card_points_are_accepted():
    hand, problems = read_hand({"out_order": [0, 1], "card_points": [50.0, None]})
    assert problems == [] and hand.card_points == (50, None)
