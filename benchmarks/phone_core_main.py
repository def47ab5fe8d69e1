"""The phone's first offline score measured honestly: the core's start on the page's own
thread as well as in its Web Worker, at 1× and a 4× CPU slowdown (docs/PERFORMANCE.md,
"The core on the phone").

    python benchmarks/phone_core_main.py [--rates 1 4] [--previews 30] [--rounds 1]

Chromium's CPU throttling (DevTools Emulation.setCPUThrottlingRate) slows the page's
thread only, not a Web Worker's: the script first shows it (a fixed JavaScript loop timed
on the page and in a worker at each rate). So the worker's figures at "4×" are a
full-speed core beside a slow page; the same start run on the page's thread at 4× is the
honest figure for a slower phone's CPU.

Each phone (a fresh browser) opens a match as its scorer and leaves the match page open
30 s with signal, at the rate measured: the service worker keeps the core's files, and the
page's idle logic (ready.js, warm) has the worker keep its memory snapshot, or not yet (the
script says which). Then it loses its signal and opens the hand form from its copy:

- worker: the page starts the worker as it opens (offline.js), as on a real phone;
- main: the page's Worker is taken away (so nothing else runs), and the page, as it opens,
  runs what core-worker.js runs, on its own thread: the same URLs (the BUNDLE line of the
  kept worker script), pyodide.mjs's loadPyodide with the runtime's indexURL, core.zip
  unpacked, the kept snapshot when there is one, else the import and a snapshot taken.

"cold" drops the kept snapshot before going offline (the start from nothing); "snapshot"
starts from it. The first offline score is timed from the start of the hand form's
navigation to the first preview's answer (asked once the form shows); the later previews
one at a time after it. The main thread's start is split into its parts. Each row says
how much the core itself was slowed ("core_slowdown": the rate on the page's thread, 1 in
the worker).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.phone_core import (  # noqa: E402
    ASK,
    BODY,
    SNAPSHOTS,
    served_bundle,
    wait_for_snapshot,
    without_snapshot,
)
from tests.browser.conftest import ARGS, CHROMIUM, PHONE, browser_app, serving  # noqa: E402
from tests.browser.test_phone_core_offline import core_kept  # noqa: E402
from tests.browser.test_phone_offline import controlled_match  # noqa: E402

OPEN_S = 30  # how long the match page was open with signal

# the same fixed piece of work on the page's thread and in a Web Worker
LOOP = """function spin(n) {
  const began = performance.now(); let x = 0;
  for (let i = 0; i < n; i += 1) x = (x * 31 + i) | 0;
  return [performance.now() - began, x];
}"""
SPIN = """async (n) => {
  %s
  const page = spin(n)[0];
  const blob = new Blob([spin.toString() + "; onmessage = (e) => postMessage(spin(e.data)[0]);"],
                        { type: "text/javascript" });
  const w = new Worker(URL.createObjectURL(blob));
  const inWorker = await new Promise((resolve) => {
    w.onmessage = (e) => resolve(e.data);
    w.postMessage(n);
  });
  w.terminate();
  return [page, inWorker];
}""" % LOOP

# On the hand form opened without signal: no Web Worker (the page's own start is the one
# measured), and the start core-worker.js makes, on the page's thread, as the page opens
MAIN_INIT = """(() => {
  if (!location.pathname.endsWith("/hands/new")) return;
  window.Worker = undefined;
  const steps = {};
  const mark = (name) => { steps[name] = performance.now(); };
  const wasm = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (...args) => {
    mark("wasm_begun");
    try { return await wasm.apply(WebAssembly, args); } finally { mark("wasm_done"); }
  };
  async function start() {
    mark("begun");
    const url = document.querySelector("[data-core]").dataset.core.split(" ")[0];
    const script = await (await fetch(url)).text();
    const BUNDLE = JSON.parse(script.slice(script.indexOf("{"), script.indexOf(";\\n")));
    const name = "/core/snapshot" + new URL(url, location.href).search;
    const found = await (await caches.open("tichu-core")).match(name);
    const snapshot = found ? new Uint8Array(await found.arrayBuffer()) : null;
    mark("bundle");
    const { loadPyodide } = await import(BUNDLE.index + "pyodide.mjs");
    mark("loader");
    const [pyodide, archive] = await Promise.all([
      loadPyodide(Object.assign(
        { indexURL: BUNDLE.index, lockFileURL: BUNDLE.index + "pyodide-lock.json",
          stdLibURL: BUNDLE.stdlib },
        snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true })),
      fetch(BUNDLE.core).then((r) => r.arrayBuffer())]);
    mark("load");
    pyodide.unpackArchive(archive, "zip", { extractDir: "/core" });
    mark("unpacked");
    if (!snapshot) {
      pyodide.runPython(
        "import sys; sys.path.insert(0, '/core'); import tichu_scorer.core.answers");
      mark("imported");
      pyodide.makeMemorySnapshot();
      mark("snapshot_made");
    }
    const answers = pyodide.pyimport("tichu_scorer.core.answers");
    mark("ready");
    steps.snapshot_bytes = snapshot ? snapshot.length : 0;
    return (request) => {
      const asked = Object.assign({ lang: document.documentElement.lang }, request);
      const out = JSON.parse(answers.phone(JSON.stringify(asked), BUNDLE.locales, BUNDLE.seconds));
      return out.ok;
    };
  }
  document.addEventListener("DOMContentLoaded", () => {
    window.mainCore = start();
    window.mainSteps = steps;
  });
})()"""
MAIN_ASK = """async ([body, times]) => {
  const call = await window.mainCore;
  const facts = window.tichuOutbox ? (await window.tichuOutbox.coreClient()).factsOf()
    : JSON.parse(document.querySelector("[data-facts]").dataset.facts);
  const waiting = [{ out_order: [1, 3], calls: {}, card_points: [null, null] }];
  const took = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const [answer, status] = call({ op: "preview", facts, waiting, body });
    took.push(times === 1 ? performance.now() : performance.now() - started);
    if (status !== 200) throw new Error(JSON.stringify(answer));
  }
  return [took, window.mainSteps];
}"""


def quiet() -> None:
    """No access log: the app's server logs each request."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def spin_check(browser, base: str, rates: list[int]) -> list[dict[str, object]]:
    """The same loop on the page's thread and in a worker, at each rate."""
    out = []
    context = browser.new_context(bypass_csp=True, **PHONE)
    page = context.new_page()
    page.goto(base + "/")
    cdp = context.new_cdp_session(page)
    n = 30_000_000
    page.evaluate(SPIN, n)  # warm-up (the optimising compiler)
    for rate in rates:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        runs = [page.evaluate(SPIN, n) for _ in range(3)]
        out.append({"rate": rate, "page_ms": round(statistics.median(r[0] for r in runs)),
                    "worker_ms": round(statistics.median(r[1] for r in runs))})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    context.close()
    return out


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 1),
            "p95": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1),
            "max": round(ordered[-1], 1)}


def run(rate: int, previews: int, snapshot: bool, thread: str,
        runtime: str | None = None) -> dict[str, object]:
    """One phone, one start without signal (`thread` "main" or "worker"); `runtime`, a
    folder of Pyodide runtimes in place of the set-up's (PYODIDE_DIR), to compare one."""
    from playwright.sync_api import sync_playwright
    if runtime:
        os.environ["PYODIDE_DIR"] = runtime
    app = browser_app(Path(tempfile.mkdtemp()))
    quiet()
    before = load()
    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(bypass_csp=True, **PHONE)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        match_url = controlled_match(page, base)
        opened = time.monotonic()  # the match page, under the service worker's control
        page.wait_for_timeout(OPEN_S * 1000)
        files = page.evaluate("""async () => (await (await caches.open('tichu-core')).keys())
          .filter((r) => !r.url.includes('/core/snapshot')).length""")
        kept = page.evaluate(SNAPSHOTS, False)
        waited = round(time.monotonic() - opened, 1)
        if files < 7:
            core_kept(page)
        if snapshot and not kept:  # not yet: wait for it (said in the output)
            wait_for_snapshot(page, 600, "the page never had the worker keep its snapshot")
        if not snapshot:
            without_snapshot(page, base)
        if thread == "main":
            page.add_init_script(MAIN_INIT)
        context.set_offline(True)
        page.goto(match_url + "/hands/new")
        page.wait_for_selector(".out-buttons:not([hidden])")
        ask = MAIN_ASK if thread == "main" else ASK
        [first], steps = page.evaluate(ask, [BODY, 1])
        later, _ = page.evaluate(ask, [BODY, previews])
        browser.close()
    if thread == "main":  # each part's time, from the part before
        order = ["begun", "bundle", "loader", "wasm_begun", "wasm_done", "load", "unpacked",
                 "imported", "snapshot_made", "ready"]
        marks = [(k, steps[k]) for k in order if k in steps]
        parts = {"start_at": round(marks[0][1])}
        parts.update({k: round(v - marks[i][1]) for i, (k, v) in enumerate(marks[1:])})
        steps = parts
    else:
        steps = {k: round(v) for k, v in (steps or {}).items()}
    return {"rate": rate, "thread": thread, "start": "snapshot" if snapshot else "cold",
            # the slowdown reaches the page's thread only: a worker's core ran at full speed
            "core_slowdown": rate if thread == "main" else 1,
            "kept_at_30s": {"files": files, "snapshot": bool(kept), "after_s": waited},
            "first_ms": round(first), "steps_ms": steps, "later_ms": spread(later),
            "load": f"{before} -> {load()}", **({"runtime": runtime} if runtime else {})}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--previews", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--threads", nargs="+", default=["main", "worker"])
    parser.add_argument("--starts", nargs="+", default=["cold", "snapshot"])
    parser.add_argument("--no-spin", action="store_true")
    parser.add_argument("--runtimes", nargs="+", default=[None],
                        help="PYODIDE_DIR folders to compare, side by side in each round")
    args = parser.parse_args()
    app, sizes = served_bundle()
    quiet()
    print(json.dumps({"bundle_total": sum(sizes.values()), "load": load()}), flush=True)
    if not args.no_spin:
        from playwright.sync_api import sync_playwright
        with serving(app) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for row in spin_check(browser, base, args.rates):
                print(json.dumps({"spin": row, "load": load()}), flush=True)
            browser.close()
    for _ in range(args.rounds):
        for rate in args.rates:
            for start in args.starts:
                for thread in args.threads:
                    for runtime in args.runtimes:
                        print(json.dumps(run(rate, args.previews, start == "snapshot", thread,
                                             runtime)), flush=True)


if __name__ == "__main__":
    main()
