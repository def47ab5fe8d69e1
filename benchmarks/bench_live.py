"""Live pages under load: what phones watching matches cost the server, and whether the
scorers' saves feel it. gunicorn as `gunicorn.conf.py` runs it (with Redis: two
single-threaded workers per core and two more), on loopback.

    DATABASE_URL=postgresql://… REDIS_URL=redis://… python benchmarks/bench_live.py \
        [--matches 100] [--watchers 4] [--every 1.5] [--hand-every 30] [--seconds 30] \
        [--rounds 2] [--servers 1] [--watch PID ...]

Each match has a scorer who saves a hand now and then (uniformly 0 to 2 x --hand-every
seconds apart). Phases alternate, A (the scorers alone) and B (the scorers and --watchers
phones per match that show its page, as `static/js/live.js` does: a conditional question
every --every seconds, and on a change the page fetched again, in the background, with
its ETag). Every phase counts the CPU the servers used (gunicorn, and the processes named
with --watch: PostgreSQL, Redis) and the saves' latency; B also how long after a save
returned its watchers saw it. The watchers' cost is B's CPU less A's, as a share of the
whole machine. Each phase is --seconds long after 12 s of warm-up (the watchers open
the page in it, one after another). A phone waits for an answer as long as a browser does
(60 s here), so a slow answer is counted as slow, not retried. With REDIS_URL the rate
limits are on, counted in Redis, each table behind a pretend proxy with its own address
(as `load.py`); with --servers 2 a match's watchers ask the other server than its scorer.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Session, free_port, kill, start_gunicorn  # noqa: E402
from benchmarks.load import (  # noqa: E402
    PROCESSES,
    cpu_seconds,
    empty_database,
    percentile,
    probe_ms,
)

LIVE = re.compile(rb'data-live="([^"]+)" data-live-tag="([^"]+)"')
WARMUP = 12.0
KEEPALIVE = 4.0  # s: gunicorn.conf.py keeps an idle connection 5 s


class Table:
    """One match as the benchmark knows it (picklable: handed to each phase's processes)."""

    def __init__(self, seed: int, base: str, watch_base: str, path: str, cookie: str,
                 live: str) -> None:
        self.seed, self.base, self.watch_base = seed, base, watch_base
        self.path, self.cookie, self.live = path, cookie, live


def phone(base: str, table: Table) -> Session:
    session = Session(base, timeout=60)
    session.cookie = table.cookie
    if os.environ.get("PROXY_COUNT"):
        session.headers["X-Forwarded-For"] = f"198.18.{table.seed // 250}.{table.seed % 250 + 1}"
    return session


def scorer(table: Table, hand_every: float, start: float, until: float,
           saved_at: dict[tuple[str, int], float], out: dict[str, list[float]],
           lock: threading.Lock) -> None:
    """Saves a hand now and then, as the form does (the redirect not followed)."""
    rng = random.Random(table.seed)
    session = phone(table.base, table)
    token = session.token(f"{table.path}/hands/new")
    hands = json.loads(session.get(f"{table.path}/revision")[1])["hands"]
    last = time.monotonic()
    time.sleep(rng.uniform(0, 2 * hand_every))
    while time.monotonic() < until:
        fields = {"csrf_token": token, "place_1": "1", "place_2": "2", "card_a": "50",
                  "number": str(hands + 1)}  # level teams: the match never ends
        if time.monotonic() - last > KEEPALIVE:
            session.close()  # gunicorn closed it meanwhile; a browser opens a new one
        began = time.perf_counter()
        try:
            status, _ = session.post_form(f"{table.path}/hands/new", fields)
        except OSError:
            status = 0
        done = last = time.monotonic()
        with lock:
            if status == 303:
                hands += 1
                saved_at[(table.path, hands)] = done
                if done - (time.perf_counter() - began) >= start:
                    out["save"].append((time.perf_counter() - began) * 1000)
            else:
                out["errors"].append(float(status))
                out["error statuses"].append(float(status))
        time.sleep(max(0.0, min(rng.uniform(0, 2 * hand_every), until - time.monotonic())))
    session.close()


def watcher(table: Table, n: int, every: float, start: float, until: float,
            saved_at: dict[tuple[str, int], float], out: dict[str, list[float]],
            lock: threading.Lock) -> None:
    """A phone showing the match page: asks every `every` seconds; on a change fetches the
    page again (with its ETag, in the background, as live.js does)."""
    rng = random.Random(table.seed * 100 + n)
    session = phone(table.watch_base, table)
    time.sleep(rng.uniform(0, WARMUP - 1))  # the phones open the page one after another
    status, page, headers = session.request("GET", table.path)
    found = LIVE.search(page)
    if status != 200 or not found:
        raise RuntimeError(f"no live page at {table.path} ({status})")
    live, tag = found.group(1).decode(), found.group(2).decode()
    page_tag = headers.get("etag", "")
    time.sleep(rng.uniform(0, every))
    while time.monotonic() < until:
        asked = time.monotonic()
        session.headers["If-None-Match"] = f'"{tag}"'
        try:
            status, body, _ = session.request("GET", live)
            session.headers.pop("If-None-Match", None)
            kind = "poll 304" if status == 304 else "poll 200"
            if status == 200:
                data = json.loads(body)
                session.headers |= {"X-Tichu-Prefetch": "1", "If-None-Match": page_tag}
                status, page, headers = session.request("GET", table.path)
                seen = time.monotonic()  # the page shows it now
                session.headers.pop("X-Tichu-Prefetch", None)
                session.headers.pop("If-None-Match", None)
                found = LIVE.search(page) if status == 200 else None
                tag = found.group(2).decode() if found else data["tag"]
                page_tag = headers.get("etag", page_tag)
                with lock:
                    if asked >= start:
                        out["refresh"].append(1.0)
                    at = saved_at.get((table.path, data["hands"]))
                    if at is not None and at >= start:
                        out["seen after"].append((seen - at) * 1000)
            with lock:
                if asked >= start:
                    out[kind].append((time.monotonic() - asked) * 1000)
        except (OSError, ValueError) as exc:
            with lock:
                out["errors"].append(0.0)
                out["error statuses"].append(-1.0)
                if len(out["error statuses"]) < 3:
                    print("watcher:", repr(exc), file=sys.stderr)
            session.headers.pop("If-None-Match", None)
        time.sleep(max(0.0, asked + every - time.monotonic()))
    session.close()


def run_part(tables: list[Table], watchers: int, every: float, hand_every: float,
             seconds: float, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """One load process: the scorers of its tables, and their watchers in phase B."""
    out: dict[str, list[float]] = {k: [] for k in ("save", "errors", "poll 304", "poll 200",
                                                   "refresh", "seen after", "error statuses")}
    saved_at: dict[tuple[str, int], float] = {}
    lock = threading.Lock()
    start = time.monotonic() + WARMUP
    until = start + seconds
    threads = [threading.Thread(target=scorer, args=(t, hand_every, start, until, saved_at,
                                                     out, lock)) for t in tables]
    threads += [threading.Thread(target=watcher, args=(t, n, every, start, until, saved_at,
                                                       out, lock))
                for t in tables for n in range(watchers)]
    cpu = [time.process_time()]
    for thread in threads:
        thread.start()
    time.sleep(WARMUP)
    cpu.append(time.process_time())
    for thread in threads:
        thread.join()
    queue.put((out, time.process_time() - cpu[1]))


def phase(tables: list[Table], watchers: int, args: argparse.Namespace, groups: list[int],
          ) -> dict[str, object]:
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    procs = [multiprocessing.Process(target=run_part, args=(
        tables[i::args.procs], watchers, args.every, args.hand_every, args.seconds, queue))
        for i in range(args.procs)]
    for proc in procs:
        proc.start()
    time.sleep(WARMUP)  # the measured seconds begin (in the load processes too)
    before = (cpu_seconds(groups, []), cpu_seconds([], args.watch), time.monotonic())
    time.sleep(args.seconds)
    wall = time.monotonic() - before[2]
    servers = cpu_seconds(groups, []) - before[0]
    watched = cpu_seconds([], args.watch) - before[1]
    results: dict[str, list[float]] = {}
    generator = 0.0
    for _ in procs:
        part, used = queue.get()
        generator += used
        for kind, values in part.items():
            results.setdefault(kind, []).extend(values)
    for proc in procs:
        proc.join()
    return {"results": results, "wall": wall, "servers": servers, "watched": watched,
            "generator": generator, "load": os.getloadavg()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=4, help="phones watching each match")
    parser.add_argument("--every", type=float, default=1.5, help="seconds between questions")
    parser.add_argument("--hand-every", type=float, default=30.0,
                        help="mean seconds between a table's saves")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of phases A, B")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=PROCESSES)
    parser.add_argument("--procs", type=int, default=4, help="load-generating processes")
    parser.add_argument("--watch", type=int, action="append", default=[],
                        help="a process (with its children) whose CPU time counts too")
    args = parser.parse_args()

    _folder, url, env = empty_database("live")

    speed = probe_ms()
    servers, bases = [], []
    for _ in range(args.servers):
        port = free_port()
        servers.append(start_gunicorn(env, port, args.workers, 1))
        bases.append(f"http://127.0.0.1:{port}")
    try:
        tables = []
        for seed in range(args.matches):
            base = bases[seed % len(bases)]
            table = Table(seed, base, bases[(seed + 1) % len(bases)], "", "", "")
            session = phone(base, table)
            table.path = session.new_match([f"T{seed}a", f"T{seed}b", f"T{seed}c",
                                            f"T{seed}d"])
            table.cookie = session.cookie or ""
            session.close()
            tables.append(table)
        groups = [server.pid for server in servers]
        phases = []
        for _ in range(args.rounds):
            for watchers in (0, args.watchers):
                phases.append((watchers, phase(tables, watchers, args, groups)))
    finally:
        for server in servers:
            kill(server)

    cores = os.cpu_count() or 1
    print(f"{args.matches} matches, a hand every {args.hand_every:.0f} s on average at each; "
          f"phase B: {args.watchers} phones per match asking every {args.every} s; "
          f"{args.servers} x gunicorn {args.workers} workers x 1 thread, "
          f"{url.split(':')[0]}, rate limits {'in Redis' if env.get('REDIS_URL') else 'off'}; "
          f"{args.seconds:.0f} s per phase; speed probe {speed:.1f} ms; {cores} cores")
    print(f"{'phase':<6} {'load 1m':>7} {'saves':>6} {'save p50':>9} {'save p95':>9} "
          f"{'polls/s':>8} {'304 %':>6} {'poll p95':>9} {'pages/s':>8} {'seen p50':>9} "
          f"{'seen p95':>9} {'server cores':>13} {'gen cores':>10} {'errors':>7}")
    by: dict[int, list[dict[str, object]]] = {}
    for watchers, found in phases:
        r = found["results"]
        wall = float(found["wall"])  # type: ignore[arg-type]
        polls = len(r["poll 304"]) + len(r["poll 200"])
        busy = (float(found["servers"]) + float(found["watched"])) / wall  # type: ignore[arg-type]
        found["busy"] = busy
        by.setdefault(watchers, []).append(found)
        seen = r["seen after"]
        print(f"{'B' if watchers else 'A':<6} {found['load'][0]:>7.2f} {len(r['save']):>6} "  # type: ignore[index]
              f"{statistics.median(r['save']) if r['save'] else 0:>9.1f} "
              f"{percentile(r['save'], 0.95):>9.1f} {polls / wall:>8.0f} "
              f"{100 * len(r['poll 304']) / max(polls, 1):>6.1f} "
              f"{percentile(r['poll 304'] + r['poll 200'], 0.95):>9.1f} "
              f"{len(r['refresh']) / wall:>8.1f} "
              f"{statistics.median(seen) if seen else 0:>9.0f} {percentile(seen, 0.95):>9.0f} "
              f"{busy:>13.3f} {float(found['generator']) / wall:>10.3f} "  # type: ignore[arg-type]
              f"{len(r['errors']):>7}")
        if r["error statuses"]:
            print("       errors by status (-1: no answer):",
                  dict(Counter(int(v) for v in r["error statuses"])))
    if 0 in by and args.watchers in by:
        a = statistics.mean(float(p["busy"]) for p in by[0])  # type: ignore[arg-type]
        b = statistics.mean(float(p["busy"]) for p in by[args.watchers])  # type: ignore[arg-type]
        saves_a = [v for p in by[0] for v in p["results"]["save"]]  # type: ignore[index]
        saves_b = [v for p in by[args.watchers] for v in p["results"]["save"]]  # type: ignore[index]
        seen = [v for p in by[args.watchers] for v in p["results"]["seen after"]]  # type: ignore[index]
        print(f"watchers cost {b - a:.3f} cores = {100 * (b - a) / cores:.1f} % of the machine "
              f"(server CPU, B less A); save p95 {percentile(saves_a, 0.95):.1f} ms alone, "
              f"{percentile(saves_b, 0.95):.1f} ms watched ({len(saves_a)} / {len(saves_b)} "
              f"saves); a save seen by its watchers after p50 "
              f"{statistics.median(seen) if seen else 0:.0f} / p95 {percentile(seen, 0.95):.0f} ms")


if __name__ == "__main__":
    main()
