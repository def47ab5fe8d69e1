"""The referee's worst questions (issue 26): CPU time per question, the wish search before
and after side by side in one run. docs/security-referee.md keeps the figures.

Usage: python benchmarks/bench_referee_worst.py [questions searched] [seed]

1. The issue's family: a pass on a straight of n cards from the Mah Jong, every other card
   of the deck in hand, a wish for 7s. "before" judges with the enumerating search that the
   referee used until issue 26 (`tests.engine.positions.enumerated_wish_play`, which lists
   every play holding the wished rank), timed once; "after" with `engine.wish`.
2. The slowest of many of the largest questions the API admits: the longest combination of
   each kind on the table (straights of 13 and 14 cards, stairs of seven pairs, the straight
   flush from the 2 to the Ace, ...), the fullest hands (every other card; in Grand Seigneur
   56 of the two decks), every wish; a pass, or a card of the hand played. Then the
   question built to be the search's worst: the straight flush 2–A on the table, every
   straight flush of four suits in hand beside it, none higher.
3. The worst of them as HTTP requests (the JSON API, the page's verdict, the whole page),
   through the app's test client: parsing, the limiter (off), judging and the answer.

CPU time is the process's own (`time.thread_time`): the machine's load inflates it less than
wall time, but it is printed before and after, from /proc/loadavg.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.positions import enumerated_wish_play  # noqa: E402
from tests.engine.test_wish import _longest_table  # noqa: E402
from tichu_scorer import create_app  # noqa: E402
from tichu_scorer.engine import referee  # noqa: E402
from tichu_scorer.engine.cards import ACE, DECK, MJ, SUITS, Card, rank_text  # noqa: E402
from tichu_scorer.engine.combos import Combination  # noqa: E402
from tichu_scorer.engine.plays import Table  # noqa: E402
from tichu_scorer.engine.questions import deck_of  # noqa: E402
from tichu_scorer.engine.referee import Question, TrickPlay, judge  # noqa: E402

# MJ 2j 3j ... Kj (not a bomb: the Mah Jong has no suit), then the Ace: the other suits'
# runs stay in hand, so the enumerator also set apart every straight flush it listed
ISSUE = [MJ] + [Card(r, "j") for r in range(2, ACE)] + [Card(ACE, "s")]
# the largest body the server reads (64 KB, MAX_CONTENT_LENGTH): plays of 56 cards each
_PLAY = {"cards": [repr(c) for c in DECK]}
FLOOD = {"trick": [_PLAY] * min(200, 63 * 1024 // len(json.dumps(_PLAY, separators=(",", ":")))),
         "play": []}


def cpu(fn: Callable[[], object], repeats: int = 5) -> float:
    """The fewest CPU seconds of `repeats` runs (the garbage collector off: `main` collects
    once before each part, not here, where a collection costs a hundred questions)."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.thread_time()
            fn()
            best = min(best, time.thread_time() - start)
    finally:
        gc.enable()
    return best


def _enumerated(hand: tuple[Card, ...], wish: int, top: Combination | None, table: Table,
                _budget: object = None) -> tuple[Card, ...] | None:
    """The referee's wish search before issue 26 (it had no budget)."""
    return enumerated_wish_play(hand, wish, top, table)


def before(fn: Callable[[], object], timeout: float = 60) -> str:
    """One run with the search that the referee used before issue 26, in a child process
    stopped after `timeout` seconds: CPU ms, or how long it ran without an answer."""
    def child(pipe: Connection) -> None:
        with mock.patch.object(referee, "wish_play", _enumerated):
            pipe.send(cpu(fn, repeats=1))

    receiver, sender = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.get_context("fork").Process(target=child, args=(sender,))
    process.start()
    sender.close()
    try:
        result = (f"{receiver.recv() * 1000:9.1f}" if receiver.poll(timeout)
                  else f"> {timeout:.0f} s")
    except EOFError:
        result = "failed"
    process.kill()
    process.join()
    return result


def issue_question(n: int, wish: int = 7) -> Question:
    table = tuple(ISSUE[:n])
    hand = tuple(c for c in DECK if c not in table)
    return Question(play=(), trick=(TrickPlay(table),), hand=hand, wish=wish)


def largest_questions(count: int, seed: int) -> list[tuple[str, Question]]:
    """Random questions of the largest size (see the module's docstring)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        two = i % 2 == 1
        cards, top, rest = _longest_table(rng, two)
        hand = tuple(rng.sample(rest, 56) if two else rest)
        play = () if rng.random() < 0.7 else (rng.choice(hand),)
        game = {"variant": "seigneur", "decks": 2} if two else {}
        q = Question(play=play, trick=(TrickPlay(cards),), hand=hand,
                     wish=rng.randint(2, ACE), **game)  # type: ignore[arg-type]
        out.append((f"{'seigneur, 2 decks' if two else 'nanking'}: {top.describe()} on the "
                     f"table, {len(hand)} cards in hand, play {list(play) or 'a pass'}, "
                     f"wish {q.wish}", q))
    return out


def built_worst(wish: int) -> tuple[str, Question]:
    """Grand Seigneur, two decks: the straight flush 2–A in Jade on the table, the other
    Jade run and the three other suits' in hand (and four more cards): every straight flush
    through the wished rank is tried, and none beats the table."""
    table = tuple(Card(r, "j") for r in range(2, ACE + 1))
    pool = [card for card, copies in deck_of("seigneur", 2).items() for _ in range(copies)]
    for card in table:
        pool.remove(card)
    runs = [Card(r, s) for s in SUITS for r in range(2, ACE + 1)]
    for card in runs:
        pool.remove(card)
    hand = tuple(runs + pool[:4])
    passes = tuple(TrickPlay((), seat) for seat in range(1, 200))
    q = Question(play=(), trick=(TrickPlay(table, 0), *passes[:198]), hand=hand, wish=wish,
                 variant="seigneur", decks=2, seat=5)
    return (f"seigneur, 2 decks: straight flush 2–A on the table and 198 passes, four "
            f"straight flushes 2–A and 4 cards in hand, a pass, wish {wish}", q)


def http_cpu(questions: list[tuple[str, Question]]) -> list[tuple[str, float, float, float]]:
    """Each question as a POST to the API, a GET of the page's verdict and of the whole
    page: CPU seconds."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SECRET_KEY": "bench",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                          "PAGE_STORE_URI": ""}, instance_path=folder)
        client = app.test_client()
        out = []
        gc.collect()
        for name, q in questions:
            body = {"trick": [{"cards": [repr(c) for c in t.cards], "seat": t.seat}
                              for t in q.trick], "play": [repr(c) for c in q.play],
                    "hand": [repr(c) for c in q.hand or ()], "wish": rank_text(q.wish or 0),
                    "variant": q.variant, "decks": q.decks, "seat": q.seat}
            if q.variant == "nanking":
                del body["decks"]
            query = {"trick": "\n".join(" ".join(map(repr, t.cards)) or "pass"
                                        for t in q.trick),
                     "play": " ".join(map(repr, q.play)), "hand": " ".join(map(repr, q.hand or ())),
                     "wish": rank_text(q.wish or 0), "variant": q.variant, "decks": str(q.decks)}
            api = client.post("/api/v1/referee/check", json=body)
            page = client.get("/referee/verdict", query_string=query)
            assert api.status_code == page.status_code == 200, (api.get_data(), page.status_code)
            out.append((name, cpu(lambda b=body: client.post("/api/v1/referee/check", json=b)),
                        cpu(lambda s=query: client.get("/referee/verdict", query_string=s)),
                        cpu(lambda s=query: client.get("/referee", query_string=s))))
        flood = client.post("/api/v1/referee/check", data=json.dumps(FLOOD, separators=(
            ",", ":")), content_type="application/json")
        assert flood.status_code == 400, flood.status_code
        out.append((f"the largest body: {len(FLOOD['trick'])} plays of 56 cards on the table "
                    "(a 400: more cards than any deck)",
                    cpu(lambda: client.post("/api/v1/referee/check", data=json.dumps(
                        FLOOD, separators=(",", ":")), content_type="application/json")), 0.0,
                    0.0))
        with app.app_context():
            from tichu_scorer.extensions import db
            db.engine.dispose()
    return out


def load() -> str:
    return Path("/proc/loadavg").read_text().strip()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 26
    print(f"load before: {load()}")
    print("1. a pass on a straight of n cards from the Mah Jong, the other cards in hand, "
          "wish 7: judge CPU ms, before / after")
    gc.collect()
    for n in (10, 12, 13):
        q = issue_question(n)
        print(f"   n = {n:2}: before {before(lambda q=q: judge(q))}   "
              f"after {cpu(lambda q=q: judge(q)) * 1000:6.2f}")
    print(f"2. the slowest of {count} largest questions, and the worst built: judge CPU ms, "
          "after (before)")
    gc.collect()
    timed = [(cpu(lambda q=q: judge(q), 3), name, q) for name, q in largest_questions(count,
                                                                                      seed)]
    timed += [(cpu(lambda q=q: judge(q), 3), name, q) for name, q in
              (built_worst(w) for w in range(2, ACE + 1))]
    timed.sort(key=lambda t: -t[0])
    for seconds, name, q in timed[:5]:
        print(f"   {seconds * 1000:6.2f} ({before(lambda q=q: judge(q), 20)})  {name}")
    worst = [(name, q) for _seconds, name, q in timed[:1]] + [("issue, n = 13", issue_question(13))]
    print("3. over HTTP (test client): CPU ms per request, API / page's verdict / whole page")
    for name, api, verdict, page in http_cpu(worst):
        print(f"   {api * 1000:6.2f} / {verdict * 1000:6.2f} / {page * 1000:6.2f}  {name}")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
