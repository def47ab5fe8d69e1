"""`json_import.import_json`'s checks, called directly: an export that no form of the app would
have made is refused, naming the match (and the hand) and the rule, before anything is
written; checked as the forms check (names, target, number of hands, house rules, hands,
hidden numbers, client ids, times, the log). In a request context (the match is built in
memory, beside the session), no HTTP: what an upload answers (a 422 naming the match,
nothing stored) is tests/views/test_transfer.py's; what the JSON reader refuses before
these checks (NUL, nesting, numbers beyond 2**53 - 1) tests/views/test_jsonbody.py's."""

from __future__ import annotations

import pytest

from tests.conftest import make_app
from tests.views.test_transfer import synthetic_history
from tichu_scorer.transfer import json_import
from tichu_scorer.transfer.checks import ImportError_

pytestmark = pytest.mark.one_database  # refused before the database is asked


@pytest.fixture(scope="module", autouse=True)
def _an_app(tmp_path_factory):
    """One request of one app for the module (the messages are translated), without tables:
    nothing is stored or read."""
    with make_app(tmp_path_factory.mktemp("transfer")).test_request_context():
        yield


def refusal(change) -> str:
    """The refusal of a one-match export (Nanking to 1000, three hands and their log) with
    one change."""
    data = synthetic_history(matches=1, hands=3)
    change(data["matches"][0])
    with pytest.raises(ImportError_) as caught:
        json_import.import_json(data)
    return str(caught.value)


@pytest.mark.parametrize("change, message", [
    (lambda m: m["players"].__setitem__(2, m["players"][0]), "Each seat needs a different"),
    (lambda m: m["players"].__setitem__(1, 7), "player 2 must be a name"),
    (lambda m: m["players"].__setitem__(1, None), "player 2 must be a name"),
    (lambda m: m["players"].__setitem__(1, "   "), "player 2 must be a name"),
    (lambda m: m["players"].__setitem__(1, "x" * 41), "player 2 must be a name"),
    (lambda m: m["players"].__setitem__(0, "x" * 41), "player 1 must be a name"),
    (lambda m: m["players"].__setitem__(3, "D\u200bee"), "character that cannot be seen"),
    (lambda m: m["players"].__setitem__(1, "\u202eBob"), "(U+202E)"),
    (lambda m: m.update(target=None, hand_limit=None, variant="threechu",
                        players=["A", "B", "C", None], hands=[]), "needs one of them"),
    (lambda m: m.update(target=1000, hand_limit=9, variant="threechu",
                        players=["A", "B", "C", None], hands=[]), "either a number of hands"),
    (lambda m: m.update(hand_limit=9), "a number of hands or plays to a target, not both"),
    # the settings as the new-match form words them (`scoring.settings_problems`)
    (lambda m: m.update(target=None, hand_limit=100),
     "hand_limit: A match lasts 1 to 99 hands. (R7)"),
    (lambda m: m.update(lead_by=75),
     "lead_by: The lead that ends the match must be 50 to 10000 points"),
    (lambda m: m.update(lead_by=300, variant="threechu", target=None, hand_limit=9,
                        players=["A", "B", "C", None], hands=[]),
     "lead_by: A lead ends a match of two teams; Threechu keeps a total per player. (R6)"),
    (lambda m: m.update(variant="seigneur", target=None, players=list("ABCDE"), hands=[],
                        house_rules={"victory_points": True}),
     "house_rules: Grand Seigneur has no points: no house rules on scoring. (R1)"),
    (lambda m: m.update(house_rules={"victory_points": 1}), "house_rules.victory_points"),
    (lambda m: m.update(variant="seigneur", target=1000, players=list("ABCDE"), hands=[]),
     "Grand Seigneur has no target"),
    (lambda m: m.update(target=1001), "multiple of 50"),
    (lambda m: m["hands"][0].update(shuffler=2), "only a Threechu hand has a shuffler"),
    (lambda m: m["hands"][0].update(number=0), "every hand needs its number"),
    (lambda m: m["hands"][0].update(number=True), "every hand needs its number"),
    (lambda m: m["hands"][0].update(number=2**40), "every hand needs its number"),
    (lambda m: m["hands"][1].update(number=1), "hand number 1 appears twice"),
    (lambda m: m["hands"][0].update(version="2"), "version must be a whole number"),
    (lambda m: m["hands"][0].update(version=2**31), "version must be a whole number"),
    (lambda m: m["hands"][0].update(version=2**40), "version must be a whole number"),
    (lambda m: m["hands"][0].update(client_id="x" * 65), "client_id must be 1–64"),
    (lambda m: m["hands"][0].update(client_id="a b"), "client_id must be 1–64"),
    (lambda m: m["hands"][0].update(created_at="yesterday"), "is not a date and time"),
    (lambda m: m["hands"][0].update(created_at=20240301), "is not a date and time"),
    (lambda m: m["log"][0].update(action="<a href=//evil>x</a>"), "unknown action"),
    (lambda m: m["log"][0].update(action="50%"), "unknown action"),
    (lambda m: m["log"][0].update(hand_number=99), "hand_number 99 is not a hand"),
    (lambda m: m["log"][0].update(summary="x" * 501), "summary must be text"),
    (lambda m: m["log"][0].update(summary=["x"]), "summary must be text"),
    (lambda m: m["log"][0].update(position=-1), "position must be a whole number"),
    (lambda m: m["log"][0].update(position=2**40), "position must be a whole number"),
    (lambda m: m["log"][0].update(after="<b>"), "before and after must be objects"),
    (lambda m: m.update(log={}), "log must be a list"),
])
def test_an_export_no_form_would_make_is_refused_naming_the_match(change, message):
    said = refusal(change)
    assert message in said and said.startswith("match 1"), said


def test_a_hand_is_named_by_its_number_and_the_rule_by_its_id():
    said = refusal(lambda m: m["hands"][1].update(out_order=[0, 1], card_points=[33, None]))
    assert said == "match 1, hand 2: Team A's card points (33) must be a multiple of 5. (P1)"


@pytest.mark.parametrize("data, message", [
    ({"format": "other"}, "This is not a Tichu Scorer export (format)."),
    ([], "This is not a Tichu Scorer export (format)."),
    ({"format": "tichu-scorer", "version": 9, "matches": []},
     "Export version 9 is not supported."),
    ({"format": "tichu-scorer", "version": 1, "matches": [
        {"variant": "nanking", "players": ["A", "B"]}]},
     "match 1: players must be a list of 4 names."),
])
def test_what_is_no_export_of_this_version_is_refused_saying_so(data, message):
    with pytest.raises(ImportError_) as caught:
        json_import.import_json(data)
    assert str(caught.value) == message
