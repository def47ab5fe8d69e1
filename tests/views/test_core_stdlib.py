"""The standard library the phone gets is cut to tools/core_stdlib.txt (docs/OFFLINE_CORE.md):
the served archive is that cut, compiled to bytecode where the set-up has Node (CI's
does), and every module the core's own files import is in it (the trace under Pyodide,
tests/browser/test_phone_stdlib.py, checks what the standard library imports in turn, and
that the served archive answers as the whole library's sources do)."""

from __future__ import annotations

import ast
import io
import shutil
import struct
import zipfile
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import CI
from tests.test_fetch_pyodide import fetch
from tichu_scorer.views import core


def listed() -> list[str]:
    return fetch.listed(fetch.MODULES.read_text())


def runtime() -> Path | None:
    """The set-up's Pyodide folder, None when it could not fetch it."""
    return core._runtime_folder(Flask(__name__))


@pytest.fixture()
def folder() -> Path:
    found = runtime()
    if found is None:
        pytest.skip("the Pyodide bundle could not be fetched: see docs/OFFLINE_CORE.md")
    return found


def test_the_served_standard_library_is_the_cut_of_the_list(folder):
    """A list changed since the set-up ran fails here: `make pyodide` cuts again. With Node
    (required in CI) each module is served as its bytecode: `name.pyc` where `name.py` was,
    hash-based and unchecked (no source to check against), all of one Python's."""
    sources = fetch.cut((folder / fetch.FULL).read_bytes(), listed())
    assert CI is False or shutil.which("node"), "CI's set-up compiles the cut: Node is needed"
    if shutil.which("node") is None:
        assert (folder / core.STDLIB).read_bytes() == sources
        return
    served = zipfile.ZipFile(folder / core.STDLIB)
    assert served.namelist() == [n + "c" if n.endswith(".py") else n
                                 for n in zipfile.ZipFile(io.BytesIO(sources)).namelist()]
    headers = {served.read(n)[:8] for n in served.namelist() if n.endswith(".pyc")}
    assert len({h[:4] for h in headers}) == 1  # one magic number: Pyodide's Python
    assert {struct.unpack("<I", h[4:])[0] for h in headers} == {0b01}  # hash, unchecked
    names = set(served.namelist())
    assert "json/__init__.pyc" in names and "gettext.pyc" in names
    assert "email/__init__.pyc" not in names and "unittest/__init__.pyc" not in names


def served_modules(folder: Path) -> set[str]:
    """The served archive's files as their sources' names (`x.pyc` as `x.py`)."""
    return {n.removesuffix("c") if n.endswith(".pyc") else n
            for n in zipfile.ZipFile(folder / core.STDLIB).namelist()}


def imports(source: str) -> set[str]:
    """The absolute modules an import statement of `source` names, at any depth (in a
    function too): `from x import y` names x, and x.y in case y is a module."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            named |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return named


# markupsafe's deprecated `__version__` (its package metadata, which the phone has not)
NEVER_ASKED = {"importlib.metadata"}


def test_every_module_the_cores_files_import_is_in_the_cut(folder):
    archive = zipfile.ZipFile(io.BytesIO(core.core_archive()))
    named: set[str] = set()
    for name in archive.namelist():
        if name.endswith(".py"):
            named |= imports(archive.read(name).decode())
    stdlib = set(zipfile.ZipFile(folder / fetch.FULL).namelist())
    cut = served_modules(folder)
    files = {m: {m.replace(".", "/") + ".py", m.replace(".", "/") + "/__init__.py"}
             for m in named}
    missing = sorted(m for m, paths in files.items()
                     if paths & stdlib and not paths & cut and m not in NEVER_ASKED)
    assert not missing, f"imported by the core, not in tools/core_stdlib.txt: {missing}"
    assert {"json", "gettext", "decimal"} <= {m for m, paths in files.items() if paths & cut}
