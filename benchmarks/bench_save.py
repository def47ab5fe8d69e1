"""What saving a hand through the hand form costs the server, old code against new, side by
side against a bare Flask page.

    git worktree add --detach /tmp/wt-save-old 5b5e2fe    # the code before (its .mo compiled)
    .venv/bin/python benchmarks/bench_save.py --old /tmp/wt-save-old \
        [--requests 150] [--rounds 7] [--profile old|new]

Three gunicorns on loopback, each as `gunicorn.conf.py` runs it without Redis (one worker,
its threads; the access log off; rate limits off), sharing one database (SQLite in a
temporary folder, or DATABASE_URL, an empty one): the app at --old, the app of this
checkout, and a bare Flask app that serves a 14 KB page (`bare_page.py`). A phone at each
app joined its table as its scorer by starting a match there, and starts, before the
rounds, all the matches it will save into (rematches of the first: one table), each to take
30 hands as the load test's tables do. A save is the hand form's POST as a browser sends it
(its CSRF token, the hand number the form showed, a client id), answered 303; the phone
then drops the cookie the save answered with (its "Hand N saved." note) as a phone that
follows the redirect reads the note away, so every save carries the same session.

Each batch is --requests requests of one kind to one server; every round runs each batch
once, in a new random order (the servers and kinds interleaved, so that the machine's
swings of speed fall on all of them alike). A batch's cost is the server's CPU over it, read
from /proc (every thread's run time, in nanoseconds, of the gunicorn master and its worker),
divided by its requests. Printed per kind and server: the median over the rounds and the
range, and the ratio to the bare page of the same round (median and range); /proc/loadavg
before and after.

--profile old|new: instead, that app's worker runs each save under cProfile
(`profiled_app.py`) and the totals are printed, most cumulative time first.
"""

from __future__ import annotations

import argparse
import random
import sys
import urllib.parse
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_repeat_view import Figures, loadavg, measure  # noqa: E402
from benchmarks.harness import ROOT, Session, free_port, kill, start_gunicorn  # noqa: E402

HANDS_PER_MATCH = 30  # then the next match, as the load test's tables do
NAMES = ["Ann", "Bob", "Cid", "Dee"]


class Phone:
    """The scorer's phone at one app: its session and CSRF token, the matches it saves
    into, and the hand each is at."""

    def __init__(self, port: int, matches: int) -> None:
        self.session = Session(f"http://127.0.0.1:{port}")
        first = self.session.new_match(NAMES)
        self.token = self.session.token(first + "/hands/new")
        self.paths = [first]
        while len(self.paths) < matches:
            status, _, headers = self.session.request(
                "POST", self.paths[-1] + "/rematch", f"csrf_token={self.token}".encode(),
                "application/x-www-form-urlencoded")
            if status != 303:
                raise RuntimeError(f"no rematch at port {port} ({status})")
            self.paths.append(urllib.parse.urlsplit(headers["location"]).path)
        self.saved = 0
        self.session.get(self.paths[0])  # the notes of the starts read away

    def save(self) -> int:
        """Save the next hand (team A out first and second, as the bench_cycle's hand)."""
        match, number = divmod(self.saved, HANDS_PER_MATCH)
        self.saved += 1
        cookie = self.session.cookie
        status, _ = self.session.post_form(self.paths[match] + "/hands/new", {
            "csrf_token": self.token, "number": str(number + 1),
            "client_id": uuid.uuid4().hex, "place_1": "1", "place_2": "2", "card_a": "50"})
        self.session.cookie = cookie  # the note read away on the page the redirect opens
        return status


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True, help="checkout of the old code")
    parser.add_argument("--requests", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--profile", choices=("old", "new"))
    args = parser.parse_args()
    from benchmarks.load import empty_database
    folder, _url, env = empty_database("save")
    env |= {"ACCESS_LOG": "", "LOG_LEVEL": "warning"}
    log = Path(folder) / "gunicorn.log"
    saves = args.requests * (args.rounds + 1)  # a batch more to warm up
    matches = -(-saves // HANDS_PER_MATCH)
    servers = {}
    profile = Path(folder) / "save.prof"
    try:
        for name, root, app in (("bare", ROOT, "benchmarks.bare_page:app"),
                                ("old", args.old.resolve(), "wsgi:app"),
                                ("new", ROOT, "wsgi:app")):
            if args.profile and name != args.profile:
                continue
            port = free_port()
            extra = {}
            if args.profile:
                app = "profiled_app:app"  # beside this file, around the checkout's app
                extra = {"PYTHONPATH": str(ROOT / "benchmarks"), "PROFILE_OUT": str(profile)}
            proc = start_gunicorn(env | extra, port, workers=1, threads=8, log=log, root=root,
                                  app=app)
            servers[name] = (proc, port)
        if args.profile:
            return _profile(servers[args.profile], saves, matches, profile)
        bare = Session(f"http://127.0.0.1:{servers['bare'][1]}")
        phones = {name: Phone(servers[name][1], matches) for name in ("old", "new")}
        batches = {("bare", "bare"): lambda: bare.get("/page")[0],
                   ("old", "save"): phones["old"].save, ("new", "save"): phones["new"].save}
        clients = {"bare": bare, "old": phones["old"].session, "new": phones["new"].session}
        expected = {"bare": 200, "save": 303}
        for run in batches.values():  # warm up
            for _ in range(args.requests):
                run()
        load_before = loadavg()
        figures = Figures()
        rng = random.Random(7)
        for _ in range(args.rounds):
            order = list(batches)
            rng.shuffle(order)
            for which in order:
                clients[which[0]].close()  # gunicorn closed it if idle 5 s: a new one
                clients[which[0]].get("/healthz")
                measured = measure(servers[which[0]][0].pid, args.requests, batches[which])
                if measured is None:  # a save cannot be sent again
                    raise RuntimeError("gunicorn replaced its worker: fewer --requests")
                figures.add(which, measured, expected[which[1]])
        load_after = loadavg()
    finally:
        for proc, _port in servers.values():
            kill(proc)
    database = env["DATABASE_URL"].split(":")[0]
    print(f"{database}, gunicorn 1 worker x 8 threads each, {args.requests} requests a batch, "
          f"{args.rounds} rounds interleaved")
    print(f"/proc/loadavg before: {load_before}; after: {load_after}")
    print(f"{'server':6} {'request':8} {Figures.HEADER}")
    for name, kind in batches:
        print(f"{name:6} {kind:8} {figures.row((name, kind))}")
    return 0


def _profile(server: tuple[object, int], saves: int, matches: int, out: Path) -> int:
    """Save every hand once under the profiler, then print its totals."""
    import pstats
    phone = Phone(server[1], matches)
    statuses = [phone.save() for _ in range(saves)]
    kill(server[0], sig=15)  # SIGTERM: the worker writes its profile as it exits
    print(f"{saves} saves, {sum(s != 303 for s in statuses)} not 303; "
          f"/proc/loadavg {loadavg()}")
    pstats.Stats(str(out)).sort_stats("cumulative").print_stats(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
