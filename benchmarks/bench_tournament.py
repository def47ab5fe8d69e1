"""A 64-player individual tournament of six rounds of four hands, run through gunicorn:
the time of each round's draw (POST /tournaments/<key>/draw, wall time of the request),
and the standing board's latency (GET /tournaments/<key>/board) quiet and during the last
round while every table saves its hands.

Usage: python benchmarks/bench_tournament.py [--workers 2] [--threads 4] [--views 200]

Seeds nothing: the director's phone starts the tournament through the form, every table's
phone joins by its score code and saves its hands with the ordinary hand form. Rounds 1–5
are played table after table; in round 6 the 16 tables' phones save each of their four
hands at the same moment (a barrier; --pause seconds between two hands: a far denser round
than a real one, where a hand takes minutes) while a big screen reads the board in a
loop. DATABASE_URL: that (empty) PostgreSQL database, else a SQLite file in
a temporary folder. Prints the machine's load before and after (`os.getloadavg`).
Targets (issue 25): draw ≤ 1 s; board p95 ≤ 50 ms during the last round.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Session, kill, start_gunicorn  # noqa: E402

TOKEN = re.compile(rb'name="csrf_token"(?: type="hidden")? value="([^"]+)"')
PLAYERS = [f"Player {i:02d}" for i in range(1, 65)]
ROUNDS, HANDS = 6, 4


def token(phone: Session, path: str) -> str:
    status, page = phone.get(path)
    assert status == 200, (path, status)
    return TOKEN.search(page).group(1).decode()


def post(phone: Session, path: str, fields: dict[str, str], form: str) -> tuple[int, dict]:
    status, _body, headers = phone.request(
        "POST", path, urllib.parse.urlencode({"csrf_token": token(phone, form)} | fields)
        .encode(), "application/x-www-form-urlencoded")
    return status, headers


def tables(director: Session, url: str, number: int) -> list[tuple[str, str]]:
    """Round `number`'s matches: (match path, score code)."""
    _s, page = director.get(url)
    section = re.search(rb'data-round="%d">(.*?)</section>' % number, page, re.S).group(1)
    paths = re.findall(rb'<li data-board="\d+"><a class="match-item" href="([^"]+)"', section)
    codes = re.findall(rb'data-code="([^"]+)"', section)
    return [(p.decode(), c.decode()) for p, c in zip(paths, codes, strict=True)]


def play_table(base: str, path: str, code: str, board: int,
               together: threading.Barrier | None = None, pause: float = 0) -> None:
    """A table's phone saves its four hands (`together`: every table's phone saves each
    hand at the same moment, then waits `pause` seconds)."""
    phone = Session(base)
    try:
        assert phone.get("/join?code=" + code)[0] == 303
        form = token(phone, path + "/hands/new")
        for hand in range(1, HANDS + 1):
            if together is not None:
                time.sleep(pause)
                together.wait()
            fields = {"csrf_token": form, "place_1": str(board % 4),
                      "place_2": str((board + 1) % 4), "card_a": str(10 * ((board + hand) % 10)),
                      "number": str(hand)}
            status, _b, _h = phone.request("POST", path + "/hands/new",
                                           urllib.parse.urlencode(fields).encode(),
                                           "application/x-www-form-urlencoded")
            assert status == 303, status
    finally:
        phone.close()


def board_times(screen: Session, path: str, stop: threading.Event | None,
                count: int) -> list[float]:
    times = []
    while (stop is None and len(times) < count) or (stop is not None and not stop.is_set()):
        began = time.perf_counter()
        status, _page = screen.get(path)
        times.append(time.perf_counter() - began)
        assert status == 200
    return times


def cpu_times(app, director: Session, path: str, views: int) -> None:
    """The board's CPU time in this process (Flask's test client on the same database, the
    director's cookie): what one view costs the server, whatever the machine's load."""
    client = app.test_client()
    name, _eq, value = (director.cookie or "").partition("=")
    client.set_cookie(name, value)
    times = []
    for _ in range(views):
        began = time.process_time()
        response = client.get(path)
        times.append(time.process_time() - began)
        assert response.status_code == 200
    print("board, CPU time of one view in-process (round 6 played):", summary(times))


def summary(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"n={len(ms)} p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--views", type=int, default=200)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between two hands saved by every table at once")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    uri = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.db"
    env = {"DATABASE_URL": uri, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": "false"}
    from sqlalchemy import create_engine

    from tichu_scorer import create_app
    from tichu_scorer.extensions import db
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "TESTING": True, "SECRET_KEY": "bench",
                      "RATELIMIT_ENABLED": False, "PAGE_STORE_URI": ""})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    create_engine(uri).dispose()
    port = 5790
    print("load before", os.getloadavg())
    proc = start_gunicorn(env, port, workers=args.workers, threads=args.threads)
    base = f"http://127.0.0.1:{port}"
    try:
        director = Session(base)
        status, headers = post(director, "/tournaments/new", {
            "name": "Bench cup", "kind": "individual", "pairing": "swiss",
            "rounds": str(ROUNDS), "hands": str(HANDS), "entries": "\n".join(PLAYERS)},
            "/tournaments/new")
        assert status == 303
        url = urllib.parse.urlsplit(headers["location"]).path
        draws = []
        for number in range(1, ROUNDS + 1):
            fields = {"csrf_token": token(director, url), "round": str(number)}
            began = time.perf_counter()
            status, _b, _h = director.request("POST", url + "/draw",
                                              urllib.parse.urlencode(fields).encode(),
                                              "application/x-www-form-urlencoded")
            draws.append(time.perf_counter() - began)
            assert status == 303, status
            boards = tables(director, url, number)
            assert len(boards) == 16
            if number < ROUNDS:
                for board, (path, code) in enumerate(boards, 1):
                    play_table(base, path, code, board)
                continue
            quiet = board_times(director, url + "/board", None, args.views)
            print("board, quiet (round 6 drawn):", summary(quiet))
            stop = threading.Event()
            screen: list[float] = []
            watcher = threading.Thread(target=lambda seen=screen, halt=stop: seen.extend(
                board_times(director, url + "/board", halt, 0)))
            watcher.start()
            began = time.perf_counter()
            together = threading.Barrier(len(boards))
            phones = [threading.Thread(target=play_table, args=(base, p, c, b, together,
                                                                args.pause))
                      for b, (p, c) in enumerate(boards, 1)]
            for t in phones:
                t.start()
            for t in phones:
                t.join()
            saving = time.perf_counter() - began
            stop.set()
            watcher.join()
            print(f"board, while the 16 tables save each hand at the same moment, "
                  f"{args.pause} s apart (64 hands in {saving:.1f} s):", summary(screen))
        print("draws (s, wall time of the POST):",
              ", ".join(f"{d:.2f}" for d in draws))
        cpu_times(app, director, url + "/board", args.views)
        print("load after", os.getloadavg())
    finally:
        kill(proc)


if __name__ == "__main__":
    main()
