"""The hand in play on the live path (RULES.md §11): what one event costs the server. 100
tables each follow hands at once, against gunicorn as `gunicorn.conf.py` runs it; each table
taps an event every --every seconds on average (uniformly 0 to 2x apart) from its scorer's
phone (POST /matches/<key>/follow, as follow.js sends it), and after every tap a second phone
of the table fetches the match page again with its ETag, as live.js does on a change (the
body is drawn again once per revision: the follow panel with it). A followed hand's last
event is followed by its save, with the form the events filled.

Two phases a round (--rounds), the same tables at the same pace: A, "plain", each table
saves a hand instead of each event (the path every table already takes: the save, then the
refetch); B, "followed".
Per request, p50 / p95 latency, and the server's CPU (gunicorn's processes, and with --watch
PIDs the database's) per event with its refetch, B's against A's per save.

    [DATABASE_URL=postgresql://…] .venv/bin/python benchmarks/bench_follow.py \
        [--tables 100] [--seconds 30] [--every 3] [--workers 3] [--threads 4] [--watch PID]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Session, free_port, kill, start_gunicorn  # noqa: E402
from benchmarks.load import cpu_seconds, empty_database, percentile, probe_ms  # noqa: E402

# A hand as a table taps it: the calls, the deal, the pass, the wish, bombs, who is out.
KEEPALIVE = 4.0  # s: gunicorn.conf.py keeps an idle connection 5 s; a POST is not sent twice
HAND = ("start", "grand:1", "dealt", "tichu:3", "passed", "wish::8", "bomb:2", "fulfilled",
        "out:0", "bomb:3", "out:3", "out:1")


class Table:
    def __init__(self, base: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.scorer = Session(base, timeout=60)
        self.url = self.scorer.new_match(["Ann", "Bob", "Cy", "Dee"], target=10000)
        self.csrf = self.scorer.token(self.url + "/hands/new")
        self.watcher = Session(base, timeout=60)  # the second phone: a page that follows
        self.watcher.cookie = self.scorer.cookie
        self.etag = ""
        self.hands = 0
        self.step = 0
        self.used = {id(self.scorer): time.monotonic(), id(self.watcher): time.monotonic()}

    def fresh(self, session: Session) -> Session:
        """The session, on a new connection when its last one may have been closed idle."""
        if time.monotonic() - self.used[id(session)] > KEEPALIVE:
            session.close()
        self.used[id(session)] = time.monotonic()
        return session

    def post(self, path: str, fields: dict[str, str], json_answer: bool = False) -> int:
        self.scorer.headers = {"Accept": "application/json"} if json_answer else {}
        status, _, _ = self.fresh(self.scorer).request(
            "POST", self.url + path, urllib.parse.urlencode(
                {"csrf_token": self.csrf} | fields).encode(),
            "application/x-www-form-urlencoded")
        return status

    def save(self) -> int:
        self.hands += 1
        status = self.post("/hands/new", {"place_1": "0", "place_2": "3", "place_3": "1",
                                        "call_1": "grand", "call_3": "tichu", "card_a": "55",
                                        "number": str(self.hands), "bombs_2": "1",
                                        "bombs_3": "1", "client_id": f"h{id(self)}-{self.hands}"})
        if status != 303:  # not stored (a busy database): the next save is this number
            self.hands -= 1
        return status

    def refetch(self) -> int:
        self.watcher.headers = {"If-None-Match": self.etag} if self.etag else {}
        status, _, headers = self.fresh(self.watcher).request("GET", self.url)
        self.etag = headers.get("etag", self.etag)
        return status


def run(tables: list[Table], followed: bool, seconds: float, every: float
        ) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"post": [], "save": [], "page": [], "errors": []}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def one(table: Table) -> None:
        table.step = 0  # a hand begun in an earlier phase was saved by the plain one since
        time.sleep(table.rng.uniform(0, 2 * every))
        while time.monotonic() < deadline:
            began = time.perf_counter()
            if followed:
                event = HAND[table.step]
                status = table.post("/follow", {"event": event, "seen": str(table.step),
                                                "client_id": f"{id(table)}-{time.time_ns()}"},
                                    json_answer=True)
                kind, ok = "post", status == 200
                table.step += 1
            else:
                status = table.save()
                kind, ok = "save", status == 303
            took = time.perf_counter() - began
            began = time.perf_counter()
            page = table.refetch()
            fetched = time.perf_counter() - began
            if followed and table.step == len(HAND):  # the hand over: saved as filled
                table.step = 0
                with lock:
                    times["save"].append(0.0)
                ok = ok and table.save() == 303
            with lock:
                times[kind].append(took)
                times["page"].append(fetched)
                if not ok or page != 200:
                    times["errors"].append(1.0)
            time.sleep(table.rng.uniform(0, 2 * every))

    threads = [threading.Thread(target=one, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--every", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--watch", type=int, action="append", default=[],
                        help="a process (with its children) whose CPU counts too")
    args = parser.parse_args()
    folder, url, env = empty_database("follow")
    port = free_port()
    server = start_gunicorn(env, port, workers=args.workers, threads=args.threads,
                            log=Path(folder) / "gunicorn.log")
    base = f"http://127.0.0.1:{port}"
    try:
        tables = [Table(base, seed) for seed in range(args.tables)]
        out = {"tables": args.tables, "every_s": args.every, "seconds": args.seconds,
               "database": url.split(":", 1)[0], "probe_ms": round(probe_ms(), 1),
               "load_before": os.getloadavg()[0]}
        phases = [(f"{name} {r}", followed) for r in range(1, args.rounds + 1)
                  for name, followed in (("plain", False), ("followed", True))]
        for name, followed in phases:
            cpu = cpu_seconds([server.pid], args.watch)
            times = run(tables, followed, args.seconds, args.every)
            used = cpu_seconds([server.pid], args.watch) - cpu
            key = "post" if followed else "save"
            count = len(times[key])
            out[name] = {
                "requests": count, "errors": len(times["errors"]),
                f"{key}_ms_p50": round(1000 * percentile(times[key], 0.5), 1),
                f"{key}_ms_p95": round(1000 * percentile(times[key], 0.95), 1),
                "refetch_ms_p50": round(1000 * percentile(times["page"], 0.5), 1),
                "refetch_ms_p95": round(1000 * percentile(times["page"], 0.95), 1),
                "server_cpu_ms_per_request_with_refetch": round(1000 * used / max(count, 1), 2),
                "server_cores": round(used / args.seconds, 3),
                "hands_saved": len(times["save"]) if followed else count,
                "load_after": os.getloadavg()[0]}
        print(json.dumps(out, indent=1))
    finally:
        kill(server)


if __name__ == "__main__":
    main()
