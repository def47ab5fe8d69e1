"""Races of a director's changes with each other and with the tables, against real gunicorn
workers (SQLite, or PostgreSQL by TEST_DATABASE_URL): a draw while a late arrival is added
and a player drops out, and tables saving their last hand while a player drops out. After
each race the round drawn seats exactly those who play it (`formats.playing`), each once,
and the standing read from the stored matches equals a recount from their hands."""

from __future__ import annotations

import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from benchmarks.harness import Session
from tests.test_races_tournament import at_once, post, pytestmark, served, token  # noqa: F401
from tichu_scorer.extensions import db
from tichu_scorer.models import Tournament
from tichu_scorer.tournaments import formats, stored

PLAYERS = [f"Player {i}" for i in range(1, 10)]  # nine: two tables and a bye


def _checked(app, number):
    """The tournament after the race that drew round `number`: the invariant holds."""
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        assert len(tournament.played) == number
        rnd = tournament.played[-1]
        seated = [n for m in rnd.tables for n in m.player_names] + list(rnd.byes)
        assert sorted(seated) == sorted(e.name for e in formats.playing(tournament.entries, number))
        assert stored.table_standing(tournament) == stored.table_standing(
            tournament, recount=True)
        tables = [(m.key, m.scorer_key, m.hand_count) for m in rnd.tables]
        entries = {e.name: e.id for e in tournament.entries}
        db.session.remove()
    return tables, entries


def test_draws_arrivals_drop_outs_and_last_hands_at_once(served):  # noqa: F811
    base, app = served
    director_a, director_b, director_c = Session(base), Session(base), Session(base)
    status, _, headers = post(director_a, "/tournaments/new", {
        "name": "Race cup", "kind": "individual", "pairing": "swiss", "rounds": "4",
        "hands": "1", "entries": "\n".join(PLAYERS)})
    assert status == 303
    url = urllib.parse.urlsplit(headers["location"]).path
    with app.app_context():
        link = db.session.execute(db.select(Tournament)).scalar_one().group.scorer_key
    for other in (director_b, director_c):
        assert other.get("/join?key=" + link)[0] == 303
    pool = ThreadPoolExecutor(max_workers=6)
    phones: list[Session] = []
    try:
        with app.app_context():
            entries = {e.name: e.id for e in db.session.execute(
                db.select(Tournament)).scalar_one().entries}
        for number in range(1, 5):
            # a draw, a late arrival and a drop-out at once, from two directors' phones
            leaving = PLAYERS[number]
            ta, tb, tc = token(director_a, url), token(director_b, url), token(director_c, url)
            results = at_once(pool, [
                lambda n=number, t=ta: post(director_a, url + "/draw", {
                    "round": str(n), "csrf_token": t}),
                lambda n=number, t=tb: post(director_b, url + "/entries", {
                    "name": f"Late {n}", "csrf_token": t}),
                lambda e=entries[leaving], t=tc: post(director_c, url + f"/entries/{e}/leave",
                                                      {"csrf_token": t})])
            assert [s for s, _b, _h in results] == [303] * 3, [b[:300] for _s, b, _h in results]
            tables, entries = _checked(app, number)
            # every table saves its last hand while another player drops out
            saves = []
            for key, code, _hands in tables:
                phone = Session(base)
                phones.append(phone)
                assert phone.get("/join?code=" + code)[0] == 303
                saves.append((phone, f"/matches/{key}", phone.token(f"/matches/{key}/hands/new")))
            gone = next(n for n in entries if n.startswith("Late"))
            td = token(director_a, url)
            results = at_once(pool, [
                *[lambda t=t: t[0].request("POST", t[1] + "/hands/new", urllib.parse.urlencode({
                    "csrf_token": t[2], "place_1": "0", "place_2": "1", "card_a": "60",
                    "number": "1"}).encode(), "application/x-www-form-urlencoded")
                  for t in saves],
                lambda e=entries[gone], t=td: post(director_a, url + f"/entries/{e}/leave",
                                                   {"csrf_token": t})])
            assert [s for s, _b, _h in results] == [303] * len(results), [
                b[:300] for _s, b, _h in results]
            _checked(app, number)
            assert post(director_a, url + f"/entries/{entries[gone]}/back", {}, form=url)[0] == 303
    finally:
        pool.shutdown()
        for s in [director_a, director_b, director_c, *phones]:
            s.close()
        with app.app_context():
            db.engine.dispose()
