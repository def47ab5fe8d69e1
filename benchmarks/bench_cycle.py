"""What one request of each kind in the load test costs in CPU, all told: the app (in this
process, through the Flask test client, so without gunicorn's own share), PostgreSQL and
Redis (their processes, named with --watch, children included).

    DATABASE_URL=postgresql://… REDIS_URL=redis://… python benchmarks/bench_cycle.py \
        --watch $(head -1 $PGDATA/postmaster.pid) --watch $(redis-cli info server | …)

Each kind runs N times in a row at one of T tables (matches of 30 hands at most, as in
`load.py`), so that the CPU of the database and Redis during the run belongs to that kind:
the match page as a browser first opens it (200) and as it opens it again (304), a hand
saved through the form (the redirect not followed), the hand form's preview, a referee
check. The rate limits are on
and counted in Redis, as in the load test. The CPU of the app is this process's around
each measured request; that of the watched processes is read from /proc around it (in
clock ticks, so a single request's share is rounded, the average over many is not).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load import QUESTIONS, cpu_seconds  # noqa: E402

TOKEN = b'name="csrf_token" type="hidden" value="'


def token(page: bytes) -> str:
    start = page.index(TOKEN) + len(TOKEN)
    return page[start:page.index(b'"', start)].decode()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--watch", type=int, action="append", default=[])
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tichu-cycle-")
    if os.environ.get("REDIS_URL"):
        os.environ |= {"RATELIMIT_ENABLED": "true", "PROXY_COUNT": "1"}
        import redis
        redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/cycle.sqlite3")
    os.environ |= {"SECRET_KEY": "cycle"}
    from flask_migrate import upgrade

    from tichu_scorer import create_app
    from tichu_scorer.extensions import db
    app = create_app(instance_path=folder)
    with app.app_context():
        if db.inspect(db.engine).get_table_names():
            sys.exit("The benchmark needs an empty database.")
        upgrade()
    rng = random.Random(7)
    tables = []
    for n in range(args.tables):
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = "127.0.0.1"
        phone.environ_base["HTTP_X_FORWARDED_FOR"] = f"198.18.0.{n + 1}"
        fields = {f"seat_{i}": f"T{n}{i}" for i in range(4)}
        form = phone.get("/matches/new").data
        answer = phone.post("/matches/new", data=fields | {
            "csrf_token": token(form), "variant": "nanking", "target": "1000"})
        path = answer.headers["Location"]
        tables.append({"phone": phone, "path": path, "saved": 0, "etag": "",
                       "token": token(phone.get(path + "/hands/new").data)})

    def fresh(table):  # before each match page: a change, so the page is built again
        save(table)

    def page(table):
        response = table["phone"].get(table["path"], headers={"Accept-Encoding": "br"})
        table["etag"] = response.headers.get("ETag", "")
        return response

    def again(table):
        return table["phone"].get(table["path"], headers={
            "Accept-Encoding": "br", "If-None-Match": table["etag"]})

    def new_match(table):  # as load.py: after 30 hands the table starts a new match
        if table["saved"] >= 30:
            table["saved"] = 0
            table["path"] = table["phone"].post(table["path"] + "/rematch", data={
                "csrf_token": table["token"]}).headers["Location"]

    def save(table):
        table["saved"] += 1
        return table["phone"].post(table["path"] + "/hands/new", data={
            "csrf_token": table["token"], "place_1": "1", "place_2": "2", "card_a": "50",
            "number": str(table["saved"])})

    def preview(table):  # the hand form's preview of the next hand, as hand.js asks it
        return table["phone"].post(table["path"] + "/hands/preview", data=json.dumps(
            {"out_order": [1, 2], "card_points": [50, 50]}), content_type="application/json",
            headers={"X-CSRFToken": table["token"]})

    def check(table):
        return table["phone"].post("/api/v1/referee/check",
                                   data=json.dumps(rng.choice(QUESTIONS)),
                                   content_type="application/json")

    kinds = (("save hand", new_match, save, 303), ("match page (200)", fresh, page, 200),
             ("match page (304)", page, again, 304), ("preview", None, preview, 200),
             ("referee check", None, check, 200))
    costs = {}
    for kind, prepare, run, expected in kinds:
        app_cpu = other = 0.0
        for i in range(args.requests):
            table = tables[i % len(tables)]
            if prepare is not None:
                new_match(table)
                prepare(table)
            before = cpu_seconds([], args.watch)
            start = time.process_time()
            response = run(table)
            app_cpu += time.process_time() - start
            other += cpu_seconds([], args.watch) - before
            assert response.status_code == expected, (kind, response.status_code)
        costs[kind] = (app_cpu / args.requests, other / args.requests)
    print(f"{args.tables} tables, {args.requests} requests of each kind, "
          f"{os.environ['DATABASE_URL'].split(':')[0]}, rate limits "
          f"{'in Redis' if os.environ.get('REDIS_URL') else 'off'}, load average "
          f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'request':18} {'app':>7} {'db+Redis':>9} {'all':>7}  (CPU ms per request)")
    for kind, (app_cpu, other) in costs.items():
        print(f"{kind:18} {app_cpu * 1000:7.2f} {other * 1000:9.2f} "
              f"{1000 * (app_cpu + other):7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
