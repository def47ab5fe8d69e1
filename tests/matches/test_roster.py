"""`matches.roster`: tables, players and seats."""

from __future__ import annotations

from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import roster, writes
from tichu_scorer.models import NAME_MAX, Player


def test_a_new_table_takes_its_name_cleaned_or_a_default(ctx):
    assert roster.create_group("  Fri   night ").name == "Fri night"
    assert roster.create_group("   ").name == "Tichu"
    assert len(roster.create_group("x" * 500).name) == NAME_MAX


def test_player_named_finds_a_name_in_any_case_and_spacing_per_table(ctx):
    one, other = roster.create_group("A"), roster.create_group("B")
    writes.begin_write()
    ann = roster.player_named(one.id, "Ann  Lee")
    assert roster.player_named(one.id, " ann lee ") is ann
    assert roster.player_named(other.id, "Ann Lee") is not ann  # another table's player
    db.session.commit()
    assert db.session.execute(db.select(db.func.count()).select_from(Player)).scalar() == 2


def test_players_named_reads_and_creates_many_at_once_as_player_named_does(ctx, monkeypatch):
    one = roster.create_group("A")
    writes.begin_write()
    ann = roster.player_named(one.id, "Ann Lee")
    db.session.commit()
    writes.begin_write()
    seen = []
    monkeypatch.setattr(roster, "player_named", lambda *a: seen.append(a))  # not one by one
    found = roster.players_named(one.id, ["ann  lee", "Bob", " bob ", "Cy"])
    db.session.commit()
    assert found["ann  lee"] is ann and found["Bob"] is found[" bob "] and not seen
    assert found["Bob"].name == "Bob"  # as first given
    assert sorted(p.name_key for p in db.session.execute(db.select(Player)).scalars()) == [
        Player.key_of("Ann Lee"), Player.key_of("Bob"), Player.key_of("Cy")]


def test_known_names_are_the_tables_players_newest_first(ctx):
    one, other = roster.create_group("A"), roster.create_group("B")
    writes.begin_write()
    for name in ("Ann", "Bob"):
        roster.player_named(one.id, name)
    roster.player_named(other.id, "Zed")
    db.session.commit()
    assert roster.known_names([one]) == ["Bob", "Ann"]
    assert roster.known_names([one], limit=1) == ["Bob"]
    assert roster.known_names([]) == []


def test_seat_rows_give_teams_and_threechu_its_dummy(ctx):
    group = roster.create_group("A")
    writes.begin_write()
    players = [roster.player_named(group.id, n) for n in ("A", "B", "C", "D")]
    seats = roster.seat_rows(variants.NANKING, players)
    assert [(s.seat, s.team) for s in seats] == [(0, 0), (1, 1), (2, 0), (3, 1)]
    three = roster.seat_rows(variants.THREECHU, players[:3])
    assert len(three) == 4 and three[-1].player is None
    assert three[-1].seat == variants.THREECHU.dummy_seat
    db.session.rollback()
