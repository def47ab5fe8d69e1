"""`matches.at_once` (PostgreSQL: a new hand's writes in one statement) and the client id read
with the lock (`writes.lock_match_for_client`), called directly: the statement leaves the
rows the plain path leaves (SQLite's, and PostgreSQL's before), and stays one whose parsing
psycopg caches."""

from __future__ import annotations

import pytest
from psycopg import _queries
from sqlalchemy import Text, cast
from sqlalchemy.dialects.postgresql import psycopg as pg_psycopg

from tests.matches.conftest import FOUR, LEVEL, SWEEP_A, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import at_once, hand_entry, prebuilt, writes
from tichu_scorer.models import Hand, HandEvent, Match, MatchTally, TableTally

# a hand with a call, a note, bombs and a wish penalty: every column of its row set
CALLED = {"out_order": [3, 0], "calls": {"3": "tichu"}, "card_points": [30, None],
          "wish_penalty": {"offender": 1}, "bombs": [0, 1, 0, 0], "note": "late  night"}


def test_the_statement_is_one_psycopg_caches_the_parsing_of():
    compiled = at_once._ADD.compile(dialect=pg_psycopg.dialect())  # noqa: SLF001
    assert len(str(compiled).encode()) <= _queries.MAX_CACHED_STATEMENT_LENGTH
    assert len(compiled.params) <= _queries.MAX_CACHED_STATEMENT_PARAMS


def _rows(match_id: int) -> dict:
    """What a match's saves left in the database, as stored (JSON as its text, SQL NULL as
    None), without ids, keys and times; its hands' client ids with the prefix cut."""
    json_text = [cast(c, Text).label(c.name) for c in Hand.__table__.c
                 if c.name not in ("id", "match_id", "created_at", "client_id")]
    json_text.append(db.func.substr(Hand.client_id, db.func.strpos(Hand.client_id, "-")))
    hands = db.session.execute(db.select(*json_text).where(Hand.match_id == match_id)
                               .order_by(Hand.number)).all()
    events = db.session.execute(db.select(
        HandEvent.position, HandEvent.action, HandEvent.summary, HandEvent.phone,
        cast(HandEvent.before, Text), cast(HandEvent.after, Text),
        HandEvent.hand_id.is_(None)).where(HandEvent.match_id == match_id)
        .order_by(HandEvent.id)).all()
    match = db.session.execute(db.select(*(cast(getattr(Match, name), Text)
                                           for name in prebuilt.DERIVED if name != "finished_at"),
                                         Match.finished_at.is_(None), Match.stamp)
                               .where(Match.id == match_id)).one()
    tallies = db.session.execute(db.select(MatchTally).where(MatchTally.match_id == match_id)
                                 .order_by(MatchTally.side, MatchTally.who)).scalars()
    group_id = db.session.get(Match, match_id).group_id
    sums = db.session.execute(db.select(TableTally).where(TableTally.group_id == group_id)
                              .order_by(TableTally.side, TableTally.who)).scalars()
    counted = [(t.side, t.who, *(getattr(t, c) for c in at_once.COUNTS))
               for t in [*tallies, *sums]]
    return {"hands": hands, "events": events, "match": match, "counts": counted}


def _save(key: str, hands: list[dict], client: str) -> None:
    for i, data in enumerate(hands):
        match, known = writes.lock_match_for_client(key, f"{client}-{i}")
        number = (match.hand_count or 0) + 1
        extras = {k: data[k] for k in ("bombs", "note") if k in data}
        added = hand_entry.add_hand(match, data, number, f"{client}-{i}", number, extras,
                                    known)
        assert added.hand is not None, added.problems


GAMES = {  # names, target, the hands saved (the Nanking match ends with its last: 1000)
    variants.NANKING: (FOUR, 1000, [LEVEL, CALLED, SWEEP_A, CALLED, SWEEP_A, SWEEP_A]),
    variants.THREECHU: (["A", "B", "C"], 1000, [LEVEL, SWEEP_A, LEVEL]),
    variants.SEIGNEUR: (["A", "B", "C", "D", "E"], None,
                        [{"out_order": [2, 0, 4, 1]}, {"out_order": [2, 1, 0, 3]}]),
}


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: g.key)
def test_a_save_leaves_the_rows_the_plain_path_leaves(ctx, monkeypatch, game):
    with db.engine.connect() as conn:
        if conn.dialect.name != "postgresql":
            pytest.skip("SQLite saves by the plain path only")
    names, target, hands = GAMES[game]
    one = new_match(names, target, game, table="One").key
    other = new_match(names, target, game, table="Two").key
    _save(one, hands, "one")
    monkeypatch.setattr(at_once, "usable", lambda: False)
    _save(other, hands, "other")
    ids = [writes.match_by_key(k).id for k in (one, other)]
    found, plain = _rows(ids[0]), _rows(ids[1])
    assert len(found["hands"]) == len(hands) == len(found["events"])
    if game is variants.NANKING:
        assert found["match"][-2] is False  # it ended: every derived column was written
        assert found["counts"]  # its statistics were counted
    assert found == plain


def test_the_hand_of_a_client_id_is_read_with_the_lock(ctx):
    key = new_match().key
    _save(key, [LEVEL], "phone")
    other = new_match(table="Other").key
    match, known = writes.lock_match_for_client(key, "phone-0")
    assert (known.id, known.match_id) == db.session.execute(
        db.select(Hand.id, Hand.match_id).where(Hand.client_id == "phone-0")).one()
    added = hand_entry.add_hand(match, LEVEL, 1, "phone-0", None, None, known)
    assert added.hand.id == known.id and added.position == 1  # stored once, not again
    match, known = writes.lock_match_for_client(other, "phone-0")
    with pytest.raises(writes.Conflict):  # the id of a hand of another match
        hand_entry.add_hand(match, LEVEL, 1, "phone-0", None, None, known)
    db.session.rollback()
    match, known = writes.lock_match_for_client(key, "never-sent")
    assert known is None and [s.seat for s in match.seats] == [0, 1, 2, 3]
    assert writes.lock_match_for_client("no-such-match", "phone-0") == (None,
                                                                         prebuilt.NOT_READ)
    db.session.rollback()
    assert db.session.execute(db.select(db.func.count()).select_from(Hand)).scalar() == 1
