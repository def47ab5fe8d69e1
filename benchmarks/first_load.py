"""Bytes a phone downloads to open a match page for the first time, and requests it makes on
a second visit. Chromium (Debian's, through Playwright) against gunicorn on loopback.

    python benchmarks/first_load.py [--hands 50 200]

For each match length: a fresh browser context opens the match page with an empty cache and
the service worker blocked (what the page itself costs: HTML, CSS, scripts, icons, as
transferred, compressed, headers included), then a context that lets the service worker
install (its precache of every static file comes on top, once per deploy), and opens the
page again: the requests the server saw on that second visit are counted from its log.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (  # noqa: E402
    Session,
    controlled,
    free_port,
    kill,
    start_gunicorn,
)

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")


def match_with_hands(base: str, hands: int) -> tuple[Session, str]:
    phone = Session(base)
    match = phone.new_match(["Ann", "Bob", "Cy", "Dee"])
    token = phone.token(f"{match}/hands/new")
    for number in range(1, hands + 1):
        fields = {"csrf_token": token, "place_1": str(number % 4), "place_2": str(
            (number + 1) % 4), "card_a": "50", "number": str(number)}
        status, _ = phone.post_form(f"{match}/hands/new", fields)
        if status != 303:
            raise RuntimeError(f"hand {number}: {status}")
    return phone, match


def transferred(request) -> int:
    sizes = request.sizes()
    return int(sizes["responseBodySize"] + sizes["responseHeadersSize"])


def measure(browser, base: str, phone: Session, match: str, log: Path) -> dict[str, object]:
    name, _, value = (phone.cookie or "").partition("=")
    cookie = [{"name": name, "value": value, "url": base}]
    phone_like = {"viewport": {"width": 360, "height": 640}, "is_mobile": True}

    context = browser.new_context(service_workers="block", **phone_like)
    context.add_cookies(cookie)
    page = context.new_page()
    loaded: list[tuple[str, int]] = []
    page.on("requestfinished", lambda r: loaded.append((r.url, transferred(r))))
    page.goto(base + match, wait_until="networkidle")
    context.close()

    context = browser.new_context(**phone_like)
    context.add_cookies(cookie)
    page = context.new_page()
    precache: list[int] = []
    context.on("requestfinished", lambda r: precache.append(transferred(r)))
    page.goto(base + match, wait_until="networkidle")
    controlled(page)
    page.goto(base + match, wait_until="networkidle")  # copies for offline made now
    page.wait_for_timeout(1000)
    before = len(log.read_text().splitlines())
    page.goto(base + match, wait_until="networkidle")
    page.wait_for_timeout(1000)
    second = [line.split('"')[1] for line in log.read_text().splitlines()[before:]]
    context.close()
    return {"page": loaded, "with service worker install": sum(precache),
            "second visit": second}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, nargs="+", default=[50, 200])
    args = parser.parse_args()
    if not CHROMIUM:
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="tichu-first-load-"))
    url = f"sqlite:///{folder}/load.sqlite3"
    env = {"DATABASE_URL": url, "SECRET_KEY": "first-load", "RATELIMIT_ENABLED": "false"}
    os.environ.update(env)
    from flask_migrate import upgrade

    from tichu_scorer import create_app
    with create_app(instance_path=str(folder)).app_context():
        upgrade()
    log = folder / "access.log"
    port = free_port()
    server = start_gunicorn(env | {"ACCESS_LOG": str(log)}, port, workers=1, threads=4)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run"])
            for hands in args.hands:
                phone, match = match_with_hands(base, hands)
                time.sleep(0.2)
                result = measure(browser, base, phone, match, log)
                page = result["page"]
                total = sum(size for _, size in page)  # type: ignore[misc]
                print(f"match page with {hands} hands, first load: {len(page)} requests, "
                      f"{total / 1024:.1f} KiB transferred")
                for url_, size in page:  # type: ignore[misc]
                    print(f"  {size / 1024:6.1f} KiB  {url_.removeprefix(base)}")
                print(f"  with the service worker's install: "
                      f"{result['with service worker install'] / 1024:.1f} KiB in all")  # type: ignore[operator]
                print(f"  second visit, requests the server saw: {result['second visit']}")
            browser.close()
    finally:
        kill(server)


if __name__ == "__main__":
    main()
