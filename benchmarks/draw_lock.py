"""The director's draw and SQLite's write lock: how long a large draw takes
(`drawing.draw_round`, in process), how long it holds the write lock, and how long hands
saved at other tables meanwhile wait for that lock, with the seating searched inside the
write transaction (the old way, kept here as `held_draw`) and outside it (now), side by
side.

Usage: python benchmarks/draw_lock.py [--rounds 4] [--savers 3] [--pause 0.02]

SQLite in a temporary folder. Cases: 256 players (individual: 64 tables a round), 128
pairs of 256 players (Swiss: 64 tables), and 128 pairs playing all against all over 20
rounds, a pair dropping out after round 1 (the costliest search: the look-ahead over the
rounds left runs out of steps, then Swiss). Each case draws two tournaments round by round,
old and new way alternately (the machine's speed swings from minute to minute); between
two rounds every table of the round is given a result and marked over (not timed).
Meanwhile `--savers` processes, each at a table of its own, save hands in a loop
(`writes.lock_match` + `hand_entry.add_hand`, `--pause` s apart), each save's wait for the
lock (`lock_match`) recorded with its moment: a save that waited during a draw counts for
that draw (the one it waited longest during), the others are "no draw running". The lock
held is the draw's longest write transaction (BEGIN IMMEDIATE to COMMIT), in wall and in
CPU time (the CPU time changes little with the machine's load). Prints medians / maxima and
/proc/loadavg before and after.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event  # noqa: E402

from tichu_scorer import create_app  # noqa: E402
from tichu_scorer.clock import utcnow  # noqa: E402
from tichu_scorer.engine.budget import Budget  # noqa: E402
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.matches import creation, hand_entry, roster, writes  # noqa: E402
from tichu_scorer.models import Tournament, TournamentRound  # noqa: E402
from tichu_scorer.tournaments import director, draw, drawing, formats, stored  # noqa: E402

HANDS = ({"out_order": [0, 1], "card_points": [60, None]},
         {"out_order": [1, 0], "card_points": [None, 60]})


def app_on(uri: str) -> Any:
    return create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SECRET_KEY": "bench",
                       "SQLALCHEMY_DATABASE_URI": uri, "PAGE_STORE_URI": ""})


def saver(uri: str, index: int, pause: float, stop: Any, out: Any) -> None:
    """A table's phone saving hands in a loop, a new match every 16 hands: (moment the save
    began, its wait for the write lock, its whole time) for each, sent on `out`."""
    app = app_on(uri)
    found = []
    with app.test_request_context():
        group = roster.create_group(f"Table {index}")
        key = ""
        count = 0
        while not stop.is_set():
            if count % 16 == 0:
                key = creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 1000).key
            began = time.monotonic()
            try:
                match = writes.lock_match(key)
                locked = time.monotonic()
                assert match is not None
                added = hand_entry.add_hand(match, HANDS[count % 2], match.hand_count + 1)
                assert added.hand is not None, added.problems
                found.append((began, locked - began, time.monotonic() - began))
            except Exception:  # noqa: BLE001 - a save that gave up waiting (busy timeout)
                db.session.rollback()
                found.append((began, time.monotonic() - began, float("inf")))
            count += 1
            time.sleep(pause)
    out.put(found)


def pairs(fmt: formats.Format, rounds: int) -> Tournament:
    return director.create("Bench", fmt, [
        formats.Entry(f"Pair {i}", (f"A{i}", f"B{i}")) for i in range(128)], rounds, 1, 5)


def changed(tournament_id: int, number: int) -> None:
    """All against all: a pair drops out after round 1, so that each round after is planned
    by the look-ahead over the rounds left (18 and more rounds of 64 tables after a round of
    the schedule: it runs out of steps), then paired the Swiss way."""
    tournament = db.session.get(Tournament, tournament_id)
    if number == 2 and tournament.pairing == formats.PAIRS_ALL.pairing:
        director.leave(tournament, tournament.entries[0].id)


def held_draw(tournament: Tournament, number: int) -> TournamentRound:
    """The old way: the seating searched inside the write transaction, under the lock."""
    with writes.writing():
        held = stored.held(tournament.id)  # the old draw, as it was
        seating = drawing._asked(held, number).seating(draw.nothing)  # noqa: SLF001
        return drawing._stored(held, number, seating)  # noqa: SLF001


def finish(tournament_id: int, number: int, rng: random.Random) -> None:
    """Every table of round `number` given a result and marked over (what its phones do)."""
    with writes.writing():
        rnd = db.session.execute(db.select(TournamentRound).filter_by(
            tournament_id=tournament_id, number=number)).scalar_one()
        for match in rnd.tables:
            a = rng.randrange(0, 201, 5)
            match.totals = [a, 200 - a]
            match.victory = [20, 0] if a > 100 else [0, 20] if a < 100 else [10, 10]
            match.hand_count = 1
            match.finished_at = utcnow()


class Transactions:
    """The write transactions (BEGIN IMMEDIATE to COMMIT) of this process while `on`."""

    def __init__(self, engine: Any) -> None:
        self.on = False
        self.began: tuple[float, float] | None = None
        self.lengths: list[tuple[float, float]] = []  # wall and CPU seconds
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "commit", self._end)
        event.listen(engine, "rollback", self._end)

    def _begin(self, conn: Any) -> None:
        if self.on and conn.get_execution_options().get("sqlite_immediate"):
            self.began = time.monotonic(), time.thread_time()

    def _end(self, conn: Any) -> None:
        if self.began is not None:
            wall, cpu = self.began
            self.lengths.append((time.monotonic() - wall, time.thread_time() - cpu))
            self.began = None


def ms(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values) * 1000:.0f} / {max(values) * 1000:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--savers", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.02)
    args = parser.parse_args()
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    uri = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    app = app_on(uri)
    with app.app_context():
        db.create_all()
    spawn = mp.get_context("spawn")
    stop, out = spawn.Event(), spawn.Queue()
    savers = [spawn.Process(target=saver, args=(uri, i, args.pause, stop, out))
              for i in range(args.savers)]
    for proc in savers:
        proc.start()
    time.sleep(3)  # the savers' apps started, their first saves done
    windows: list[tuple[str, float, float]] = []  # (case and way, start, end)
    results: dict[str, dict[str, list[float]]] = {}
    rng = random.Random(1)
    with app.test_request_context():
        writes_seen = Transactions(db.engine)
        cases = {
            "256 players, individual": lambda: director.create(
                "Bench", formats.INDIVIDUAL, [formats.Entry(f"Player {i}") for i in range(256)],
                args.rounds, 1, 5),
            "128 pairs, Swiss": lambda: pairs(formats.PAIRS_SWISS, args.rounds),
            "128 pairs, all v all, -1": lambda: pairs(formats.PAIRS_ALL, 20),
        }
        for case, make in cases.items():
            made = {"old": make().id, "new": make().id}
            for number in range(1, args.rounds + 1):
                for way in ("old", "new"):
                    db.session.rollback()
                    tournament = db.session.get(Tournament, made[way])
                    writes_seen.on, writes_seen.lengths = True, []
                    began, cpu = time.monotonic(), time.thread_time()
                    if way == "old":
                        held_draw(tournament, number)
                    else:
                        drawing.draw_round(tournament, number,
                                           Budget(app.config["DRAW_CPU_BUDGET"]).check)
                    ended = time.monotonic()
                    writes_seen.on = False
                    got = results.setdefault(f"{case}|{way}", {
                        "wall": [], "cpu": [], "held": [], "held CPU": []})
                    got["wall"].append(ended - began)
                    got["cpu"].append(time.thread_time() - cpu)
                    held, held_cpu = max(writes_seen.lengths, default=(0.0, 0.0))
                    got["held"].append(held)
                    got["held CPU"].append(held_cpu)
                    windows.append((f"{case}|{way}", began, ended))
                    time.sleep(0.5)  # the saves that waited for the draw are done
                    finish(made[way], number, rng)
                    changed(made[way], number + 1)
                    time.sleep(0.5)
    stop.set()
    saves = [s for _ in savers for s in out.get()]
    for proc in savers:
        proc.join()
    print(f"load average (1, 5, 15 min) before: {' '.join(load_before)}, after: "
          f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}; {args.savers} tables "
          f"saving, {args.pause:g} s apart; {args.rounds} rounds a way (ms, median / max)")
    print(f"{'case':<26} {'way':<4} {'draw wall':>12} {'draw CPU':>12} {'lock held':>12} "
          f"{'its CPU':>10} {'saves':>6} {'their wait':>12} {'gave up':>8}")
    quiet = []
    for start, wait, _took in saves:  # a save that waited while a draw ran counts for it
        overlaps = [(min(start + wait, ended) - max(start, began), case_way)
                    for case_way, began, ended in windows]
        most, case_way = max(overlaps)
        if most > 0:
            results[case_way].setdefault("waits", []).append(wait)
        else:
            quiet.append(wait)
    for case_way, got in results.items():
        case, way = case_way.split("|")
        waits = got.get("waits", [])
        print(f"{case:<26} {way:<4} {ms(got['wall']):>12} {ms(got['cpu']):>12} "
              f"{ms(got['held']):>12} {ms(got['held CPU']):>10} {len(waits):>6} "
              f"{ms(waits):>12} {sum(w >= 4.9 for w in waits):>8}")
    print(f"{'no draw running':<31} {'':>12} {'':>12} {'':>12} {'':>10} {len(quiet):>6} "
          f"{ms(quiet):>12}")


if __name__ == "__main__":
    main()
