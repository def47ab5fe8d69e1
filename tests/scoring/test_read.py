"""Reading a hand from API-shaped data: shape errors are problems too, all at once; what
POST /api/v1/score reads (`read_layout`, then `read_hand`), odd shapes, seat keys and huge
numbers included; and the hand form's hands that scoring refuses."""

import json

import pytest

from tichu_scorer.scoring import Call, Problem, read_hand, read_layout


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


# --- what the API reads: the variant and dummy, then the hand (POST /api/v1/score; through
# HTTP once each in tests/views/test_api_score.py and test_input_edges.py) ------------------

def api_problems(body) -> list[Problem]:
    """The problems POST /api/v1/score answers with a 422: the seating's, else the hand's."""
    layout, problems = read_layout(body)
    return problems if layout is None else read_hand(body, layout)[1]


@pytest.mark.parametrize("body, found", [
    ({"out_order": None}, [("out_order", "H7"), ("card_points", "P1")]),
    ({"out_order": {"0": 1}}, [("out_order", "H7"), ("card_points", "P1")]),
    ({"calls": "tichu", "out_order": [0]}, [("calls", "P3"), ("card_points", "P1")]),
    ({"out_order": [0], "card_points": "50"}, [("card_points", "P1")]),
    ({"out_order": [0], "card_points": [1.5, None]}, [("card_points.0", "P1")]),
    ({"out_order": [0], "card_points": [None, None], "wish_penalty": []},
     [("wish_penalty.offender", "P4"), ("card_points", "P1")]),
    ({"variant": "tichu-x", "out_order": [0]}, [("variant", "H1")]),
    ({"variant": ["nanking"]}, [("variant", "H1")]),
    ({"out_order": [10 ** 30], "card_points": [10 ** 30, None]},
     [("out_order", "H1"), ("card_points.0", "P1")]),
])
def test_odd_shapes_are_problems_naming_the_field_never_an_exception(body, found):
    problems = api_problems(body)
    assert [(p.field, p.rule) for p in problems] == found
    assert all(p.message for p in problems)


@pytest.mark.parametrize("dummy", [None, 4, "2", True])
def test_threechu_needs_the_dummys_seat(dummy):
    body = {"variant": "threechu", "out_order": [1, 3]} | (
        {} if dummy is None else {"dummy": dummy})
    assert [(p.field, p.rule) for p in api_problems(body)] == [("dummy", "T3.1")]


@pytest.mark.parametrize("seat", [2, 0])
def test_threechu_no_grand_for_the_shuffler_or_the_dummy(seat):
    body = {"variant": "threechu", "dummy": 2, "out_order": [1, 3], "calls": {str(seat): "grand"}}
    assert [(p.field, p.rule) for p in api_problems(body)] == [(f"calls.{seat}", "T3.3")]


@pytest.mark.parametrize("key", ["00", " 0", "0 ", "+0", "-0", "01", "0.0", "٠", "1e0"])
def test_only_canonical_seat_keys_are_calls(key):
    [problem] = api_problems({"out_order": [0, 1], "calls": {key: "tichu"},
                              "card_points": [50, None]})
    assert (problem.field, problem.rule) == ("calls", "P3")
    assert repr(key) in problem.message and '"0"' in problem.message


@pytest.mark.parametrize("value", [["tichu", "tichu"], ["tichu"], ["tichu", "grand"], []])
def test_a_call_given_as_a_list_says_one_call_is_expected(value):
    [problem] = api_problems({"out_order": [0, 1], "calls": {"0": value},
                              "card_points": [50, None]})
    assert (problem.field, problem.rule) == ("calls.0", "P3")
    assert "not a list" in problem.message and '"tichu" or "grand"' in problem.message
    assert "both" not in problem.message


HUGE = "9" * 400
# JSON texts whose numbers are huge or not finite, each with the field to blame
HUGE_NUMBERS = [
    ('{"out_order": [0, 1], "card_points": [1e308, null]}', "card_points.0"),
    ('{"out_order": [0, 1], "card_points": [null, -1e308]}', "card_points.1"),
    ('{"out_order": [0, 1], "card_points": [%s, null]}' % HUGE, "card_points.0"),
    ('{"out_order": [0, 1], "card_points": [1e999, null]}', "card_points.0"),
    ('{"out_order": [0, 1], "card_points": [1.5e300, 100]}', "card_points.0"),
    ('{"out_order": [0, %s], "card_points": [50, null]}' % HUGE, "out_order"),
    ('{"out_order": [0, 1e308], "card_points": [50, null]}', "out_order"),
    ('{"out_order": [0, 1], "wish_penalty": {"offender": %s}}' % HUGE, "wish_penalty.offender"),
    ('{"out_order": [0, 1], "calls": {"0": %s}}' % HUGE, "calls.0"),
    ('{"out_order": [0, 1], "calls": {"0": "%s"}}' % HUGE, "calls.0"),
]


def short_messages(problems, field) -> None:
    """The field is named, each message is short and quotes no huge number back, and card
    points say their range."""
    assert field in {p.field for p in problems}
    for p in problems:
        assert len(p.message) < 160 and "9" * 22 not in p.message, p
        assert "10000000000000000000" not in p.message
        if p.field == field and field.startswith("card_points"):
            assert "-25" in p.message and "125" in p.message


@pytest.mark.parametrize("raw, field", HUGE_NUMBERS)
def test_huge_numbers_get_a_short_message(raw, field):
    short_messages(api_problems(json.loads(raw)), field)


@pytest.mark.parametrize("data, found", [
    # the hand form's refusals scoring makes, in the shape the form hands on (forms.py's
    # to_api; through HTTP once in tests/views/test_hands.py)
    ({"card_points": [33, None]}, [("card_points.0", "P1")]),
    ({"card_points": [50, 45]}, [("card_points", "P1")]),
    ({"card_points": [130, None]}, [("card_points.0", "P1")]),
    ({"card_points": [None, None]}, [("card_points", "P1")]),
    ({"out_order": [], "card_points": [50, None]}, [("out_order", "H7")]),
    ({"out_order": [0, 0], "card_points": [50, None]}, [("out_order", "H7")]),
])
def test_the_hand_forms_hands_are_refused_with_the_rule(data, found):
    form = {"out_order": [0, 1], "calls": {}, "wish_penalty": None} | data
    assert [(p.field, p.rule) for p in read_hand(form)[1]] == found


def test_calls_and_card_points_sent_as_null_are_none_given():
    """null is as if the field were left out: no calls, and card points not given (then
    the rule of one team's points [P1] says what is missing, not the field's shape)."""
    hand, problems = read_hand({"out_order": [0, 1], "calls": None, "card_points": None})
    assert [(p.field, p.rule) for p in problems] == [("card_points", "P1")]
    assert read_hand({"out_order": [0, 1], "card_points": [None, None]})[1] == problems
    assert hand.calls == {}
