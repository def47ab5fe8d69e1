"""Statistics (`tichu_scorer.statistics`) equal a full recount from the hands after every
kind of write (add, edit, delete, undo, restore, import, a match deleted), in random
sequences: each match's rows, each table's sums, and what /stats shows, all periods; /stats
reads no hand and a number of queries that does not grow with the history. The recount is
this file's own code, not the counting it checks."""

import random
import threading
from datetime import datetime, timedelta

import pytest
from sqlalchemy import text

from tests.players.links import unlinked
from tests.test_queries import queries_for
from tests.views.test_transfer import synthetic_history
from tichu_scorer import statistics
from tichu_scorer.clock import utcnow
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import corrections, creation, hand_entry, roster, writes
from tichu_scorer.matches.writes import Conflict
from tichu_scorer.models import Group, Match, MatchTally, TableTally
from tichu_scorer.scoring.stats import COUNTS
from tichu_scorer.statistics import counting, store
from tichu_scorer.transfer import json_export, json_import

GAMES = [(variants.NANKING, 500, None), (variants.NANKING, 1000, None),
         (variants.THREECHU, None, 9), (variants.TIENTSIN, 500, None)]
EVER = datetime(1970, 1, 1)


def random_hand(rng, match, editing=None):
    """A hand the scoring accepts (most of the time): who went out first and second, a
    call now and then, the card points."""
    layout = hand_entry.layout_for(match, editing.shuffler if editing is not None else None)
    seats = 4 if match.game.variant.has_dummy else len(match.seats)
    first = rng.randrange(seats)
    partners = [s for s in range(seats) if s != first
                and layout.team_of(s) == layout.team_of(first)]
    others = [s for s in range(seats) if layout.team_of(s) != layout.team_of(first)]
    data = {"calls": {}, "card_points": [rng.randrange(-5, 26) * 5, None]}
    if rng.random() < 0.15 and not match.game.variant.has_dummy and len(partners) == 1:
        data |= {"out_order": [first, partners[0]], "card_points": [None, None]}
    else:
        data["out_order"] = [first, rng.choice(others)]
    if rng.random() < 0.4:
        caller = rng.randrange(len(match.seats) if not match.game.variant.has_dummy else 3)
        data["calls"] = {str(caller): "tichu" if rng.random() < 0.8 or match.game.variant.has_dummy
                         else "grand"}
    return data


def full_recount(groups):
    """What /stats should show, recounted from every hand in play of every match with this
    test's own code (not the tally code it checks): per variant, per player name and per
    partnership, the counts in `COUNTS` order."""
    matches = db.session.execute(db.select(Match).where(
        Match.group_id.in_([g.id for g in groups]))).scalars().all()
    out = {}
    for key in statistics.SCORED:
        players, pairs = {}, {}
        for match in (m for m in matches if m.variant == key):
            recount_match(match, players, pairs)
        if players:
            out[key] = (players, pairs)
    return out


def recount_match(match, players, pairs):
    """Add one match's counts: a player (each seat but the dummy's) and, in the team games,
    each team of the same players."""
    names, game = match.names, match.game.variant
    won = set(game.sides(names)[match.winner_team].names) if match.winner_team is not None \
        else set()
    groups = [(names[s], (s,)) for s in range(len(names)) if s != game.dummy_seat]
    if game.teams:
        groups += [(tuple(sorted(names[s] for s in range(len(names)) if s % 2 == team)),
                    tuple(s for s in range(len(names)) if s % 2 == team)) for team in (0, 1)]
    # each hand read once: who went out first, and each seat's score and team in it
    hands = [(hand, hand.out_order[0] if hand.out_order else None,
              [score_in(game, hand, s) for s in range(len(names))],
              [team_in(game, hand, s) for s in range(len(names))]) for hand in match.hands]
    for name, seats in groups:
        into = players if len(seats) == 1 else pairs
        c = dict.fromkeys(COUNTS, 0)
        c["matches"] = 1
        c["won"] = 1 if (name in won if len(seats) == 1 else set(name) <= won) else 0
        for hand, first, scores, teams in hands:
            c["hands"] += 1
            c["points"] += scores[seats[0]]
            # a hand won: the side scored more than the other side (a tie wins nobody)
            c["hands_won"] += scores[seats[0]] > max(
                scores[s] for s in range(len(names)) if teams[s] != teams[seats[0]])
            c["first_out"] += first in seats
            if hand.sweep and first is not None:
                c["double_victories"] += teams[first] == teams[seats[0]]
            for seat in seats:
                call = hand.calls.get(str(seat))
                if call:
                    c[f"{call}_called"] += 1
                    c[f"{call}_made"] += first == seat
        into[name] = [a + b for a, b in zip(into.get(name, [0] * len(COUNTS)),
                                            (c[n] for n in COUNTS), strict=True)]


def score_in(game, hand, seat):
    """What one hand gave a seat, as its row stores it: its team's score, or (Threechu)
    the seat's own."""
    return hand.team_scores[seat % 2] if game.teams else hand.player_scores[str(seat)]


def team_in(game, hand, seat):
    """A seat's team in one hand: Threechu's shuffler plays with the dummy ([T3.1]); the
    other team games alternate."""
    if game.has_dummy:
        return 0 if seat in (hand.shuffler, game.dummy_seat) else 1
    return seat % 2


def counts(tallies_by_key):
    return {k: [getattr(t, c) for c in COUNTS] for k, t in tallies_by_key.items()}


def shown(groups, since=None):
    return {v.variant.key: (counts(dict(v.players)), counts(dict(v.pairs)))
            for v in statistics.for_tables(groups, since)}


def stored_rows(match):
    """The rows kept of one match, as (side, who) -> counts, read with plain SQL."""
    found = db.session.execute(db.select(MatchTally).where(
        MatchTally.match_id == match.id)).scalars().all()
    return {(r.side, r.who): [getattr(r, c) for c in COUNTS] for r in found}


def recounted_rows(match):
    """The rows one match should have, recounted by `recount_match`."""
    players, pairs = {}, {}
    if match.game.variant.scored:
        recount_match(match, players, pairs)
    return {**{(0, name): c for name, c in players.items()},
            **{counting.who(names): c for names, c in pairs.items()}}


def assert_consistent(groups):
    """What /stats shows (all matches: the tables' sums; a period: the matches' rows) and
    every match's rows equal this file's recount."""
    recounted = full_recount(groups)
    assert shown(groups) == recounted
    assert shown(groups, EVER) == recounted
    db.session.expire_all()
    for match in db.session.execute(db.select(Match)).scalars():
        assert stored_rows(match) == recounted_rows(match), match.variant


def one_write(rng, group, keys):
    """One random write: add (most often), edit, delete, undo, restore, or an import."""
    kind = rng.choices(["add", "edit", "delete", "undo", "restore", "import"],
                       [10, 3, 2, 2, 2, 1])[0]
    if kind == "import":
        data = synthetic_history(matches=2, hands=rng.randrange(1, 6), seed=rng.randrange(99))
        json_import.import_json(data, group)
        return kind
    match = writes.lock_match(rng.choice(keys))
    hands = match.hands
    try:
        if kind == "add" or not hands:
            hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
        elif kind == "edit":
            hand = rng.choice(hands)
            corrections.edit_hand(match, hand, random_hand(rng, match, hand), hand.version)
        elif kind == "delete":
            hand = rng.choice(hands)
            corrections.delete_hand(match, hand, hand.version)
        elif kind == "undo":
            corrections.undo_last(match, hands[-1].number)
        else:
            gone = [h for h in match.all_hands if h.deleted_at is not None]
            if gone:
                corrections.restore_hand(match, rng.choice(gone))
    except Conflict:
        pass
    db.session.rollback()
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stored_statistics_equal_a_full_recount_after_every_write(app, seed):
    rng = random.Random(seed)
    with app.test_request_context():
        group, other = roster.create_group("T"), roster.create_group("U")
        keys = [creation.create_match(g, [f"{v.key[:2]}{s}" for s in range(v.fewest)],
                                     target, v, limit).key
                for g in (group, other) for v, target, limit in GAMES]
        groups = [db.session.get(Group, group.id), db.session.get(Group, other.id)]
        seen = set()
        for step in range(60):
            seen.add(one_write(rng, group, keys))
            if step % 6 == 5:
                assert_consistent(groups)
        assert_consistent(groups)
        assert seen >= {"add", "edit", "delete", "undo", "restore"}


def table_of_every_game():
    """A new table with a match of every game (`GAMES`): the table and the matches' keys."""
    group = roster.create_group("T")
    return group, [creation.create_match(group, [f"{v.key[:2]}{s}" for s in range(v.fewest)],
                                         target, v, limit).key for v, target, limit in GAMES]


def test_a_match_without_rows_is_counted_whole_at_its_next_hand(app):
    rng = random.Random(9)
    with app.test_request_context():
        group, keys = table_of_every_game()
        for _ in range(20):
            one_write(rng, group, keys)
        first = writes.match_by_key(keys[0])
        with db.engine.begin() as conn:  # its rows lost
            conn.execute(text("DELETE FROM match_tally WHERE match_id = :m"), {"m": first.id})
        match = writes.lock_match(keys[0])
        hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
        db.session.rollback()
        first = writes.match_by_key(keys[0])
        assert stored_rows(first) == recounted_rows(first)


def test_stats_queries_do_not_grow_with_the_history(app, client):
    from tests.conftest import new_match, post_hand
    url = new_match(client)
    post_hand(client, url, {"place_1": "0", "place_2": "1", "card_a": "50"})
    small = queries_for(app, client, "/stats")
    with app.test_request_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        json_import.import_json(synthetic_history(matches=40, hands=20), group)
    large = queries_for(app, client, "/stats")
    month = queries_for(app, client, "/stats?period=month")
    assert len(large) == len(small) == len(month) <= 6, large
    assert not any("FROM hand" in q or "match_tally" in q for q in small + large)
    assert not any("FROM hand" in q for q in month)


def test_a_table_sum_is_its_matches_rows_summed(app):
    """The sums /stats reads equal the GROUP BY of the matches' rows, per table."""
    rng = random.Random(11)
    with app.test_request_context():
        group, keys = table_of_every_game()
        for _ in range(30):
            one_write(rng, group, keys)
        creation.delete_match(writes.lock_match(keys[1]))
        sums = {(t.variant, t.side, t.who): [getattr(t, c) for c in COUNTS]
                for t in db.session.execute(db.select(TableTally)).scalars() if t.matches}
        again = {(v, side, who): c for v, side, who, c in store.period_sums([group.id], EVER)}
        assert sums == again and sums


def test_a_period_counts_only_the_matches_started_in_it(app):
    with app.test_request_context():
        group = roster.create_group("T")
        old = creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 1000)
        creation.create_match(group, ["Ann", "Eve", "Fay", "Gus"], 1000)
        db.session.get(Match, old.id).started_at = utcnow() - timedelta(days=40)
        db.session.commit()
        groups = [db.session.get(Group, group.id)]
        recent = statistics.for_tables(groups, utcnow() - timedelta(hours=12))
        assert {n for n, _t in recent[0].players} == {"Ann", "Eve", "Fay", "Gus"}
        assert dict(recent[0].players)["Ann"].matches == 1
        assert dict(statistics.for_tables(groups)[0].players)["Ann"].matches == 2
        assert statistics.for_tables([]) == []


def test_a_game_without_points_has_no_rows(app):
    with app.test_request_context():
        group = roster.create_group("T")
        ranked = creation.create_match(group, ["A", "B", "C", "D", "E"], None,
                                       variants.SEIGNEUR, None)
        assert stored_rows(ranked) == {}
        assert statistics.for_tables([db.session.get(Group, group.id)]) == []


def test_partnership_names_round_trip_through_their_row():
    for names in (("Ann", "Bob"), ('Zoë "Z"', "Ümit", "Ω,[]")):
        side, who = counting.who(names)
        assert side == counting.PAIR and len(who) <= 300
        tallies = counting.from_rows("nanking", {(side, who): [1] + [0] * (len(COUNTS) - 1)})
        assert list(tallies.pairs) == [names]


def test_saves_at_one_table_at_once_keep_its_sums(app):
    """Two phones save at the same moment at one table, in matches of the same players:
    both saves change the same rows of its sums; neither is lost, none deadlocks."""
    with app.test_request_context():
        group = roster.create_group("T")
        keys = [creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 10000).key,
                creation.create_match(group, ["Dee", "Cy", "Bob", "Ann"], 10000).key]
        group_id = group.id
    errors = []
    barrier = threading.Barrier(2)

    def save(key, seed):
        rng = random.Random(seed)
        try:
            with app.test_request_context():
                barrier.wait()
                for _ in range(5):
                    match = writes.lock_match(key)
                    hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
                    db.session.rollback()
                db.session.remove()
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
    threads = [threading.Thread(target=save, args=(k, n)) for n, k in enumerate(keys)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    with app.test_request_context():
        groups = [db.session.get(Group, group_id)]
        assert sum(m.hand_count for m in db.session.execute(db.select(Match)).scalars()) == 10
        assert_consistent(groups)


def test_three_and_six_player_hands_stay_out_of_the_four_player_rates(app):
    with app.test_request_context():
        group = roster.create_group("T")
        json_import.import_json(synthetic_history(matches=5, hands=10), group)
        stats = statistics.for_tables([db.session.get(Group, group.id)])
        assert [v.variant.key for v in stats] == ["nanking", "threechu", "tientsin"]
        ann = dict(stats[0].players)["Ann"]  # Ann plays a four- and a six-player match
        assert ann.matches == 1 and ann.hands == 10


def test_the_stats_page_follows_every_change_and_language(app, client):
    from tests.conftest import hand_form, new_match, post_hand
    url = new_match(client)
    post_hand(client, url, hand_form([0, 1], {"0": "tichu"}, a=50))

    def ann():
        page = unlinked(client.get("/stats?view=cards").get_data(as_text=True))
        start = page.index("<h3>Ann</h3>")
        return page[start:page.index("</section>", start)]
    assert "1/1" in ann() and "100%" in ann()
    post_hand(client, url, hand_form([1, 0], {"0": "tichu"}, a=50))
    assert "1/2" in ann() and "50%" in ann()
    client.post(url + "/undo", data={"number": "2"})
    assert "1/1" in ann()
    german = client.get("/stats", headers={"Accept-Language": "de"}).get_data(as_text=True)
    english = client.get("/stats", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Partien" in german and "Matches" in english


def test_a_match_stored_where_a_deleted_one_was_is_counted(app):
    """SQLite gives the id of a deleted newest match to the next one: with the same
    revision, only the stamp a new match takes tells the two apart (its import too)."""
    rng = random.Random(6)
    with app.test_request_context():
        group = roster.create_group("T")
        first = creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 1000)
        match = writes.lock_match(first.key)
        hand_entry.add_hand(match, random_hand(rng, match), 1)
        newest = creation.create_match(group, ["Eve", "Fay", "Gus", "Hal"], 1000)
        groups = [db.session.get(Group, group.id)]
        assert shown(groups) == full_recount(groups)  # kept by this process
        gone = newest.id
        creation.delete_match(writes.lock_match(newest.key))
        again = creation.create_match(db.session.get(Group, group.id),
                                     ["Ivy", "Jo", "Kim", "Lu"], 1000)
        if db.engine.dialect.name == "sqlite":
            assert again.id == gone  # the id is used again
        assert "Ivy" in shown(groups)["nanking"][0]
        assert shown(groups) == full_recount(groups)
        # the same with a hand, the new one imported
        hand_entry.add_hand(writes.lock_match(again.key), random_hand(rng, again), 1)
        exported = json_export.export_json([again.id])
        exported["matches"][0]["players"] = ["Mo", "Ned", "Oz", "Pia"]
        assert shown(groups) == full_recount(groups)
        creation.delete_match(writes.lock_match(again.key))
        json_import.import_json(exported, db.session.get(Group, group.id))
        assert "Mo" in shown(groups)["nanking"][0]
        assert_consistent(groups)
