"""Killing the server in the middle of a burst of hand submissions loses no acknowledged hand
and leaves no half-written one (every write is one transaction)."""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import threading
import time

import pytest
from sqlalchemy import create_engine, text

from benchmarks.harness import Session, kill, start_gunicorn
from tests.conftest import free_port, make_app, stop_server
from tichu_scorer.extensions import db

pytestmark = pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(
    os.sys.executable)) is None, reason="gunicorn is installed with the app")


def burst(match: str, token: str, session: Session, acked: list[int],
          killing: threading.Event, stop: threading.Event) -> None:
    """Submit hands as fast as possible; remember the numbers the server acknowledged. A
    failed request is expected only once the kill has begun; any other is a fault."""
    number = 0
    while not stop.is_set():
        number += 1
        # 50 card points each: the teams stay level, so the match never ends ([E2])
        fields = {"csrf_token": token, "place_1": "1", "place_2": "2", "card_a": "50",
                  "number": str(number)}
        try:
            status, _ = session.post_form(f"{match}/hands/new", fields)
        except (OSError, http.client.HTTPException):
            if killing.is_set():
                return  # the server died mid-request: this hand was never acknowledged
            raise
        if status == 303:
            acked.append(number)
        else:
            raise AssertionError(f"hand {number} refused with {status}")


class Thread(threading.Thread):
    """A thread whose exception is kept, for the test to raise (not just a warning)."""

    error: BaseException | None = None

    def run(self) -> None:
        try:
            super().run()
        except BaseException as exc:  # handed to the test, which raises it
            self.error = exc


def test_kill_mid_burst_loses_nothing_acknowledged(tmp_path):
    app = make_app(tmp_path)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        db.create_all()
    env = {"DATABASE_URL": uri, "SECRET_KEY": "durability", "RATELIMIT_ENABLED": "false"}
    port = free_port()
    server = start_gunicorn(env, port, workers=2, threads=2)
    base = f"http://127.0.0.1:{port}"
    session = Session(base)
    try:
        match = session.new_match(["Ann", "Bob", "Cy", "Dee"])
        token = session.token(f"{match}/hands/new")
        acked: list[int] = []
        killing, stop = threading.Event(), threading.Event()
        worker = Thread(target=burst, args=(match, token, session, acked, killing, stop))
        worker.start()
        deadline = time.monotonic() + 20
        while len(acked) < 15 and worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(random.uniform(0, 0.02))  # land the kill at an arbitrary moment
        killing.set()
        kill(server)
        stop.set()
        worker.join(timeout=15)
    finally:
        killing.set()
        kill(server)
        session.close()
    assert not worker.is_alive(), "the burst did not stop after the kill"
    if worker.error is not None:
        raise worker.error
    assert len(acked) >= 15, "the burst never got going"

    engine = create_engine(uri)
    with engine.connect() as conn:
        match_id = conn.execute(text("SELECT id FROM match WHERE key = :k"),
                                {"k": match.rsplit("/", 1)[1]}).scalar_one()
        hands = conn.execute(text("SELECT number, team_scores, card_points FROM hand "
                                  "WHERE match_id = :m ORDER BY number"),
                             {"m": match_id}).all()
        hand_count, totals = conn.execute(text("SELECT hand_count, totals FROM match "
                                               "WHERE id = :m"), {"m": match_id}).one()
    engine.dispose()
    numbers = [h.number for h in hands]
    # every acknowledged hand is there, and the hands are contiguous 1..n
    assert set(acked) <= set(numbers)
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) <= len(acked) + 1  # at most the one in flight when killed
    # no half-written hand: derived scores present and the match agrees with its hands
    scores = [json.loads(h.team_scores) if isinstance(h.team_scores, str) else h.team_scores
              for h in hands]
    assert all(len(s) == 2 and sum(s) == 100 for s in scores)
    totals = json.loads(totals) if isinstance(totals, str) else totals
    assert hand_count == len(hands)
    assert totals == [sum(s[0] for s in scores), sum(s[1] for s in scores)]

    # the server comes back and serves the match
    server = start_gunicorn(env, port, workers=1, threads=2)
    again = Session(base)
    try:
        again.cookie = session.cookie  # the scorer's phone, after the restart
        status, page = again.get(match)
        assert status == 200 and f"Add hand {len(numbers) + 1}".encode() in page
    finally:
        again.close()
        stop_server(server)
