"""The phone's copy of the core as the app serves it (views/core.py): the core's files as
one archive built from the source, the pinned Pyodide runtime compressed ahead of time,
and the worker; the match page hands the phone its match's facts."""

from __future__ import annotations

import html
import io
import json
import os
import re
import zipfile

import pytest

from tests.conftest import make_app, new_match
from tichu_scorer import cache
from tichu_scorer.scoring.state import MatchState
from tichu_scorer.views import core


def test_the_archive_holds_the_pure_core_and_nothing_of_the_web_app(app):
    names = set(zipfile.ZipFile(io.BytesIO(core.core_archive())).namelist())
    assert "tichu_scorer/core/answers.py" in names
    assert "tichu_scorer/scoring/hand.py" in names and "tichu_scorer/engine/referee.py" in names
    assert zipfile.ZipFile(io.BytesIO(core.core_archive())).read("tichu_scorer/__init__.py") == b""
    assert not {"tichu_scorer/matches/hand_entry.py", "tichu_scorer/models.py"} & names
    assert not any(n.startswith("tichu_scorer/views/") for n in names)
    assert core.core_archive() == core.core_archive()  # built the same way each time


def test_the_bundle_is_made_once_for_every_app_of_a_process(tmp_path, monkeypatch):
    """Every page asks for the worker's URL: a new app (the tests make thousands) neither
    zips the core nor hashes the standard library again (`cache.made_from`)."""
    monkeypatch.setattr(cache, "_FROM_FILES", {})
    zipped = []
    monkeypatch.setattr(core, "core_archive", lambda: zipped.append(1) or b"zip")
    for name in ("one", "two"):
        app = make_app(tmp_path / name)
        with app.test_request_context():
            found = core.bundle()
        assert found is not None and found.archive == b"zip"
    assert len(zipped) == 1
    assert {"core", "stdlib"} <= set(cache._FROM_FILES)  # kept by kind


def test_a_threechu_hand_naming_a_seat_the_table_lacks_is_refused_not_a_500(client):
    data = {"variant": "threechu", "seat_0": "Tom", "seat_1": "Uma", "seat_2": "Vic",
            "length": "hands", "hands": "3"}
    url = client.post("/matches/new", data=data).headers["Location"]
    answer = client.post(url + "/hands/preview", json={"out_order": [0, 4]})
    assert answer.status_code == 422
    assert {"rule": "H1", "field": "out_order"}.items() <= answer.get_json()["errors"][0].items()


def test_the_match_page_hands_the_phone_its_facts(client):
    url = new_match(client)
    client.post(url + "/hands/new", data={"number": "1", "place_1": "0", "place_2": "2",
                                          "card_a": "", "card_b": ""})
    page = client.get(url).get_data(as_text=True)
    facts = json.loads(html.unescape(re.search(r'data-facts="([^"]*)"', page).group(1)))
    assert facts == ["nanking", ["Ann", "Bob", "Cy", "Dee"], 1000, None, 1, [200, 0], False]
    state = MatchState.from_dict(facts)
    assert state.to_dict() == {
        "variant": "nanking", "names": ("Ann", "Bob", "Cy", "Dee"), "target": 1000,
        "hand_limit": None, "hand_count": 1, "totals": (200, 0), "finished": False,
        "house": None, "lead_by": None, "victory": ()}


@pytest.fixture()
def bundled(app):
    with app.app_context():
        if core.bundle() is None:
            if os.environ.get("CI"):
                pytest.fail("the Pyodide bundle is missing: `make pyodide` must fetch it in CI")
            pytest.skip("the Pyodide bundle could not be fetched: see docs/OFFLINE_CORE.md")
        with app.test_request_context():
            return core.kept_urls()


def test_the_runtime_is_sent_compressed_ahead_of_time_and_kept(client, bundled):
    wasm = next(u for u in bundled if u.endswith(".wasm"))
    answer = client.get(wasm, headers={"Accept-Encoding": "br, gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br"
    assert answer.headers["Content-Type"] == "application/wasm"
    assert "immutable" in answer.headers["Cache-Control"]
    gz = client.get(wasm, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and len(gz.data) > len(answer.data)
    plain = client.get(wasm, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data[:4] == b"\0asm"
    assert client.get(wasm.replace("pyodide.asm.wasm", "console.html")).status_code == 404
    assert client.get(wasm.replace(wasm.split("/")[3], "0.0.1")).status_code == 404


def test_the_worker_may_compile_webassembly_and_nothing_else_more(client, bundled):
    worker = bundled[0]
    answer = client.get(worker)
    assert answer.headers["Content-Security-Policy"] == core.WORKER_CSP
    assert "'wasm-unsafe-eval'" in core.WORKER_CSP and "'unsafe-eval'" not in \
        core.WORKER_CSP.replace("'wasm-unsafe-eval'", "")
    assert answer.get_data(as_text=True).startswith("const BUNDLE = ")


def test_the_service_worker_lists_the_core_but_does_not_install_it(client, bundled):
    script = client.get("/sw.js").get_data(as_text=True)
    build = json.loads(script.split("\n", 1)[0].removeprefix("const BUNDLE = ")
                       .removeprefix("const BUILD = ").rstrip(";"))
    assert build["core"] == bundled
    assert not set(bundled) & set(build["assets"])


def test_a_phone_that_has_a_runtime_file_gets_a_304(client, bundled):
    wasm = next(u for u in bundled if u.endswith(".wasm"))
    first = client.get(wasm, headers={"Accept-Encoding": "br"})
    tag = first.headers["ETag"]
    again = client.get(wasm, headers={"Accept-Encoding": "br", "If-None-Match": tag})
    assert again.status_code == 304 and not again.data
    other = client.get(wasm, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] != tag  # another encoding
    part = client.get(wasm, headers={"Accept-Encoding": "identity", "Range": "bytes=0-3"})
    assert part.status_code == 206 and part.data == b"\0asm"


@pytest.mark.parametrize("name", ["archive", "worker", "core_stdlib"])
def test_only_the_current_version_of_a_core_file_is_kept_for_a_year(client, bundled, name):
    """The standard library's cut is the project's, so it is named by its hash, as the
    archive and the worker are: a new cut is a new URL, which the phones fetch."""
    url = {"archive": bundled[1], "worker": bundled[0]}.get(name) or next(
        u for u in bundled if name in u)
    current = client.get(url)
    assert "immutable" in current.headers["Cache-Control"]
    for stale in (url.split("?")[0] + "?v=0123456789ab", url.split("?")[0]):
        answer = client.get(stale)  # the file of now, under a name that is not its own
        assert answer.status_code == 200 and answer.data == current.data
        assert answer.headers["Cache-Control"] == "no-cache"
    repeat = client.get(url, headers={"If-None-Match": current.headers["ETag"]})
    assert repeat.status_code == 304


def test_one_address_pulls_the_core_files_within_a_bound(tmp_path, bundled):
    from tests.conftest import make_app
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, CORE_RATE_LIMIT="3 per hour")
    phone = app.test_client()
    asked = [phone.get(url).status_code for url in bundled[:5]]  # one budget for all files
    assert asked == [200, 200, 200, 429, 429]
    other = app.test_client()  # another address: its own budget
    assert other.get(bundled[0], environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
