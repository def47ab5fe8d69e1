"""A 24-player individual tournament run against real gunicorn workers, on SQLite or
PostgreSQL (TEST_DATABASE_URL): in every step all six tables of the round save their next
hand at once (a barrier), and after every step the invariant is checked: each table's match
holds exactly the hands its phone saved, and the standing read from the stored matches
equals a recount from their hands. Between rounds two directors draw the next round at
once: it is stored once. RACE_ROUNDS (as in test_races) sets how many tournament rounds
are played: 6 in CI, 2 locally."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks.harness import Session, start_gunicorn
from tests.conftest import CI, free_port, make_app, stop_server
from tichu_scorer.extensions import db
from tichu_scorer.models import Match, Tournament
from tichu_scorer.tournaments import stored

pytestmark = pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(
    os.sys.executable)) is None, reason="gunicorn is installed with the app")

ROUNDS = 6 if CI else 2
HANDS = 4
PLAYERS = [f"Player {i:02d}" for i in range(1, 25)]


@pytest.fixture()
def served(tmp_path):
    app = make_app(tmp_path)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    env = {"DATABASE_URL": uri, "SECRET_KEY": "races", "RATELIMIT_ENABLED": "false"}
    log = tmp_path / "gunicorn.log"
    port = free_port()
    proc = start_gunicorn(env, port, workers=4, threads=4, log=log)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        stop_server(proc)
        errors = [line for line in log.read_text().splitlines() if "Error" in line]
        assert not errors, "the server logged errors:\n" + "\n".join(errors[:20])


TOKEN = re.compile(rb'name="csrf_token"(?: type="hidden")? value="([^"]+)"')


def fetch(phone: Session, path: str) -> tuple[int, bytes]:
    """A GET, asked again once on a new connection when the kept-alive one was closed by
    the server meanwhile (gunicorn's keep-alive timeout, while a director waits for the
    tables), as a browser does."""
    try:
        return phone.get(path)
    except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        phone.close()
        return phone.get(path)


def token(phone: Session, path: str) -> str:
    status, page = fetch(phone, path)
    assert status == 200
    return TOKEN.search(page).group(1).decode()


def post(phone: Session, path: str, fields: dict[str, str], form: str | None = None):
    kept = fields.pop("csrf_token", None) or token(phone, form or path)
    status, body, headers = phone.request(
        "POST", path, urllib.parse.urlencode({"csrf_token": kept} | fields).encode(),
        "application/x-www-form-urlencoded")
    return status, body, headers


def at_once(pool: ThreadPoolExecutor, calls):
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()
    return list(pool.map(run, calls))


def test_every_table_of_a_24_player_round_saving_at_once_keeps_the_standing(served):
    base, app = served
    directors = [Session(base), Session(base)]
    status, _, headers = post(directors[0], "/tournaments/new", {
        "name": "Race cup", "kind": "individual", "pairing": "swiss",
        "rounds": str(ROUNDS), "hands": str(HANDS), "entries": "\n".join(PLAYERS)})
    assert status == 303
    url = urllib.parse.urlsplit(headers["location"]).path
    with app.app_context():
        scorer_link = db.session.execute(db.select(Tournament)).scalar_one().group.scorer_key
    assert fetch(directors[1], "/join?key=" + scorer_link)[0] == 303  # a second director
    pool = ThreadPoolExecutor(max_workers=8)
    phones: dict[str, Session] = {}
    try:
        for number in range(1, ROUNDS + 1):
            # two directors tap "Draw" at once: the round is stored once
            tokens = [token(d, url) for d in directors]
            drawn = at_once(pool, [lambda d=d, t=t, n=number: post(d, url + "/draw", {
                "round": str(n), "csrf_token": t})
                for d, t in zip(directors, tokens, strict=True)])
            assert sorted(s for s, _b, _h in drawn) == [303, 422], drawn
            with app.app_context():
                tournament = db.session.execute(db.select(Tournament)).scalar_one()
                assert len(tournament.played) == number
                matches = [(m.key, m.scorer_key) for m in tournament.played[-1].tables]
                seated = [n for m in tournament.played[-1].tables for n in m.player_names]
                assert len(matches) == 6 and sorted(seated) == PLAYERS  # 24: no bye
            tables = []
            for key, code in matches:  # a phone at each table joins by its score code
                phone = phones.setdefault(key, Session(base))
                assert fetch(phone, "/join?code=" + code)[0] == 303
                tables.append((phone, f"/matches/{key}",
                               phone.token(f"/matches/{key}/hands/new")))
            for hand in range(1, HANDS + 1):
                saved = at_once(pool, [
                    lambda t=t, i=i, h=hand: t[0].request(
                        "POST", t[1] + "/hands/new", urllib.parse.urlencode({
                            "csrf_token": t[2], "place_1": str(i % 4),
                            "place_2": str((i + 1) % 4), "card_a": str(10 * ((i + h) % 10)),
                            "number": str(h)}).encode(), "application/x-www-form-urlencoded")
                    for i, t in enumerate(tables)])
                assert [s for s, _b, _h in saved] == [303] * 6, [b[:300] for _s, b, _h in saved]
                with app.app_context():
                    tournament = db.session.execute(db.select(Tournament)).scalar_one()
                    for m in tournament.played[-1].tables:
                        assert m.hand_count == hand == len(m.hands)
                    lines = stored.table_standing(tournament)
                    assert lines == stored.table_standing(tournament, recount=True)
                    db.session.remove()
            with app.app_context():
                over = db.session.execute(db.select(Match).where(Match.finished_at.is_(None))
                                          ).scalars().all()
                assert over == []  # [TN4]: the round is complete
        final = fetch(directors[0], url + "/standing.csv")
        assert final[0] == 200
        rows = final[1].decode().splitlines()[1:]
        assert len(rows) == 24 and all(re.match(r"\d+,Player \d\d,", r) for r in rows)
    finally:
        pool.shutdown()
        for s in [*directors, *phones.values()]:
            s.close()
        with app.app_context():
            db.engine.dispose()
