"""The writes of a whole table racing each other, with real gunicorn workers on SQLite or
PostgreSQL (TEST_DATABASE_URL), as in test_races: requests started together (a barrier, no
sleeps), many rounds, an invariant checked after each. Rotating the links, a rematch,
renaming the table, a new match and an import at one table, all at once: each takes the
table's row first (`writes.lock_table`), then the matches, so none waits for another in a
circle. PostgreSQL used to detect a deadlock between the rotation and the rematch and roll
one back (a 503); no request may end in a 503 or a 500 now (the server fixture fails the
module on any error it logged)."""

from __future__ import annotations

import json
from collections import Counter

from sqlalchemy import text

from benchmarks.harness import Session
from tests import test_races
from tests.test_races import ROUNDS, Table, hand_fields
from tests.test_races_writes import group_key, overlapping, post
from tests.views.test_transfer import synthetic_history

server, table = test_races.server, test_races.table  # the same fixtures, for this module

KINDS = ("rotate", "rematch", "rename", "new match", "import", "hand")
MAKES_A_MATCH = ("rematch", "new match", "import")


def upload(phone: Session, token: str, data: dict) -> tuple[int, bytes]:
    """The history page's import form, sending `data` as the JSON file."""
    status, page, _ = phone.import_file(token, json.dumps(data).encode())
    return status, page


def one_match_history(rnd: int) -> dict:
    """An export of one four-player match, its own in every round: new players (the import
    inserts them) and client ids of its own."""
    history = synthetic_history(matches=1, hands=3, seed=1000 + rnd)
    match = history["matches"][0]
    match["players"] = [f"T{rnd}-{s}" for s in range(len(match["players"]))]
    for hand in match["hands"]:
        hand["client_id"] = hand["client_id"] and f"t{rnd}-{hand['client_id']}"
    return history


def stored_table(t: Table, key: str) -> dict:
    """The table's row and its matches as the database holds them."""
    with t.engine.connect() as conn:
        group = conn.execute(text(
            "SELECT id, name, generation, invite_code, scorer_key, kept_device "
            "FROM tichu_group WHERE key = :k"), {"k": key}).one()
        matches = conn.execute(text(
            "SELECT id, key, code, scorer_key FROM match WHERE group_id = :g ORDER BY id"),
            {"g": group.id}).all()
    return {"group": group, "matches": {m.id: m for m in matches}}


def test_table_wide_writes_at_once_never_deadlock(table):
    """The table's scorer rotates its links, starts a rematch, renames the table, starts a
    new match, imports a match and saves a hand at one of its matches, all at once (one
    phone, six connections: a rotation ends every other phone's right). Every request is
    stored, in some order: 303 each time, never a 503 (a deadlock rolled back) nor a 500.
    After each round: no match lost or doubled, the hand stored once, every match the
    table had before the round has a new viewer code and score code, each match's codes
    are its own, the table has the round's name and one more generation, the old invite
    code lets nobody in and the phone that rotated still scores every match of the
    table."""
    t = table(1)
    phone = t.phones[0]
    key, token = group_key(t), t.tokens[id(phone)]
    answers: Counter[tuple[str, int]] = Counter()
    hands = [h for h in t.stored()["hands"] if h.deleted_at is None]
    for rnd in range(ROUNDS // 2):
        before = stored_table(t, key)
        member = Session(t.base)  # joined with the invite code before the rotation
        assert member.get(f"/join?code={before['group'].invite_code}")[0] == 303
        member.close()  # (its cookie kept: a connection idle past keep-alive is reset)
        name = f"Round {rnd}"
        fields = {"csrf_token": token, "variant": "nanking", "target": "custom",
                  "custom_target": "10000", "table": key}
        fields |= {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
        history = one_match_history(rnd)
        hand = hand_fields(50, number=str(t.hands(phone) + 1), client_id=f"table-{rnd}")
        results = overlapping(t, phone, [
            lambda c: post(t, c, f"/tables/{key}/rotate", {"csrf_token": token}),
            lambda c: post(t, c, t.url + "/rematch", {"csrf_token": token}),
            lambda c, n=name: post(t, c, f"/tables/{key}/rename", {"csrf_token": token,
                                                                   "name": n}),
            lambda c, f=fields: post(t, c, "/matches/new", f),
            lambda c, h=history: upload(c, token, h),
            lambda c, f=hand: post(t, c, t.url + "/hands/new", {"csrf_token": token} | f)])
        phone.close()  # (idle during the round: a new connection, the cookie kept)
        statuses = dict(zip(KINDS, (s for s, _ in results), strict=True))
        answers.update(statuses.items())
        assert set(statuses.values()) <= {303, 503}, (rnd, statuses)  # never a 500

        after = stored_table(t, key)
        made = sum(statuses[k] == 303 for k in MAKES_A_MATCH)
        assert set(before["matches"]) <= set(after["matches"]), f"a match lost in round {rnd}"
        assert len(after["matches"]) == len(before["matches"]) + made, (
            f"round {rnd}: {len(after['matches']) - len(before['matches'])} matches "
            f"stored for {made} answered")
        codes = [m.code for m in after["matches"].values()]
        score_codes = [m.scorer_key for m in after["matches"].values()]
        assert all(codes) and all(score_codes)
        assert len({*codes, *score_codes}) == 2 * len(codes), "a code shared by two matches"
        group = after["group"]
        if statuses["rename"] == 303:
            assert group.name == name
        if statuses["rotate"] == 303:
            assert group.generation == before["group"].generation + 1
            assert group.invite_code != before["group"].invite_code
            for old in before["matches"].values():  # every match had its codes changed
                new = after["matches"][old.id]
                assert new.code != old.code and new.scorer_key != old.scorer_key, (
                    f"round {rnd}: match {old.id} kept its codes through the rotation")
            assert member.get(f"/tables/{key}")[0] == 404, "the old invite still lets in"
            stranger = Session(t.base)
            status, _ = stranger.get(f"/join?code={before['group'].invite_code}")
            stranger.close()
            assert status == 404, "the old invite code still joins"
        assert phone.get(f"/tables/{key}")[0] == 200, f"the phone locked out in round {rnd}"
        for match in after["matches"].values():
            if match.id not in before["matches"]:
                assert phone.get(f"/matches/{match.key}/hands/new")[0] == 200, (
                    f"round {rnd}: the phone does not score the new match")
        member.close()
        assert t.check()["match"].hand_count == len(hands) + (statuses["hand"] == 303)
        hands = [h for h in t.stored()["hands"] if h.deleted_at is None]
    busy = {kind: n for (kind, status), n in answers.items() if status == 503}
    assert not busy, f"503 (rolled back) in {ROUNDS // 2} rounds: {busy}"
