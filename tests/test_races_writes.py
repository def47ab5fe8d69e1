"""Races of issue 26, with real gunicorn workers on SQLite or PostgreSQL (TEST_DATABASE_URL),
as in test_races: requests started together (a barrier, no sleeps), many rounds, an invariant
checked after each. Here: a phone's own requests overlapping its rotation of the table's
links; writes racing the deletion of their match; the log's Restore racing the re-entry of
the hand it would bring back. No request may end in a 500 (the server fixture fails the
module on any error it logged)."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import text

from benchmarks.harness import Session
from tests import test_races
from tests.test_races import ROUNDS, Table, hand_fields

server, table = test_races.server, test_races.table  # the same fixtures, for this module

GONE = (404, 409)  # the match was deleted first: refused, nothing changed


def twin(phone: Session) -> Session:
    """The same phone on a second connection (a browser sends overlapping requests on
    several), carrying the same cookie."""
    other = Session(f"http://{phone.host}:{phone.port}")
    other.cookie = phone.cookie
    return other


def overlapping(t: Table, phone: Session, calls) -> list[tuple[int, bytes]]:
    """Run `calls` (each given a connection of `phone`) at once; then the phone keeps the
    cookie of the response that arrived last, as a browser's cookie jar does."""
    conns = [twin(phone) for _ in calls]
    barrier = threading.Barrier(len(calls))
    arrived: list[tuple[float, str | None]] = [(0.0, None)] * len(calls)

    def run(i: int):
        barrier.wait()
        before = conns[i].cookie
        result = calls[i](conns[i])
        sent = conns[i].cookie if conns[i].cookie != before else None
        arrived[i] = (time.monotonic(), sent)
        return result

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        results = list(pool.map(run, range(len(calls))))
    for _at, cookie in sorted(arrived, key=lambda a: a[0]):
        if cookie is not None:
            phone.cookie = cookie
    for conn in conns:
        conn.close()
    return results


def post(t: Table, phone: Session, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
    token = fields.get("csrf_token") or t.tokens[id(phone)]
    body = urllib.parse.urlencode(fields | {"csrf_token": token})
    status, data, _ = phone.request("POST", path, body.encode(),
                                    "application/x-www-form-urlencoded")
    return status, data


def group_key(t: Table) -> str:
    with t.engine.connect() as conn:
        return str(conn.execute(text(
            "SELECT g.key FROM tichu_group g JOIN match m ON m.group_id = g.id "
            "WHERE m.key = :k"), {"k": t.url.rsplit("/", 1)[1]}).scalar_one())


def last_entry(t: Table) -> int:
    """The entry number of the latest hand in play (what the match page's Undo names)."""
    return int([h for h in t.stored()["hands"] if h.deleted_at is None][-1].number)


def test_rotating_links_never_locks_out_the_phone_that_rotated(table):
    """The table's only scorer rotates its links while a save (or an undo) of its own is
    under way: whichever response the phone keeps last, it is still the table's scorer."""
    t = table(1)
    phone = t.phones[0]
    key = group_key(t)
    rotate_path = f"/tables/{key}/rotate"
    token = t.tokens[id(phone)]
    for rnd in range(ROUNDS):
        number = t.hands(phone) + 1
        assert t.post(phone, "/hands/new", hand_fields(50, number=str(number)))[0] == 303
        if rnd % 2:
            other = ("/undo", {"number": str(last_entry(t))})
        else:
            other = ("/hands/new", hand_fields(40, number=str(number + 1)))
        results = overlapping(t, phone, [
            lambda c: post(t, c, rotate_path, {"csrf_token": token}),
            lambda c, o=other: post(t, c, t.url + o[0], {"csrf_token": token} | o[1])])
        assert [s for s, _ in results] == [303, 303], [s for s, _ in results]
        assert phone.get(f"/tables/{key}")[0] == 200, f"locked out in round {rnd}"
        assert phone.get(t.url + "/hands/new")[0] == 200, f"no longer a scorer in round {rnd}"
        t.check()


def test_rematch_racing_the_deletion_of_its_match(table):
    """A rematch while another phone deletes the match: one of them first, no 500."""
    t = table(2)
    outcomes = set()
    for _ in range(ROUNDS // 2):
        url = t.phones[0].new_match(["Ann", "Bob", "Cy", "Dee"])
        results = t.at_once([
            lambda u=url: t.phones[0].post_form(u + "/rematch", {
                "csrf_token": t.tokens[id(t.phones[0])]}),
            lambda u=url: t.phones[1].post_form(u + "/delete", {
                "csrf_token": t.tokens[id(t.phones[1])], "confirm": "yes"})])
        rematch, delete = results[0][0], results[1][0]
        assert delete == 303, delete
        assert rematch in (303, 404), rematch
        outcomes.add(rematch)
        if rematch == 404:
            # deleted while the rematch held it, or before the rematch came: a 404 either way
            assert (b"deleted this match meanwhile" in results[0][1]
                    or b"This page does not exist" in results[0][1]), results[0][1][-300:]
    assert outcomes


def test_rotation_racing_a_rematch(table):
    """Rotating the links (every match's viewer code) while a rematch is stored: both,
    never a 503 (PostgreSQL once rolled one back as a deadlock) nor a 500. Both hold the
    table first (`writes.lock_table`); test_races_table_writes races every write of a
    table."""
    t = table(1)
    phone = t.phones[0]
    key, token = group_key(t), t.tokens[id(phone)]
    for _ in range(ROUNDS // 2):
        results = overlapping(t, phone, [
            lambda c: post(t, c, t.url + "/rematch", {"csrf_token": token}),
            lambda c: post(t, c, f"/tables/{key}/rotate", {"csrf_token": token})])
        assert all(s == 303 for s, _ in results), [
            (s, re.findall(rb'id="import-error"[^>]*>([^<]+)', page)) for s, page in results]
        t.check()


def test_hand_changes_racing_the_deletion_of_their_match(table):
    """An undo, a hand's deletion, an edit or a restore while another phone deletes the
    match: the change comes first or is refused; no 500."""
    t = table(2)
    seen: dict[str, set[int]] = {}
    token = t.tokens[id(t.phones[0])]
    for rnd in range(ROUNDS):
        url = t.phones[0].new_match(["Ann", "Bob", "Cy", "Dee"], target=10000)
        for n in (1, 2):
            assert t.phones[0].post_form(url + "/hands/new", {"csrf_token": token} | hand_fields(
                50, number=str(n)))[0] == 303
        kind = ("undo", "delete", "edit", "restore")[rnd % 4]
        if kind == "restore":
            assert t.phones[0].post_form(url + "/undo", {"csrf_token": token,
                                                         "number": "2"})[0] == 303
        path, fields = {
            "undo": ("/undo", {"number": "2"}),
            "delete": ("/hands/2/delete", {"version": "1"}),
            "edit": ("/hands/2/edit", hand_fields(60, version="1")),
            "restore": ("/hands/2/restore", {}),
        }[kind]
        results = t.at_once([
            lambda u=url, p=path, f=fields: t.phones[0].post_form(
                u + p, {"csrf_token": token} | f),
            lambda u=url: t.phones[1].post_form(u + "/delete", {
                "csrf_token": t.tokens[id(t.phones[1])], "confirm": "yes"})])
        assert results[1][0] == 303, results[1][0]
        assert results[0][0] in (303, *GONE), (kind, results[0][0])
        seen.setdefault(kind, set()).add(results[0][0])
    assert seen


def test_the_logs_restore_never_doubles_a_hand_entered_again(table):
    """Hand N is undone; one phone opens the log, another enters hand N again, and the
    first restores the old one from the log at the same moment: never both."""
    t = table(2)
    first, second = t.phones
    for rnd in range(ROUNDS):
        number = t.hands() + 1
        assert t.post(first, "/hands/new", hand_fields(50, number=str(number)))[0] == 303
        assert t.post(first, "/undo", {"number": str(last_entry(t))})[0] == 303
        status, log = first.get(t.url + "/log")
        assert status == 200
        form = re.search(rb'action="([^"]+/restore)">\s*<input type="hidden" name="csrf_token" '
                         rb'value="[^"]+"><input type="hidden" name="from" value="log">'
                         rb'<input type="hidden" name="revision" value="(\d+)"', log)
        assert form, "no Restore on the log page"
        restore_path = urllib.parse.urlsplit(form.group(1).decode()).path
        revision = form.group(2).decode()
        before = t.check()["match"].hand_count
        results = t.at_once([
            lambda p=restore_path, r=revision: first.post_form(p, {
                "csrf_token": t.tokens[id(first)], "from": "log", "revision": r}),
            lambda n=number, c=f"again-{rnd}": t.post(second, "/hands/new", hand_fields(
                50, number=str(n), client_id=c))])
        statuses = [s for s, _ in results]
        assert all(s in (303, 409) for s in statuses), statuses
        assert statuses != [303, 303], f"the hand was counted twice in round {rnd}"
        assert t.check()["match"].hand_count == before + statuses.count(303)


def test_two_imports_at_once_never_fail_with_a_500(table):
    """Two phones import histories naming the same new players at once (PostgreSQL once
    deadlocked on the players' rows): each import is stored, or refused as coming second,
    or answered 503 with Retry-After, never a 500."""
    from tests.views.test_transfer import synthetic_history
    t = table(2)

    def upload(phone: Session, data: dict) -> tuple[int, bytes]:
        status, page, _ = phone.import_file(t.tokens[id(phone)], json.dumps(data).encode())
        return status, page

    for rnd in range(ROUNDS // 3):
        histories = [synthetic_history(matches=3, hands=4, seed=100 * rnd + k) for k in (0, 1)]
        for k, history in enumerate(histories):  # the same new names, in other orders
            for m, match in enumerate(history["matches"]):
                names = [f"R{rnd}-{s}" for s in range(len(match["players"]))]
                match["players"] = [None if p is None else names[(s + k + m) % len(names)]
                                    for s, p in enumerate(match["players"])]
                for hand in match["hands"]:  # (a hand's client id is stored once)
                    hand["client_id"] = hand["client_id"] and f"r{rnd}-{k}-{hand['client_id']}"
        results = t.at_once([lambda p=p, h=h: upload(p, h)
                             for p, h in zip(t.phones, histories, strict=True)])
        # (409-like, as the import page says it: the other import came first)
        assert all(s in (303, 503) or s == 422 and b"saved at the same moment" in page
                   for s, page in results), [
            (s, re.findall(rb'id="import-error"[^>]*>([^<]+)', page)) for s, page in results]
