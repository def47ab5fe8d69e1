"""Live pages under load: what phones watching matches cost the server, and whether the
scorers' saves feel it. gunicorn as `gunicorn.conf.py` runs it (with Redis: two
single-threaded workers per core and two more), and the live process
(`python -m tichu_scorer.live.stream`, as `make serve` runs it beside gunicorn), on loopback.

    DATABASE_URL=postgresql://… REDIS_URL=redis://… python benchmarks/bench_live.py \
        [--mode both|stream|poll] [--matches 100] [--watchers 4] [--every 1.5] \
        [--hand-every 30] [--seconds 30] [--rounds 2] [--servers 1] [--watch PID ...]

Phase B comes in two kinds (--mode both runs A, B stream, A, B poll in each round): "stream",
the watchers hold a Server-Sent Events stream each to the live process and, on an event,
fetch the page again through gunicorn, as `static/js/live.js` does; "poll", the watchers ask
gunicorn's `/live/…` every --every seconds, as live.js does where no stream gets through.

Each match has a scorer who saves a hand now and then (uniformly 0 to 2 x --hand-every
seconds apart). Phases alternate, A (the scorers alone) and B (the scorers and --watchers
phones per match that show its page, as `static/js/live.js` does: a conditional question
every --every seconds, and on a change the page fetched again, in the background, with
its ETag). Every phase counts the CPU the servers used (gunicorn, the live process, and the
processes named with --watch: PostgreSQL, Redis; gunicorn's and the live process's also
apart) and the saves' latency; B also how long after a save returned its watchers saw it.
The watchers' cost is B's CPU less A's, as a share of the whole machine, and of it what
gunicorn and the live process each took. Each phase is --seconds long after 12 s of
warm-up (the watchers open the page in it, one after another). A phone waits for an answer
as long as a browser does (60 s here), so a slow answer is counted as slow, not retried.
With REDIS_URL the rate limits are on, counted in Redis, each table behind a pretend proxy
with its own address (as `load.py`); with --servers 2 a match's watchers ask the other
server than its scorer.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import subprocess
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
SPREAD = 0.5  # s: live.js fetches the page this much after an event at most (random)
KEEPALIVE = 4.0  # s: gunicorn.conf.py keeps an idle connection 5 s


class Table:
    """One match as the benchmark knows it (picklable: handed to each phase's processes)."""

    def __init__(self, seed: int, base: str, watch_base: str, path: str, cookie: str,
                 live: str, stream: str = "") -> None:
        self.seed, self.base, self.watch_base = seed, base, watch_base
        self.path, self.cookie, self.live, self.stream = path, cookie, live, stream


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


def open_page(table: Table, rng: random.Random) -> tuple[Session, str, str, str]:
    """A phone opens the match page, one after another during the warm-up: its session,
    the live path and version the page names, and the page's ETag."""
    session = phone(table.watch_base, table)
    time.sleep(rng.uniform(0, WARMUP - 1))
    status, page, headers = session.request("GET", table.path)
    found = LIVE.search(page)
    if status != 200 or not found:
        raise RuntimeError(f"no live page at {table.path} ({status})")
    return session, found.group(1).decode(), found.group(2).decode(), headers.get("etag", "")


def watcher(table: Table, n: int, every: float, start: float, until: float,
            saved_at: dict[tuple[str, int], float], out: dict[str, list[float]],
            lock: threading.Lock) -> None:
    """A phone showing the match page: asks every `every` seconds; on a change fetches the
    page again (with its ETag, in the background, as live.js does)."""
    rng = random.Random(table.seed * 100 + n)
    session, live, tag, page_tag = open_page(table, rng)
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


def refetch(session: Session, table: Table, page_tag: str) -> tuple[int, bytes, str]:
    """The page fetched again in the background, with its ETag, as live.js does."""
    session.headers |= {"X-Tichu-Prefetch": "1", "If-None-Match": page_tag}
    status, page, headers = session.request("GET", table.path)
    session.headers.pop("X-Tichu-Prefetch", None)
    session.headers.pop("If-None-Match", None)
    return status, page, headers.get("etag", page_tag)


def streamer(table: Table, n: int, every: float, start: float, until: float,
             saved_at: dict[tuple[str, int], float], out: dict[str, list[float]],
             lock: threading.Lock) -> None:
    """A phone showing the match page that holds its stream to the live process; on an
    event fetches the page again through gunicorn (as live.js does)."""
    rng = random.Random(table.seed * 100 + n)
    session, live, tag, page_tag = open_page(table, rng)
    used = time.monotonic()
    host, port = table.stream.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        # through the same pretend proxy as the table's pages: the live process counts its
        # streams per address as the app's limits do (stream.MAX_PER_CLIENT)
        forwarded = {k: v for k, v in session.headers.items() if k == "X-Forwarded-For"}
        connection.request("GET", live.replace("/live/", "/live/s/", 1) + "?tag=" + tag,
                           headers={"Accept": "text/event-stream", **forwarded})
        response = connection.getresponse()
        if response.status != 200:
            raise RuntimeError(f"stream refused: {response.status}")
        data = ""
        while time.monotonic() < until:
            connection.sock.settimeout(max(0.05, until - time.monotonic()))
            try:
                line = response.readline()
            except (TimeoutError, socket.timeout):
                break
            if not line:
                raise OSError("stream ended")
            line = line.rstrip(b"\r\n")
            if line.startswith(b"data: "):
                data = line[6:].decode()
                continue
            if line or not data or data == "{}":
                if not line:
                    data = ""
                continue
            event, data = json.loads(data), ""
            told = time.monotonic()
            time.sleep(rng.uniform(0, SPREAD))  # as live.js: the phones a little apart
            if told - used > KEEPALIVE:
                session.close()  # gunicorn closed it meanwhile; a browser opens a new one
            status, page, page_tag = refetch(session, table, page_tag)
            seen = used = time.monotonic()
            with lock:
                if told >= start:
                    out["event"].append(1.0)
                    out["refresh"].append(1.0)
                at = saved_at.get((table.path, event["hands"]))
                if at is not None and at >= start:
                    out["seen after"].append((seen - at) * 1000)
    except (OSError, ValueError, RuntimeError, http.client.HTTPException) as exc:
        with lock:
            out["errors"].append(0.0)
            out["error statuses"].append(-1.0)
            if len(out["error statuses"]) < 3:
                print("streamer:", repr(exc), file=sys.stderr)
    finally:
        connection.close()
        session.close()


def run_part(tables: list[Table], kind: str, watchers: int, every: float, hand_every: float,
             seconds: float, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """One load process: the scorers of its tables, and their watchers in phase B."""
    out: dict[str, list[float]] = {k: [] for k in ("save", "errors", "poll 304", "poll 200",
                                                   "refresh", "seen after", "error statuses",
                                                   "event")}
    saved_at: dict[tuple[str, int], float] = {}
    lock = threading.Lock()
    start = time.monotonic() + WARMUP
    until = start + seconds
    threads = [threading.Thread(target=scorer, args=(t, hand_every, start, until, saved_at,
                                                     out, lock)) for t in tables]
    watch = streamer if kind == "stream" else watcher
    threads += [threading.Thread(target=watch, args=(t, n, every, start, until, saved_at,
                                                     out, lock))
                for t in tables for n in range(watchers if kind != "A" else 0)]
    cpu = [time.process_time()]
    for thread in threads:
        thread.start()
    time.sleep(WARMUP)
    cpu.append(time.process_time())
    for thread in threads:
        thread.join()
    queue.put((out, time.process_time() - cpu[1]))


def phase(tables: list[Table], kind: str, args: argparse.Namespace, groups: list[int],
          live: list[int]) -> dict[str, object]:
    """One phase: its results, and the CPU seconds over its measured seconds of gunicorn
    (`groups`), of the live process (`live`) and of the processes named with --watch."""
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    procs = [multiprocessing.Process(target=run_part, args=(
        tables[i::args.procs], kind, args.watchers, args.every, args.hand_every,
        args.seconds, queue))
        for i in range(args.procs)]
    for proc in procs:
        proc.start()
    time.sleep(WARMUP)  # the measured seconds begin (in the load processes too)
    before = (cpu_seconds(groups, []), cpu_seconds(live, []), cpu_seconds([], args.watch),
              time.monotonic())
    time.sleep(args.seconds)
    wall = time.monotonic() - before[3]
    servers = cpu_seconds(groups, []) - before[0]
    streaming = cpu_seconds(live, []) - before[1]
    watched = cpu_seconds([], args.watch) - before[2]
    results: dict[str, list[float]] = {}
    generator = 0.0
    for _ in procs:
        part, used = queue.get()
        generator += used
        for kind, values in part.items():
            results.setdefault(kind, []).extend(values)
    for proc in procs:
        proc.join()
    return {"results": results, "wall": wall, "servers": servers, "live": streaming,
            "watched": watched,
            "generator": generator, "load": os.getloadavg()}


def start_live(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """The live process as `make serve` runs it; waits until it answers."""
    proc = subprocess.Popen([sys.executable, "-m", "tichu_scorer.live.stream"],
                            cwd=Path(__file__).resolve().parent.parent,
                            env=os.environ | env | {"LIVE_BIND": f"127.0.0.1:{port}"},
                            stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.2)
    kill(proc)
    raise RuntimeError("the live process did not start")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("both", "stream", "poll"), default="both",
                        help="what phase B's watchers do (both: a B phase of each per round)")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=4, help="phones watching each match")
    parser.add_argument("--every", type=float, default=1.5, help="seconds between questions")
    parser.add_argument("--hand-every", type=float, default=30.0,
                        help="mean seconds between a table's saves")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of phases A, B")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=PROCESSES)
    parser.add_argument("--procs", type=int, default=4, help="load-generating processes")
    parser.add_argument("--watch", type=int, action="append", default=[],
                        help="a process (with its children) whose CPU time counts too")
    args = parser.parse_args()
    kinds = ["stream", "poll"] if args.mode == "both" else [args.mode]

    _folder, url, env = empty_database("live")

    speed = probe_ms()
    servers, bases, lives = [], [], []
    try:
        for _ in range(args.servers):
            port = free_port()
            servers.append(start_gunicorn(env, port, args.workers, 1))
            bases.append(f"http://127.0.0.1:{port}")
        if "stream" in kinds:  # one live process, whichever server the page came from
            port = free_port()
            lives.append(start_live(env, port))
            live_base = f"http://127.0.0.1:{port}"
        else:
            live_base = ""
        tables = []
        for seed in range(args.matches):
            base = bases[seed % len(bases)]
            table = Table(seed, base, bases[(seed + 1) % len(bases)], "", "", "", live_base)
            session = phone(base, table)
            table.path = session.new_match([f"T{seed}a", f"T{seed}b", f"T{seed}c",
                                            f"T{seed}d"])
            table.cookie = session.cookie or ""
            session.close()
            tables.append(table)
        groups, live = [proc.pid for proc in servers], [proc.pid for proc in lives]
        phases = []
        for _ in range(args.rounds):
            for kind in kinds:
                phases.append(("A", phase(tables, "A", args, groups, live)))
                phases.append((kind, phase(tables, kind, args, groups, live)))
    finally:
        for proc in servers + lives:
            kill(proc)

    cores = os.cpu_count() or 1
    print(f"{args.matches} matches, a hand every {args.hand_every:.0f} s on average at each; "
          f"phase B: {args.watchers} phones per match (stream: a Server-Sent Events stream "
          f"each to the live process; poll: a question every {args.every} s); "
          f"{args.servers} x gunicorn {args.workers} workers x 1 thread, "
          f"{url.split(':')[0]}, rate limits {'in Redis' if env.get('REDIS_URL') else 'off'}; "
          f"{args.seconds:.0f} s per phase; speed probe {speed:.1f} ms; {cores} cores")
    print(f"{'phase':<9} {'load 1m':>7} {'saves':>6} {'save p50':>9} {'save p95':>9} "
          f"{'polls/s':>8} {'304 %':>6} {'events/s':>9} {'pages/s':>8} {'seen p50':>9} "
          f"{'seen p95':>9} {'server cores':>13} {'gunicorn':>9} {'live':>6} {'gen cores':>10} "
          f"{'errors':>7}")
    by: dict[str, list[dict[str, object]]] = {}
    for kind, found in phases:
        r = found["results"]
        wall = float(found["wall"])  # type: ignore[arg-type]
        polls = len(r["poll 304"]) + len(r["poll 200"])
        gunicorn, live_cpu = float(found["servers"]) / wall, float(found["live"]) / wall  # type: ignore[arg-type]
        busy = gunicorn + live_cpu + float(found["watched"]) / wall  # type: ignore[arg-type]
        found |= {"busy": busy, "gunicorn": gunicorn, "live_cores": live_cpu}
        by.setdefault(kind, []).append(found)
        seen = r["seen after"]
        name = "A" if kind == "A" else f"B {kind}"
        print(f"{name:<9} {found['load'][0]:>7.2f} {len(r['save']):>6} "  # type: ignore[index]
              f"{statistics.median(r['save']) if r['save'] else 0:>9.1f} "
              f"{percentile(r['save'], 0.95):>9.1f} {polls / wall:>8.0f} "
              f"{100 * len(r['poll 304']) / max(polls, 1):>6.1f} "
              f"{len(r['event']) / wall:>9.1f} {len(r['refresh']) / wall:>8.1f} "
              f"{statistics.median(seen) if seen else 0:>9.0f} {percentile(seen, 0.95):>9.0f} "
              f"{busy:>13.3f} {gunicorn:>9.3f} {live_cpu:>6.3f} "
              f"{float(found['generator']) / wall:>10.3f} "  # type: ignore[arg-type]
              f"{len(r['errors']):>7}")
        if r["error statuses"]:
            print("          errors by status (-1: no answer):",
                  dict(Counter(int(v) for v in r["error statuses"])))
    if "A" not in by:
        return
    a = statistics.mean(float(p["busy"]) for p in by["A"])  # type: ignore[arg-type]
    share = {name: {kind: statistics.mean(float(p[name]) for p in by[kind])  # type: ignore[arg-type]
                    for kind in by} for name in ("gunicorn", "live_cores")}
    saves_a = [v for p in by["A"] for v in p["results"]["save"]]  # type: ignore[index]
    print(f"A (scorers alone): {a:.3f} cores; save p50 {statistics.median(saves_a):.1f} / "
          f"p95 {percentile(saves_a, 0.95):.1f} ms ({len(saves_a)} saves)")
    for kind in kinds:
        b = statistics.mean(float(p["busy"]) for p in by[kind])  # type: ignore[arg-type]
        saves_b = [v for p in by[kind] for v in p["results"]["save"]]  # type: ignore[index]
        seen = [v for p in by[kind] for v in p["results"]["seen after"]]  # type: ignore[index]
        print(f"B {kind}: watchers cost {b - a:.3f} cores = {100 * (b - a) / cores:.1f} % of "
              f"the machine (server CPU, B less A: gunicorn "
              f"{share['gunicorn'][kind] - share['gunicorn']['A']:.3f}, the live process "
              f"{share['live_cores'][kind] - share['live_cores']['A']:.3f}); "
              f"save p50 {statistics.median(saves_b):.1f} / "
              f"p95 {percentile(saves_b, 0.95):.1f} ms ({len(saves_b)} saves, p95 "
              f"{100 * (percentile(saves_b, 0.95) / percentile(saves_a, 0.95) - 1):+.0f} %); "
              f"a save seen by its watchers after p50 "
              f"{statistics.median(seen) if seen else 0:.0f} / p95 {percentile(seen, 0.95):.0f} ms")


if __name__ == "__main__":
    main()
