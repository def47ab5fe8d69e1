"""The director's draw (`drawing.draw_round`) searches its seating outside the write
transaction, within the API's CPU budget (`DRAW_CPU_BUDGET`): while the search runs,
another table saves a hand (real threads; SQLite's write lock is free); a draw past its
budget is refused with the API's sentence (503, Retry-After) and stores nothing; a draw
whose ground changed during its search (a late arrival) is searched again from the new
ground, and after a second change under the lock, never refused. The pairing's look-ahead
plans deeper than Python's recursion goes, and the Swiss pairing and the look-ahead call
the budget's check.

The database tests are marked `every_database` (CI runs them on PostgreSQL too), except
the one about SQLite's write lock."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from tests.conftest import make_app
from tichu_scorer.engine.budget import Budget, OutOfTime
from tichu_scorer.extensions import db
from tichu_scorer.matches import creation, hand_entry, roster, writes
from tichu_scorer.models import Match, Tournament, TournamentRound
from tichu_scorer.tournaments import director, draw, drawing, pairing
from tichu_scorer.tournaments.formats import INDIVIDUAL, PAIRS_ALL, PAIRS_SWISS, Entry

DATABASE = pytest.mark.every_database
A_WINS = {"out_order": [0, 1], "card_points": [60, None]}
PLAYERS = [f"Player {i}" for i in range(12)]


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def individual(names=PLAYERS, rounds=3):
    return director.create("Club cup", INDIVIDUAL, [Entry(n) for n in names], rounds, 1, 7)


def pairs(count=6, fmt=PAIRS_SWISS, rounds=3):
    entries = [Entry(f"Pair {i}", (f"A{i}", f"B{i}")) for i in range(count)]
    return director.create("Pairs cup", fmt, entries, rounds, 1, 3)


def stored() -> tuple[int, int]:
    """The rounds and the matches stored."""
    count = db.func.count()
    return (db.session.scalar(db.select(count).select_from(TournamentRound)),
            db.session.scalar(db.select(count).select_from(Match)))


def in_thread(app, work) -> dict:
    """Run `work()` in a thread of its own with its own request context (its own session
    and connection), waiting at most 20 s: what it returned, or raised."""
    outcome: dict = {}

    def run():
        try:
            with app.test_request_context():
                outcome["value"] = work()
        except Exception as exc:  # noqa: BLE001 - reported to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the other request is still waiting"
    return outcome


# the CPU budget


@pytest.mark.parametrize("fmt", [INDIVIDUAL, PAIRS_SWISS])
def test_a_draw_past_its_cpu_budget_is_the_apis_503_and_stores_nothing(tmp_path, fmt):
    app = make_app(tmp_path, DRAW_CPU_BUDGET=0)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    entries = PLAYERS if fmt is INDIVIDUAL else [f"A{i} & B{i}" for i in range(6)]
    made = client.post("/tournaments/new", data={
        "name": "Club cup", "kind": fmt.kind, "pairing": PAIRS_SWISS.pairing, "rounds": 3,
        "hands": 1,
        "entries": "\n".join(entries)})
    assert made.status_code == 303, made.get_data(as_text=True)
    url = made.headers["Location"]
    refused = client.post(url + "/draw", data={"round": 1},
                          headers={"Accept-Language": "de"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert refused.mimetype == "text/html"
    assert "zu lange" in page and 'data-refused="round"' in page and "()" not in page
    with app.app_context():
        assert stored() == (0, 0)
    english = client.post(url + "/draw", data={"round": 1})
    assert "Drawing took too long and stopped." in english.get_data(as_text=True)


@DATABASE
def test_a_draw_out_of_time_leaves_no_lock_and_the_next_draw_stores_it(ctx):
    made = individual()
    with pytest.raises(OutOfTime):
        drawing.draw_round(made, 1, Budget(0).check)
    assert stored() == (0, 0)
    counted = Budget()  # no limit: counts the search's checks
    rnd = drawing.draw_round(made, 1, counted.check)
    assert counted.steps > 0 and rnd.number == 1 and stored() == (1, 3)


def test_the_swiss_pairing_and_the_look_ahead_call_the_check():
    names = [f"P{i}" for i in range(8)]
    with pytest.raises(OutOfTime):
        pairing.swiss(names, check=Budget(0).check)
    counted = Budget()
    pairing.swiss(names, [("P0", "P1")], check=counted.check)
    assert counted.steps >= 4  # one per matching at least
    plan = pairing.round_robin(names)
    met = [frozenset(t) for r in plan[:2] for t in r]
    with pytest.raises(OutOfTime):  # no plan of 6 rounds: the search takes every step
        pairing.all_against_all(names[1:] + ["New"], met, 6, check=Budget(0).check)


def test_the_look_ahead_plans_deeper_than_pythons_recursion():
    """256 pairs after one round of all against all, a pair replaced: a plan of the nine
    rounds left is 1,152 tables deep (a RecursionError once, a 500 at the director's)."""
    names = [f"P{i}" for i in range(256)]
    first = pairing.round_robin(names)[0]
    made = pairing.all_against_all(names[1:] + ["New"], [frozenset(t) for t in first], 9)
    assert made is not None and len(made.tables) == 128
    assert not {frozenset(t) for t in made.tables} & {frozenset(t) for t in first}


# the search outside the write transaction


def free_write_lock(app) -> None:
    """SQLite's write lock is free: another connection takes it at once (no busy wait)."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # "database is locked" while a write is open
        other.execute("ROLLBACK")
    finally:
        other.close()


@pytest.mark.parametrize("fmt, module, search", [
    (INDIVIDUAL, draw, "draw"), (PAIRS_SWISS, pairing, "swiss"),
    (PAIRS_ALL, pairing, "all_against_all")])
def test_another_table_saves_a_hand_while_the_draw_searches(ctx, monkeypatch, fmt, module,
                                                           search):
    if not ctx.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite's write lock (PostgreSQL holds only the tournament's row)")
    group = roster.create_group("Next table")
    other = creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 1000).key
    made = individual() if fmt is INDIVIDUAL else pairs(fmt=fmt)
    if fmt is PAIRS_ALL:  # a pair drops out: the round is planned by the look-ahead
        director.leave(made, made.entries[0].id)
    real = getattr(module, search)
    searched = []

    def searching(*args, **kwargs):
        free_write_lock(ctx)

        def save():
            match = writes.lock_match(other)
            return hand_entry.add_hand(match, A_WINS, match.hand_count + 1).hand is not None

        saved = in_thread(ctx, save)
        assert saved == {"value": True}, saved
        searched.append(search)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, search, searching)
    rnd = drawing.draw_round(db.session.get(Tournament, made.id), 1)
    assert searched == [search] and rnd.number == 1
    db.session.rollback()
    assert writes.match_by_key(other).hand_count == 1


# the ground re-read in the write transaction


@DATABASE
def test_a_draw_whose_ground_changed_meanwhile_is_made_again(ctx, monkeypatch):
    made = individual(PLAYERS[:11])  # eleven: three sit out
    real = draw.draw
    searches = []

    def searching(players, *args, **kwargs):
        searches.append(list(players))
        if len(searches) == 1:  # a late arrival, stored while the first search runs
            late = in_thread(ctx, lambda: director.arrive(
                db.session.get(Tournament, made.id), Entry("Late")).joined)
            assert late == {"value": 1}, late
        return real(players, *args, **kwargs)

    monkeypatch.setattr(draw, "draw", searching)
    rnd = drawing.draw_round(db.session.get(Tournament, made.id), 1)
    assert len(searches) == 2 and "Late" not in searches[0] and "Late" in searches[1]
    db.session.rollback()
    rnd = db.session.get(TournamentRound, rnd.id)
    seated = [n for m in rnd.tables for n in m.player_names]
    assert len(rnd.tables) == 3 and sorted(seated) == sorted([*PLAYERS[:11], "Late"])
    assert rnd.byes == []


@DATABASE
def test_a_draw_whose_ground_changed_at_every_search_is_searched_under_the_lock(ctx,
                                                                            monkeypatch):
    """An arrival during each search outside: the third search runs in the write
    transaction (nothing can change then) and the draw is stored, never refused."""
    made = individual(PLAYERS[:8])
    real = draw.draw
    searches = []

    def searching(players, *args, **kwargs):
        searches.append(list(players))
        if len(searches) <= drawing.DRAW_SEARCHES:
            name = f"Late {len(searches)}"
            late = in_thread(ctx, lambda: director.arrive(
                db.session.get(Tournament, made.id), Entry(name)).joined)
            assert late == {"value": 1}, late
        elif ctx.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                free_write_lock(ctx)  # this search holds the lock
        return real(players, *args, **kwargs)

    monkeypatch.setattr(draw, "draw", searching)
    rnd = drawing.draw_round(db.session.get(Tournament, made.id), 1)
    assert [len(s) for s in searches] == [8, 9, 10]
    db.session.rollback()
    rnd = db.session.get(TournamentRound, rnd.id)
    seated = [n for m in rnd.tables for n in m.player_names]
    assert sorted(seated + rnd.byes) == sorted([*PLAYERS[:8], "Late 1", "Late 2"])
    assert len(rnd.byes) == 2 and stored() == (1, 2)
