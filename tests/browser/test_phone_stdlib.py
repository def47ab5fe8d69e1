"""The phone's standard library is cut to what the core imports (tools/core_stdlib.txt,
docs/OFFLINE_CORE.md): under Pyodide, with the whole standard library, the worker is asked
every operation it serves, from nothing and from its snapshot (tests/browser/stdlib_trace.py);
a module it imported that the list lacks fails here, not on a phone. The same requests then
go to the bundle as served, the cut, which must answer each as the whole library did."""

from __future__ import annotations

import json
import os
import zipfile

import pytest

from tests.browser.conftest import CHROMIUM
from tests.browser.stdlib_trace import LIST, in_archive, trace
from tests.views.test_core_stdlib import listed, runtime

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine"),
              pytest.mark.core]


def last_line(answer: dict) -> dict:
    """An answer, an error by its last line (the exception: the trace's patch adds a frame
    to the traceback before it)."""
    if "error" in answer:
        return {"error": answer["error"].strip().splitlines()[-1]}
    return {"answer": answer["answer"], "outOfTime": answer["outOfTime"]}


def test_the_cut_standard_library_holds_every_module_the_core_imports(browser):
    folder = runtime()
    if folder is None:
        if os.environ.get("CI"):
            pytest.fail("the Pyodide bundle is missing: `make pyodide` must fetch it in CI")
        pytest.skip("the Pyodide bundle could not be fetched: see docs/OFFLINE_CORE.md")
    modules, whole = trace(browser)
    names = set(zipfile.ZipFile(folder / "python_stdlib.zip").namelist())
    needed = set(in_archive(modules, names))
    missing = needed - set(listed())
    assert not missing, (f"{sorted(missing)} are imported by the core under Pyodide but not "
                         f"in {LIST.name}: `python -m tests.browser.stdlib_trace --write`")
    assert {"json", "gettext", "decimal", "dataclasses", "traceback"} <= needed
    _none, cut = trace(browser, whole=False)
    for start_whole, start_cut in zip(whole, cut, strict=True):
        for asked, full, mine in zip(range(len(start_cut)), start_whole, start_cut, strict=True):
            assert last_line(mine) == last_line(full), json.dumps([asked, mine, full])[:2000]
    errors = [[a["error"] for a in start if "error" in a] for start in (*whole, *cut)]
    assert 0 < len(errors[-1]) < len(cut[-1]) // 10  # the malformed requests' only
    assert not [e for start in errors for e in start
                if "ModuleNotFoundError" in e or "ImportError" in e]
