"""Load: gunicorn on loopback, N concurrent clients for a fixed time, mixing match pages,
hand submissions and referee checks. Prints throughput, latency percentiles and errors, and
the CPU time the servers (and the processes named with --watch: PostgreSQL, Redis) and the
load generator used per request, and how fast the machine itself was around the run (a
fixed probe, and the CPU steal in /proc/stat).

    python benchmarks/load.py [--clients 50] [--seconds 60] [--think 0.0] [--servers 1]
                              [--watch PID ...] [--no-revalidate]

Each client is a phone: its own session cookie and CSRF token, keep-alive connection, and
an optional think time between requests. Like a browser, it keeps the match page's ETag and
sends it when it opens the page again (If-None-Match), so an unchanged page can be answered
304 (--no-revalidate: never, as before the pages had ETags). Uses SQLite in a temporary
folder unless DATABASE_URL is set. Without REDIS_URL the rate limits are lifted for the run
(every client shares the loopback address, where a real table has one address per phone).
With REDIS_URL they stay on, counted in Redis, and each table comes through a pretend proxy
(PROXY_COUNT=1) with its own X-Forwarded-For address, so each has its own budget, as behind
a real proxy. With --servers 2 the tables are spread over two gunicorn instances sharing
the database and Redis (the two-server deployment of the README).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import runpy
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Session, free_port, kill, start_gunicorn  # noqa: E402

# what gunicorn.conf.py starts per core with a shared store (single-threaded workers)
PROCESSES = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))[
    "PROCESSES"]

QUESTIONS = [
    {"trick": [{"cards": ["DR"]}], "play": ["PH"]},
    {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s", "Kj", "2p", "9t"], "wish": "8"},
    {"trick": [{"cards": ["3j", "4s", "5p", "6t", "7j"]}],
     "play": ["4j", "5s", "PH", "7t", "8t"]},
    {"play": ["3j", "3s", "3p", "3t", "PH"]},
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0


HANDS_PER_MATCH = 30  # then the table starts a new match, as real tables do


def client(base: str, deadline: float, think: float, seed: int,
           results: dict[str, list[float]], errors: dict[str, int],
           lock: threading.Lock, revalidate: bool = True, measure_from: float = 0.0) -> None:
    """One table: its own match, scored from one phone, checking a play now and then. Only
    the requests begun from `measure_from` on are counted (the first ones warm up)."""
    rng = random.Random(seed)
    session = Session(base)
    etag = ""  # of the match page as last received, sent back as a browser does
    if os.environ.get("PROXY_COUNT"):  # this table's own address, as a proxy would say
        session.headers["X-Forwarded-For"] = f"198.18.{seed // 250}.{seed % 250 + 1}"
    match, saved = "", HANDS_PER_MATCH
    while time.monotonic() < deadline:
        begun = time.monotonic()
        if saved >= HANDS_PER_MATCH:
            started = time.perf_counter()
            try:  # a failed start is an error like any other, and is tried again
                match = session.new_match([f"T{seed}a", f"T{seed}b", f"T{seed}c", f"T{seed}d"])
                token = session.token(f"{match}/hands/new")
                saved = 0
            except (OSError, RuntimeError):  # counted in the warm-up too, as every error
                with lock:
                    errors["start match"] = errors.get("start match", 0) + 1
            if begun >= measure_from:
                with lock:
                    results.setdefault("start match", []).append(
                        (time.perf_counter() - started) * 1000)
            continue
        roll = rng.random()
        started = time.perf_counter()
        try:
            if roll < 0.5:
                kind = "match page"
                if etag and revalidate:
                    session.headers["If-None-Match"] = etag
                try:
                    status, _, headers = session.request("GET", match)
                finally:
                    session.headers.pop("If-None-Match", None)
                ok = status in (200, 304)
                if status == 200:
                    etag = headers.get("etag", "")
                elif status == 304 and begun >= measure_from:
                    with lock:
                        errors["revalidated"] = errors.get("revalidated", 0) + 1
            elif roll < 0.75:
                kind = "save hand"
                fields = {"csrf_token": token, "place_1": "1", "place_2": "2",
                          "card_a": "50",  # level teams: the match never ends
                          "number": str(saved + 1)}  # the hand the form was opened for
                status, _ = session.post_form(f"{match}/hands/new", fields)
                ok = status == 303
                saved += ok
            else:
                kind = "referee check"
                body = json.dumps(rng.choice(QUESTIONS)).encode()
                status, _ = session.post_json("/api/v1/referee/check", body)
                ok = status == 200
        except OSError:
            ok, status = False, 0
        elapsed = (time.perf_counter() - started) * 1000
        with lock:
            if begun >= measure_from:
                results.setdefault(kind, []).append(elapsed)
            if not ok:
                errors[kind] = errors.get(kind, 0) + 1
                errors[f"status {status}"] = errors.get(f"status {status}", 0) + 1
        if think:
            time.sleep(rng.uniform(0, 2 * think))


def run_clients(bases: list[str], seeds: list[int], warmup: float, deadline_in: float,
                think: float, revalidate: bool,
                out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """One load process: a few client threads (several processes keep the clients' own
    interpreter lock from adding to the latencies they measure)."""
    results: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    lock = threading.Lock()
    cpu_marks = [time.process_time()]
    timer = threading.Timer(warmup, lambda: cpu_marks.append(time.process_time()))
    timer.start()  # this process's CPU time is counted from the end of the warm-up
    measure_from = time.monotonic() + warmup
    deadline = measure_from + deadline_in
    threads = [threading.Thread(target=client, args=(bases[seed % len(bases)], deadline, think,
                                                     seed, results, errors, lock, revalidate,
                                                     measure_from))
               for seed in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    timer.join()
    out.put((results, errors, time.process_time() - cpu_marks[-1]))


TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[int, int, int, float] | None:
    """(pid, parent, process group, CPU seconds of it and its waited-for children)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    ppid, pgrp = int(fields[1]), int(fields[2])
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return int(pid), ppid, pgrp, ticks / TICK


def cpu_times() -> list[int]:
    """The machine's CPU ticks so far, by kind (/proc/stat: user, nice, system, idle,
    iowait, irq, softirq, steal)."""
    return [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]


def probe_ms(rounds: int = 5) -> float:
    """The machine's speed now: the best of a few runs of a fixed piece of pure Python
    (dicts, strings, arithmetic, as a request is), in ms. The host's slow minutes show here
    as a longer time, with or without steal in /proc/stat, so runs can be told apart by
    the speed they were given, not only by their date."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        table: dict[str, int] = {}
        for i in range(60_000):
            key = f"k{i % 500}"
            table[key] = table.get(key, 0) + (i * 7) % 13
        best = min(best, time.perf_counter() - started)
    return best * 1000


def cpu_seconds(groups: list[int], trees: list[int]) -> float:
    """CPU seconds used so far by these process groups (a gunicorn instance: master and
    workers) and by these processes with their children (PostgreSQL's postmaster and its
    backends, Redis)."""
    found = [s for pid in os.listdir("/proc") if pid.isdigit() and (s := _stat(pid))]
    return sum(cpu for pid, ppid, pgrp, cpu in found
               if pgrp in groups or pid in trees or ppid in trees)


def empty_database(name: str) -> tuple[str, str, dict[str, str]]:
    """A temporary folder, the database (DATABASE_URL, else SQLite in the folder) with the
    app's tables and nothing in them, and the servers' environment: rate limits off, or
    with REDIS_URL on and counted in Redis (emptied), behind a pretend proxy."""
    folder = tempfile.mkdtemp(prefix=f"tichu-{name}-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/{name}.sqlite3"
    env = {"DATABASE_URL": url, "SECRET_KEY": f"{name}-test", "RATELIMIT_ENABLED": "false",
           "LOG_LEVEL": "warning"}
    if os.environ.get("REDIS_URL"):
        env |= {"REDIS_URL": os.environ["REDIS_URL"], "RATELIMIT_ENABLED": "true",
                "PROXY_COUNT": "1"}
        import redis
        redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    os.environ.update(env)
    from flask_migrate import upgrade

    from tichu_scorer import create_app
    app = create_app(instance_path=folder)
    with app.app_context():
        from tichu_scorer.extensions import db
        if db.inspect(db.engine).get_table_names():
            sys.exit("The benchmark needs an empty database (it adds hundreds of matches).")
        upgrade()
    return folder, url, env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean pause between a client's requests, in seconds")
    parser.add_argument("--workers", type=int, default=PROCESSES,
                        help="per gunicorn instance (by default as gunicorn.conf.py with Redis)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--procs", type=int, default=5, help="load-generating processes")
    parser.add_argument("--servers", type=int, default=1, help="gunicorn instances")
    parser.add_argument("--warmup", type=float, default=10,
                        help="seconds of load before the measured --seconds begin")
    parser.add_argument("--watch", type=int, action="append", default=[],
                        help="a process (with its children) whose CPU time counts too")
    parser.add_argument("--no-revalidate", action="store_true",
                        help="never send the match page's ETag back")
    parser.add_argument("--access-log", action="store_true",
                        help="gunicorn writes its access log (off by default, as behind the "
                             "proxy of the two-server deployment, which logs each request)")
    args = parser.parse_args()

    folder, url, env = empty_database("load")

    speed_before = probe_ms()  # the machine's speed, idle, before the servers start
    # --access-log: the time each request took inside gunicorn, at the log's own cost
    access_log = Path(folder) / "access.log" if args.access_log else None
    servers, bases = [], []
    for _ in range(args.servers):
        port = free_port()
        servers.append(start_gunicorn(env | {"ACCESS_LOG": str(access_log or "")}, port,
                                      args.workers, args.threads))
        bases.append(f"http://127.0.0.1:{port}")
    try:
        results: dict[str, list[float]] = {}
        errors: dict[str, int] = {}
        queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
        seeds = list(range(args.clients))
        procs = [multiprocessing.Process(target=run_clients, args=(
            bases, seeds[i::args.procs], args.warmup, args.seconds, args.think,
            not args.no_revalidate, queue)) for i in range(args.procs)]
        groups = [server.pid for server in servers]
        for proc in procs:
            proc.start()
        time.sleep(args.warmup)  # the load runs: the measured part begins
        load_before = os.getloadavg()
        ticks_before = cpu_times()
        cpu_before = (cpu_seconds(groups, []), cpu_seconds([], args.watch))
        started = time.monotonic()
        generator = 0.0
        for _ in procs:
            part, part_errors, used = queue.get()
            generator += used
            for kind, values in part.items():
                results.setdefault(kind, []).extend(values)
            for kind, n in part_errors.items():
                errors[kind] = errors.get(kind, 0) + n
        for proc in procs:
            proc.join()
        wall = time.monotonic() - started
        cpu = (cpu_seconds(groups, []) - cpu_before[0],
               cpu_seconds([], args.watch) - cpu_before[1])
        load_after = os.getloadavg()
        ticks = [a - b for a, b in zip(cpu_times(), ticks_before, strict=True)]
    finally:
        for server in servers:
            kill(server)

    speed_after = probe_ms()
    total = sum(len(v) for v in results.values())
    print(f"{args.clients} clients in {args.procs} processes, {args.seconds:.0f} s, think "
          f"{args.think} s, {args.servers} x gunicorn {args.workers} workers x {args.threads} "
          f"threads, {url.split(':')[0]}, rate limits "
          f"{'in Redis' if env.get('REDIS_URL') else 'off'}, "
          f"{'revalidating' if not args.no_revalidate else 'never revalidating'} match pages")
    print(f"load average before {load_before[0]:.1f} / {load_before[1]:.1f} / "
          f"{load_before[2]:.1f}, after {load_after[0]:.1f} / {load_after[1]:.1f} / "
          f"{load_after[2]:.1f} (1 / 5 / 15 min; {os.cpu_count()} cores)")
    print(f"machine speed probe (idle, lower is faster): {speed_before:.1f} ms before, "
          f"{speed_after:.1f} ms after; CPU steal during the run "
          f"{100 * ticks[7] / max(sum(ticks), 1):.1f} % of the machine's ticks")
    revalidated = errors.pop("revalidated", 0)
    failed = sum(v for k, v in errors.items() if not k.startswith("status"))
    print(f"{total} requests in {wall:.1f} s after {args.warmup:.0f} s of warm-up: "
          f"{total / wall:.0f} req/s, {failed} errors (warm-up included) "
          + str({k: v for k, v in errors.items() if k.startswith("status")} or ""))
    pages = len(results.get("match page", []))
    print(f"match pages answered 304: {revalidated} of {pages} "
          f"({100 * revalidated / max(pages, 1):.0f} %)")
    spent = cpu[0] + cpu[1] + generator
    print(f"CPU seconds: servers {cpu[0]:.1f}, watched {cpu[1]:.1f}, load generator "
          f"{generator:.1f}; per request {1000 * cpu[0] / max(total, 1):.1f} ms in gunicorn, "
          f"{1000 * spent / max(total, 1):.1f} ms all told; {spent / wall:.2f} of "
          f"{os.cpu_count()} cores busy with this run")
    print(f"{'request':<14} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for kind in ("match page", "save hand", "referee check", "start match"):
        values = results.get(kind, [])
        print(f"{kind:<14} {len(values):>7} {statistics.median(values) if values else 0:>8.1f} "
              f"{percentile(values, 0.95):>8.1f} {percentile(values, 0.99):>8.1f} "
              f"{errors.get(kind, 0):>7}")
    if access_log is None:
        return
    inside = server_times(access_log)
    print("inside gunicorn (access log):")
    for kind in ("match page", "save hand", "referee check"):
        values = inside.get(kind, [])
        print(f"{kind:<14} {len(values):>7} {statistics.median(values) if values else 0:>8.1f} "
              f"{percentile(values, 0.95):>8.1f} {percentile(values, 0.99):>8.1f}")


def server_times(log: Path) -> dict[str, list[float]]:
    """Milliseconds from gunicorn's access log (the last field, `%(M)sms`): the time inside
    the worker, without the wait for a free thread or the client's own side."""
    kinds = {("GET", "match"): "match page", ("POST", "hands"): "save hand",
             ("POST", "referee"): "referee check"}
    times: dict[str, list[float]] = {}
    for line in log.read_text().splitlines():
        try:
            method, path = line.split('"')[1].split()[:2]
            ms = float(line.rsplit(" ", 1)[1].removesuffix("ms"))
        except (IndexError, ValueError):
            continue
        if path.startswith("/matches/") and path.count("/") == 2 and path != "/matches/new":
            kind = kinds.get((method, "match"))
        elif path.endswith("/hands/new"):
            kind = kinds.get((method, "hands"))
        else:
            kind = kinds.get((method, "referee")) if "referee" in path else None
        if kind:
            times.setdefault(kind, []).append(ms)
    return times


if __name__ == "__main__":
    main()
