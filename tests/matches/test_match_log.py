"""`matches.match_log`, an entry of the log page read directly in a request context (the
words are translated): an entry whose stored fields the log cannot read (an older version's,
one imported by hand or stored anyhow) is shown as unreadable, never an exception; a sound
one is said in words. The page itself, opening with such an entry among sound ones:
tests/views/test_log_import.py."""

from __future__ import annotations

import pytest

from tests.conftest import make_app
from tests.matches.conftest import FOUR
from tichu_scorer.game import variants
from tichu_scorer.matches import match_log, roster
from tichu_scorer.models import HandEvent, Match, Player

pytestmark = pytest.mark.one_database  # the match is built in memory; no database is asked

EDIT = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, 50],
        "wish_penalty": {"offender": 2}}

# What a log entry may hold when it was stored by an older version, by hand or anyhow.
STORED_ANYHOW = [
    ("edited", {"out_order": [0, 9]}, {"out_order": [0, 1]}),
    ("edited", {"out_order": "0123"}, {"out_order": [0, 1]}),
    ("edited", {"calls": {"x": "tichu"}}, {"calls": {}}),
    ("edited", {"calls": {"0": "blind"}}, {"calls": {}}),
    ("edited", {"calls": {"9" * 5000: "tichu"}}, {"calls": {}}),  # too long for int()
    ("edited", {"card_points": 5}, {"card_points": [5, 95]}),
    ("edited", {"wish_penalty": 3}, {"wish_penalty": None}),
    ("edited", {"wish_penalty": {"offender": 7}}, {"wish_penalty": None}),
    ("edited", ["not", "an", "object"], {"out_order": [0, 1]}),
    ("edited", "text", 7),
    ("settings", {"names": 5}, {"names": ["A"]}),
    ("settings", {"target": 1000}, {"names": "Bob"}),
    ("deleted", {"out_order": [5]}, None),
]


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """A Nanking match of four to 1000, built in memory, inside a request of an app."""
    app = make_app(tmp_path_factory.mktemp("match_log"))
    with app.test_request_context():
        built = Match(variant="nanking", target=1000)
        built.seats = roster.seat_rows(variants.NANKING, [
            Player(name=name, name_key=Player.key_of(name)) for name in FOUR])
        yield built


def entry(match, action, before, after) -> match_log.Entry:
    event = HandEvent(position=1, action=action, summary="", before=before, after=after)
    return match_log._entry(match, event, 7, match.house)


@pytest.mark.parametrize("action, before, after", STORED_ANYHOW)
def test_an_entry_the_log_cannot_read_is_shown_as_unreadable(match, action, before, after):
    said = entry(match, action, before, after)
    assert (said.readable, said.said, said.number) == (False, None, 7)


def test_a_sound_entry_is_said_in_words(match):
    said = entry(match, "edited", EDIT, EDIT | {"out_order": [1, 0]})
    assert said.readable and said.said == "out-order Ann, Bob → Bob, Ann"
    said = entry(match, "settings", {"target": 1000, "names": FOUR},
                 {"target": 1500, "names": FOUR})
    assert said.readable and "target 1000 → 1500" in said.said
