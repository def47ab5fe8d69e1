"""The set-up's fetch of the pinned Pyodide (tools/fetch_pyodide.py), without network."""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
import time_machine

SPEC = importlib.util.spec_from_file_location(
    "fetch_pyodide", Path(__file__).resolve().parent.parent / "tools" / "fetch_pyodide.py")
assert SPEC and SPEC.loader
fetch = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(fetch)


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def stdlib() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("json/__init__.py", "json/decoder.py", "gettext.py", "email/__init__.py",
                     "encodings/__init__.py", "encodings/utf_8.py"):
            # a fixed date: the same archive whenever it is made (as the tarball below)
            archive.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), f"# {name}\n" * 50,
                             zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def tarball() -> bytes:
    files = {name: b"x" * 2000 for name in fetch.FILES} | {fetch.FULL: stdlib()} | {
        fetch.LOCK: json.dumps({"info": {"version": "9.9.9"}, "packages": {"numpy": {}}}).encode(),
        "package.json": b"{}", "console.html": b"not taken"}
    buffer = io.BytesIO()
    # the same bytes on every call: gzip's header (and the zip's dates) would otherwise carry
    # the time it was made, and a test that made it twice across a second's turn saw
    # another checksum
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w") as tar:
        for name, raw in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
    return buffer.getvalue()


@pytest.fixture(autouse=True)
def without_node(monkeypatch):
    """No Node unless a test gives one (the fake bundle's Pyodide compiles nothing)."""
    which = fetch.shutil.which
    monkeypatch.setattr(fetch.shutil, "which",
                        lambda name: None if name == "node" else which(name))


def fetched(monkeypatch, tmp_path) -> Path:
    """The fake package fetched and prepared; its folder."""
    data = tarball()
    source = tmp_path / "p.tgz"
    source.write_bytes(data)
    monkeypatch.setattr(fetch, "tarball_url", lambda version: source.as_uri())
    assert fetch.main(["9.9.9", integrity(data), str(tmp_path / "out")]) == 0
    return tmp_path / "out" / "9.9.9"


def test_the_address_comes_from_the_users_configuration_never_from_the_project(monkeypatch):
    monkeypatch.setattr(fetch.shutil, "which", lambda name: None)  # no npm
    for name in ("PYODIDE_TARBALL", "NPM_CONFIG_REGISTRY", "npm_config_registry"):
        monkeypatch.delenv(name, raising=False)
    assert fetch.tarball_url("1.2.3") is None
    monkeypatch.setenv("NPM_CONFIG_REGISTRY", "https://mirror.example/npm/")
    assert fetch.tarball_url("1.2.3") == "https://mirror.example/npm/pyodide/-/pyodide-1.2.3.tgz"
    monkeypatch.setenv("PYODIDE_TARBALL", "file:///tmp/p.tgz")
    assert fetch.tarball_url("1.2.3") == "file:///tmp/p.tgz"


def test_without_a_source_the_app_still_runs_but_ci_fails(monkeypatch, tmp_path):
    monkeypatch.setattr(fetch, "tarball_url", lambda version: None)
    assert fetch.main(["1.2.3", "sha512-x", str(tmp_path)]) == 0
    assert fetch.main(["1.2.3", "sha512-x", str(tmp_path), "--required"]) == 1
    assert not (tmp_path / "1.2.3").exists()


def test_a_download_that_does_not_match_the_pin_is_refused(monkeypatch, tmp_path):
    data = tarball()
    source = tmp_path / "p.tgz"
    source.write_bytes(data)
    monkeypatch.setattr(fetch, "tarball_url", lambda version: source.as_uri())
    with pytest.raises(SystemExit, match="not used"):
        fetch.main(["9.9.9", integrity(b"another"), str(tmp_path / "out")])
    assert not (tmp_path / "out" / "9.9.9" / fetch.DONE).exists()


@pytest.fixture(autouse=True)
def modules(monkeypatch, tmp_path):
    listing = tmp_path / "core_stdlib.txt"
    listing.write_text("# the core's\ngettext\njson  # a package\nencodings.*\n")
    monkeypatch.setattr(fetch, "MODULES", listing)
    return listing


def test_the_standard_library_is_cut_to_the_listed_modules():
    cut = zipfile.ZipFile(io.BytesIO(fetch.cut(stdlib(), ["json", "encodings.*"])))
    assert cut.namelist() == ["json/__init__.py", "encodings/__init__.py", "encodings/utf_8.py"]
    assert {info.compress_type for info in cut.infolist()} == {zipfile.ZIP_STORED}
    assert fetch.cut(stdlib(), ["json"]) == fetch.cut(stdlib(), ["json"])  # the same bytes
    with pytest.raises(SystemExit, match="tomllib"):
        fetch.cut(stdlib(), ["json", "tomllib"])


def test_only_what_the_core_needs_is_kept_compressed_ahead_of_time(monkeypatch, tmp_path,
                                                                   modules):
    data = tarball()
    source = tmp_path / "p.tgz"
    source.write_bytes(data)
    monkeypatch.setattr(fetch, "tarball_url", lambda version: source.as_uri())
    assert fetch.main(["9.9.9", integrity(data), str(tmp_path / "out")]) == 0
    folder = tmp_path / "out" / "9.9.9"
    assert not (folder / "console.html").exists()
    assert json.loads((folder / fetch.LOCK).read_text())["packages"] == {}
    for name in fetch.SERVED:
        assert (folder / f"{name}.gz").exists() and (folder / f"{name}.br").exists()
    assert not (folder / f"{fetch.FULL}.br").exists()  # cut from, never served
    names = zipfile.ZipFile(folder / fetch.CUT).namelist()
    assert "gettext.py" in names and "email/__init__.py" not in names
    assert (folder / fetch.DONE).read_text().strip() == integrity(data)
    # fetched once: a second run finds it done, downloads nothing and compresses nothing
    monkeypatch.setattr(fetch, "tarball_url", lambda version: pytest.fail("fetched again"))
    packed = fetch.brotli.compress
    monkeypatch.setattr(fetch.brotli, "compress", lambda *a, **k: pytest.fail("packed again"))
    assert fetch.main(["9.9.9", integrity(data), str(tmp_path / "out")]) == 0
    # a module added to the list: cut again from the files on disk, only the cut packed
    modules.write_text(modules.read_text() + "email\n")
    monkeypatch.setattr(fetch.brotli, "compress", lambda raw, **k: (
        pytest.fail("packed more than the cut") if raw[:2] != b"PK" else packed(raw, **k)))
    assert fetch.main(["9.9.9", integrity(data), str(tmp_path / "out")]) == 0
    assert "email/__init__.py" in zipfile.ZipFile(folder / fetch.CUT).namelist()


def test_with_node_the_cut_is_served_compiled_once_for_each_cut(monkeypatch, tmp_path,
                                                                modules):
    compiles: list[bytes] = []

    def compiler(dest, sources, required=False):  # as fetch.compiled: None without Node
        if fetch.shutil.which("node") is None:
            return None
        compiles.append(sources)
        return b"compiled " + hashlib.sha256(sources).hexdigest().encode()

    monkeypatch.setattr(fetch.shutil, "which", lambda name: "/usr/bin/node" if name == "node"
                        else None)
    monkeypatch.setattr(fetch, "compiled", compiler)
    folder = fetched(monkeypatch, tmp_path)
    sources = fetch.cut((folder / fetch.FULL).read_bytes(), fetch.listed(modules.read_text()))
    assert compiles == [sources]
    served = (folder / fetch.CUT).read_bytes()
    assert served == b"compiled " + hashlib.sha256(sources).hexdigest().encode()
    assert fetch.brotli.decompress((folder / f"{fetch.CUT}.br").read_bytes()) == served \
        or fetch.gzip.decompress((folder / f"{fetch.CUT}.gz").read_bytes()) == served
    fetch.prepare(folder, fetch.listed(modules.read_text()))  # the same cut: kept as it is
    assert len(compiles) == 1
    modules.write_text(modules.read_text() + "email\n")  # another cut: compiled again
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert len(compiles) == 2 and (folder / fetch.CUT).read_bytes() != served
    served = (folder / fetch.CUT).read_bytes()
    (folder / fetch.CUT).write_bytes(served[:10])  # cut short since: made again
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert len(compiles) == 3 and (folder / fetch.CUT).read_bytes() == served
    for spoiled in ("{", "[]"):  # a record that cannot be read: everything made again
        (folder / fetch.PACKED).write_text(spoiled)
        fetch.prepare(folder, fetch.listed(modules.read_text()))
        assert (folder / fetch.CUT).read_bytes() == served
        assert fetch.MADE_FROM in json.loads((folder / fetch.PACKED).read_text())
    monkeypatch.setattr(fetch.shutil, "which", lambda name: None)  # Node gone: the sources
    compiled_so_far = len(compiles)
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert len(compiles) == compiled_so_far
    assert (folder / fetch.CUT).read_bytes() == fetch.cut((folder / fetch.FULL).read_bytes(),
                                                          fetch.listed(modules.read_text()))


def test_a_compile_that_fails_serves_the_sources_and_fails_ci(monkeypatch, tmp_path, capsys):
    node = tmp_path / "node"
    node.write_text("#!/bin/sh\necho 'Error: this Node is too old' >&2\nexit 1\n")
    node.chmod(0o755)
    monkeypatch.setattr(fetch.shutil, "which", lambda name: str(node) if name == "node"
                        else None)
    assert fetch.compiled(tmp_path, b"PK sources") is None
    assert "this Node is too old" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="this Node is too old"):
        fetch.compiled(tmp_path, b"PK sources", required=True)
    monkeypatch.setattr(fetch.shutil, "which", lambda name: None)
    assert fetch.compiled(tmp_path, b"PK sources") is None
    with pytest.raises(SystemExit, match="apt-get install nodejs"):
        fetch.compiled(tmp_path, b"PK sources", required=True)
    # a Node that hangs, or that cannot be run at all: the sources, never a crash
    node.write_text("#!/bin/sh\nexec sleep 30\n")  # exec: the time-out stops the sleep too
    monkeypatch.setattr(fetch.shutil, "which", lambda name: str(node) if name == "node"
                        else None)
    monkeypatch.setattr(fetch, "COMPILE_SECONDS", 0.5)
    assert fetch.compiled(tmp_path, b"PK sources") is None
    assert "timed out" in capsys.readouterr().err
    node.chmod(0o644)
    assert fetch.compiled(tmp_path, b"PK sources") is None
    assert "Permission denied" in capsys.readouterr().err


def fake_node(path: Path, runs: Path, then: str) -> Path:
    """A `node` at `path` that notes each run in `runs`, then does `then` (its arguments as
    the compile's: the compiler, the Pyodide folder, the sources, the compiled archive)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho ran >> {runs}\n{then}\n")
    path.chmod(0o755)
    return path


def node_at(monkeypatch, node: Path) -> None:
    monkeypatch.setattr(fetch.shutil, "which", lambda name: str(node) if name == "node"
                        else None)


def runs(counted: Path) -> int:
    return len(counted.read_text().splitlines()) if counted.exists() else 0


def test_a_node_that_hangs_is_waited_for_once_for_each_cut(monkeypatch, tmp_path, modules,
                                                           capsys):
    folder = fetched(monkeypatch, tmp_path)
    sources, counted = (folder / fetch.CUT).read_bytes(), tmp_path / "runs"
    node_at(monkeypatch, fake_node(tmp_path / "bin" / "node", counted, "exec sleep 30"))
    monkeypatch.setattr(fetch, "COMPILE_SECONDS", 0.5)
    capsys.readouterr()
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    said = capsys.readouterr().err
    assert runs(counted) == 1 and "timed out" in said and str(folder / fetch.FAILED) in said
    assert (folder / fetch.CUT).read_bytes() == sources
    # the next set-ups serve the sources at once, silently; what is out of date is still packed
    (folder / f"{fetch.CUT}.gz").unlink()
    for _ in range(2):
        fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert runs(counted) == 1 and capsys.readouterr().err == ""
    assert (folder / fetch.CUT).read_bytes() == sources
    assert fetch.gzip.decompress((folder / f"{fetch.CUT}.gz").read_bytes()) == sources
    modules.write_text(modules.read_text() + "email\n")  # another cut: tried again, once
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert runs(counted) == 2 and "timed out" in capsys.readouterr().err
    assert "email/__init__.py" in zipfile.ZipFile(folder / fetch.CUT).namelist()


def test_another_node_is_tried_again(monkeypatch, tmp_path, modules, capsys):
    folder = fetched(monkeypatch, tmp_path)
    sources, counted = (folder / fetch.CUT).read_bytes(), tmp_path / "runs"
    listed = fetch.listed(modules.read_text())
    old = fake_node(tmp_path / "old" / "node", counted,
                    "echo 'SyntaxError: this Node is too old' >&2; exit 1")
    node_at(monkeypatch, old)
    fetch.prepare(folder, listed)
    fetch.prepare(folder, listed)
    assert runs(counted) == 1 and "this Node is too old" in capsys.readouterr().err
    assert (folder / fetch.CUT).read_bytes() == sources
    # the same Node replaced in place (an upgrade), failing otherwise: tried again, once
    fake_node(old, counted, "echo 'Error: still too old' >&2; exit 1")
    fetch.prepare(folder, listed)
    fetch.prepare(folder, listed)
    assert runs(counted) == 2 and "still too old" in capsys.readouterr().err
    # another Node first on PATH (another binary) that compiles: tried, and its cut kept
    node_at(monkeypatch, fake_node(tmp_path / "new" / "node", counted,
                                   "printf compiled > \"$4\""))
    fetch.prepare(folder, listed)
    fetch.prepare(folder, listed)
    assert runs(counted) == 3 and (folder / fetch.CUT).read_bytes() == b"compiled"
    assert not (folder / fetch.FAILED).exists() and capsys.readouterr().err == ""


def test_a_remembered_failure_still_fails_ci(monkeypatch, tmp_path, modules, capsys):
    folder = fetched(monkeypatch, tmp_path)
    counted = tmp_path / "runs"
    node_at(monkeypatch, fake_node(tmp_path / "bin" / "node", counted,
                                   "echo 'Error: this Node is too old' >&2; exit 1"))
    fetch.prepare(folder, fetch.listed(modules.read_text()))
    assert (folder / fetch.FAILED).exists() and runs(counted) == 1
    with pytest.raises(SystemExit, match="this Node is too old"):
        fetch.prepare(folder, fetch.listed(modules.read_text()), required=True)
    assert runs(counted) == 2
    data = tarball()  # and through the set-up's command line, as CI runs it
    with pytest.raises(SystemExit, match="this Node is too old"):
        fetch.main(["9.9.9", integrity(data), str(tmp_path / "out"), "--required"])
    assert runs(counted) == 3


def test_the_fake_package_is_the_same_whenever_it_is_made():
    """The tests that fetch it twice check its checksum against the first (a test failed
    when its two makes fell in two seconds: CI at 4a89126)."""
    with time_machine.travel("2026-12-06 23:59:58", tick=False):
        first = tarball()
    with time_machine.travel("2027-03-01 08:00:03", tick=False):
        assert tarball() == first
