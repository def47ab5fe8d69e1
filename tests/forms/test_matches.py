"""`forms.matches`: the new-match form (players [H1], target [E1], Threechu's hands
[T3.5], house rules [R1] [R6] [R7] [R9], presets) and the settings form; `same_player`."""

from __future__ import annotations

import pytest
from babel.support import Translations
from werkzeug.datastructures import MultiDict
from wtforms.i18n import messages_path

from tests.forms.common import FOUR, LEAD, NAMES, SAME, THREECHU, new_match, said, settings
from tichu_scorer import forms
from tichu_scorer.game import variants
from tichu_scorer.game.house import PRESETS, RULE_BOOK, HouseRules
from tichu_scorer.models import NAME_MAX
from tichu_scorer.scoring import Problem

pytestmark = pytest.mark.one_database  # no database is asked


def test_a_new_match_of_four_to_1000_by_the_rule_book(app):
    ok, form = new_match(app, FOUR | {"table": "new", "target": "1000"})
    assert ok and said(form) == {}
    assert form.names == list(NAMES) and form.game is variants.NANKING
    assert (form.target_value, form.hand_limit, form.lead_value) == (1000, None, None)
    assert form.house_rules == RULE_BOOK


def test_names_are_tidied_and_empty_seats_skipped(app):
    ok, form = new_match(app, {"table": "new", "seat_0": "  Ann   Lee ", "seat_1": "",
                               "seat_2": "Bob", "seat_3": "Cy", "seat_4": "Dee"})
    assert ok and form.names == ["Ann Lee", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("data, need, given, rule", [
    ({"seat_0": "Ann"}, "4", 1, "H1"),
    (FOUR | {"seat_4": "Eve"}, "4", 5, "H1"),
    (FOUR | {"variant": "tientsin"}, "6", 4, "T6.1"),
    (FOUR | {"variant": "seigneur"}, "5–12", 4, "GS1"),
    ({"seat_0": "Ann", "seat_1": "Bob", "variant": "threechu"}, "3", 2, "T3.1"),
])
def test_the_number_of_players_is_the_games_citing_its_rule(app, data, need, given, rule):
    ok, form = new_match(app, data | {"table": "new"})
    assert not ok
    assert said(form) == {"players": [("players", rule, f"This game needs {need} players; "
                                                        f"{given} names were given.")]}


@pytest.mark.parametrize("data, problems", [
    # the new-match refusals once made through HTTP (tests/views/test_matches.py)
    ({"seat_2": ""}, {"players": [("players", "H1", "This game needs 4 players; 3 names "
                                                    "were given.")]}),
    ({"seat_2": "ann"}, {"players": [("players", "H1", SAME.format("Ann", "ann"))]}),
    ({"seat_1": "Bob  Ray", "seat_3": "bob ray"},
     {"players": [("players", "H1", SAME.format("Bob Ray", "bob ray"))]}),
    ({"seat_0": "A" * 41}, {"players": [("seat_0", "H1", "Field cannot be longer than 40 "
                                                         "characters.")]}),
    ({"target": "custom", "custom_target": "abc"},
     {"target": [("custom_target", "E1", "Not a valid integer value.")]}),
    ({"target": "custom", "custom_target": "1234"},
     {"target": [("custom_target", "E1", "The target must be a multiple of 50.")]}),
    ({"target": "7"}, {"target": [("target", "E1", "Not a valid choice.")]}),
])
def test_new_match_refusals_name_the_field_and_rule(app, data, problems):
    ok, form = new_match(app, FOUR | {"table": "new"} | data)
    assert not ok and said(form) == problems


def test_one_player_in_two_seats_is_refused_whatever_the_capitals(app):
    ok, form = new_match(app, FOUR | {"table": "new", "seat_3": " ANN "})
    assert not ok
    assert said(form) == {"players": [("players", "H1", SAME.format("Ann", "ANN"))]}


@pytest.mark.parametrize("data, field, message", [
    ({"target": "custom"}, "custom_target", "Enter the custom target score."),
    ({"target": "custom", "custom_target": "75"}, "custom_target",
     "The target must be a multiple of 50."),
    ({"target": "custom", "custom_target": "20000"}, "custom_target",
     "The target must lie between 50 and 10000."),
    ({"target": "750"}, "target", "Not a valid choice."),  # 1000, 500 or a custom one
])
def test_a_target_the_game_cannot_play_to_is_refused_with_e1(app, data, field, message):
    ok, form = new_match(app, FOUR | {"table": "new"} | data)
    assert not ok and said(form) == {"target": [(field, "E1", message)]}


def test_a_custom_target_is_the_matchs(app):
    ok, form = new_match(app, FOUR | {"table": "new", "target": "custom",
                                      "custom_target": "1500"})
    assert ok and form.target_value == 1500


def test_threechu_lasts_a_multiple_of_three_hands_or_plays_to_a_target(app):
    ok, form = new_match(app, THREECHU | {"table": "new", "hands": "12"})
    assert ok and (form.hand_limit, form.target_value) == (12, None)
    ok, form = new_match(app, THREECHU | {"table": "new", "hands": "10"})
    assert not ok and said(form) == {"target": [(
        "hands", "T3.5", "The number of hands must be a multiple of 3, so everyone shuffles "
        "equally often.")]}
    ok, form = new_match(app, THREECHU | {"table": "new", "length": "target", "target": "500",
                                          "hands": "10"})
    assert ok and (form.hand_limit, form.target_value) == (None, 500)


def test_grand_seigneur_plays_no_target_and_no_number_of_hands(app):
    five = FOUR | {"seat_4": "Eve", "variant": "seigneur", "target": "custom"}
    ok, form = new_match(app, five | {"table": "new"})  # the custom target is not asked
    assert ok and (form.target_value, form.hand_limit) == (None, None)


@pytest.mark.parametrize("data, group, field, rule", [
    ({"table": "elsewhere"}, "table", "table", "H1"),  # not one of this phone's tables
    ({"table": "new", "table_name": "x" * (NAME_MAX + 1)}, "table", "table_name", "H1"),
    ({"table": "new", "variant": "bridge"}, "variant", "variant", "H1"),
    ({"table": "new", "seat_1": "x" * (NAME_MAX + 1)}, "players", "seat_1", "H1"),
    ({"table": "new", "house": "casino"}, "house", "house", "R1"),
    ({"table": "new", "house": "own", "lead_by": "lots"}, "house", "lead_by", "R6"),
    ({"table": "new", "house": "own", "fixed_hands": "ten"}, "house", "fixed_hands", "R7"),
])
def test_a_malformed_field_is_a_problem_of_its_group_with_its_rule(app, data, group, field,
                                                                     rule):
    ok, form = new_match(app, FOUR | data)
    assert not ok and [(g, f, r) for g, problems in said(form).items()
                       for f, r, _m in problems] == [(group, field, rule)]


def test_a_field_sent_twice_is_refused_not_read_as_its_first_value(app):
    data = MultiDict([*FOUR.items(), ("table", "new"), ("target", "500"), ("target", "1000")])
    ok, form = new_match(app, data)
    assert not ok and said(form) == {"target": [(
        "target", "E1", "The field “target” was sent more than once; send one value.")]}


def test_a_preset_brings_its_rules_and_the_tournaments_four_hands(app):
    ok, form = new_match(app, FOUR | {"table": "new", "house": "tournament",
                                      "lead_by": "300", "fixed_hands": "8"})
    assert ok and form.house_rules == PRESETS["tournament"][1]
    # [R7]: the preset's number of hands, no target; a lead is the match's own set only
    assert (form.hand_limit, form.target_value, form.lead_value) == (4, None, None)


def test_a_matchs_own_rules_are_read_from_its_boxes(app):
    ok, form = new_match(app, FOUR | {
        "table": "new", "house": "own", "no_grand": "y", "double_100": "y",
        "victory_points": "y", "dragon_kept": "y", "no_wish": "y", "lead_by": "300",
        "fixed_hands": "8", "custom_calls": "blind = 400, Small: 50"})
    assert ok and form.house_rules == HouseRules(
        grand_tichu=False, double_victory_points=100, victory_points=True,
        wish_penalty=False, custom_calls=(("blind", 400), ("Small", 50)),
        dragon_kept_when_out=True)
    assert (form.lead_value, form.hand_limit, form.target_value) == (300, 8, None)


def test_own_rules_no_table_plays_are_refused_each_with_its_rule(app):
    ok, form = new_match(app, FOUR | {"table": "new", "house": "own", "lead_by": "75",
                                      "fixed_hands": "100", "custom_calls": "blind"})
    assert not ok and said(form) == {"house": [
        ("lead_by", "R6", LEAD),
        ("custom_calls", "R9", "Own calls: write each as a name, “=” and its points, "
                               "separated by commas: “blind = 400, small = 50”."),
        ("fixed_hands", "R7", "A match lasts 1 to 99 hands.")]}


EXAMPLE = "Write them as “blind = 400, small = 50”."


@pytest.mark.parametrize("typed, message", [
    # each once refused through HTTP (tests/views/test_house_calls.py)
    ("blind", "Own calls: write each as a name, “=” and its points, separated by commas: "
              "“blind = 400, small = 50”."),
    ("= 400", "Own calls: write each as a name, “=” and its points, separated by commas: "
              "“blind = 400, small = 50”."),
    ("blind = 401", f"Own calls: must be a multiple of 5 from 5 to 1000. {EXAMPLE}"),
    ("tichu = 300", "Own calls: \"tichu\" and \"grand\" are the rule book's calls; give a "
                    f"custom call another name. {EXAMPLE}"),
    ("blind = 50, blind = 100", f"Own calls: names a call more than once. {EXAMPLE}"),
    ("blind = 50, BLIND = 50", f"Own calls: names a call more than once. {EXAMPLE}"),
    ("blind = lots", f"Own calls: must be a whole number. {EXAMPLE}"),
    (", ".join(f"{c} = 100" for c in "abcdefghi"), f"Own calls: may name at most 8 calls. "
                                                   f"{EXAMPLE}"),
])
def test_own_calls_no_table_can_play_are_refused_with_r9(app, typed, message):
    ok, form = new_match(app, FOUR | {"table": "new", "target": "1000", "house": "own",
                                      "custom_calls": typed})
    assert not ok and said(form) == {"house": [("custom_calls", "R9", message)]}


def test_a_lead_ends_only_a_match_of_two_teams(app):
    ok, form = new_match(app, THREECHU | {"table": "new", "house": "own", "lead_by": "300"})
    assert not ok and said(form) == {"house": [(
        "lead_by", "R6", "A lead ends a match of two teams; Threechu keeps a total per "
        "player.")]}


def test_an_own_call_named_like_the_rule_books_is_refused_with_r9(app):
    ok, form = new_match(app, FOUR | {"table": "new", "house": "own",
                                      "custom_calls": "tichu = 300"})
    assert not ok and said(form) == {"house": [(
        "custom_calls", "R9", "Own calls: \"tichu\" and \"grand\" are the rule book's calls; "
        "give a custom call another name. Write them as “blind = 400, small = 50”.")]}


def test_wtforms_own_messages_are_in_the_readers_language(app):
    german = Translations.load(messages_path(), ["de"], domain="wtforms")
    with app.test_request_context(method="POST", headers={"Accept-Language": "de"},
                                  data=FOUR | {"table": "new", "target": "custom",
                                               "custom_target": "viele"}):
        form = forms.NewMatchForm()
        form.table.choices = [("new", "new")]
        assert not form.validate()
    message = german.gettext("Not a valid integer value.")
    assert message != "Not a valid integer value."  # the catalogue has it in German
    assert said(form) == {"target": [("custom_target", "E1", message)]}


def test_settings_take_a_target_and_a_name_in_every_seat(app):
    ok, form = settings(app, FOUR | {"target": "1500", "seat_1": " Bob   Lee "})
    assert ok and said(form) == {}
    assert form.names == ["Ann", "Bob Lee", "Cy", "Dee"] and form.target.data == 1500


@pytest.mark.parametrize("data, problems", [
    (FOUR | {"target": "1525"}, {"target": [("target", "E1",
                                              "The target must be a multiple of 50.")]}),
    (FOUR, {"target": [("target", "E1", "The target must be a whole number.")]}),
    (FOUR | {"target": "500", "seat_2": "  "},
     {"players": [("players", "H1", "Every seat needs a name.")]}),
    (FOUR | {"target": "500", "seat_2": "bob"},
     {"players": [("players", "H1", SAME.format("Bob", "bob"))]}),
    (FOUR | {"target": "500", "lead_by": "120"}, {"house": [("lead_by", "R6", LEAD)]}),
])
def test_settings_refusals_name_the_field_and_rule(app, data, problems):
    ok, form = settings(app, data)
    assert not ok and said(form) == problems


def test_a_match_of_a_number_of_hands_needs_no_target(app):
    ok, _form = settings(app, FOUR, hand_limit=4)
    assert ok
    three = {"seat_0": "A", "seat_1": "B", "seat_2": "C", "lead_by": "300"}
    ok, form = settings(app, three, seats=3, game=variants.THREECHU, hand_limit=9)
    assert not ok and [p[:2] for p in said(form)["house"]] == [("lead_by", "R6")]


def test_grand_seigneur_settings_ask_only_the_names(app):
    five = FOUR | {"seat_4": "Eve", "lead_by": "7", "custom_calls": "nonsense"}
    ok, form = settings(app, five, seats=5, game=variants.SEIGNEUR)
    assert ok and form.names == [*NAMES, "Eve"]


def test_the_boxes_show_a_matchs_rules_and_read_them_back(app):
    rules = HouseRules(grand_tichu=False, victory_points=True, wish_penalty=False,
                       custom_calls=(("blind", 400),))
    with app.test_request_context():
        form = forms.MatchSettingsForm(seats=4)
        form.show_rules(rules, 500)
        assert form.custom_calls.data == "blind = 400" and form.lead_by.data == 500
        assert form.no_grand.data and form.no_wish.data and not form.double_100.data
        assert form.own_rules() == rules
        form.custom_calls.data = "blind"  # cannot be read: no own calls
        assert form.own_rules() == HouseRules(grand_tichu=False, victory_points=True,
                                              wish_penalty=False)


LONG_CALLS = ", ".join(f"{c * 30} = 50" for c in "abcdefg")  # seven sound calls, 265 long
TOO_LONG = ("custom_calls", "R9", "Own calls: at most 200 characters; shorten their names.")


def test_over_long_own_calls_are_a_house_problem_citing_r9(app):
    """The group a page shows ("house"), not one of the field's own citing P5 (a 422 with
    no reason shown)."""
    assert len(LONG_CALLS) > forms.OWN_CALLS_LENGTH == 200
    ok, form = new_match(app, FOUR | {"table": "new", "house": "own",
                                      "custom_calls": LONG_CALLS})
    assert not ok and said(form) == {"house": [TOO_LONG]}
    five = LONG_CALLS[:200].rsplit(",", 1)[0]  # the calls that fit
    ok, form = new_match(app, FOUR | {"table": "new", "house": "own", "custom_calls": five})
    assert ok and len(form.house_rules.custom_calls) == 5


def test_over_long_own_calls_in_the_settings_are_a_house_problem_citing_r9(app):
    ok, form = settings(app, FOUR | {"target": "1000", "custom_calls": LONG_CALLS})
    assert not ok and said(form) == {"house": [TOO_LONG]}
    nine = ", ".join(f"{c * 20} = 50" for c in "abcdefghi")  # too long and too many
    ok, form = settings(app, FOUR | {"target": "1000", "custom_calls": nine})
    assert not ok and said(form) == {"house": [TOO_LONG]}  # said once


def test_same_player_names_the_first_two_seats_of_one_player(app):
    with app.test_request_context():
        assert forms.same_player(["Ann", "Bob", "", ""]) is None  # empty seats are no one
        twice = forms.same_player(["Ann Lee", "Bob", "ann lee", "ANN LEE"])
    assert twice == Problem("players", "H1", SAME.format("Ann Lee", "ann lee"))
