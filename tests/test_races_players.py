"""Two phones renaming or merging the players of one table at once, with real gunicorn
workers on SQLite or PostgreSQL (TEST_DATABASE_URL), as in test_races: requests started
together (a barrier, no sleeps), many rounds, while a third request saves a hand at a
match of the same players. After each round the invariant: every seat has one existing
player of the table, no two players of the table share a name key, the statistics' stored
sums equal a recount from the hands (`tests.test_statistics`), and a merge refused or
made is made once. Also a phone changing a match's seats on its settings page while
another renames or merges the player seated there (PostgreSQL once counted the seat under
the name before the rename). No request ends in a 500 (the server fixture fails the module
on any error it logged)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from tests import test_races
from tests.test_races import ROUNDS, Table, hand_fields
from tests.test_races_writes import group_key, overlapping, post
from tests.test_statistics import assert_consistent
from tichu_scorer import create_app
from tichu_scorer.extensions import db
from tichu_scorer.models import Group

server, table = test_races.server, test_races.table  # the same fixtures, for this module


@pytest.fixture(scope="module")
def reader(server, tmp_path_factory):
    """An app of this process on the server's database, to recount what it stores."""
    _base, engine = server
    app = create_app({"TESTING": True, "SECRET_KEY": "races", "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": engine.url.render_as_string(
                          hide_password=False), "PAGE_STORE_URI": ""},
                     instance_path=str(tmp_path_factory.mktemp("reader")))
    yield app
    with app.app_context():
        db.engine.dispose()


def players(t: Table, key: str) -> dict[str, tuple[str, str]]:
    """The table's players: name -> (public key, name key)."""
    with t.engine.connect() as conn:
        return {r.name: (r.key, r.name_key) for r in conn.execute(text(
            "SELECT p.name, p.key, p.name_key FROM player p JOIN tichu_group g "
            "ON g.id = p.group_id WHERE g.key = :k"), {"k": key})}


def check(t: Table, key: str, reader) -> None:
    """The invariant after a round (see the module's docstring)."""
    with t.engine.connect() as conn:
        group_id = conn.execute(text("SELECT id FROM tichu_group WHERE key = :k"),
                                {"k": key}).scalar_one()
        orphans = conn.execute(text(
            "SELECT COUNT(*) FROM match_seat s JOIN match m ON m.id = s.match_id "
            "LEFT JOIN player p ON p.id = s.player_id "
            "WHERE m.group_id = :g AND (p.id IS NULL OR p.group_id != :g)"),
            {"g": group_id}).scalar_one()
        keys = conn.execute(text("SELECT name_key FROM player WHERE group_id = :g"),
                            {"g": group_id}).scalars().all()
        doubled = conn.execute(text(
            "SELECT COUNT(*) FROM (SELECT s.match_id FROM match_seat s JOIN match m "
            "ON m.id = s.match_id WHERE m.group_id = :g GROUP BY s.match_id, s.player_id "
            "HAVING COUNT(*) > 1) twice"), {"g": group_id}).scalar_one()
    assert orphans == 0, "a seat without a player of the table"
    assert len(keys) == len(set(keys)), "two players share a name"
    assert doubled == 0, "a player in two seats of one match"
    t.check()
    with reader.app_context():
        assert_consistent([db.session.get(Group, group_id)])
        db.session.remove()


def start_match(t: Table, key: str, names: list[str]) -> None:
    phone = t.phones[0]
    fields = {"variant": "nanking", "target": "custom", "custom_target": "10000",
              "table": key} | {f"seat_{i}": n for i, n in enumerate(names)}
    assert post(t, phone, "/matches/new", fields)[0] == 303


def test_two_phones_renaming_and_merging_at_once(table, reader):
    """Each round, two phones at once, while a third saves a hand at a match of theirs:
    both rename one player (two spellings of one name: both stored, one after the other);
    each merges one of two players into the other (one is made, the other finds its player
    gone: 404); one renames a player while the other merges it away (both, in that order,
    or the merge and then a 404). A merge made is undone (the table's page offers it)
    before the next round."""
    t = table(3)
    key = group_key(t)
    start_match(t, key, ["Anne", "Bob", "Cy", "Eve"])
    a, b, c = t.phones
    ann, anne = players(t, key)["Ann"][0], players(t, key)["Anne"][0]
    kinds = ("renames", "merges", "rename-merge")
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for rnd in range(ROUNDS):
        kind = kinds[rnd % 3]
        before = players(t, key)
        if kind == "renames":
            calls = [("rename", ann, f"Ann {rnd}"), ("rename", ann, f"ANN {rnd}")]
        elif kind == "merges":
            calls = [("merge", ann, anne), ("merge", anne, ann)]
        else:
            calls = [("rename", ann, f"Ann {rnd}"), ("merge", ann, anne)]
        hand = hand_fields(40 + rnd % 5 * 5, number=str(t.hands(c) + 1),
                           client_id=f"pl-{rnd}")

        def change(phone, what, who, value):
            field = "name" if what == "rename" else "into"
            return lambda: post(t, phone, f"/players/{who}/{what}", {field: value})
        results = t.at_once([change(a, *calls[0]), change(b, *calls[1]),
                             lambda h=hand: t.post(c, "/hands/new", h)])
        statuses = tuple(s for s, _ in results[:2])
        seen.add((kind, statuses))
        assert results[2][0] == 303, results[2][0]
        assert set(statuses) <= {303, 404}, (rnd, kind, statuses)
        check(t, key, reader)
        after = players(t, key)
        merged = len(before) - len(after)
        if kind == "renames":
            assert statuses == (303, 303)
            name = next(n for n, v in after.items() if v[0] == ann)
            assert name in (f"Ann {rnd}", f"ANN {rnd}")
        elif kind == "merges":
            assert sorted(statuses) == [303, 404] and merged == 1, statuses
        else:
            assert statuses in ((303, 303), (404, 303)) and merged == 1, statuses
        if merged:  # put the round's merge back, for the next round
            status, page = a.get(f"/players?table={key}")
            undo = re.findall(rb'action="(/players/merges/[^/"]+/undo)"', page)
            assert status == 200 and undo, "no undo offered for the merge"
            assert post(t, a, undo[0].decode(), {})[0] == 303
            assert {v[0] for v in players(t, key).values()} == {v[0] for v in before.values()}
            check(t, key, reader)
    assert {k for k, _ in seen} == set(kinds)


def test_renaming_through_the_api_races_a_form_rename(table, reader):
    """The API (scorer key) and a phone's form rename one player at once: both stored,
    one after the other; the player has one of the two names."""
    t = table(1)
    key = group_key(t)
    with t.engine.connect() as conn:
        scorer = conn.execute(text("SELECT scorer_key FROM tichu_group WHERE key = :k"),
                              {"k": key}).scalar_one()
    bob = players(t, key)["Bob"][0]
    phone = t.phones[0]
    token = t.tokens[id(phone)]
    for rnd in range(ROUNDS // 2):
        body = f'{{"name": "Bob A{rnd}"}}'.encode()

        def by_api(c, body=body):
            c.headers = c.headers | {"X-Table-Code": scorer}
            status, data, _ = c.request(
                "POST", f"/api/v1/tables/{key}/players/{bob}/rename", body, "application/json")
            return status, data
        results = overlapping(t, phone, [
            by_api, lambda c, r=rnd: post(t, c, f"/players/{bob}/rename",
                                           {"name": f"Bob F{r}", "csrf_token": token})])
        assert [s for s, _ in results] == [200, 303], results
        name = next(n for n, v in players(t, key).items() if v[0] == bob)
        assert name in (f"Bob A{rnd}", f"Bob F{rnd}")
        check(t, key, reader)


def seat_holders(t: Table, match_key: str) -> list[tuple[str, str]]:
    """The seats of a match, in order: (player's public key, name)."""
    with t.engine.connect() as conn:
        return [(r.key, r.name) for r in conn.execute(text(
            "SELECT p.key, p.name FROM match_seat s JOIN match m ON m.id = s.match_id "
            "JOIN player p ON p.id = s.player_id WHERE m.key = :k ORDER BY s.seat"),
            {"k": match_key})]


def match_seating(t: Table, name: str) -> str:
    """The key of the latest match where the player of this name sits."""
    with t.engine.connect() as conn:
        return str(conn.execute(text(
            "SELECT m.key FROM match m JOIN match_seat s ON s.match_id = m.id "
            "JOIN player p ON p.id = s.player_id WHERE p.name = :n ORDER BY m.id DESC"),
            {"n": name}).scalars().first())


def hands_of(t: Table, match_key: str) -> int:
    with t.engine.connect() as conn:
        return int(conn.execute(text("SELECT hand_count FROM match WHERE key = :k"),
                                {"k": match_key}).scalar_one())


def test_a_settings_change_races_a_rename_or_merge_of_the_player_it_seats(table, reader):
    """Each round, at once: one phone changes the first seat of a match on its settings
    page (to a player, or away from one), another renames that player (or merges it into a
    third), a third saves a hand at the same match. All stored, one after the other: the
    match counts its seat under the name the player has after both (PostgreSQL once
    counted it under the name before a rename, or failed the settings change on a player
    merged away meanwhile). A settings change that comes second and finds its name gone
    seats a new player of that name; the merge's undo is then refused until that one is
    renamed, as the players page says."""
    t = table(3)
    key = group_key(t)
    start_match(t, key, ["Zed", "Fay", "Gus", "Hal"])
    start_match(t, key, ["Anne", "Ivy", "Jo", "Kim"])
    a, b, c = t.phones
    n_key, o_key = match_seating(t, "Zed"), match_seating(t, "Anne")
    for match_key in (n_key, o_key):  # counts to rekey in both matches
        assert post(t, a, f"/matches/{match_key}/hands/new", hand_fields(
            60, number="1", client_id=f"first-{match_key}"))[0] == 303
    ann, anne = players(t, key)["Ann"][0], players(t, key)["Anne"][0]
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for rnd in range(ROUNDS):
        kind = ("rename", "merge")[rnd % 2]
        who = ann if kind == "rename" else anne
        name = {v[0]: n for n, v in players(t, key).items()}[who]
        seats = seat_holders(t, n_key)
        want = "Zed" if seats[0][0] == who else name
        names = {f"seat_{i}": n for i, (_k, n) in enumerate(seats)} | {"seat_0": want}
        if kind == "rename":
            path, fields = f"/players/{who}/rename", {"name": f"Ann {rnd}"}
        else:
            path, fields = f"/players/{who}/merge", {"into": ann}
        hand = hand_fields(40 + rnd % 5 * 5, number=str(hands_of(t, n_key) + 1),
                           client_id=f"set-{rnd}")
        results = t.at_once([
            lambda f=names: post(t, a, f"/matches/{n_key}/settings", {"target": "10000"} | f),
            lambda p=path, f=fields: post(t, b, p, f),
            lambda h=hand: post(t, c, f"/matches/{n_key}/hands/new", h)])
        statuses = tuple(s for s, _ in results)
        seen.add((kind, statuses))
        assert statuses == (303, 303, 303), (rnd, kind, statuses)
        check(t, key, reader)
        after = seat_holders(t, n_key)[0]
        assert after[1] == want or after[0] in (who, ann), (rnd, kind, want, after)
        if kind == "merge":  # put it back; a new "Anne" (the settings came second) first
            status, page = a.get(f"/players?table={key}")
            undo = re.findall(rb'action="(/players/merges/[^/"]+/undo)"', page)
            assert status == 200 and undo, "no undo offered for the merge"
            status, _ = post(t, a, undo[0].decode(), {})
            if status == 409:
                newcomer = players(t, key)["Anne"][0]
                assert newcomer != anne
                assert post(t, b, f"/players/{newcomer}/rename",
                            {"name": f"Anne {rnd}"})[0] == 303
                status, _ = post(t, a, undo[0].decode(), {})
            assert status == 303
            assert players(t, key)["Anne"][0] == anne
            check(t, key, reader)
    assert {k for k, _ in seen} == {"rename", "merge"}
