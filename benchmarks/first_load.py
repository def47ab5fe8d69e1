"""Bytes a phone downloads to open a match page for the first time, and requests it makes on
a second visit. Chromium (Debian's, through Playwright) against gunicorn on loopback.

    python benchmarks/first_load.py [--hands 50 200] [--varied]

For each match length: a fresh browser context opens the match page with an empty cache and
the service worker blocked (what the page itself costs: HTML, CSS, scripts, icons, as
transferred, compressed, headers included), then a context that lets the service worker
install (its precache of every static file comes on top, once per deploy), and opens the
page again: the requests the server saw on that second visit are counted from its log.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_history import hand as history_hand  # noqa: E402
from benchmarks.harness import (  # noqa: E402
    Session,
    controlled,
    free_port,
    kill,
    start_gunicorn,
)
from tichu_scorer.scoring.calls import Call  # noqa: E402
from tichu_scorer.scoring.hand import HandInput, score_hand  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium")


def hand_fields(number: int, varied: random.Random | None,
                totals: list[int]) -> dict[str, str]:
    """The hand form's fields: the same hand over and over (50 : 50, first out in turn), or
    with `varied` a hand as tables play them (`bench_history.hand`: card points, a Tichu
    call now and then, a double victory), scored by the core (`score_hand`) into `totals`.
    A varied hand that would end the match (10,000) becomes a failed call of the leader,
    so that the match lasts the hands asked for."""
    if varied is None:
        return {"place_1": str(number % 4), "place_2": str((number + 1) % 4), "card_a": "50"}
    played = history_hand(varied, "nanking", number, "2026-11-20")
    first, second = cast("list[int]", played["out_order"])
    card_a = cast("list[int | None]", played["card_points"])[0]
    said = cast("dict[str, str]", played["calls"])
    calls = {int(seat): Call(call) for seat, call in said.items()}
    gain = score_hand(HandInput((first, second), calls, (card_a, None))).team_scores
    if max(t + g for t, g in zip(totals, gain, strict=True)) >= 9900:
        leader = 0 if totals[0] >= totals[1] else 1
        second = (first + 1) % 4
        card_a, calls = 50, {next(s for s in (leader, leader + 2) if s != first): Call.TICHU}
        gain = score_hand(HandInput((first, second), calls, (card_a, None))).team_scores
    totals[:] = [t + g for t, g in zip(totals, gain, strict=True)]
    return {"place_1": str(first), "place_2": str(second),
            "card_a": "" if card_a is None else str(card_a)} | {
        f"call_{seat}": call.value for seat, call in calls.items()}


def match_with_hands(base: str, hands: int, varied: bool = False) -> tuple[Session, str]:
    phone = Session(base)
    # a long varied match needs the farthest target: a side would reach 1000 in 20 hands
    match = phone.new_match(["Ann", "Bob", "Cy", "Dee"], 10000 if varied else 1000)
    token = phone.token(f"{match}/hands/new")
    dice = random.Random(hands) if varied else None
    totals = [0, 0]
    for number in range(1, hands + 1):
        fields = {"csrf_token": token, "number": str(number)} | hand_fields(number, dice, totals)
        status, _ = phone.post_form(f"{match}/hands/new", fields)
        if status != 303:
            print(re.findall(rb'class="[^"]*err[^"]*"[^>]*>([^<]+)', _))
            raise RuntimeError(f"hand {number}: {status} {fields}")
    # a phone follows each save to the match page, which shows and clears its note ("Hand
    # 12 saved."); unread, 200 of them would be kept in the session and shown on the page
    # measured, with a new session cookie, as no phone ever gets it
    phone.get(match)
    return phone, match


def transferred(request) -> int:
    sizes = request.sizes()
    return int(sizes["responseBodySize"] + sizes["responseHeadersSize"])


def over_the_network(context, page, url: str) -> list[tuple[str, int]]:
    """Open `url` and list what came over the network: (URL, bytes received, headers
    included), as Chromium's network layer counts them. A file the page asks for twice (the
    icon: as the tab's icon and in the header) comes once; the second time it is taken
    from the browser's memory (0 bytes) and not listed."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    urls: dict[str, str] = {}
    done: list[tuple[str, int]] = []
    cdp.on("Network.responseReceived",
           lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: done.append(
        (urls.get(e["requestId"], "?"), int(e["encodedDataLength"]))))
    page.goto(url, wait_until="networkidle")
    return [(url_, size) for url_, size in done if size > 0]


def measure(browser, base: str, phone: Session, match: str, log: Path,
            install: bool = True) -> dict[str, object]:
    name, _, value = (phone.cookie or "").partition("=")
    cookie = [{"name": name, "value": value, "url": base}]
    phone_like = {"viewport": {"width": 360, "height": 640}, "is_mobile": True}

    context = browser.new_context(service_workers="block", **phone_like)
    context.add_cookies(cookie)
    page = context.new_page()
    loaded = over_the_network(context, page, base + match)
    context.close()
    if not install:
        return {"page": loaded}

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
    parser.add_argument("--varied", action="store_true",
                        help="hands as tables play them, not the same hand again and again")
    parser.add_argument("--first-load-only", action="store_true",
                        help="without the service worker's install and the second visit")
    parser.add_argument("--port", type=int, default=0,
                        help="the port for gunicorn (default: any free one)")
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
    port = args.port or free_port()
    server = start_gunicorn(env | {"ACCESS_LOG": str(log)}, port, workers=1, threads=4)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--no-first-run"])
            for hands in args.hands:
                phone, match = match_with_hands(base, hands, args.varied)
                time.sleep(0.2)
                result = measure(browser, base, phone, match, log,
                                 install=not args.first_load_only)
                page = result["page"]
                total = sum(size for _, size in page)  # type: ignore[misc]
                print(f"match page with {hands} hands, first load: {len(page)} requests, "
                      f"{total / 1024:.1f} KiB ({total} bytes) transferred")
                for url_, size in page:  # type: ignore[misc]
                    print(f"  {size:6d} bytes  {url_.removeprefix(base)}")
                if args.first_load_only:
                    continue
                print(f"  with the service worker's install: "
                      f"{result['with service worker install'] / 1024:.1f} KiB in all")  # type: ignore[operator]
                print(f"  second visit, requests the server saw: {result['second visit']}")
            browser.close()
    finally:
        kill(server)


if __name__ == "__main__":
    main()
