"""Races between phones, with real gunicorn workers and threads, on SQLite or PostgreSQL
(TEST_DATABASE_URL). Each race starts its requests together (a barrier, no sleeps) and is
repeated for many rounds; after every round the invariant is checked: the stored totals, hand
count and result of the match equal what its hands in play give, no hand is doubled, and no
edit was silently overwritten. RACE_ROUNDS sets the number of rounds (default 100 in CI,
30 locally)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import create_engine, text

from benchmarks.harness import Session, start_gunicorn
from tests.conftest import CI, free_port, make_app, stop_server
from tichu_scorer import scoring
from tichu_scorer.extensions import db

pytestmark = pytest.mark.skipif(shutil.which("gunicorn", path=os.path.dirname(
    os.sys.executable)) is None, reason="gunicorn is installed with the app")

# Like the hypothesis profiles: the full 100 rounds in CI, 30 for a quicker local run.
ROUNDS = int(os.environ.get("RACE_ROUNDS", "100" if CI else "30"))
TARGET = 10000  # the highest target: no race ends the match by accident


class Table:
    """A match on the running server, and phones that may score it."""

    def __init__(self, base: str, engine, phones: int) -> None:
        self.base, self.engine = base, engine
        first = Session(base)
        token = first.token("/matches/new")
        fields = {"csrf_token": token, "variant": "nanking", "target": "custom",
                  "custom_target": str(TARGET)}
        fields |= {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
        status, _, headers = first.request("POST", "/matches/new",
                                           urllib.parse.urlencode(fields).encode(),
                                           "application/x-www-form-urlencoded")
        assert status == 303, status
        self.url = urllib.parse.urlsplit(headers["location"]).path
        self.phones = [first] + [scorer_phone(base, first, self.url)
                                 for _ in range(phones - 1)]
        self.tokens = {id(p): p.token(self.url + "/hands/new") for p in self.phones}
        self.pool = ThreadPoolExecutor(max_workers=phones)

    def close(self) -> None:
        self.pool.shutdown()
        for phone in self.phones:
            phone.close()

    def hands(self, phone: Session | None = None) -> int:
        status, body = (phone or self.phones[0]).get(self.url + "/revision")
        assert status == 200
        return int(json.loads(body)["hands"])

    def post(self, phone: Session, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
        body = urllib.parse.urlencode({"csrf_token": self.tokens[id(phone)]} | fields).encode()
        status, data, _ = phone.request("POST", self.url + path, body,
                                        "application/x-www-form-urlencoded")
        return status, data

    def at_once(self, calls) -> list[tuple[int, bytes]]:
        """Run `calls` (one per phone) so that they reach the server together."""
        barrier = threading.Barrier(len(calls))

        def run(call):
            barrier.wait()
            return call()
        return list(self.pool.map(run, calls))

    def stored(self) -> dict:
        """The match and its hands as the database holds them."""
        with self.engine.connect() as conn:
            match = conn.execute(text("SELECT id, totals, hand_count, winner_team, finished_at "
                                      "FROM match WHERE id = :id"),
                                 {"id": self.match_id}).one()
            hands = conn.execute(text(
                "SELECT number, team_scores, card_points, version, deleted_at, client_id "
                "FROM hand WHERE match_id = :m ORDER BY number"), {"m": match.id}).all()
            events = conn.execute(text("SELECT action, hand_id FROM hand_event "
                                       "WHERE match_id = :m ORDER BY id"),
                                  {"m": match.id}).all()
        return {"match": match, "hands": hands, "events": events}

    @property
    def match_id(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(text("SELECT id FROM match WHERE key = :k"),
                                    {"k": self.url.rsplit("/", 1)[1]}).scalar_one())

    def check(self) -> dict:
        """The invariant: what the match stores is what its hands in play give."""
        state = self.stored()
        match, hands = state["match"], state["hands"]
        live = [h for h in hands if h.deleted_at is None]
        totals, won = [0, 0], None
        for hand in live:  # [E1]: the first hand after which one side leads at the target
            totals = [a + b for a, b in zip(totals, as_list(hand.team_scores), strict=True)]
            won = scoring.winner(totals, TARGET) if won is None else won
        assert match.hand_count == len(live), "hand count drifted from the hands"
        assert as_list(match.totals) == totals, "totals drifted from the hands"
        assert match.winner_team == won
        assert (match.finished_at is not None) == (won is not None)
        numbers = [h.number for h in hands]
        assert len(numbers) == len(set(numbers)), "a hand number is stored twice"
        ids = [h.client_id for h in hands if h.client_id]
        assert len(ids) == len(set(ids)), "a client id is stored twice"
        for h in live:  # every stored hand is scored as its card points say
            a, b = as_list(h.card_points)
            assert as_list(h.team_scores) == [a, b] and a + b == 100
        return state


def as_list(value):
    return json.loads(value) if isinstance(value, str) else list(value)


def scorer_phone(base: str, first: Session, url: str) -> Session:
    """Another phone, given scoring rights by the scorer link on the share page."""
    status, page = first.get(url + "/share?to=score")
    assert status == 200
    link = re.search(rb'href="([^"]+)" data-scorer-link', page)
    assert link, "no scorer link on the share page"
    phone = Session(base)
    parts = urllib.parse.urlsplit(link.group(1).decode().replace("&amp;", "&"))
    status, _ = phone.get(parts.path + "?" + parts.query)
    assert status == 303
    return phone


def hand_fields(a: int, **extra: str) -> dict[str, str]:
    """Seat 0 out first, seat 1 second: team A scores `a`, team B 100 − a."""
    return {"place_1": "0", "place_2": "1", "card_a": str(a)} | extra


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("races")
    app = make_app(tmp)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    env = {"DATABASE_URL": uri, "SECRET_KEY": "races", "RATELIMIT_ENABLED": "false"}
    port = free_port()
    log = tmp / "gunicorn.log"
    proc = start_gunicorn(env, port, workers=4, threads=4, log=log)
    engine = create_engine(uri)
    try:
        yield f"http://127.0.0.1:{port}", engine
    finally:
        stop_server(proc)
        engine.dispose()
        errors = [line for line in log.read_text().splitlines() if "Error" in line]
        assert not errors, "the server logged errors:\n" + "\n".join(errors[:20])


@pytest.fixture()
def table(server):
    base, engine = server
    made = []

    def make(phones: int) -> Table:
        made.append(Table(base, engine, phones))
        return made[-1]
    yield make
    for t in made:
        t.close()


def test_four_phones_adding_hands_at_once_never_drift(table):
    t = table(4)
    acked: list[list[str]] = [[] for _ in t.phones]
    per_phone = 40

    def phone_adds(i: int):
        phone = t.phones[i]
        for k in range(per_phone):
            client_id = f"p{i}-h{k}"
            number = t.hands(phone) + 1
            busy = 0
            while True:  # a stale number is refused; the phone then saves as the next hand
                status, body = t.post(phone, "/hands/new", hand_fields(
                    30 + 5 * ((i + k) % 9), number=str(number), client_id=client_id))
                if status == 503 and busy < 5:
                    # the database stayed locked past its wait (a loaded machine): the
                    # phone's outbox sends the same hand again, with the same client id
                    busy += 1
                    continue
                if status != 409:
                    break
                number = int(re.search(rb'name="number" value="(\d+)"', body).group(1))
            assert status == 303, (status, re.findall(rb"<p>(.*?)</p>", body))
            acked[i].append(client_id)
        return i

    t.at_once([lambda i=i: phone_adds(i) for i in range(4)])
    state = t.check()
    stored = [h.client_id for h in state["hands"]]
    assert sorted(stored) == sorted(c for ids in acked for c in ids)  # none lost, none doubled
    assert [h.number for h in state["hands"]] == list(range(1, 4 * per_phone + 1))


def test_simultaneous_edits_of_one_hand_one_wins_the_other_is_refused(table):
    t = table(2)
    assert t.post(t.phones[0], "/hands/new", hand_fields(50, number="1"))[0] == 303
    for rnd in range(ROUNDS):
        version = t.stored()["hands"][0].version
        mine = [40, 60] if rnd % 2 else [60, 40]
        results = t.at_once([
            lambda p=p, a=a, v=version: t.post(p, "/hands/1/edit", hand_fields(a, version=str(v)))
            for p, a in zip(t.phones, mine, strict=True)])
        statuses = sorted(status for status, _ in results)
        assert statuses == [303, 409], statuses
        winner = mine[[status for status, _ in results].index(303)]
        hand = t.check()["hands"][0]
        assert as_list(hand.card_points) == [winner, 100 - winner]  # the loser overwrote nothing
        assert hand.version == version + 1


def test_two_phones_saving_the_same_new_hand_store_it_once(table):
    t = table(2)
    for rnd in range(ROUNDS):
        number = str(rnd + 1)
        results = t.at_once([
            lambda p=p, k=k, n=number, r=rnd: t.post(p, "/hands/new", hand_fields(
                45 + 10 * k, number=n, client_id=f"same-{r}-{k}"))
            for k, p in enumerate(t.phones)])
        statuses = sorted(status for status, _ in results)
        assert statuses == [303, 409], statuses
        loser = results[[s for s, _ in results].index(409)][1]
        assert f"Another phone saved hand {number} meanwhile".encode() in loser
        state = t.check()
        assert state["match"].hand_count == rnd + 1


def test_a_hand_saved_twice_around_a_delete_is_stored_once(table):
    """Two phones open the form for the next hand and save the same hand while a third
    deletes an older one: whatever the order, the hand is stored at most once (a delete
    brings the count back, so the hand's place alone cannot tell; its entry number can)."""
    t = table(3)
    kept = 0
    for rnd in range(ROUNDS // 2):
        while t.hands() < 2:  # an older hand to delete, and the match goes on
            assert t.post(t.phones[0], "/hands/new", hand_fields(
                50, number=str(t.hands() + 1)))[0] == 303
        forms = []
        for phone in t.phones[:2]:
            status, page = phone.get(t.url + "/hands/new")
            assert status == 200
            forms.append({name: re.search(rf'name="{name}" value="(\d+)"'.encode(), page)
                          .group(1).decode() for name in ("number", "entry")})
        assert forms[0] == forms[1]
        oldest = next(h for h in t.stored()["hands"] if h.deleted_at is None)
        ids = [f"twice-{rnd}-{k}" for k in range(2)]
        results = t.at_once([
            lambda p=p, f=f, c=c: t.post(p, "/hands/new", hand_fields(65) | f | {
                "client_id": c})
            for p, f, c in zip(t.phones[:2], forms, ids, strict=True)] + [
            lambda h=oldest: t.post(t.phones[2], f"/hands/{h.number}/delete",
                                    {"version": str(h.version)})])
        assert all(status in (303, 409) for status, _ in results), results
        state = t.check()
        stored = [h for h in state["hands"] if h.client_id in ids]
        assert len(stored) == sum(status == 303 for status, _ in results[:2]) <= 1, [
            status for status, _ in results]
        kept += len(stored)
    assert kept  # (whether the delete came first is up to the race)


def test_edit_racing_delete_of_one_hand(table):
    t = table(2)
    outcomes = set()
    for _ in range(ROUNDS // 2):
        number = t.hands() + 1
        assert t.post(t.phones[0], "/hands/new", hand_fields(50, number=str(number)))[0] == 303
        entry = t.stored()["hands"][-1]
        path = f"/hands/{entry.number}"
        edit, delete = t.at_once([
            lambda path=path, v=entry.version: t.post(t.phones[0], path + "/edit",
                                                      hand_fields(70, version=str(v))),
            lambda path=path, v=entry.version: t.post(t.phones[1], path + "/delete",
                                                      {"version": str(v)})])
        assert sorted([edit[0], delete[0]]) == [303, 409], (edit[0], delete[0])
        state = t.check()
        hand = state["hands"][-1]
        if edit[0] == 303:  # the edit came first: the delete was refused, the edit stands
            outcomes.add("edit")
            assert hand.deleted_at is None and as_list(hand.card_points) == [70, 30]
        else:  # the delete came first: the edit was refused, not saved into a deleted hand
            outcomes.add("delete")
            assert hand.deleted_at is not None and as_list(hand.card_points) == [50, 50]
    assert outcomes  # (which one wins is up to the race)


def test_double_undo_undoes_one_hand_once(table):
    t = table(2)
    for rnd in range(ROUNDS // 2):
        for _ in range(2):
            number = t.hands() + 1
            assert t.post(t.phones[0], "/hands/new",
                          hand_fields(50, number=str(number)))[0] == 303
        before = t.check()
        last = [h for h in before["hands"] if h.deleted_at is None][-1].number
        results = t.at_once([lambda p=p, n=last: t.post(p, "/undo", {"number": str(n)})
                             for p in t.phones])
        assert sorted(s for s, _ in results) == [303, 409]
        after = t.check()
        assert after["match"].hand_count == before["match"].hand_count - 1
        undone = [e for e in after["events"] if e.action == "undone"]
        assert len(undone) == rnd + 1  # one "undone" entry for the one hand


def test_twenty_replays_of_one_client_id_store_one_hand(table):
    t = table(20)
    for rnd in range(max(ROUNDS // 10, 3)):
        number = str(t.hands() + 1)
        fields = hand_fields(35, number=number, client_id=f"replayed-{rnd}")
        results = t.at_once([lambda p=p, f=fields: t.post(p, "/hands/new", f) for p in t.phones])
        assert [s for s, _ in results] == [303] * 20  # every replay is acknowledged
        state = t.check()
        assert [h.client_id for h in state["hands"]].count(f"replayed-{rnd}") == 1
        assert state["match"].hand_count == rnd + 1


def test_a_dropped_connection_never_leaves_a_half_hand(table):
    """A phone whose request dies (lie-fi) and retries: the hand is stored once."""
    t = table(1)
    phone = t.phones[0]
    for rnd in range(10):
        fields = hand_fields(55, number=str(rnd + 1), client_id=f"flaky-{rnd}")
        body = urllib.parse.urlencode({"csrf_token": t.tokens[id(phone)]} | fields).encode()
        conn = http.client.HTTPConnection(phone.host, phone.port, timeout=10)
        conn.request("POST", t.url + "/hands/new", body=body, headers={
            "Cookie": phone.cookie, "Content-Type": "application/x-www-form-urlencoded"})
        conn.close()  # the phone gives up before reading the answer
        assert t.post(phone, "/hands/new", fields)[0] == 303  # and sends it again
        state = t.check()
        assert [h.client_id for h in state["hands"]].count(f"flaky-{rnd}") == 1


def stats_cards(page: bytes) -> bytes:
    """The statistics of a /stats page (the cards, without the page and the period's
    links around them)."""
    start = page.index(b"</p>", page.index(b'class="stats-views"'))
    return page[start:page.index(b"</main>", start)]


def test_statistics_of_one_table_follow_racing_saves_at_its_matches(table, server):
    """Four phones save at once, each at its own match of one table, two of them opening
    /stats at once as well (the four saves change the same rows of the table's sums):
    after every round, /stats as each phone sees it (the table's sums) equals the rows of
    the matches summed afresh, as the period "tonight" reads them, by another app."""
    from tichu_scorer import create_app
    base, engine = server
    t = table(4)
    names = [["Ann", "Bob", "Cy", "Dee"], ["Ann", "Cy", "Bob", "Eve"],
             ["Eve", "Bob", "Ann", "Cy"], ["Dee", "Eve", "Cy", "Ann"]]
    urls = [t.url] + [phone.new_match(n, target=TARGET)
                      for phone, n in zip(t.phones[1:], names[1:], strict=True)]
    reference = create_app({"SQLALCHEMY_DATABASE_URI": engine.url.render_as_string(False),
                            "SECRET_KEY": "races", "RATELIMIT_ENABLED": False,
                            "TESTING": True})
    fresh = reference.test_client()
    fresh.set_cookie("session", t.phones[0].cookie.split("=", 1)[1])

    def save(i: int, rnd: int, look: bool) -> int:
        phone = t.phones[i]
        status, body = phone.get(urls[i] + "/revision")
        number = int(json.loads(body)["hands"]) + 1
        calls = {f"call_{(rnd + i) % 4}": "tichu"} if (rnd + i) % 3 == 0 else {}
        body = urllib.parse.urlencode({"csrf_token": t.tokens[id(phone)], "number": number}
                                      | hand_fields(5 * ((rnd * 7 + i) % 21), **calls)).encode()
        status, _, _ = phone.request("POST", urls[i] + "/hands/new", body,
                                     "application/x-www-form-urlencoded")
        assert status == 303, status
        if look:
            assert phone.get("/stats")[0] == 200
        return status

    try:
        for rnd in range(ROUNDS):
            t.at_once([lambda i=i, r=rnd: save(i, r, i < 2) for i in range(4)])
            with reference.app_context():
                expected = fresh.get("/stats?period=tonight")
                db.session.remove()
            assert expected.status_code == 200
            for phone in t.phones:
                status, page = phone.get("/stats")
                assert status == 200
                assert stats_cards(page) == stats_cards(expected.get_data()), f"round {rnd}"
    finally:  # also after a failure: its connections would warn in a later test
        with reference.app_context():
            db.engine.dispose()
