"""Exports built once per state of their matches, one build at a time per server, served
from a file (tichu_scorer/transfer/exports.py)."""

import csv
import fcntl
import io
import json
import threading
from pathlib import Path

import pytest

from tests.conftest import hand_form, make_app, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.transfer import exports


@pytest.fixture()
def builds(monkeypatch):
    """The exports written, by file name."""
    written = []
    write = exports._write

    def counted(path, chunks):
        written.append(path.name)
        write(path, chunks)

    monkeypatch.setattr(exports, "_write", counted)
    return written


def served(tmp_path, **config):
    """An app with these settings, its tables made, and a client of it."""
    app = make_app(tmp_path, **config)
    with app.app_context():
        db.create_all()
    return app, app.test_client()


def files(app):
    return sorted(p.name for p in (Path(app.instance_path) / exports.FOLDER).glob("[!.]*"))


def test_an_export_is_built_once_per_revision(client, builds):
    url = new_match(client)
    post_hand(client, url, hand_form(out=[0, 1], a="60", b="40"))
    first = client.get(url + "/export.json")
    again = client.get(url + "/export.json")
    assert first.status_code == again.status_code == 200
    assert first.data == again.data and len(builds) == 1
    assert len(json.loads(first.data)["matches"][0]["hands"]) == 1
    post_hand(client, url, hand_form(out=[2, 3], a="30", b="70"))  # a new revision
    after = client.get(url + "/export.json")
    assert len(json.loads(after.data)["matches"][0]["hands"]) == 2 and len(builds) == 2
    assert client.get(url + "/export.csv").status_code == 200 and len(builds) == 3
    # the history of this one match is the same document: served from the same file
    assert client.get("/export.json").data == after.data and len(builds) == 3
    new_match(client)
    assert client.get("/export.json").status_code == 200 and len(builds) == 4


def test_a_history_export_changes_with_any_of_its_matches(client, builds):
    one, two = new_match(client), new_match(client)
    post_hand(client, one, hand_form(out=[0, 1], a="60", b="40"))
    before = client.get("/export.csv").data
    post_hand(client, two, hand_form(out=[0, 1], a="55", b="45"))
    after = client.get("/export.csv").data
    assert before != after and "55" in card_points(after) and len(builds) == 2
    assert client.post(two + "/delete", data={"confirm": "y"}).status_code == 303
    gone = client.get("/export.csv")  # match two left: a new state of the history
    assert gone.status_code == 200 and len(builds) == 3 and "55" not in card_points(gone.data)
    assert gone.data == before  # match two had no hand then: the same rows


def card_points(sheet: bytes) -> list[str]:
    """The first team's card points of each hand of a CSV sheet (a "55" searched in the
    whole sheet also met the start time of a match begun at minute 55)."""
    return [row["card_points_1"] for row in csv.DictReader(io.StringIO(sheet.decode()))]


def test_a_repeat_download_is_answered_304_by_its_etag(client):
    url = new_match(client)
    first = client.get(url + "/export.json")
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert first.headers["Content-Disposition"].startswith("attachment")
    repeat = client.get(url + "/export.json", headers={"If-None-Match": tag})
    assert repeat.status_code == 304 and not repeat.data
    post_hand(client, url, hand_form(out=[0, 1], a="60", b="40"))
    changed = client.get(url + "/export.json", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_while_another_build_holds_the_server_a_new_export_is_answered_503(tmp_path):
    app, client = served(tmp_path, EXPORT_WAIT=0.2)
    url = new_match(client)
    folder = Path(app.instance_path) / exports.FOLDER
    folder.mkdir(exist_ok=True)
    with open(folder / exports.LOCK, "a+b") as held:  # another worker's build
        fcntl.flock(held, fcntl.LOCK_EX)
        busy = client.get(url + "/export.json")
        fcntl.flock(held, fcntl.LOCK_UN)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"
    assert "try again" in busy.get_data(as_text=True) and files(app) == []
    assert client.get(url + "/export.json").status_code == 200 and len(files(app)) == 1


def test_a_built_export_is_served_while_another_is_built(tmp_path):
    app, client = served(tmp_path, EXPORT_WAIT=0.2)
    url = new_match(client)
    assert client.get(url + "/export.json").status_code == 200
    with open(Path(app.instance_path) / exports.FOLDER / exports.LOCK, "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert client.get(url + "/export.json").status_code == 200  # no build needed
        assert client.get(url + "/export.csv").status_code == 503
        fcntl.flock(held, fcntl.LOCK_UN)


def test_requests_for_one_new_export_build_it_once(app, builds, monkeypatch):
    client = app.test_client()
    url = new_match(client)
    post_hand(client, url, hand_form(out=[0, 1], a="60", b="40"))
    write = exports._write
    started = threading.Barrier(4)

    def slow(path, chunks):  # the build takes a while: the others come meanwhile
        write(path, chunks)
        threading.Event().wait(0.3)

    monkeypatch.setattr(exports, "_write", slow)
    answers = []

    def ask():
        started.wait()
        answers.append(client.get(url + "/export.csv"))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200] * 4
    assert len({a.data for a in answers}) == 1 and len(files(app)) == 1 and len(builds) == 1


def test_the_folder_keeps_within_its_bound_dropping_the_oldest(tmp_path):
    app, client = served(tmp_path, EXPORT_CACHE_BYTES=1)
    one, two = new_match(client), new_match(client)
    assert client.get(one + "/export.json").status_code == 200
    first = files(app)
    assert client.get(two + "/export.json").status_code == 200
    kept = files(app)
    assert len(kept) == 1 and kept != first  # the file just built stays, the older went
    assert client.get(one + "/export.json").status_code == 200  # built again when asked


def test_a_failed_build_leaves_no_file(app, monkeypatch):
    client = app.test_client()
    url = new_match(client)

    def broken(kind, ids):
        yield "{"
        raise RuntimeError("the database went away")

    monkeypatch.setattr(exports, "_chunks", broken)
    assert client.get(url + "/export.json").status_code >= 500
    folder = Path(app.instance_path) / exports.FOLDER
    assert [p.name for p in folder.iterdir() if p.name != exports.LOCK] == []
