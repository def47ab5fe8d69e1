"""`forms.hands`: the hand form (out-order [H7], calls [P3], card points [P1], wish [P4],
bombs [B1]) and Grand Seigneur's ranking [GS1], each problem in its field group with its
rule; what a valid hand hands on (the docs/API.md shape and its extras)."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from tests.forms.common import NAMES, hand, said
from tichu_scorer import forms
from tichu_scorer.models import MOST_BOMBS, NOTE_MAX
from tichu_scorer.scoring import Problem

pytestmark = pytest.mark.one_database  # no database is asked


def test_a_hand_goes_to_scoring_in_the_api_shape_and_its_extras_beside_it(app):
    ok, form = hand(app, {"place_1": "3", "place_2": "0", "place_3": " ", "call_0": "tichu",
                          "call_1": "grand", "card_b": "-25", "wish_offender": "1",
                          "bombs_2": "2", "note": "late"})
    assert ok and said(form) == {}
    assert form.to_api() == {"out_order": [3, 0], "calls": {"0": "tichu", "1": "grand"},
                             "card_points": [None, -25], "wish_penalty": {"offender": 1}}
    assert form.extras() == {"bombs": [0, 0, 2, 0], "note": "late"}


def test_a_stored_hand_fills_the_form_as_it_was_recorded(app):
    recorded = {"out_order": [2, 0, 1], "calls": {"1": "grand"}, "card_points": [None, 30],
                "wish_penalty": {"offender": 3}, "bombs": [0, 2], "note": "redo"}
    with app.test_request_context():
        form = forms.hand_form_class(4)(names=NAMES)
        form.fill(recorded)
        assert form.to_api() == {k: recorded[k] for k in
                                 ("out_order", "calls", "card_points", "wish_penalty")}
        assert form.extras() == {"bombs": [0, 2, 0, 0], "note": "redo"}


@pytest.mark.parametrize("data, group, field, rule, message", [
    ({"place_1": "0", "place_3": "1"}, "out_order", "out_order", "H7",
     "Fill the out-order from first place on, without gaps."),
    ({"place_1": " ", "place_2": "1"}, "out_order", "out_order", "H7",
     "Fill the out-order from first place on, without gaps."),  # a blank is no place
    ({"place_1": "4"}, "out_order", "place_1", "H7", "Not a valid choice."),  # no seat 4
    ({"call_2": "blind"}, "call_2", "call_2", "P3", "Not a valid choice."),
    ({"card_a": "1005"}, "card_points", "card_a", "P1",
     "Number must be between -1000 and 1000."),
    ({"wish_offender": "4"}, "wish", "wish_offender", "P4", "Not a valid choice."),
    ({"bombs_1": str(MOST_BOMBS + 1)}, "extras", "bombs_1", "B1",
     f"Bombs of Bob: a count of 0 to {MOST_BOMBS}."),
    ({"bombs_3": "many"}, "extras", "bombs_3", "B1",
     f"Bombs of Dee: a count of 0 to {MOST_BOMBS}."),
    ({"note": "x" * (NOTE_MAX + 1)}, "extras", "note", "H1",
     f"Field cannot be longer than {NOTE_MAX} characters."),
    # the hand form's refusals through HTTP (tests/views/test_hands.py), each read here
    ({"place_2": "1", "card_a": "50"}, "out_order", "out_order", "H7",
     "Fill the out-order from first place on, without gaps."),
    ({"place_1": "0", "place_2": "9", "card_a": "50"}, "out_order", "place_2", "H7",
     "Not a valid choice."),
    ({"place_1": "0", "place_2": "1", "card_a": "50", "call_2": "both"}, "call_2", "call_2",
     "P3", "Not a valid choice."),
    ({"place_1": "0", "place_2": "1", "card_a": "50", "wish_offender": "7"}, "wish",
     "wish_offender", "P4", "Not a valid choice."),
])
def test_a_hand_form_problem_is_shown_by_its_field_group_with_its_rule(
        app, data, group, field, rule, message):
    ok, form = hand(app, data)
    assert not ok and said(form) == {group: [(field, rule, message)]}


def test_card_points_that_are_no_number_are_refused_with_p1(app):
    ok, form = hand(app, {"place_1": "0", "place_2": "1", "card_a": "lots"})
    assert not ok and said(form) == {"card_points": [
        ("card_a", "P1", "Not a valid integer value."),
        ("card_a", "P1", "Number must be between -1000 and 1000.")]}


@pytest.mark.parametrize("field, values, group, rule", [
    ("place_1", ("0", "2"), "out_order", "H7"),
    ("call_0", ("tichu", "grand"), "call_0", "P3"),
    ("wish_offender", ("", "1"), "wish", "P4"),
])
def test_each_hand_field_sent_twice_is_refused_in_its_group_with_its_rule(app, field, values,
                                                                          group, rule):
    sound = [("place_1", "0"), ("place_2", "1"), ("card_a", "50")]
    data = MultiDict([(k, v) for k, v in sound if k != field]
                     + [(field, value) for value in values])
    ok, form = hand(app, data)
    assert not ok and said(form) == {group: [
        (field, rule, f"The field “{field}” was sent more than once; send one value.")]}


def test_a_hand_field_sent_twice_says_so_even_for_bombs(app):
    ok, form = hand(app, MultiDict([("card_a", "50"), ("card_a", "30"),
                                    ("bombs_0", "1"), ("bombs_0", "2")]))
    assert not ok and said(form) == {
        "card_points": [("card_a", "P1",
                         "The field “card_a” was sent more than once; send one value.")],
        "extras": [("bombs_0", "B1",
                    "The field “bombs_0” was sent more than once; send one value.")]}


def test_a_matchs_own_calls_are_offered_beside_the_rule_books(app):
    ok, form = hand(app, {"call_0": "blind", "call_1": "tichu"}, calls=(("blind", 400),))
    assert ok and form.to_api()["calls"] == {"0": "blind", "1": "tichu"}
    ok, form = hand(app, {"call_0": "blind"})
    assert not ok and list(said(form)) == ["call_0"]


def test_a_six_seat_hand_form_has_a_place_call_and_bombs_per_seat(app):
    names = ("A1", "B1", "A2", "B2", "A3", "B3")
    ok, form = hand(app, {"place_1": "5", "place_2": "3", "call_5": "tichu"}, seats=6,
                    names=names)
    assert ok and form.to_api()["out_order"] == [5, 3]
    assert len(form.place_fields()) == len(form.call_fields()) == len(form.bomb_fields()) == 6


def test_problems_from_scoring_are_attached_to_their_groups_once(app):
    with app.test_request_context():
        form = forms.hand_form_class(4)(names=NAMES)
        found = [Problem("calls.2", "P3", "a"), Problem("card_points.0", "P1", "b"),
                 Problem("wish_penalty.offender", "P4", "c"), Problem("out_order", "H7", "d"),
                 Problem("match", "E1", "e")]
        form.attach(found)
        form.attach(found[:1])  # the same problem again
        assert dict(form.problems) == {"call_2": [found[0]], "card_points": [found[1]],
                                       "wish": [found[2]], "out_order": [found[3]],
                                       "match": [found[4]]}


def test_grand_seigneurs_form_asks_the_finishing_order_only(app):
    five = ("A", "B", "C", "D", "E")
    with app.test_request_context(method="POST", data={"place_1": "2", "place_2": "0"}):
        form = forms.ranking_form_class(5)(names=five)
        assert form.validate()
        assert (form.to_api(), form.extras()) == ({"out_order": [2, 0]}, {})
    with app.test_request_context(method="POST", data={"place_1": "5"}):  # no seat 5
        form = forms.ranking_form_class(5)(names=five)
        assert not form.validate()
        assert said(form) == {"out_order": [("place_1", "GS1", "Not a valid choice.")]}
