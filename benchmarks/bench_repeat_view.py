"""What a repeat view of a match page costs the server, old code against new, side by side
against a bare Flask page.

    git worktree add /tmp/wt-rep-old 360e84d    # the code before (and its .mo compiled)
    .venv/bin/python benchmarks/bench_repeat_view.py --old /tmp/wt-rep-old \
        [--hands 50] [--requests 300] [--rounds 7]

Three gunicorns on loopback, each as `gunicorn.conf.py` runs it without Redis (one worker,
its threads; the access log off; rate limits off, or with --limits on and counted in memory
under budgets no batch spends, so that each request is counted as in production), sharing
one SQLite file that holds one
match of --hands hands (the generator of `bench_history.py`): the app at --old, the app of
this checkout, and a bare Flask app that serves a 14 KB page (`bare_page.py`). A client
asks, over a kept-alive connection, as a browser does (`Accept-Encoding: br, gzip`):

  bare          the bare page (200)
  poll 304      the live poll of the match, unchanged (answered before Flask)
  viewer page   the match page through its viewer link, kept (a repeat view without a
                validator: the whole response kept by this code, `repeat_views.KeptResponses`;
                the body kept and the page around it rendered by code before it)
  viewer 304    the same with the ETag of the copy (If-None-Match)
  scorer page   the match page as its table's scorer opens it (kept)
  scorer 304    the same, revalidated
  scorer built  the scorer's page, each request with a header of its own that no page reads
                (`X-Bench-Once: n`): a whole response kept never serves it, so it costs what
                the first view of a revision by a reader costs (the body kept, the page
                around it rendered and compressed, the response kept for the next time)

Each batch is --requests requests of one kind to one server; every round runs each batch
once, in a new random order (the servers and kinds interleaved, so that the machine's
swings of speed fall on all of them alike). A batch's cost is the server's CPU over it, read
from /proc (every thread's run time in /proc/<pid>/task/*/schedstat, in nanoseconds, of the
gunicorn master and its worker), divided by its requests. Printed per kind and server: the
median over the rounds and the range, and the ratio to the bare page of the same round
(median and range); /proc/loadavg before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import ROOT, Session, free_port, kill, start_gunicorn  # noqa: E402

LIVE = re.compile(rb'data-live="([^"]+)" data-live-tag="([^"]+)"')
BROWSER = {"Accept-Encoding": "br, gzip", "Accept-Language": "en-GB,en;q=0.9"}


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def group_pids(group: int) -> list[int]:
    """The processes of a gunicorn instance (its process group: master and worker)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                text = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            if int(text.rsplit(")", 1)[1].split()[2]) == group:
                found.append(int(name))
    return found


def cpu_ns(pids: list[int]) -> int:
    """Run time so far of every thread of these processes, in nanoseconds."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    return total


def measure(group: int, requests: int, run: Callable[[], int]
          ) -> tuple[float, float, list[int]] | None:
    """`run` (a request, its status returned) `requests` times to the gunicorn of process
    group `group`: the server's CPU and the wall time per request (ms) and the statuses;
    None when gunicorn replaced its worker meanwhile (max_requests)."""
    server = group_pids(group)
    began, wall = cpu_ns(server), time.perf_counter()
    statuses = [run() for _ in range(requests)]
    wall = time.perf_counter() - wall
    used = cpu_ns(server) - began
    if group_pids(group) != server:
        return None
    return used / 1e6 / requests, wall * 1000 / requests, statuses


def seed(hands: int) -> tuple[str, dict[str, str], str, str, str]:
    """A SQLite file with one match at a new table: the servers' environment, the match's
    key, viewer code and the table's scorer key."""
    from benchmarks.bench_history import export, match
    from benchmarks.load import empty_database
    from tichu_scorer import create_app
    from tichu_scorer.extensions import db
    from tichu_scorer.matches import roster
    from tichu_scorer.models import Match
    from tichu_scorer.transfer.json_import import import_json
    folder, _url, env = empty_database("repeat")
    app = create_app(instance_path=folder)
    with app.test_request_context():
        table = roster.create_group("Bench")
        import_json(export([match(random.Random(12), [f"P{n}" for n in range(8)],
                                           hands, "2026-11-20")]), table)
        found = db.session.execute(db.select(Match)).scalar_one()
        key, code, scorer_key = found.key, found.code, table.scorer_key
        db.engine.dispose()
    return folder, env | {"ACCESS_LOG": "", "LOG_LEVEL": "warning"}, key, code, scorer_key


class Client:
    """One phone at one server: a kept-alive connection, its cookie, and the validators its
    copies carry."""

    def __init__(self, port: int, once: bool = False) -> None:
        self.session = Session(f"http://127.0.0.1:{port}")
        self.session.headers.update(BROWSER)
        self.once = 0 if once else None  # a header of its own on each request (`scorer built`)

    def get(self, path: str, tag: str | None = None) -> tuple[int, bytes, dict[str, str]]:
        self.session.headers.pop("If-None-Match", None)
        if tag:
            self.session.headers["If-None-Match"] = tag
        if self.once is not None:
            self.once += 1
            self.session.headers["X-Bench-Once"] = str(self.once)
        return self.session.request("GET", path)


def kinds_of(port: int, key: str, code: str, scorer_key: str
             ) -> dict[str, tuple[Client, str, str | None, int]]:
    """(client, path, If-None-Match, expected status) of each kind asked of an app server."""
    viewer, scorer, poller = Client(port), Client(port), Client(port)
    page, shared = f"/matches/{key}", f"/v/{code}"
    viewer.get(shared)  # the viewer's right: its cookie
    viewer_tag = viewer.get(shared)[2].get("etag")
    scorer.get(f"/join?key={scorer_key}")
    scorer.get(page)  # the joining's message shown
    status, _, headers = scorer.get(page)
    scorer_tag = headers.get("etag")
    del scorer.session.headers["Accept-Encoding"]  # the page as text, for its live path
    found = LIVE.search(scorer.get(page)[1])
    scorer.session.headers["Accept-Encoding"] = BROWSER["Accept-Encoding"]
    if status != 200 or not found or not viewer_tag or not scorer_tag:
        raise RuntimeError(f"no kept match page at port {port} ({status})")
    poll, version = found.group(1).decode(), found.group(2).decode()
    built = Client(port, once=True)
    built.session.cookie = scorer.session.cookie  # the same phone, asking a new way each time
    return {"poll 304": (poller, poll, f'"{version}"', 304),
            "viewer page": (viewer, shared, None, 200),
            "viewer 304": (viewer, shared, viewer_tag, 304),
            "scorer page": (scorer, page, None, 200),
            "scorer 304": (scorer, page, scorer_tag, 304),
            "scorer built": (built, page, None, 200)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True, help="checkout of the old code")
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--limits", action="store_true", help="rate limits on (in memory)")
    args = parser.parse_args()
    folder, env, key, code, scorer_key = seed(args.hands)
    if args.limits:
        env |= {"RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": "memory://"} | {
            name: "1000000 per minute" for name in (
                "READ_RATE_LIMIT", "JOIN_RATE_LIMIT", "CODE_JOIN_RATE_LIMIT")}
    log = Path(folder) / "gunicorn.log"
    servers = {}
    try:
        for name, root, app in (("bare", ROOT, "benchmarks.bare_page:app"),
                                ("old", args.old.resolve(), "wsgi:app"),
                                ("new", ROOT, "wsgi:app")):
            port = free_port()
            proc = start_gunicorn(env, port, workers=1, threads=8, log=log, root=root, app=app)
            servers[name] = (proc, port)
        batches: dict[tuple[str, str], tuple[Client, str, str | None, int]] = {
            ("bare", "bare"): (Client(servers["bare"][1]), "/page", None, 200)}
        for name in ("old", "new"):
            for kind, batch in kinds_of(servers[name][1], key, code, scorer_key).items():
                batches[(name, kind)] = batch
        sizes = {k: len(b[0].get(b[1], b[2])[1]) for k, b in batches.items()}
        cookies = {name: "set-cookie" in batches[(name, "viewer page")][0].get(
            batches[(name, "viewer page")][1])[2] for name in ("old", "new")}
        for client, path, tag, _ in batches.values():  # warm up
            for _ in range(30):
                client.get(path, tag)
        load_before = loadavg()
        figures = Figures()
        rng = random.Random(7)
        replaced = 0  # batches measured again
        for _ in range(args.rounds):
            order = list(batches)
            rng.shuffle(order)
            for which in order:
                while True:  # again if gunicorn replaced its worker meanwhile (max_requests)
                    client, path, tag, expected = batches[which]
                    client.session.close()  # gunicorn closed it if idle 5 s: a new one
                    client.get("/healthz")
                    measured = measure(servers[which[0]][0].pid, args.requests,
                                     lambda c=client, p=path, t=tag: c.get(p, t)[0])
                    if measured is not None:
                        break
                    replaced += 1
                figures.add(which, measured, expected)
        load_after = loadavg()
    finally:
        for proc, _port in servers.values():
            kill(proc)
    print(f"{args.hands}-hand match, SQLite, gunicorn 1 worker x 8 threads each, "
          f"{args.requests} requests a batch, {args.rounds} rounds interleaved, "
          f"rate limits {'on (memory)' if args.limits else 'off'}")
    print(f"/proc/loadavg before: {load_before}; after: {load_after}")
    print(f"batches measured again (a worker replaced): {replaced}")
    print(f"viewer's repeat page sets a cookie: old {cookies['old']}, new {cookies['new']}")
    print(f"{'server':6} {'request':12} {'bytes':>6} {Figures.HEADER}")
    for name, kind in batches:
        print(f"{name:6} {kind:12} {sizes[(name, kind)]:6} {figures.row((name, kind))}")
    return 0


class Figures:
    """Each batch's CPU and wall time per request (ms) and its wrong answers, by (server,
    kind); ("bare", "bare") is the bare page's."""

    HEADER = (f"{'CPU ms median':>13} {'range':>13}  {'x bare median':>13} {'range':>11}  "
              f"{'wall ms':>7}  wrong")

    def __init__(self) -> None:
        self.costs: dict[tuple[str, str], list[float]] = {}
        self.walls: dict[tuple[str, str], list[float]] = {}
        self.wrong: dict[tuple[str, str], int] = {}

    def add(self, which: tuple[str, str], measured: tuple[float, float, list[int]],
            expected: int) -> None:
        cost, wall, statuses = measured
        self.costs.setdefault(which, []).append(cost)
        self.walls.setdefault(which, []).append(wall)
        self.wrong[which] = self.wrong.get(which, 0) + sum(s != expected for s in statuses)

    def row(self, which: tuple[str, str]) -> str:
        """The columns "CPU ms median" to "wrong": the CPU over the rounds, median and range,
        its ratio to the bare page of the same round, median and range, the median wall
        time and the wrong answers."""
        values = self.costs[which]
        ratios = [v / b for v, b in zip(values, self.costs[("bare", "bare")], strict=True)]
        return (f"{statistics.median(values):13.3f} {min(values):6.3f}–{max(values):6.3f}  "
                f"{statistics.median(ratios):13.2f} {min(ratios):5.2f}–{max(ratios):5.2f}  "
                f"{statistics.median(self.walls[which]):7.3f}  {self.wrong[which]}")


if __name__ == "__main__":
    sys.exit(main())
