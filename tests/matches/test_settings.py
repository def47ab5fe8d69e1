"""`matches.settings`: the target and names changed after the start."""

from __future__ import annotations

from tests.matches.conftest import SWEEP_A, add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import settings, writes
from tichu_scorer.models import HandEvent


def describe(before, after):
    return f"{before['target']}->{after['target']}"


def test_nothing_changed_writes_nothing(ctx):
    key = new_match().key
    match = writes.lock_match(key)
    assert not settings.change_settings(match, 1000, ["Ann", "bob", "Cy", "Dee"], describe)
    assert db.session.execute(db.select(HandEvent).filter_by(action="settings")).first() is None


def test_a_new_target_decides_the_match_again_and_is_logged(ctx):
    key = add(new_match(target=1000).key, SWEEP_A).key
    assert settings.change_settings(writes.lock_match(key), 200, list(
        ("Ann", "Bob", "Cy", "Dee")), describe)
    match = writes.match_by_key(key)
    assert match.target == 200 and match.winner_team == 0 and match.finished
    event = db.session.execute(db.select(HandEvent).filter_by(action="settings")).scalar_one()
    assert event.summary == "1000->200" and event.before["target"] == 1000


def test_a_renamed_seat_takes_a_player_of_the_new_name_and_a_ranked_game_keeps_no_target(ctx):
    key = new_match(["A", "B", "C", "D", "E"], None, variants.SEIGNEUR).key
    match = writes.lock_match(key)
    assert settings.settings_of(match) == {"target": None, "names": ["A", "B", "C", "D", "E"]}
    assert settings.change_settings(match, 500, ["A", "B", "C", "D", "Eve"], describe)
    match = writes.match_by_key(key)
    assert match.target is None and list(match.player_names)[-1] == "Eve"
