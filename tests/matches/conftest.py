"""Helpers for the unit tests of `tichu_scorer.matches`: each test calls one module
directly inside a request context (the words are translated), not through HTTP."""

from __future__ import annotations

import pytest

from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import creation, hand_entry, roster, writes
from tichu_scorer.models import Match

FOUR = ["Ann", "Bob", "Cy", "Dee"]
# seat 1 (team B) out first, seat 2 second; team A took 50 card points, so B took 50
LEVEL = {"out_order": [1, 2], "card_points": [50, None]}
# team A (seats 0 and 2) out first and second: a double victory, 200 to A
SWEEP_A = {"out_order": [0, 2], "card_points": [None, None]}


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def new_match(names=FOUR, target=1000, game=variants.NANKING, hand_limit=None,
              table="T") -> Match:
    return creation.create_match(roster.create_group(table), names, target, game, hand_limit)


def add(key: str, *hands: dict) -> Match:
    """Add these hands in turn to the match with this key; the match read afresh after."""
    for data in hands:
        match = writes.lock_match(key)
        assert match is not None
        added = hand_entry.add_hand(match, data, (match.hand_count or 0) + 1)
        assert added.hand is not None, added.problems
    db.session.rollback()
    return writes.match_by_key(key)
