"""Statistics kept with each match equal a full recount from the hands after every kind of
write (add, edit, delete, undo, restore, import), in random sequences; /stats sums them per
variant with a number of queries that does not grow with the history."""

import random

import pytest
from sqlalchemy import text

from tests.test_queries import queries_for
from tests.views.test_transfer import synthetic_history
from tichu_scorer import insights, tallies, transfer
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import corrections, creation, hand_entry, roster, writes
from tichu_scorer.matches.writes import Conflict
from tichu_scorer.models import Group, Match
from tichu_scorer.scoring.stats import COUNTS

GAMES = [(variants.NANKING, 500, None), (variants.NANKING, 1000, None),
         (variants.THREECHU, None, 9), (variants.TIENTSIN, 500, None)]


def random_hand(rng, match, editing=None):
    """A hand the scoring accepts (most of the time): who went out first and second, a
    call now and then, the card points."""
    layout = hand_entry.layout_for(match, editing.shuffler if editing is not None else None)
    seats = 4 if match.game.has_dummy else len(match.seats)
    first = rng.randrange(seats)
    partners = [s for s in range(seats) if s != first
                and layout.team_of(s) == layout.team_of(first)]
    others = [s for s in range(seats) if layout.team_of(s) != layout.team_of(first)]
    data = {"calls": {}, "card_points": [rng.randrange(-5, 26) * 5, None]}
    if rng.random() < 0.15 and not match.game.has_dummy and len(partners) == 1:
        data |= {"out_order": [first, partners[0]], "card_points": [None, None]}
    else:
        data["out_order"] = [first, rng.choice(others)]
    if rng.random() < 0.4:
        caller = rng.randrange(len(match.seats) if not match.game.has_dummy else 3)
        data["calls"] = {str(caller): "tichu" if rng.random() < 0.8 or match.game.has_dummy
                         else "grand"}
    return data


def full_recount(groups):
    """What /stats should show, recounted from every hand in play of every match with this
    test's own code (not the tally code it checks): per variant, per player name and per
    partnership, the counts in `COUNTS` order."""
    matches = db.session.execute(db.select(Match).where(
        Match.group_id.in_([g.id for g in groups]))).scalars().all()
    out = {}
    for key in tallies.SCORED:
        players, pairs = {}, {}
        for match in (m for m in matches if m.variant == key):
            recount_match(match, players, pairs)
        if players:
            out[key] = (players, pairs)
    return out


def recount_match(match, players, pairs):
    """Add one match's counts: a player (each seat but the dummy's) and, in the team games,
    each team of the same players."""
    names, game = match.names, match.game
    won = set(game.sides(names)[match.winner_team].names) if match.winner_team is not None \
        else set()
    groups = [(names[s], (s,)) for s in range(len(names)) if s != game.dummy_seat]
    if game.teams:
        groups += [(tuple(sorted(names[s] for s in range(len(names)) if s % 2 == team)),
                    tuple(s for s in range(len(names)) if s % 2 == team)) for team in (0, 1)]
    for name, seats in groups:
        into = players if len(seats) == 1 else pairs
        c = dict.fromkeys(COUNTS, 0)
        c["matches"] = 1
        c["won"] = 1 if (name in won if len(seats) == 1 else set(name) <= won) else 0
        for hand in match.hands:
            first = hand.out_order[0] if hand.out_order else None
            c["hands"] += 1
            c["points"] += (hand.team_scores[seats[0] % 2] if game.teams
                            else hand.player_scores[str(seats[0])])
            c["first_out"] += first in seats
            if hand.sweep and first is not None:
                c["double_victories"] += team_in(game, hand, first) == team_in(game, hand,
                                                                               seats[0])
            for seat in seats:
                call = hand.calls.get(str(seat))
                if call:
                    c[f"{call}_called"] += 1
                    c[f"{call}_made"] += first == seat
        into[name] = [a + b for a, b in zip(into.get(name, [0] * len(COUNTS)),
                                            (c[n] for n in COUNTS), strict=True)]


def team_in(game, hand, seat):
    """A seat's team in one hand: Threechu's shuffler plays with the dummy ([T3.1]); the
    other team games alternate."""
    if game.has_dummy:
        return 0 if seat in (hand.shuffler, game.dummy_seat) else 1
    return seat % 2


def counts(tallies_by_key):
    return {k: [getattr(t, c) for c in COUNTS] for k, t in tallies_by_key.items()}


def shown(groups):
    return {v.variant.key: (counts(dict(v.players)), counts(dict(v.pairs)))
            for v in insights.stats_as_of(groups)[0]}


def assert_consistent(groups):
    assert shown(groups) == full_recount(groups)
    db.session.expire_all()
    for match in db.session.execute(db.select(Match)).scalars():
        assert match.stats == tallies.counted(match), match.variant


def one_write(rng, group, keys):
    """One random write: add (most often), edit, delete, undo, restore, or an import."""
    kind = rng.choices(["add", "edit", "delete", "undo", "restore", "import"],
                       [10, 3, 2, 2, 2, 1])[0]
    if kind == "import":
        data = synthetic_history(matches=2, hands=rng.randrange(1, 6), seed=rng.randrange(99))
        transfer.import_json(data, group)
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


def test_a_match_stored_without_statistics_is_counted_from_its_hands(app):
    rng = random.Random(9)
    with app.test_request_context():
        group = roster.create_group("T")
        keys = [creation.create_match(group, [f"{v.key[:2]}{s}" for s in range(v.fewest)],
                                     target, v, limit).key for v, target, limit in GAMES]
        for _ in range(20):
            one_write(rng, group, keys)
        with db.engine.begin() as conn:  # as a database from before the upgrade
            conn.execute(text("UPDATE match SET stats = NULL"))
        groups = [db.session.get(Group, group.id)]
        assert shown(groups) == full_recount(groups)
        stored = db.session.execute(db.select(Match.stats)).scalars().all()
        assert all(s is not None for s in stored)  # filled on the way
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE match SET stats = NULL"))
        app.extensions.pop("tichu_stats_cache")  # as after the upgrade: a new process
        for _ in range(10):  # a new hand on such a match counts the earlier ones too
            match = writes.lock_match(keys[0])
            hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
            db.session.rollback()
        first = writes.match_by_key(keys[0])
        assert first.stats == tallies.counted(first)
        assert_consistent(groups)  # the others are filled again by the statistics


def test_stats_queries_do_not_grow_with_the_history(app, client):
    from tests.conftest import new_match, post_hand
    url = new_match(client)
    post_hand(client, url, {"place_1": "0", "place_2": "1", "card_a": "50"})
    small = queries_for(app, client, "/stats")
    with app.test_request_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        transfer.import_json(synthetic_history(matches=40, hands=20), group)
    large = queries_for(app, client, "/stats")  # 40 matches more: caught up in one query
    assert len(large) <= len(small) <= 6, large
    again = queries_for(app, client, "/stats")  # nothing changed: the sum is cached
    assert len(again) < len(large)
    assert not any("FROM hand" in q for q in small + large + again)


def a_long_table(app, matches=30):
    """A table of many matches, its statistics once read (kept by this app process)."""
    with app.test_request_context():
        group = roster.create_group("T")
        transfer.import_json(synthetic_history(matches=matches, hands=4, seed=3), group)
        groups = [db.session.get(Group, group.id)]
        shown(groups)
        keys = db.session.execute(db.select(Match.key).where(
            Match.variant == "nanking", Match.finished_at.is_(None))).scalars().all()
        return group.id, keys


def test_a_change_at_a_long_table_reads_only_the_matches_changed(app, monkeypatch):
    """A save at a table of many matches reads that match again, not the revisions of all
    of them; the sums still equal a full recount."""
    group_id, keys = a_long_table(app)
    whole = []
    monkeypatch.setattr(tallies, "_reread", lambda cache, ids: whole.extend(ids))
    rng = random.Random(4)
    with app.test_request_context():
        groups = [db.session.get(Group, group_id)]
        for key in keys[:3]:
            match = writes.lock_match(key)
            hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
            assert shown(groups) == full_recount(groups)
        corrections.undo_last(writes.lock_match(keys[0]),
                              writes.match_by_key(keys[0]).hand_count)
        assert shown(groups) == full_recount(groups)
        transfer.import_json(synthetic_history(matches=2, hands=3, seed=8), groups[0])
        assert shown(groups) == full_recount(groups)  # matches added: found by their ids
    assert whole == []


@pytest.mark.parametrize("missed", ["stamp taken twice", "match deleted"])
def test_changes_the_stamps_miss_are_caught_by_the_checksum(app, monkeypatch, missed):
    """Two writers at one table may take the same stamp, and a deleted match leaves no
    stamp: the catch-up finds its sums differ from the table's checksum and reads the
    table again whole, so the statistics are never left short."""
    group_id, keys = a_long_table(app)
    rereads = []
    reread = tallies._reread
    monkeypatch.setattr(tallies, "_reread", lambda cache, ids: (rereads.append(ids),
                                                                reread(cache, ids)))
    rng = random.Random(5)
    with app.test_request_context():
        groups = [db.session.get(Group, group_id)]
        seen = db.session.execute(db.select(db.func.max(Match.stamp))).scalar()
        match = writes.lock_match(keys[1])
        hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
        if missed == "stamp taken twice":  # as if it took a stamp already read
            with db.engine.begin() as conn:
                conn.execute(text("UPDATE match SET stamp = :s WHERE key = :k"),
                             {"s": seen, "k": keys[1]})
        else:  # the scorer deleted another match of the table
            creation.delete_match(writes.lock_match(keys[2]))
        db.session.expire_all()
        assert shown(groups) == full_recount(groups)
    assert rereads == [[group_id]]


def test_three_and_six_player_hands_stay_out_of_the_four_player_rates(app):
    with app.test_request_context():
        group = roster.create_group("T")
        transfer.import_json(synthetic_history(matches=5, hands=10), group)
        stats = insights.stats_as_of([db.session.get(Group, group.id)])[0]
        assert [v.variant.key for v in stats] == ["nanking", "threechu", "tientsin"]
        ann = dict(stats[0].players)["Ann"]  # Ann plays a four- and a six-player match
        assert ann.matches == 1 and ann.hands == 10


def test_the_stats_page_follows_every_change_and_language(app, client):
    from tests.conftest import hand_form, new_match, post_hand
    url = new_match(client)
    post_hand(client, url, hand_form([0, 1], {"0": "tichu"}, a=50))

    def ann():
        page = client.get("/stats?view=cards").get_data(as_text=True)
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
        exported = transfer.export_json([again.id])
        exported["matches"][0]["players"] = ["Mo", "Ned", "Oz", "Pia"]
        assert shown(groups) == full_recount(groups)
        creation.delete_match(writes.lock_match(again.key))
        transfer.import_json(exported, db.session.get(Group, group.id))
        assert "Mo" in shown(groups)["nanking"][0]
        assert shown(groups) == full_recount(groups)


def test_cards_are_kept_for_the_state_they_show(app, client, monkeypatch):
    """A match stored between the page's checksums and its sums is in the cards: kept under
    the checksums read before it, they would be shown again once that match is deleted
    (the checksums then being those of before)."""
    from tests.conftest import hand_form, new_match, post_hand
    url = new_match(client)
    assert client.get("/stats").status_code == 200
    post_hand(client, url, hand_form([0, 1], a=50))  # the table's sums are behind
    with app.test_request_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        group_id = group.id
    real = tallies.checksums
    late = []

    def then_a_new_match(groups):
        marks = real(groups)
        if not late:  # another phone's new match commits right after the checksums
            with app.test_request_context():
                late.append(creation.create_match(db.session.get(Group, group_id),
                                                 ["Zed", "Yan", "Xu", "Wu"], 1000).key)
        return marks
    monkeypatch.setattr(tallies, "checksums", then_a_new_match)
    assert "Zed" in client.get("/stats").get_data(as_text=True)
    monkeypatch.setattr(tallies, "checksums", real)
    with app.test_request_context():
        creation.delete_match(writes.lock_match(late[0]))
    assert "Zed" not in client.get("/stats").get_data(as_text=True)


def test_two_threads_catching_up_one_table_count_each_change_once(app, monkeypatch):
    """The threads of one app process share its kept sums: two /stats at once after a
    change must not both take the change in (each step slowed, so that they interleave)."""
    import threading
    import time
    group_id, keys = a_long_table(app, matches=6)
    slow = tallies.add_stored

    def add_stored(*args, **kwargs):
        time.sleep(0.002)  # lets the other thread run between taking out and adding
        return slow(*args, **kwargs)
    rng = random.Random(7)
    for _ in range(3):
        with app.test_request_context():
            match = writes.lock_match(keys[0])
            hand_entry.add_hand(match, random_hand(rng, match), match.hand_count + 1)
        monkeypatch.setattr(tallies, "add_stored", add_stored)
        barrier = threading.Barrier(2)

        def look(barrier=barrier):
            with app.app_context():
                group = db.session.get(Group, group_id)
                barrier.wait()
                insights.stats_as_of([group])
                db.session.remove()
        threads = [threading.Thread(target=look) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        monkeypatch.setattr(tallies, "add_stored", slow)
        with app.test_request_context():
            groups = [db.session.get(Group, group_id)]
            assert shown(groups) == full_recount(groups)

