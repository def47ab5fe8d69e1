"""A change that waited for the match reads the match as the change before it left it: the
players' names too. On PostgreSQL a statement that waits for a row lock sees the locked row
as updated but every other row as at its start, so names read with the lock would be the
old ones (`writes.lock_match` reads them after it); SQLite's write lock is taken before
anything is read. Runs on the database the suite runs on (both in CI)."""

from __future__ import annotations

import threading
import time

from sqlalchemy import text

from tests.conftest import hand_form, match_id, match_key, new_match, post_hand, same_phone
from tichu_scorer.extensions import db
from tichu_scorer.models import Match
from tichu_scorer.statistics import counting, store

NAMES = {f"seat_{i}": n for i, n in enumerate(["Anna", "Bob", "Cy", "Dee"])}


def waiting(conn, at_least: int) -> None:
    """Until `at_least` requests wait for the held match (PostgreSQL's lock queue; SQLite
    shows no trace of its busy wait: a pause instead)."""
    if conn.dialect.name != "postgresql":
        time.sleep(0.3)
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = conn.execute(text("SELECT count(*) FROM pg_stat_activity "
                                  "WHERE wait_event_type = 'Lock'")).scalar()
        conn.rollback()  # the next look, a new snapshot of the activity
        if found >= at_least:
            return
        time.sleep(0.02)
    raise AssertionError("the requests never waited for the match")


def test_a_save_that_waited_behind_a_rename_counts_the_hand_under_the_new_name(app, client):
    """Another connection holds the match; a rename (Ann → Anna) and then a save queue
    behind it. Once it lets go, the rename goes first and the save after it: the save must
    count its hand, in the stored statistics, under the name the rename left."""
    url = new_match(client)
    assert post_hand(client, url, hand_form([0, 1], {"0": "tichu"}, a=60)).status_code == 303
    other = same_phone(client, app)
    with app.app_context():
        engine = db.engine
    answers: dict[str, int] = {}
    # SQLite: the app's BEGIN IMMEDIATE (its write lock from the first statement)
    with engine.connect().execution_options(sqlite_immediate=True) as holder, \
            engine.connect() as watcher:
        holder.execute(text("SELECT id FROM match WHERE key = :k" + (
            " FOR UPDATE" if holder.dialect.name == "postgresql" else "")),
            {"k": match_key(url)})
        rename = threading.Thread(target=lambda: answers.update(rename=client.post(
            url + "/settings", data={"target": "1000"} | NAMES).status_code))
        rename.start()
        waiting(watcher, 1)
        save = threading.Thread(target=lambda: answers.update(save=post_hand(
            other, url, hand_form([0, 1], {"0": "tichu"}, a=70) | {"number": "2"}
        ).status_code))
        save.start()
        waiting(watcher, 2)
        holder.rollback()
        rename.join(20)
        save.join(20)
    assert answers == {"rename": 303, "save": 303}
    with app.app_context():
        match = db.session.get(Match, match_id(url))
        assert match.names[0] == "Anna" and match.hand_count == 2
        stored = store.read(match.id)
        assert stored == counting.rows(counting.counted(match))  # = a full recount
        assert (0, "Anna") in stored and (0, "Ann") not in stored
