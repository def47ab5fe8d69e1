"""Can clients exporting the largest match the limits allow stall a phone's save? Figures
for docs/SECURITY.md (issue "Bounded again"): `python benchmarks/export_stall.py [--old REV]
[--seconds S] [--clients N]`.

One server per code under test, side by side in one run (the commit REV, default the
commit before exports were built once per revision, in a throwaway worktree; and this
checkout), each on its own empty database (DATABASE_URL's PostgreSQL server with a
database per run, else SQLite) and in the default shape of a server for that database:
SQLite one worker with 8 threads, PostgreSQL 6 workers of one thread (the shape with a
shared Redis). Rate limits are off: the point is the cost of what the counts allow.

A stranger imports one match of 2,000 hands and 10,000 log entries, then N clients (other
processes) ask for its export.json and export.csv in a loop. Meanwhile a phone opens the
hand form, saves a hand and opens the match page, again and again: the figure is that
cycle's time (p50, p95, worst), with the exports answered (200, 304, 503) and the load.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import ROOT, TOKEN, Session, free_port, kill, start_gunicorn  # noqa: E402
from benchmarks.load import percentile  # noqa: E402

OLD = "a7f6c76"  # main before exports were built once per revision
HANDS, ENTRIES = 2000, 10_000


def largest_match() -> bytes:
    """An export of one match at the import's bounds: 2,000 hands, 10,000 log entries."""
    from tests.views.test_transfer import long_match
    data = long_match(HANDS)
    match = data["matches"][0]
    log, n = match["log"], 0
    while len(log) < ENTRIES:
        hand = match["hands"][n % HANDS]
        log.append({"hand_number": hand["number"], "position": n % HANDS + 1,
                    "action": "edited", "summary": "card points 50 → 55",
                    "before": {"out_order": hand["out_order"]},
                    "after": {"out_order": hand["out_order"]}, "at": "2024-03-01T21:00:00"})
        n += 1
    return json.dumps(data).encode()


def database(name: str, folder: str) -> str:
    """An empty database for one server: a new one on DATABASE_URL's server, else SQLite."""
    base = os.environ.get("DATABASE_URL")
    if not base:
        return f"sqlite:///{folder}/{name}.sqlite3"
    import psycopg
    plain = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return base.rsplit("/", 1)[0] + "/" + name


def migrate(root: Path, url: str, folder: str) -> None:
    env = os.environ | {"DATABASE_URL": url, "SECRET_KEY": "bench"}
    subprocess.run([sys.executable, "-c",
                    "from flask_migrate import upgrade\nfrom tichu_scorer import create_app\n"
                    f"app = create_app(instance_path={folder!r})\n"
                    "with app.app_context(): upgrade()"],
                   cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)


def upload(client: Session, blob: bytes) -> str:
    """Import the file as a stranger; the path of the match it made."""
    client.get("/")  # the session cookie
    token = json.loads(client.get("/csrf-token")[1])["csrf_token"]
    status, _, _ = client.import_file(token, blob)
    if status != 303:
        raise RuntimeError(f"import refused ({status})")
    _, page = client.get("/")
    found = re.search(rb'href="(/matches/[A-Za-z0-9_-]{12,24})"', page)
    if not found:
        raise RuntimeError("the imported match is not listed")
    return found.group(1).decode()


def attacker(base: str, cookie: str, path: str, until: float, counts: dict) -> None:
    client = Session(base, timeout=60)
    client.cookie = cookie
    n = 0
    while time.time() < until:
        kind = ("json", "csv")[n % 2]
        n += 1
        try:
            status, _, _ = client.request("GET", f"{path}/export.{kind}")
        except OSError:
            status = 0
        counts[status] = counts.get(status, 0) + 1


def phone_cycles(base: str, until: float) -> list[float]:
    """Hand form, save, match page; each cycle's seconds."""
    phone = Session(base, timeout=60)
    match = phone.new_match(["Ann", "Bob", "Cy", "Dee"], target=10_000)
    times: list[float] = []
    while not times or time.time() < until:  # at least one cycle, however slow
        started = time.monotonic()
        _, form = phone.get(match + "/hands/new")
        token = TOKEN.search(form).group(1).decode()
        number = json.loads(phone.get(match + "/revision")[1])["hands"] + 1
        body = urllib.parse.urlencode({"csrf_token": token, "number": number, "place_1": 0,
                                       "place_2": 1, "card_a": 50, "card_b": 50}).encode()
        status, _, _ = phone.request("POST", match + "/hands/new", body,
                                     "application/x-www-form-urlencoded")
        page_status, _ = phone.get(match)
        if status != 303 or page_status != 200:
            raise RuntimeError(f"the phone's save answered {status}, its page {page_status}")
        times.append(time.monotonic() - started)
        time.sleep(0.2)
    return times


def run(label: str, root: Path, blob: bytes, seconds: float, clients: int) -> str:
    folder = tempfile.mkdtemp(prefix=f"tichu-export-{label}-")
    url = database(f"bench_export_{label}", folder)
    migrate(root, url, folder)
    postgres = url.startswith("postgresql")
    workers, threads = (6, 1) if postgres else (1, 8)
    port = free_port()
    env = {"DATABASE_URL": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": "false",
           "LOG_LEVEL": "warning"}
    proc = start_gunicorn(env, port, workers=workers, threads=threads, root=root)
    base = f"http://127.0.0.1:{port}"
    try:
        stranger = Session(base, timeout=120)
        started = time.monotonic()
        path = upload(stranger, blob)
        imported = time.monotonic() - started
        quiet = phone_cycles(base, time.time() + 3)  # before the attack
        until = time.time() + seconds
        with multiprocessing.Manager() as manager:
            counts = manager.dict()
            attackers = [multiprocessing.Process(
                target=attacker, args=(base, stranger.cookie, path, until, counts))
                for _ in range(clients)]
            for proc_ in attackers:
                proc_.start()
            time.sleep(1)
            cycles = phone_cycles(base, until)
            for proc_ in attackers:
                proc_.join()
            answered = dict(counts)
    finally:
        kill(proc)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    ms = [t * 1000 for t in cycles]
    return (f"| {label} | {'PostgreSQL' if postgres else 'SQLite'} {workers}×{threads} | "
            f"{imported:.1f} s | {percentile([t * 1000 for t in quiet], 0.5):.0f} ms | "
            f"{percentile(ms, 0.5):.0f} / {percentile(ms, 0.95):.0f} / {max(ms):.0f} ms "
            f"({len(ms)}) | {', '.join(f'{k}: {v}' for k, v in sorted(answered.items()))} "
            f"| {load} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", default=OLD)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    blob = largest_match()
    print(f"the match: {HANDS} hands, {ENTRIES} log entries, {len(blob) / 1e6:.2f} MB; "
          f"{args.clients} clients exporting for {args.seconds:g} s")
    old = Path(tempfile.mkdtemp(prefix="tichu-old-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(old), args.old], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("| code | server | import | phone cycle, quiet (p50) | phone cycle under attack "
          "(p50 / p95 / worst, cycles) | exports answered | load |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for label, root in (("old", old), ("new", ROOT)):
            print(run(label, root, blob, args.seconds, args.clients), flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT,
                       check=False)


if __name__ == "__main__":
    main()
