"""The phone's copy of the core (docs/OFFLINE_CORE.md): its size as sent, and how long a
phone without signal waits for its first offline score and for every later preview.

    python benchmarks/phone_core.py [--rates 1 4] [--previews 30]

Debian's Chromium through Playwright against the app on loopback. A phone at 360×640
opens a match as its scorer, lets the service worker keep the core and the page keep the
core's memory snapshot, loses its signal and opens the hand form from its copy, at a CPU
slowdown (Chromium's DevTools Emulation.setCPUThrottlingRate: 4 stands for a mid phone).
The first offline score is timed from the start of that navigation to the first preview's
answer (asked as soon as the form shows, as the hand form asks: core-client.js); the later
ones are single previews after a waiting hand. Each rate runs twice: from the snapshot,
and with the snapshot dropped (a start from nothing, as before the snapshot, which then
takes one: the worker's steps say how long each part took). The slowdown does not reach
the worker's thread (Chromium throttles the page's only), so every row's core ran at full
speed and says so ("core_slowdown": 1 whatever its "rate"): benchmarks/phone_core_main.py
runs the same start on the page's thread too, the honest figure for a slower phone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.conftest import ARGS, CHROMIUM, PHONE, browser_app, serving  # noqa: E402
from tests.browser.test_phone_core_offline import core_kept  # noqa: E402
from tests.browser.test_phone_offline import controlled_match  # noqa: E402
from tichu_scorer.views import core  # noqa: E402

BODY = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [75, None]}
# the first answer is timed from the page's start (its navigation): the hand form opened
# without signal starts the worker at once (offline.js), then the player taps
ASK = """async ([body, times]) => {
  const core = await window.tichuOutbox.coreClient();
  const facts = core.factsOf();
  const waiting = [{ out_order: [1, 3], calls: {}, card_points: [null, null] }];
  const took = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const [answer, status] = await core.ask({ op: "preview", facts, waiting, body });
    took.push(times === 1 ? performance.now() : performance.now() - started);
    if (status !== 200) throw new Error(JSON.stringify(answer));
  }
  return [took, core.steps()];
}"""
WARM = """async () => (await window.tichuOutbox.coreClient()).warm()"""
SNAPSHOTS = """async (drop) => {
  const cache = await caches.open('tichu-core');
  const found = (await cache.keys()).filter((r) => r.url.includes('/core/snapshot'));
  if (drop) await Promise.all(found.map((r) => cache.delete(r)));
  return found.length;
}"""


def wait_for_snapshot(page, tries: int, why: str) -> None:
    """Wait (100 ms a try) until the phone keeps the core's memory snapshot; stop the
    benchmark with `why` when it never does."""
    for _ in range(tries):
        if page.evaluate(SNAPSHOTS, False):
            return
        page.wait_for_timeout(100)
    raise SystemExit(why)


def without_snapshot(page, base: str) -> None:
    """The phone as before the snapshot: on a page that starts no core, its kept snapshot
    dropped."""
    page.goto(base + "/")
    page.evaluate(SNAPSHOTS, True)


def served_bundle():
    """An app that serves the phone's core (stopping when the set-up fetched no Pyodide),
    and the bytes of each of the core's files as sent."""
    app = browser_app(Path(tempfile.mkdtemp()))
    with app.app_context():
        if core.bundle() is None:
            raise SystemExit("no Pyodide bundle: run `make pyodide` first")
        return app, bundle_bytes(app)


def bundle_bytes(app) -> dict[str, int]:
    """Each file of the core as a phone receives it (brotli where the app has it)."""
    client = app.test_client()
    with app.test_request_context():
        urls = core.kept_urls()
    sizes = {}
    for url in urls:
        answer = client.get(url, headers={"Accept-Encoding": "br, gzip"})
        sizes[url.split("?")[0].rsplit("/", 1)[1]] = len(answer.data)
    return sizes


def run(rate: int, previews: int, snapshot: bool) -> dict[str, object]:
    """One phone: with `snapshot`, it kept the core's snapshot while it had signal;
    without, its first start without signal is from nothing (as before the snapshot, plus
    taking one: steps "imported" to "ready")."""
    from playwright.sync_api import sync_playwright
    app = browser_app(Path(tempfile.mkdtemp()))
    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        match_url = controlled_match(page, base)
        core_kept(page)
        # with signal, the page keeps the core's snapshot (offline.js, core-client.js);
        # the phone "as before" drops it again
        page.evaluate(WARM)
        wait_for_snapshot(page, 300, "the worker kept no snapshot")
        if not snapshot:
            without_snapshot(page, base)
        context.set_offline(True)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(match_url + "/hands/new")
        page.wait_for_selector(".out-buttons:not([hidden])")
        [first], steps = page.evaluate(ASK, [BODY, 1])
        later, _ = page.evaluate(ASK, [BODY, previews])
        browser.close()
    # the slowdown reaches the page's thread only: the core in its worker ran at full speed
    return {"rate": rate, "core_thread": "worker", "core_slowdown": 1,
            "snapshot": snapshot, "first_ms": round(first),
            "steps_ms": {k: round(v) for k, v in (steps or {}).items()},
            "later_median_ms": round(statistics.median(later), 1),
            "later_max_ms": round(max(later), 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--previews", type=int, default=30)
    args = parser.parse_args()
    app, sizes = served_bundle()
    print(json.dumps({"bundle_bytes": sizes, "bundle_total": sum(sizes.values())}))
    for rate in args.rates:
        for snapshot in (False, True):  # as before this work, and from the snapshot
            print(json.dumps(run(rate, args.previews, snapshot)), flush=True)


if __name__ == "__main__":
    main()
