"""The phone's bundle before and after the standard library's cut and brotli 10, in one run
(docs/PERFORMANCE.md, "The core on the phone"): each file's bytes as sent, and the first
offline score and later previews of a phone started from each, side by side.

    python benchmarks/phone_bundle.py [--rounds 2] [--runs worker:1 main:4] [--previews 30]
    python benchmarks/phone_bundle.py --starts 8   # only the worker's start from nothing

"before" is the set-up as it was, made again from the same downloaded files in a folder of
its own: every file at brotli 6 (gzip where brotli was not smaller: the standard library,
a zip of deflated files), and the whole standard library (`python_stdlib.zip` as the
package has it, served in the cut's place). "after" is the set-up's folder as
tools/fetch_pyodide.py leaves it. The app serves each in turn (PYODIDE_DIR); the phones are
benchmarks/phone_core_main.py's (`run`): the match page open 30 s with signal, then the hand
form without signal, its first preview timed from the navigation; `worker:1` starts the
core in its Web Worker at 1×, `main:4` on the page's thread at a 4× CPU slowdown (the
honest figure for a slower phone: Chromium does not slow a worker). Each start from
nothing ("cold") and from the kept snapshot, before and after alternating, so that both
meet the same load. `--starts N` times only the worker's start from nothing, N times with
each library in turn, without the 30 s page (`starts`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import brotli

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.phone_core import BODY, served_bundle  # noqa: E402
from benchmarks.phone_core_main import load, quiet, run  # noqa: E402
from tests.browser.conftest import ARGS, CHROMIUM, browser_app, serving  # noqa: E402
from tests.browser.stdlib_trace import START, facts  # noqa: E402
from tichu_scorer.views import core  # noqa: E402

BEFORE_QUALITY = 6  # tools/fetch_pyodide.py's until the cut
RAW = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")


def before_folder(after: Path, root: Path) -> Path:
    """The set-up's folder as it was before the cut, from the same files: brotli 6, and the
    whole standard library served under the cut's name."""
    folder = root / after.name
    folder.mkdir(parents=True)
    shutil.copy(after / ".complete", folder / ".complete")
    for name, source in [*((n, n) for n in RAW), (core.STDLIB, "python_stdlib.zip")]:
        raw = (after / source).read_bytes()
        (folder / name).write_bytes(raw)
        packed = gzip.compress(raw, 9, mtime=0)
        (folder / f"{name}.gz").write_bytes(packed)
        better = brotli.compress(raw, quality=BEFORE_QUALITY, lgwin=24)
        if len(better) < len(packed):
            (folder / f"{name}.br").write_bytes(better)
    return folder


def starts(count: int, before: Path) -> dict[str, list[dict[str, int]]]:
    """The worker's start from nothing, `count` times with each standard library, in turn
    and each pair in the other order: a fresh browser context (no service worker, no
    snapshot), the worker of tests/browser/stdlib_trace.py asked one preview; its steps
    (ms from its first message: `load` is loadPyodide, the interpreter's start with the
    library's imports; `ready` the core imported and the snapshot taken) and the first
    answer's wall time from the worker's creation. "before" gets the whole library in
    the cut's place."""
    from playwright.sync_api import sync_playwright
    whole = (before / core.STDLIB).read_bytes()
    text = json.dumps({"op": "preview", "facts": facts("nanking"), "body": BODY})
    app = browser_app(Path(tempfile.mkdtemp()))
    with app.app_context(), app.test_request_context():
        url = core.worker_url()
    out: dict[str, list[dict[str, int]]] = {"before": [], "after": []}
    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(count):
            for label in ("before", "after") if i % 2 == 0 else ("after", "before"):
                context = browser.new_context(service_workers="block")
                if label == "before":
                    context.route("**/core/pyodide/*/core_stdlib.zip*", lambda route: route.fulfill(
                        body=whole, content_type="application/zip"))
                page = context.new_page()
                page.goto(base + "/offline")
                began = time.monotonic()
                answer = page.evaluate(START, [url, [text], text])["answers"][0]
                took = round((time.monotonic() - began) * 1000)
                assert answer["answer"][1] == 200, answer
                out[label].append({k: round(v) for k, v in answer["steps"].items()
                                   if k != "snapshot"} | {"first": took, "load_avg": load()})
                print(json.dumps({"bundle": label, **out[label][-1]}), flush=True)
                context.close()
        browser.close()
    return out


def sizes(runtime: Path) -> dict[str, int]:
    """Each file of the core as a phone receives it from the app serving `runtime`."""
    os.environ["PYODIDE_DIR"] = str(runtime.parent)
    return served_bundle()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--runs", nargs="+", default=["worker:1", "main:4"])
    parser.add_argument("--previews", type=int, default=30)
    parser.add_argument("--starts", type=int, default=0,
                        help="only the worker's start from nothing, this many times each")
    args = parser.parse_args()
    quiet()
    after = served_bundle()[0].extensions["tichu_core"].runtime
    before = before_folder(after, Path(tempfile.mkdtemp()))
    bundles = {"before": before, "after": after}
    sent = {label: sizes(folder) for label, folder in bundles.items()}
    for name in sent["after"]:
        print(json.dumps({"file": name, "before": sent["before"].get(name),
                          "after": sent["after"][name]}))
    print(json.dumps({label: sum(s.values()) for label, s in sent.items()} | {"load": load()}),
          flush=True)
    if args.starts:
        os.environ["PYODIDE_DIR"] = str(after.parent)
        for label, rows in starts(args.starts, before).items():
            print(json.dumps({"bundle": label, **{k: statistics.median(r[k] for r in rows)
                                                 for k in ("load", "ready", "first")}}))
        return
    firsts: dict[tuple[str, ...], list[int]] = {}
    for _ in range(args.rounds):
        for spec in args.runs:
            thread, rate = spec.split(":")
            for start in ("cold", "snapshot"):
                for label, folder in bundles.items():
                    row = run(int(rate), args.previews, start == "snapshot", thread,
                              str(folder.parent))
                    row["bundle"] = label
                    print(json.dumps(row), flush=True)
                    firsts.setdefault((spec, start, label), []).append(row["first_ms"])
    for (spec, start, label), values in sorted(firsts.items()):
        print(json.dumps({"run": spec, "start": start, "bundle": label,
                          "first_ms_median": statistics.median(values), "first_ms": values}))


if __name__ == "__main__":
    main()
