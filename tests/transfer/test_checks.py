"""`transfer.checks`, called directly: where in a file a problem is (`Spot`, `refuse`), dates
and times (`parse_time`), whole numbers in range (`whole`), what a log entry's `before`
and `after` may hold for a match of N seats (`entry_problem`, which the log page asks
too), and an imported log checked entry by entry (`check_log`): each refusal names the
match, the entry and the field; what is accepted comes back cleaned. No app, no HTTP."""

from __future__ import annotations

from datetime import datetime

import pytest

from tichu_scorer.clock import utcnow
from tichu_scorer.game.house import RULE_BOOK, HouseRules
from tichu_scorer.models import MOST_BOMBS, NAME_MAX, NOTE_MAX, Hand, HandEvent
from tichu_scorer.transfer import checks
from tichu_scorer.transfer.checks import ImportError_, Spot, check_log, entry_problem

pytestmark = pytest.mark.one_database  # no database is asked

SEATS = "0–3"  # the seats of a four-player match, as the messages name them
ORDER = f"must be a list of different seats {SEATS}."
CALLS = f'must map seats {SEATS} to "tichu" or "grand". (P3)'
# a match with its own call ([R9]): the words its house rules define
BLIND = HouseRules(custom_calls=(("blind", 400),))
OWN_CALLS = (f'must map seats {SEATS} to "tichu", "grand" or one of this match\'s calls '
             '("blind"). (R9)')
POINTS = "must be a list of two numbers from -1000 to 1000 or null."
BOMBS = f"must be a list of at most 4 counts from 0 to {MOST_BOMBS}."
NOTE = f"must be text of at most {NOTE_MAX} characters."
WISH = f'must be null or {{"offender": seat}} with a seat {SEATS}.'
# a hand as `Hand.recorded()` logs it, with the points as counted (an edit's entry)
RECORDED = {"out_order": [1, 2, 0], "calls": {"1": "tichu", "3": "grand"},
            "card_points": [None, 60], "counted_points": [40, 60],
            "wish_penalty": {"offender": 0}, "bombs": [0, 1, 0, 0], "note": "close one"}


def refused(call, *args):
    with pytest.raises(ImportError_) as caught:
        call(*args)
    return str(caught.value)


# ------------------------------------------------------------------------------ where


def test_a_spot_names_the_match_and_the_hand_or_log_entry_in_it():
    assert str(Spot(3)) == "match 3"
    assert str(Spot(3, hand=12)) == "match 3, hand 12"
    assert str(Spot(3, entry=4)) == "match 3, log entry 4"


def test_refuse_is_an_import_error_naming_where():
    error = checks.refuse(Spot(2, hand=5), "calls must name a seat.")
    assert isinstance(error, ImportError_) and isinstance(error, ValueError)
    assert str(error) == "match 2, hand 5: calls must name a seat."


# ------------------------------------------------------------------------------ times


def parse(value, where=None):
    return checks.parse_time(value, where or Spot(1), "started_at")


def test_parse_time_takes_an_iso_time_and_stores_one_with_a_zone_as_utc():
    assert parse(None) is None
    assert parse("") is None
    assert parse("2024-03-01T20:05:00") == datetime(2024, 3, 1, 20, 5)
    assert parse("2024-03-01") == datetime(2024, 3, 1)
    at = parse("2024-03-01T01:30:00+02:00")
    assert at == datetime(2024, 2, 29, 23, 30) and at.tzinfo is None  # the day before, UTC
    assert parse("2024-03-01T20:05:00Z") == datetime(2024, 3, 1, 20, 5)
    # the calendar's ends, in UTC too
    assert parse("0001-01-01T00:00:00-01:00") == datetime(1, 1, 1, 1)
    assert parse("9999-12-31T23:59:59+01:00") == datetime(9999, 12, 31, 22, 59, 59)


@pytest.mark.parametrize("value, shown", [
    ("2024-02-30T10:00:00", "'2024-02-30T10:00:00'"),
    ("yesterday", "'yesterday'"),
    (1709323200, "1709323200"),  # a Unix time is no ISO date
    (["2024-03-01"], "['2024-03-01']"),
])
def test_parse_time_refuses_what_is_no_date_and_time_naming_where_and_the_field(value, shown):
    assert refused(checks.parse_time, value, Spot(4, hand=2), "created_at") == (
        f"match 4, hand 2: created_at {shown} is not a date and time.")


def test_parse_time_shows_at_most_forty_characters_of_what_it_refuses():
    message = refused(checks.parse_time, "x" * 500, Spot(1), "started_at")
    assert message == f"match 1: started_at {repr('x' * 500)[:40]} is not a date and time."


# ------------------------------------------------------------------------------ numbers


def test_whole_is_an_int_in_range_never_a_bool_or_a_float():
    assert checks.whole(1) and checks.whole(checks.DB_INT_MAX)
    assert not checks.whole(0)  # from 1 unless told
    assert not checks.whole(checks.DB_INT_MAX + 1)  # PostgreSQL's integer
    assert checks.DB_INT_MAX == 2**31 - 1
    assert checks.whole(0, 0) and checks.whole(-5, -5, 5) and not checks.whole(6, -5, 5)
    assert not checks.whole(True) and not checks.whole(False, 0)
    assert not checks.whole(1.0) and not checks.whole("1") and not checks.whole(None)


# ------------------------------------------------------------------------------ entries


def test_a_sound_hand_entry_or_settings_entry_has_no_problem():
    assert entry_problem("edited", RECORDED, RECORDED | {"out_order": [3, 1]}, 4) is None
    assert entry_problem("added", None, RECORDED, 4) is None
    assert entry_problem("deleted", RECORDED, None, 4) is None
    assert entry_problem("edited", {}, {}, 4) is None  # an older version logged less
    assert entry_problem("settings", {"target": 1000, "names": ["Ann", "Bob"]},
                         {"target": None, "names": ["A" * NAME_MAX]}, 4) is None


@pytest.mark.parametrize("field, value, message", [
    ("out_order", [0, 9], ORDER),  # no seat 9
    ("out_order", [0, 4], ORDER),  # seats count from 0
    ("out_order", [0, 0], ORDER),  # out twice
    ("out_order", "0123", ORDER),
    ("out_order", [True], ORDER),
    ("out_order", [-1], ORDER),
    ("calls", {"4": "tichu"}, CALLS),
    ("calls", {"x": "tichu"}, CALLS),
    ("calls", {"٣": "tichu"}, CALLS),  # an Arabic-Indic three: a digit, not a seat
    ("calls", {"0": ["tichu"]}, CALLS),
    ("calls", {"0": 100}, CALLS),
    ("calls", ["tichu"], CALLS),
    ("card_points", "50", POINTS),
    ("card_points", [50, 50, 0], POINTS),
    ("card_points", [1005, -905], POINTS),
    ("card_points", [50.0, 50], POINTS),
    ("counted_points", [10**6, 0], POINTS),
    ("bombs", [0, MOST_BOMBS + 1], BOMBS),
    ("bombs", [0, 0, 0, 0, 0], BOMBS),  # one count per seat
    ("bombs", [-1], BOMBS),
    ("bombs", 2, BOMBS),
    ("note", "x" * (NOTE_MAX + 1), NOTE),
    ("note", ["x"], NOTE),
    ("wish_penalty", 2, WISH),
    ("wish_penalty", {"offender": 4}, WISH),
    ("wish_penalty", {"offender": "2"}, WISH),
])
def test_a_hand_entry_names_the_first_field_the_log_could_not_read(field, value, message):
    assert entry_problem("edited", RECORDED | {field: value}, RECORDED, 4) == (
        f"before.{field}", message)
    assert entry_problem("added", None, RECORDED | {field: value}, 4) == (
        f"after.{field}", message)


@pytest.mark.parametrize("field, value", [
    ("out_order", []), ("out_order", [3, 2, 1, 0]), ("calls", None), ("calls", {"3": "grand"}),
    ("card_points", [-1000, 1000]), ("card_points", [None, None]), ("card_points", None),
    ("bombs", [MOST_BOMBS, 0, 0, 0]), ("bombs", None), ("note", "x" * NOTE_MAX),
    ("note", None), ("wish_penalty", None), ("wish_penalty", {"offender": 3}),
    ("wish_penalty", {"offender": None}),
])
def test_a_hand_entry_takes_each_field_at_its_limits(field, value):
    assert entry_problem("edited", RECORDED | {field: value}, RECORDED, 4) is None


def test_seats_are_those_of_the_match():
    six = {"out_order": [5, 4, 3], "calls": {"5": "tichu"}, "bombs": [0] * 6,
           "wish_penalty": {"offender": 5}}
    assert entry_problem("edited", six, six, 6) is None  # Tientsin
    assert entry_problem("edited", six, six, 4) == ("before.out_order", ORDER)
    assert entry_problem("added", None, {"calls": {"5": "tichu"}}, 6) is None
    assert entry_problem("added", None, {"calls": {"5": "tichu"}}, 4) == ("after.calls", CALLS)


def test_the_first_problem_is_named_before_then_after_field_by_field():
    both = {"out_order": [7], "calls": {"9": "tichu"}}
    assert entry_problem("edited", both, both, 4) == ("before.out_order", ORDER)
    assert entry_problem("edited", RECORDED, both, 4) == ("after.out_order", ORDER)
    assert entry_problem("edited", RECORDED | {"calls": {"9": "tichu"}, "note": 5},
                         RECORDED, 4) == ("before.calls", CALLS)


@pytest.mark.parametrize("part", [["out_order"], "text", 7])
def test_before_or_after_must_be_an_object_or_null(part):
    assert entry_problem("edited", part, RECORDED, 4) == ("before", "must be an object or null.")
    assert entry_problem("settings", None, part, 4) == ("after", "must be an object or null.")


@pytest.mark.parametrize("before, problem", [
    ({"target": "1000"}, ("before.target", "must be a whole number or null.")),
    ({"target": -50}, ("before.target", "must be a whole number or null.")),
    ({"target": True}, ("before.target", "must be a whole number or null.")),
    ({"names": "Ann"}, ("before.names", "must be a list of at most 4 names of at most "
                                        f"{NAME_MAX} characters.")),
    ({"names": ["A"] * 5}, ("before.names", "must be a list of at most 4 names of at most "
                                            f"{NAME_MAX} characters.")),
    ({"names": [["Ann"]]}, ("before.names", "must be a list of at most 4 names of at most "
                                            f"{NAME_MAX} characters.")),
    ({"names": ["A" * (NAME_MAX + 1)]}, ("before.names", "must be a list of at most 4 names "
                                                         f"of at most {NAME_MAX} characters.")),
])
def test_a_settings_entry_names_its_target_or_names_when_the_log_could_not_read_them(
        before, problem):
    assert entry_problem("settings", before, {"target": 500, "names": []}, 4) == problem


def test_each_action_is_read_as_its_kind_of_entry():
    """A change of settings holds no hand, and a hand no settings: each is checked for what
    the log page says of it."""
    odd_hand = {"out_order": "anything", "target": 500, "names": ["Ann"]}
    assert entry_problem("settings", odd_hand, odd_hand, 4) is None
    odd_settings = {"target": "x", "names": 5, **RECORDED}
    assert entry_problem("edited", odd_settings, odd_settings, 4) is None
    assert entry_problem("settings", odd_settings, None, 4) == (
        "before.target", "must be a whole number or null.")


# ------------------------------------------------------------------------------ the log

HANDS = {1: Hand(number=1), 3: Hand(number=3)}  # the hands of the match, by number


def entry(**fields):
    return {"action": "added", "hand_number": 1, "position": 1, "summary": ""} | fields


def log_refusal(events, seats=4, match=2):
    return refused(check_log, events, HANDS, Spot(match), seats)


def test_a_sound_log_comes_back_cleaned_with_the_hands_it_names():
    events = [entry(after=RECORDED, at="2024-03-01T21:00:00+01:00", phone="  Bob \u200b "),
              entry(action="edited", hand_number=3, position=2, before=RECORDED,
                    after=RECORDED | {"out_order": [2, 1]}, summary="hand 2 edited",
                    at="2024-03-01T20:10:00"),
              {"action": "settings", "position": 0, "before": {"target": 1000, "names": []},
               "after": {"target": 500, "names": []}}]
    start = utcnow()
    checked = check_log(events, HANDS, Spot(2), 4)
    end = utcnow()
    assert [hand for hand, _row in checked] == [HANDS[1], HANDS[3], None]
    first, second, third = (row for _hand, row in checked)
    assert first == {"position": 1, "action": "added", "summary": "", "before": None,
                     "after": RECORDED, "at": datetime(2024, 3, 1, 20), "phone": "Bob"}
    assert (second["action"], second["position"], second["summary"], second["at"]) == (
        "edited", 2, "hand 2 edited", datetime(2024, 3, 1, 20, 10))
    assert second["before"] == RECORDED and second["phone"] is None
    # an entry without a time is stamped now; one without a summary says nothing
    assert start <= third["at"] <= end and third["summary"] == ""
    assert third["before"] == {"target": 1000, "names": []}


def test_a_missing_log_is_empty_and_an_empty_one_too():
    assert check_log(None, HANDS, Spot(1), 4) == []
    assert check_log([], HANDS, Spot(1), 4) == []


def test_a_phone_name_is_stored_as_the_phones_are():
    long = "x" * 99
    [(_hand, row)] = check_log([entry(phone=long)], HANDS, Spot(1), 4)
    assert row["phone"] == "x" * 24  # phones.NAME_MAX
    [(_hand, row)] = check_log([entry(phone="   ")], HANDS, Spot(1), 4)
    assert row["phone"] is None


def test_a_log_must_be_a_list_of_at_most_max_import_events():
    most = checks.MAX_IMPORT_EVENTS
    assert log_refusal({"0": entry()}) == (
        f"match 2: log must be a list of at most {most} entries (0 given).")
    assert log_refusal([entry()] * (most + 1)) == (
        f"match 2: log must be a list of at most {most} entries ({most + 1} given).")
    assert len(check_log([{"action": "settings"}] * most, HANDS, Spot(1), 4)) == most


@pytest.mark.parametrize("bad, message", [
    ("added", "a log entry must be an object."),
    (entry(action="changed"), "unknown action 'changed'; the log knows added, edited, "
                              "deleted, undone, restored, settings, reopened."),
    ({"hand_number": 1}, "unknown action None; the log knows added, edited, deleted, "
                         "undone, restored, settings, reopened."),
    (entry(summary=None), "summary must be text of at most 500 characters."),
    (entry(summary="x" * 501), "summary must be text of at most 500 characters."),
    (entry(hand_number=2), "hand_number 2 is not a hand of this match."),
    (entry(hand_number="1"), "hand_number '1' is not a hand of this match."),
    (entry(position=-1), "position must be a whole number."),
    (entry(position=True), "position must be a whole number."),
    (entry(position="1"), "position must be a whole number."),
    (entry(before=["x"]), "before and after must be objects or null."),
    (entry(after="x"), "before and after must be objects or null."),
    (entry(after={"out_order": [4]}), f"after.out_order {ORDER}"),
    (entry(action="settings", before={"target": "x"}),
     "before.target must be a whole number or null."),
    (entry(phone=5), "phone must be text (the name of the phone that made the change)."),
    (entry(at="soon"), "at 'soon' is not a date and time."),
])
def test_each_refused_entry_names_the_match_the_entry_and_the_field(bad, message):
    assert log_refusal([entry(), entry(), bad]) == f"match 2, log entry 3: {message}"


EDIT = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, 50],
        "wish_penalty": {"offender": 2}}


def edited(before=None, after=None):
    return entry(action="edited", before=EDIT | (before or {}), after=EDIT | (after or {}))


@pytest.mark.parametrize("bad, field", [
    # each once imported through HTTP (tests/views/test_log_import.py)
    (edited(before={"out_order": [0, 9]}), "before.out_order"),
    (edited(after={"out_order": "0123"}), "after.out_order"),
    (edited(after={"out_order": [0, 0]}), "after.out_order"),
    (edited(after={"out_order": [True]}), "after.out_order"),
    (edited(after={"calls": {"7": "tichu"}}), "after.calls"),
    (edited(after={"calls": {"x": "tichu"}}), "after.calls"),
    (edited(after={"calls": {"0": "blind"}}), "after.calls"),
    (edited(after={"calls": {"0": ["tichu"]}}), "after.calls"),
    (edited(after={"calls": ["tichu"]}), "after.calls"),
    (edited(after={"card_points": "50"}), "after.card_points"),
    (edited(after={"card_points": [50, 50, 0]}), "after.card_points"),
    (edited(after={"counted_points": [10**6, 0]}), "after.counted_points"),
    (edited(after={"wish_penalty": {"offender": 9}}), "after.wish_penalty"),
    (edited(after={"wish_penalty": 2}), "after.wish_penalty"),
    (entry(action="deleted", before={"out_order": [4]}), "before.out_order"),
    ({"action": "settings", "position": 0, "before": {"target": "x", "names": []},
      "after": {"target": 500, "names": []}}, "before.target"),
    ({"action": "settings", "position": 0, "before": {"names": 5},
      "after": {"names": ["A"]}}, "before.names"),
    ({"action": "settings", "position": 0, "before": {"names": ["A"] * 5},
      "after": {"names": ["A"]}}, "before.names"),
    ({"action": "settings", "position": 0, "before": {"names": [["A"]]},
      "after": {"names": ["A"]}}, "before.names"),
])
def test_an_imported_entry_the_log_could_not_read_is_refused_naming_its_field(bad, field):
    said = log_refusal([edited(), edited(), bad], match=1)
    assert said.startswith(f"match 1, log entry 3: {field} must "), said


def test_a_summary_may_fill_the_logs_column_and_a_position_start_at_zero():
    most = HandEvent.__table__.c.summary.type.length
    [(_hand, row)] = check_log([entry(summary="x" * most, position=0)], HANDS, Spot(1), 4)
    assert len(row["summary"]) == most and row["position"] == 0


def test_the_log_is_checked_against_the_seats_of_its_match():
    six = [entry(after={"out_order": [5], "calls": {"4": "grand"}})]
    assert len(check_log(six, HANDS, Spot(1), 6)) == 1
    assert log_refusal(six, seats=4, match=7) == (
        f"match 7, log entry 1: after.out_order {ORDER}")


# ------------------------------------------------------------------------------ odd shapes


@pytest.mark.parametrize("number", [[1], {"1": 1}, True, 1.0, 0, -1])
def test_a_hand_number_of_the_wrong_kind_is_refused_not_a_crash(number):
    """A list or an object cannot be looked up among the hands (it was a TypeError, a 500
    of POST /import); True and 1.0 are no hand number, though Python takes them for 1."""
    assert log_refusal([entry(hand_number=number)]) == (
        f"match 2, log entry 1: hand_number {number!r} is not a hand of this match.")


@pytest.mark.parametrize("key", ["9" * 5000, "1" + "0" * 4400, "00", "+1", " 1"])
def test_a_calls_key_that_is_no_small_seat_number_is_a_problem_not_a_crash(key):
    """A seat is "0", "1", …: a key of more than 4300 digits passed isdigit() and int()
    raised ValueError (import and log page: 500)."""
    assert entry_problem("edited", {"calls": {key: "tichu"}}, None, 4) == (
        "before.calls", CALLS)
    assert log_refusal([entry(after={"calls": {key: "tichu"}})]) == (
        f"match 2, log entry 1: after.calls {CALLS}")


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+01:00", "0001-01-01T00:59:59+01:00",
                                   "9999-12-31T23:30:00-01:00"])
def test_a_time_that_leaves_the_calendar_in_utc_is_refused_naming_where_and_the_field(value):
    """It was an OverflowError: a bare 400 of POST /import, naming neither."""
    assert refused(checks.parse_time, value, Spot(1, hand=3), "deleted_at") == (
        f"match 1, hand 3: deleted_at {value!r} is not a date and time of the years 1 to 9999 "
        "in UTC.")
    assert log_refusal([entry(at=value)]) == (
        f"match 2, log entry 1: at {value!r} is not a date and time of the years 1 to 9999 "
        "in UTC.")


# ------------------------------------------------------------------------------ own calls


def test_a_hand_entry_with_a_matchs_own_call_is_readable_by_that_matchs_rules():
    """[R9]: an own call is logged by its name ("blind"): readable for a match that defines
    it, so that its export imports and its log page says it; another word is refused,
    citing the rule and naming the match's calls."""
    blind = {"out_order": [0, 1], "calls": {"0": "blind", "2": "tichu"}}
    assert entry_problem("added", None, blind, 4, BLIND) is None
    assert entry_problem("edited", blind, RECORDED, 4, BLIND) is None
    assert entry_problem("added", None, blind, 4) == ("after.calls", CALLS)  # the rule book
    assert entry_problem("added", None, {"calls": {"0": "deaf"}}, 4, BLIND) == (
        "after.calls", OWN_CALLS)
    assert entry_problem("added", None, {"calls": {"0": "Blind"}}, 4, BLIND) == (
        "after.calls", OWN_CALLS)  # a call is named as the match names it
    assert entry_problem("added", None, {"calls": {"7": "blind"}}, 4, BLIND) == (
        "after.calls", OWN_CALLS)


def test_an_imported_log_reads_the_calls_of_its_matchs_house_rules():
    log = [entry(after={"calls": {"0": "blind"}})]
    assert len(check_log(log, HANDS, Spot(1), 4, BLIND)) == 1
    assert log_refusal(log) == f"match 2, log entry 1: after.calls {CALLS}"


def test_an_own_call_the_match_dropped_since_stays_readable_in_its_log():
    """A call named by the house rules of a logged change of settings (the match dropped it
    once no hand in play named it) still reads in the entries that named it."""
    dropped = {"action": "settings", "position": 0,
               "before": {"target": 1000, "names": [], "house": BLIND.as_dict()},
               "after": {"target": 1000, "names": [], "house": {}}}
    log = [entry(after={"calls": {"0": "blind"}}),
           entry(action="edited", before={"calls": {"0": "blind"}},
                 after={"calls": {"0": "tichu"}}), dropped]
    assert len(check_log(log, HANDS, Spot(1), 4)) == 3
    assert log_refusal(log[:2]) == f"match 2, log entry 1: after.calls {CALLS}"


def test_log_rules_add_the_calls_logged_settings_name_to_the_matchs():
    small = HouseRules(custom_calls=(("small", 50),))
    assert checks.log_rules(RULE_BOOK, []) is RULE_BOOK
    assert checks.log_rules(small, [{"house": small.as_dict()}]) is small
    both = checks.log_rules(small, [None, "x", {"house": BLIND.as_dict()},
                                    {"house": {"custom_calls": {"blind": 50}}},
                                    {"house": {"grand_tichu": "no"}}, {"house": []}])
    assert both == HouseRules(custom_calls=(("small", 50), ("blind", 400)))
