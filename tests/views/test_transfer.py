"""Export and import: JSON round-trips losslessly; CSV is a readable sheet."""

import io
import json
from pathlib import Path

import pytest

from tests.conftest import hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db


def fill_history(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    post_hand(client, url, hand_form([1, 0], {"3": "grand"}, a=35,
                                                   wish=None) | {"client_id": "c-1"})
    post_hand(client, url, hand_form([], {"1": "tichu"}, wish=2))
    client.post(url + "/hands/1/edit", data=hand_form([0, 2], {"0": "grand"}) | {"version": "1"})
    client.post(url + "/undo", data={"number": "3"})
    t3 = client.post("/matches/new", data={"variant": "threechu", "seat_0": "Tom",
                                           "seat_1": "Uma", "seat_2": "Vic",
                                           "length": "hands", "hands": "3"}).headers["Location"]
    post_hand(client, t3, hand_form([3, 1], {"3": "tichu"}, a=50))
    gs = client.post("/matches/new", data={"variant": "seigneur", **{
        f"seat_{i}": f"G{i}" for i in range(5)}}).headers["Location"]
    post_hand(client, gs, {"place_1": "4", "place_2": "2", "place_3": "0",
                                         "place_4": "1"})
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
                                                   "undone"]


def test_csv_sheet(client):
    url = fill_history(client)
    text = client.get(url + "/export.csv").get_data(as_text=True)
    lines = text.strip().splitlines()
    assert lines[0].startswith("match,variant,started,hand,players,out_order,calls")
    assert len(lines) == 3  # header and the two hands in play
    assert "Ann > Cy" in lines[1] and "Ann: Grand Tichu" in lines[1] and "400 : 0" in lines[1]
    assert "Dee: Grand Tichu" in lines[2]
    everything = client.get("/export.csv").get_data(as_text=True)
    assert "threechu" in everything and "seigneur" in everything


@pytest.mark.parametrize("payload, message", [
    (b"not json", "not a JSON export"),
    (b'{"format": "other"}', "not a Tichu Scorer export"),
    (b'{"format": "tichu-scorer", "version": 9, "matches": []}', "not supported"),
    (json.dumps({"format": "tichu-scorer", "version": 1, "matches": [
        {"variant": "nanking", "players": ["A", "B", "C", "D"], "target": 1000,
         "hands": [{"number": 1, "out_order": [0, 1], "card_points": [33, None]}]}]}).encode(),
     "match 1, hand 1: Team A&#39;s card points (33) must be a multiple of 5. (P1)"),
    (json.dumps({"format": "tichu-scorer", "version": 1, "matches": [
        {"variant": "nanking", "players": ["A", "B"]}]}).encode(), "players must be a list of 4 names"),
])
def test_bad_imports_store_nothing(client, payload, message):
    r = client.post("/import", data={"file": (io.BytesIO(payload), "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422 and message in r.get_data(as_text=True)
    assert "No matches yet" in client.get("/").get_data(as_text=True)


def test_importing_twice_keeps_both_copies(client):
    fill_history(client)
    blob = client.get("/export.json").get_data()
    for _ in range(2):
        r = client.post("/import", data={"file": (io.BytesIO(blob), "x.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 303
    assert len(client.get("/export.json").get_json()["matches"]) == 9


def test_print_stylesheet_hides_controls():
    css = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()
    block = css[css.index("@media print {\n  :root"):]
    assert ".topbar" in block and ".page-links" in block and ".save-bar" in block
