"""What a hand form pays to read the phone's copy of its match page (live.js, `adopt`: each
hand form opened reads the copy the service worker keeps and parses it, to take the next
hand's number when the copy is newer than the form). Chromium (Debian's, through
Playwright) against gunicorn on loopback, at a 360×640 phone.

    python benchmarks/adopt_parse.py [--hands 50 200] [--rounds 30] [--throttle 1 4]

For each match length: a phone opens the match page under its service worker (which keeps
the copy) and then the hand form; in the form's page, `rounds` times, the copy is read
from Cache Storage as `adopt` reads it (`caches.match`, `text()`) and parsed
(`DOMParser`), each part timed with `performance.now()`; p50 and max in milliseconds, with
Chromium's CPU slowed `throttle` times (DevTools' CPU throttling: 4 stands for a mid-range
phone). A parse over 50 ms is a long task: the page would not answer a tap meanwhile.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.first_load import CHROMIUM, match_with_hands  # noqa: E402
from benchmarks.harness import controlled, free_port, kill, start_gunicorn  # noqa: E402

READ_AND_PARSE = """async ([url, rounds]) => {
  const read = [], parse = [];
  let size = 0;
  for (let i = 0; i < rounds; i += 1) {
    const began = performance.now();
    const copy = await caches.match(url);
    const html = await copy.text();
    const got = performance.now();
    const page = new DOMParser().parseFromString(html, "text/html");
    if (!page.querySelector("[data-live-match][data-next-entry][data-facts]")) return null;
    parse.push(performance.now() - got);
    read.push(got - began);
    size = html.length;
  }
  return { read, parse, size };
}"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--throttle", type=float, nargs="+", default=[1, 4])
    args = parser.parse_args()
    if not CHROMIUM:
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="tichu-adopt-"))
    env = {"DATABASE_URL": f"sqlite:///{folder}/adopt.sqlite3", "SECRET_KEY": "adopt",
           "RATELIMIT_ENABLED": "false"}
    os.environ.update(env)
    from flask_migrate import upgrade

    from tichu_scorer import create_app
    with create_app(instance_path=str(folder)).app_context():
        upgrade()
    port = free_port()
    server = start_gunicorn(env, port, workers=1, threads=4)
    base = f"http://127.0.0.1:{port}"
    print(f"Chromium {CHROMIUM}; load average {os.getloadavg()[0]:.1f}; "
          f"{args.rounds} rounds each, ms")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run"])
            for hands in args.hands:
                phone, match = match_with_hands(base, hands, varied=True)
                name, _, value = (phone.cookie or "").partition("=")
                context = browser.new_context(viewport={"width": 360, "height": 640},
                                              is_mobile=True)
                context.add_cookies([{"name": name, "value": value, "url": base}])
                page = context.new_page()
                page.goto(base + match, wait_until="networkidle")
                controlled(page)
                page.goto(base + match, wait_until="networkidle")  # the copy kept now
                page.goto(base + match + "/hands/new", wait_until="networkidle")
                cdp = context.new_cdp_session(page)
                for rate in args.throttle:
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    found = page.evaluate(READ_AND_PARSE, [match, args.rounds])
                    if found is None:
                        sys.exit("the copy of the match page was not kept, or not a match page")
                    read, parse = found["read"], found["parse"]
                    print(f"{hands} hands ({found['size'] / 1024:.0f} KiB of HTML), CPU "
                          f"/{rate:g}: read p50 {statistics.median(read):.1f} max "
                          f"{max(read):.1f}; parse p50 {statistics.median(parse):.1f} max "
                          f"{max(parse):.1f}")
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                context.close()
            browser.close()
    finally:
        kill(server)


if __name__ == "__main__":
    main()
