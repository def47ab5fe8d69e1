"""Export and import: JSON round-trips losslessly; CSV is a readable sheet."""

import csv
import html
import io
import json
import random
import re
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import event

from tests.conftest import hand_form, make_app, match_id, new_match, post_hand, same_phone
from tests.players.links import unlinked
from tichu_scorer import scoring
from tichu_scorer.extensions import db
from tichu_scorer.matches import hand_entry, listing
from tichu_scorer.models import Group, HandEvent, Match
from tichu_scorer.scoring.hand import HandInput, score_hand
from tichu_scorer.transfer import csv_sheet, json_export, json_import


def fill_history(client):
    """Three matches (Nanking with an edit and an undo, Threechu, Grand Seigneur); every
    request must have been accepted (303), or the round trips below would prove little."""
    def ok(response):
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"]

    url = new_match(client)
    ok(post_hand(client, url, hand_form([0, 2], {"0": "tichu"})))
    ok(post_hand(client, url, hand_form([1, 0], {"3": "grand"}, a=35,
                                        wish=None) | {"client_id": "c-1"}))
    ok(post_hand(client, url, hand_form([], {"1": "tichu"}, wish=2)))
    ok(client.post(url + "/hands/1/edit", data=hand_form([0, 2], {"0": "grand"})
                   | {"version": "1"}))
    ok(client.post(url + "/undo", data={"number": "3"}))
    ok(client.post(url + "/settings", data={"target": "1500"} | {
        f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}))
    t3 = ok(client.post("/matches/new", data={"variant": "threechu", "seat_0": "Tom",
                                              "seat_1": "Uma", "seat_2": "Vic",
                                              "length": "hands", "hands": "3"}))
    ok(post_hand(client, t3, hand_form([3, 1], {"3": "tichu"}, a=50)))
    gs = ok(client.post("/matches/new", data={"variant": "seigneur", **{
        f"seat_{i}": f"G{i}" for i in range(5)}}))
    ok(post_hand(client, gs, {"place_1": "4", "place_2": "2", "place_3": "0",
                              "place_4": "1"}))
    return url


def strip_ids(export):
    return export["matches"]


def test_json_round_trip_is_lossless(client, tmp_path):
    fill_history(client)
    first = client.get("/export.json").get_json()
    assert len(first["matches"]) == 3 and first["format"] == "tichu-scorer"
    other = make_app(tmp_path / "other")
    with other.app_context():
        db.create_all()
    fresh = other.test_client()
    blob = json.dumps(first).encode()
    r = fresh.post("/import", data={"file": (io.BytesIO(blob), "export.json")},
                   content_type="multipart/form-data")
    assert r.status_code == 303
    second = fresh.get("/export.json").get_json()
    assert strip_ids(second) == strip_ids(first)
    page = fresh.get("/").get_data(as_text=True)
    assert "Tom" in page and "G4" in page


def test_single_match_export(client):
    url = fill_history(client)
    r = client.get(url + "/export.json")
    assert r.headers["Content-Disposition"].startswith("attachment")
    match = r.get_json()["matches"][0]
    assert match["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert [h["deleted_at"] is None for h in match["hands"]] == [True, True, False]
    assert [e["action"] for e in match["log"]] == ["added", "added", "added", "edited",
                                                   "undone", "settings"]
    assert match["log"][-1]["hand_number"] is None and match["target"] == 1500


def test_csv_sheet(client):
    url = fill_history(client)
    text = client.get(url + "/export.csv").get_data(as_text=True)
    lines = text.strip().splitlines()
    assert lines[0].startswith("match,variant,started,hand,players,out_order,calls")
    assert len(lines) == 3  # header and the two hands in play
    assert "Ann > Cy" in lines[1] and "Ann: Grand Tichu" in lines[1]
    assert "Dee: Grand Tichu" in lines[2]
    everything = client.get("/export.csv").get_data(as_text=True)
    assert "threechu" in everything and "seigneur" in everything


def sheet_rows(client, url=""):
    return list(csv.DictReader(io.StringIO(client.get(url + "/export.csv").get_data(
        as_text=True))))


def test_csv_gives_each_side_its_own_columns(client):
    """A spreadsheet sums a side's column: per team, per player, and the Threechu dummy,
    each a number of its own (never "400 : 0" in one cell)."""
    url = fill_history(client)
    rows = sheet_rows(client)
    team = [r for r in rows if r["variant"] == "nanking"]
    assert [(r["side_1"], r["side_2"]) for r in team] == [("Ann & Cy", "Bob & Dee")] * 2
    assert [(r["score_1"], r["score_2"]) for r in team] == [("400", "0"), ("35", "-135")]
    assert sum(int(r["score_1"]) for r in team) == int(team[-1]["total_1"]) == 435
    assert sum(int(r["score_2"]) for r in team) == int(team[-1]["total_2"]) == -135
    assert (team[0]["card_points_1"], team[1]["card_points_1"],
            team[1]["card_points_2"]) == ("200", "35", "65")
    assert team[0]["side_3"] == team[0]["score_3"] == ""  # two sides, the rest empty
    threechu = [r for r in rows if r["variant"] == "threechu"]
    assert [threechu[0][f"side_{n}"] for n in (1, 2, 3, 4)] == ["Tom", "Uma", "Vic", "Dummy"]
    scores = [int(threechu[0][f"score_{n}"]) for n in (1, 2, 3, 4)]
    totals = [int(threechu[0][f"total_{n}"]) for n in (1, 2, 3, 4)]
    assert scores == totals and any(scores)
    seigneur = [r for r in rows if r["variant"] == "seigneur"]
    assert seigneur and seigneur[0]["score_1"] == seigneur[0]["card_points_1"] == ""
    assert [r["score_1"] for r in sheet_rows(client, url)] == ["400", "35"]


@pytest.mark.parametrize("payload, message", [  # others: tests/transfer/test_json_import.py
    (b"not json", "not a JSON export"),
    (json.dumps({"format": "tichu-scorer", "version": 1, "matches": [
        {"variant": "nanking", "players": ["A", "B", "C", "D"], "target": 1000,
         "hands": [{"number": 1, "out_order": [0, 1], "card_points": [33, None]}]}]}).encode(),
     "match 1, hand 1: Team A&#39;s card points (33) must be a multiple of 5. (P1)"),
])
def test_bad_imports_store_nothing(client, payload, message):
    r = client.post("/import", data={"file": (io.BytesIO(payload), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422 and message in r.get_data(as_text=True)
    assert client.get("/export.json").get_json()["matches"] == []


def imported(client, blob):
    r = client.post("/import", data={"file": (io.BytesIO(blob), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303, r.get_data(as_text=True)
    assert r.headers["Location"].endswith("/#main")  # not #import-error
    return html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))


def statistics(client) -> str:
    page = unlinked(client.get("/stats").get_data(as_text=True))
    return page[page.index("<h1>"):page.index("</main>")]


def test_importing_the_same_export_twice_adds_nothing(client):
    fill_history(client)
    blob = client.get("/export.json").get_data()
    stats = statistics(client)
    assert "Ann &amp; Cy" in stats
    assert "Imported: 0 new matches, 3 already here (skipped)." in imported(client, blob)
    assert len(client.get("/export.json").get_json()["matches"]) == 3
    assert statistics(client) == stats
    # in a new table of another phone: new there; a second time: already there
    other = client.application.test_client()
    assert "Imported: 3 new matches, 0 already here (skipped)." in imported(other, blob)
    assert statistics(other) == stats
    assert "Imported: 0 new matches, 3 already here (skipped)." in imported(other, blob)
    assert statistics(other) == stats
    assert len(other.get("/export.json").get_json()["matches"]) == 3


def test_the_same_match_with_other_hands_is_imported_as_a_copy(client):
    """An export taken later (the match went on) brings the same match with more hands:
    stored beside the one here, and said so; the file's other matches are skipped."""
    url = fill_history(client)
    blob = client.get("/export.json").get_data()
    post_hand(client, url, hand_form([1, 3], a=50))
    later = client.get("/export.json").get_data()
    other = client.application.test_client()
    imported(other, blob)
    page = imported(other, later)
    assert "Imported: 0 new matches, 2 already here (skipped)." in page
    assert "1 match is already here with other hands: it was imported as a copy" in page
    matches = other.get("/export.json").get_json()["matches"]
    assert sorted(len(m["hands"]) for m in matches if m["variant"] == "nanking") == [3, 4]
    assert "0 new matches, 3 already here" in imported(other, later)


def test_a_file_with_one_match_twice_stores_it_once(client):
    one = synthetic_history(matches=1, hands=3)
    one["matches"] *= 2
    assert "1 new match, 1 already here" in imported(client, json.dumps(one).encode())
    assert len(client.get("/export.json").get_json()["matches"]) == 1


def test_print_stylesheet_hides_controls():
    css = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()
    block = css[css.index("@media print {\n  :root"):]
    assert ".topbar" in block and ".page-links" in block and ".save-bar" in block


# --- a long history: the app's own export re-imports, in one short write -------------------

def synthetic_history(matches=40, hands=30, seed=7, endless=False):
    """An export as the app writes it: team games, Threechu and Grand Seigneur matches,
    calls, double victories, deleted hands and their log; every hand valid, and none in
    play after the hand that decided its match ([E1]: a team game stops there). `endless`:
    in every hand all but the first out call Grand Tichu and fail, so no total rises and
    no match ends, however long."""
    rng = random.Random(seed)
    out = []
    for m in range(matches):
        variant = ("nanking", "nanking", "threechu", "tientsin", "seigneur")[m % 5]
        game, played = scoring.variant(variant), []
        target = 1000 if m % 10 == 0 else 10_000  # some matches decided, most going on
        seats = {"nanking": 4, "threechu": 3, "tientsin": 6, "seigneur": 7}[variant]
        players = [f"P{m}-{s} ünï" for s in range(seats)] + ([None] if seats == 3 else [])
        players[0] = ["Ann", "Bob", "Cy"][m % 3]  # names shared across matches
        raw_hands, log = [], []
        for n in range(1, hands + 1):
            hand = {"number": n, "version": rng.randint(1, 3), "calls": {},
                    "client_id": f"m{m}-h{n}" if n % 4 else None,
                    "created_at": f"2024-03-{1 + m % 28:02d}T20:{n:02d}:00",
                    "deleted_at": "2024-03-01T23:00:00" if n % 11 == 0 else None,
                    "shuffler": (n - 1) % 3 if variant == "threechu" else None,
                    "wish_offender": None, "card_points": [None, None]}
            if variant == "seigneur":
                order = rng.sample(range(seats), seats)
                hand["out_order"] = order[:-1]
                hand["card_points"] = []
            else:
                table = 4 if variant == "threechu" else seats
                team = ([0 if s in (hand["shuffler"], 3) else 1 for s in range(4)]
                        if variant == "threechu" else [s % 2 for s in range(seats)])
                first = rng.randrange(table)
                if variant != "tientsin" and rng.random() < 0.1:  # a double victory
                    second = next(s for s in range(table) if s != first
                                  and team[s] == team[first])
                else:
                    second = next(s for s in rng.sample(range(table), table)
                                  if team[s] != team[first])
                hand["out_order"] = [first, second]
                if team[first] != team[second]:
                    hand["card_points"] = [rng.randrange(-5, 26) * 5, None]
                if endless:
                    hand["calls"] = {str(s): "grand" for s in range(table) if s != first}
                elif rng.random() < 0.3:
                    hand["calls"] = {str(first): "tichu"}
            if game.teams and not game.lasts_hands and scoring.winner(
                    [sum(side) for side in zip(*played, strict=True)], target) is not None:
                break  # the match was decided by the last hand in play
            if game.teams and not game.lasts_hands and not hand["deleted_at"]:
                played.append(team_scores(game, hand))
            raw_hands.append(hand)
            log.append({"hand_number": n, "position": n, "action": "added", "summary": "",
                        "before": None, "after": {"out_order": hand["out_order"]},
                        "at": hand["created_at"]})
            if hand["deleted_at"]:
                log.append({"hand_number": n, "position": n, "action": "deleted",
                            "summary": f"hand {n} deleted", "before": None, "after": None,
                            "at": hand["deleted_at"]})
        out.append({"variant": variant, "players": players,
                    "target": target if variant in ("nanking", "tientsin") else None,
                    "hand_limit": 99 if variant == "threechu" else None,
                    "started_at": f"2024-03-{1 + m % 28:02d}T19:00:00", "finished_at": None,
                    "hands": raw_hands, "log": log})
    return {"format": "tichu-scorer", "version": 1, "matches": out}


def hands_in(data) -> int:
    return sum(len(m["hands"]) for m in data["matches"])


def team_scores(game, hand) -> tuple[int, ...]:
    """What a generated hand of a team game scores, by the core's own scoring."""
    calls = {int(seat): scoring.Call(call) for seat, call in hand["calls"].items()}
    return score_hand(HandInput(tuple(hand["out_order"]), calls, tuple(hand["card_points"])),
                      game.layout()).team_scores


def upload(client, blob: bytes):
    return client.post("/import", data={"file": (io.BytesIO(blob), "history.json")},
                       content_type="multipart/form-data")


def fresh_client(tmp_path, name):
    other = make_app(tmp_path / name)
    with other.app_context():
        db.create_all()
    return other, other.test_client()


def stored_results(app):
    """What the match list shows, as the database keeps it."""
    with app.app_context():
        return [(m.variant, m.totals, m.hand_count, m.winner_team, m.finished_at is None)
                for m in db.session.execute(db.select(Match).order_by(Match.id)).scalars()]


def test_a_long_history_round_trips_losslessly(app, client, tmp_path):
    source = synthetic_history()
    assert upload(client, json.dumps(source).encode()).status_code == 303
    blob = client.get("/export.json").get_data()
    assert len(blob) > 10 * 64 * 1024  # far beyond the forms' limit
    first = json.loads(blob)
    assert len(first["matches"]) == 40
    assert sum(len(m["hands"]) for m in first["matches"]) == hands_in(source) > 1000
    assert any(m["finished_at"] for m in first["matches"])  # decided matches travel too
    for given, kept in zip(source["matches"], first["matches"], strict=True):
        for key in ("number", "out_order", "calls", "client_id", "version", "deleted_at"):
            wanted = [h[key] for h in given["hands"]]
            if key == "out_order":  # stored complete: compare the part that was given
                assert [h[key][:len(w)] for h, w in zip(kept["hands"], wanted,
                                                         strict=True)] == wanted
            else:
                assert [h[key] for h in kept["hands"]] == wanted, key
        assert [e["action"] for e in kept["log"]] == [e["action"] for e in given["log"]]
        assert kept["players"] == given["players"]
    other, fresh = fresh_client(tmp_path, "other")
    r = upload(fresh, blob)
    assert r.status_code == 303, r.get_data(as_text=True)[-600:]
    assert fresh.get("/export.json").get_json()["matches"] == first["matches"]
    assert stored_results(other) == stored_results(app)


def test_only_the_import_takes_a_large_body(client):
    big = b"x" * (80 * 1024)
    r = client.post("/matches/new", data={"seat_0": big.decode()})
    assert r.status_code == 413
    r = upload(client, b'{"format": "tichu-scorer", "version": 1, "matches": [], "pad": "'
               + big + b'"}')
    assert r.status_code == 303


def test_import_limit_is_configurable(tmp_path):
    app = make_app(tmp_path, IMPORT_MAX_BYTES=100 * 1024)
    with app.app_context():
        db.create_all()
    blob = json.dumps(synthetic_history(matches=10)).encode()
    assert len(blob) > 100 * 1024
    assert upload(app.test_client(), blob).status_code == 413


def count_statements(app):
    """SQL statements the app runs (executemany counts once), from now on."""
    seen = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute",
                     lambda *args: seen.append(args[2].split(None, 1)[0].upper()))
    return seen


def test_import_runs_a_fixed_number_of_statements(app, client):
    """No query per hand, per player or per match: the cost is the data, not round trips."""
    seen = count_statements(app)
    assert upload(client, json.dumps(synthetic_history(matches=4)).encode()).status_code == 303
    small = len(seen)
    seen.clear()
    assert upload(client, json.dumps(synthetic_history(matches=40)).encode()).status_code == 303
    assert len(seen) <= small + 6, seen  # a few more batches, not 10 times the queries
    assert len(seen) < 40


def test_import_writes_nothing_while_checking(app, client, monkeypatch):
    """Every hand is checked before the write transaction begins."""
    states = []
    real = hand_entry.score

    def spy(*args, **kwargs):
        states.append(db.session().in_transaction())
        return real(*args, **kwargs)

    monkeypatch.setattr(hand_entry, "score", spy)
    data = synthetic_history(matches=5)
    assert upload(client, json.dumps(data).encode()).status_code == 303
    assert len(states) == hands_in(data) and not any(states)


def test_a_save_on_another_match_goes_through_during_a_large_import(app, client):
    """One table scores while someone imports a long history: while the import is being
    checked it holds nothing, so the save is answered at once (303), not after the
    database's busy timeout with "database is locked"."""
    url = new_match(client)
    blob = json.dumps(synthetic_history(matches=40)).encode()
    paused, resume, statuses = threading.Event(), threading.Event(), []
    real = hand_entry.score
    importer: list[threading.Thread] = []

    def pausing(*args, **kwargs):
        if threading.current_thread() is importer[0] and not paused.is_set():
            paused.set()  # the first hand: the import is checking
            resume.wait(30)
        return real(*args, **kwargs)

    tab = same_phone(client, app)  # another tab of the same phone: imports to its table

    def run_import():
        statuses.append(upload(tab, blob).status_code)

    importer.append(threading.Thread(target=run_import))
    try:
        hand_entry.score = pausing
        importer[0].start()
        assert paused.wait(30)
        started = time.monotonic()
        r = post_hand(client, url, hand_form([0, 1], a=50))
        took = time.monotonic() - started
    finally:
        resume.set()
        importer[0].join(60)
        hand_entry.score = real
    # A save that waited for the import would fail after SQLite's busy timeout (5 s, 503)
    # or, on PostgreSQL, wait out the import's pause (30 s); a time bound tighter than that
    # measures only how loaded the machine is.
    assert r.status_code == 303 and took < 25
    assert statuses == [303]
    assert len(client.get("/export.json").get_json()["matches"]) == 41


def test_imports_are_checked_like_the_forms(client):
    """One refusal through the upload: the page names the match and the rule, and nothing
    is stored. Every check of an import: tests/transfer/test_json_import.py."""
    data = synthetic_history(matches=1, hands=3)
    data["matches"][0]["players"][2] = data["matches"][0]["players"][0]
    r = upload(client, json.dumps(data).encode())
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422, page[-900:]
    assert "match 1: Each seat needs a different player. (H1)" in page
    assert client.get("/export.json").get_json()["matches"] == []  # nothing stored


def decided_early(deleted=False):
    """A one-match export at target 300: hand 1 gives team A 400 (a double victory and a
    Grand Tichu made), deciding the match; hands 2 and 3 follow it (deleted, or in play)."""
    data = synthetic_history(matches=1, hands=3)
    match = data["matches"][0]
    match["target"] = 300
    match["hands"][0] |= {"out_order": [0, 2], "card_points": [None, None],
                          "calls": {"0": "grand"}}
    for hand in match["hands"][1:]:
        hand |= {"out_order": [1, 0], "card_points": [50, None], "calls": {},
                 "deleted_at": "2024-03-01T23:00:00" if deleted else None}
    return data


def test_an_import_with_hands_after_the_end_of_a_match_is_refused(app, client):
    """[E1]: a match ends with the hand that decides it; a file whose hands go on after it
    would store hands played after the match was over."""
    r = upload(client, json.dumps(decided_early()).encode())
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422, page[-900:]
    assert ("match 1: the match was won with hand 1 (Ann & P0-2 ünï), but the hands go on "
            "to hand 3" in page and "(E1)" in page)
    assert client.get("/export.json").get_json()["matches"] == []  # nothing stored
    # the same hands deleted (the log keeps them) leave a sound record: imported
    assert upload(client, json.dumps(decided_early(deleted=True)).encode()).status_code == 303
    assert stored_results(app) == [("nanking", [400, 0], 1, 0, False)]


def test_a_threechu_import_past_its_number_of_hands_is_refused(client):
    data = synthetic_history(matches=3, hands=4)
    data["matches"][2]["hand_limit"] = 3
    r = upload(client, json.dumps(data).encode())
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422
    assert "match 3: the match lasts 3 hands, but 4 hands are in play. (T3.5)" in page
    assert client.get("/export.json").get_json()["matches"] == []


def test_a_threechu_export_keeps_its_dummy_seat(client):
    data = synthetic_history(matches=3, hands=3)
    assert data["matches"][2]["variant"] == "threechu"
    assert upload(client, json.dumps(data).encode()).status_code == 303
    kept = client.get("/export.json").get_json()["matches"][2]
    assert kept["players"] == data["matches"][2]["players"] and kept["players"][-1] is None


def test_a_byte_order_mark_is_accepted(client):
    blob = "\ufeff".encode() + json.dumps(synthetic_history(matches=1, hands=2)).encode()
    assert upload(client, blob).status_code == 303
    assert len(client.get("/export.json").get_json()["matches"]) == 1


def test_a_time_zone_is_stored_as_utc(client):
    data = synthetic_history(matches=1, hands=1)
    data["matches"][0]["started_at"] = "2024-03-01T21:00:00+02:00"
    assert upload(client, json.dumps(data).encode()).status_code == 303
    assert client.get("/export.json").get_json()["matches"][0]["started_at"] == \
        "2024-03-01T19:00:00"


def test_imported_log_text_is_data_not_markup(app, client):
    """Log entries from an import (or an older version) are shown as text; the log page
    never treats them as markup or as a format string."""
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2]))
    with app.app_context():
        for action, summary in (("<a href=/x>", "<b>bold</b> 100%"),  # 16 characters
                                ("50%", "%(n)s %s"), ("added", "<i>x</i>")):
            db.session.add(HandEvent(match_id=match_id(url), hand_id=None, position=1,
                                     action=action, summary=summary))
        db.session.commit()
    r = client.get(url + "/log")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "<a href=/x>" not in page and "hand 1 &lt;a href=/x&gt;" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt; 100%" in page
    assert "hand 1 50%: %(n)s %s" in page and "&lt;i&gt;x&lt;/i&gt;" in page
    german = client.get(url + "/log", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "eingetragen" in german  # known actions are still translated


def test_csv_cells_cannot_become_formulas(client):
    url = new_match(client, names=["=HYPERLINK(\"//x\")", "@SUM(A1)", "+Cy", "-Dee"])
    post_hand(client, url, hand_form([1, 0], a=-25))  # team A: -25 card points
    rows = list(csv.reader(io.StringIO(client.get(url + "/export.csv").get_data(
        as_text=True))))
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c.startswith(csv_sheet.FORMULA_START)
                and not csv_sheet.PLAIN_NUMBER.fullmatch(c)]
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["players"].startswith("'=HYPERLINK")
    assert row["out_order"] == "'@SUM(A1) > =HYPERLINK(\"//x\")"
    assert (row["score_1"], row["score_2"], row["total_1"]) == ("-25", "125", "-25")
    assert row["hand"] == "1"


@pytest.mark.parametrize("cell, shown", [
    ("-35", "-35"), ("+5", "+5"), ("12.5", "12.5"), ("-35 : 135", "'-35 : 135"),
    ("=1+1", "'=1+1"), ("\t=1", "'\t=1"), ("\r=1", "'\r=1"), ("-1+1", "'-1+1"),
    ("Ann", "Ann"), ("", ""), (-35, "-35"),
])
def test_sheet_cells(cell, shown):
    assert csv_sheet.sheet_cell(cell) == shown


def test_a_large_import_passes_the_csrf_check(tmp_path):
    """CSRF reads the form before the view runs: the import's own limit must already
    apply then."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    page = client.get("/import").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    blob = json.dumps(synthetic_history(matches=10)).encode()
    assert len(blob) > 64 * 1024
    r = client.post("/import", data={"csrf_token": token,
                                     "file": (io.BytesIO(blob), "history.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    r = client.post("/import", data={"file": (io.BytesIO(blob), "history.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400  # still checked


# --- whole-history exports are written a batch at a time, and stay the same document -----

def got(client, url, **kwargs):
    """A download's status, headers and body; the response closed (its file too), as a
    server closes it."""
    response = client.get(url, **kwargs)
    try:
        return response.status_code, response.headers, response.get_data(as_text=True)
    finally:
        response.close()


@pytest.mark.parametrize("matches", [0, 1, 3, 120])
def test_the_written_export_is_the_document_it_always_was(app, client, matches):
    if matches:
        data = synthetic_history(matches=matches, hands=4)
        data["matches"][0]["log"][0]["summary"] = 'a "quote", a tab\t, a line\nbreak, ü, 🀄'
        assert upload(client, json.dumps(data).encode()).status_code == 303
    status, headers, body = got(client, "/export.json")
    with app.test_request_context():
        ids = listing.match_ids(list(db.session.execute(db.select(Group)).scalars()))
        whole = json.dumps(json_export.export_json(ids), indent=1, ensure_ascii=False)
        sheet = csv_sheet.export_csv(ids)
    assert status == 200 and body == whole
    assert headers["Content-Disposition"] == "attachment; filename=tichu-history.json"
    assert len(json.loads(whole)["matches"]) == matches
    assert got(client, "/export.csv")[2] == sheet
    built = sorted(p.suffix for p in (Path(app.instance_path) / "exports").glob("[!.]*"))
    assert built == [".csv", ".json"]  # served from the files written once


def test_a_streamed_export_reads_matches_in_batches(app, client):
    assert upload(client, json.dumps(synthetic_history(matches=120, hands=3)).encode()
                  ).status_code == 303
    seen = count_statements(app)
    blob = got(client, "/export.json")[2]
    selects = [s for s in seen if s == "SELECT"]
    batches = -(-120 // json_export.EXPORT_BATCH)
    # the device's tables, ids, the matches' states (exports.versions), then batches of
    # five: matches, hands, log, players, followed hands' events
    assert len(selects) <= 5 + 5 * batches, seen
    assert len(json.loads(blob)["matches"]) == 120


# --- an import's work grows linearly with its size ---------------------------------------

def long_match(hands):
    data = synthetic_history(matches=1, hands=hands, endless=True)
    match = data["matches"][0]
    assert len(match["hands"]) == hands
    for hand in match["hands"]:
        hand["created_at"] = "2024-03-01T20:00:00"
    for entry in match["log"]:
        entry["at"] = "2024-03-01T20:00:00"
    return data


def started_later(data):
    """The export with every match started a year later: other matches than the first
    import's (those would be recognised as already here)."""
    for match in data["matches"]:
        match["started_at"] = match["started_at"].replace("2024-", "2025-", 1)
    return data


def work(app, data):
    """Python function calls and SQL statements of one import into the device's table
    (counted, not timed: a quadratic step would show as four times the calls)."""
    import cProfile
    import pstats
    seen = count_statements(app)
    with app.test_request_context():
        group = db.session.execute(db.select(Group)).scalars().first()
        profile = cProfile.Profile()
        profile.enable()
        json_import.import_json(data, group)
        profile.disable()
    return pstats.Stats(profile).total_calls, len(seen)


# Twice the hands of one match, and twice the matches: a step that grows faster than the
# import shows as more than twice the calls. The matches are short (10 hands): twice as many
# of them is twice the hands too; 50 hands each found nothing more in 3.5 times the time.
@pytest.mark.parametrize("make", [lambda n: long_match(10 * n),
                                  lambda n: synthetic_history(matches=n, hands=10)],
                         ids=["one long match", "many matches"])
def test_an_import_twice_as_large_costs_twice_the_work(app, client, make):
    assert upload(client, json.dumps(synthetic_history(matches=1, hands=1)).encode()
                  ).status_code == 303
    calls_1, statements_1 = work(app, make(60))
    calls_2, statements_2 = work(app, started_later(make(120)))  # new matches, none skipped
    assert calls_2 <= 2.1 * calls_1, (calls_1, calls_2)
    assert statements_2 <= 2 * statements_1  # batches of CHUNK values: a few more


def test_csv_numbers_the_matches_of_the_sheet_not_by_database_id(client, app):
    """Ids never leave the app: the "match" column counts the sheet's matches 1, 2, …
    (matches without a hand have no row and take no number)."""
    for _ in range(3):
        new_match(client)  # matches without a hand: they take database ids
    urls = [new_match(client) for _ in range(2)]
    for u in urls:
        post_hand(client, u, hand_form([0, 1], a=60))
        post_hand(client, u, hand_form([1, 0], a=40))
    with app.test_request_context():
        ids = [match_id(u) for u in urls]
        assert min(ids) > 2
        sheet = list(csv.DictReader(io.StringIO(csv_sheet.export_csv(ids))))
    assert [r["match"] for r in sheet] == ["1", "1", "2", "2"]
    one = list(csv.DictReader(io.StringIO(client.get(urls[1] + "/export.csv").get_data(
        as_text=True))))
    assert [r["match"] for r in one] == ["1", "1"]
    everything = list(csv.DictReader(io.StringIO(client.get("/export.csv").get_data(
        as_text=True))))
    assert [r["match"] for r in everything] == ["1", "1", "2", "2"]


def test_a_history_of_every_feature_round_trips_through_its_own_export(client, tmp_path):
    """Own calls [R9] (made, failed, and one edited into another, so the log names them),
    bombs and a note, the match's own house rules and lead, Threechu, Grand Seigneur and a
    tournament's table: exported, imported into an empty app and exported again, nothing is
    lost or changed; both CSV sheets name the own call."""
    from tests.views.test_house_match import start as start_own
    from tests.views.test_tournaments import play, tables
    from tests.views.test_tournaments import start as start_cup

    fill_history(client)  # Nanking with an edit and an undo, Threechu, Grand Seigneur
    own = start_own(client, house="own", custom_calls="blind = 400, Small: 50",
                    double_100="y", lead_by="500")
    for data in (hand_form([0, 1], {"0": "blind"}, a=50) | {"bombs_1": "2", "note": "Dog"},
                 hand_form([1, 0], {"1": "Small"}, a=40),
                 hand_form([2, 3], {"2": "tichu"}, a=55)):
        assert post_hand(client, own, data).status_code == 303
    edited = client.post(own + "/hands/2/edit", data=hand_form([1, 0], {"1": "blind"}, a=40)
                         | {"version": "1"})
    assert edited.status_code == 303
    cup = start_cup(client, [f"Player {i}" for i in range(1, 5)], rounds=1, hands=1)
    assert client.post(cup + "/draw", data={"round": 1}).status_code == 303
    play(client, tables(client, cup, 1)[0], 1)

    first = client.get("/export.json").get_json()
    assert len(first["matches"]) == 5
    log = next(m for m in first["matches"] if m["house_rules"].get("custom_calls"))["log"]
    assert any("blind" in json.dumps(entry) for entry in log if entry["action"] == "edited")
    sheets = [client.get("/export.csv")]  # before the other app: on PostgreSQL it shares, and
    other, fresh = fresh_client(tmp_path, "every-feature")  # empties, the database
    try:
        assert upload(fresh, json.dumps(first).encode()).status_code == 303
        assert strip_ids(fresh.get("/export.json").get_json()) == strip_ids(first)
        sheets.append(fresh.get("/export.csv"))
        for sheet in sheets:
            assert sheet.status_code == 200 and "Ann: blind" in sheet.get_data(as_text=True)
    finally:
        with other.app_context():
            db.engine.dispose()
