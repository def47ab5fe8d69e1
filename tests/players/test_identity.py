"""Renames, merges and their undo (`players.identity`): the statistics' stored sums equal a
full recount after each of them, mixed with every other write (`tests.test_statistics`'s
invariant); the names follow into the matches, the ratings and the table's tournament;
what is refused is refused with the field and the rule."""

import random

import pytest

from tests.test_statistics import GAMES, assert_consistent, one_write
from tichu_scorer import ratings
from tichu_scorer.extensions import db
from tichu_scorer.matches import creation, hand_entry, roster, writes
from tichu_scorer.models import Group, Match, MatchSeat, Player, PlayerMerge
from tichu_scorer.players import identity
from tichu_scorer.players.errors import Refused


def held(group_id):
    writes.begin_write()
    return writes.lock_table(group_id)


def players_of(group_id):
    return {p.name: p for p in db.session.execute(
        db.select(Player).filter_by(group_id=group_id)).scalars()}


def committed(group_id, change):
    """`change(table)` in a write that holds the table, committed (rolled back, and the
    refusal raised, when refused); what it returned."""
    group = held(group_id)
    try:
        done = change(group)
        db.session.commit()
    except Refused:
        db.session.rollback()
        raise
    return done


def rename(group_id, old, new):
    committed(group_id, lambda g: identity.rename(g, players_of(group_id)[old], new))


def merge(group_id, source, target):
    def change(group):
        found = players_of(group_id)
        return identity.merge(group, found[source], found[target])
    return committed(group_id, change).key


def undo(group_id, key):
    committed(group_id, lambda g: identity.undo(g, db.session.execute(
        db.select(PlayerMerge).filter_by(key=key)).scalar_one()))


def assert_players_sound(group_id):
    """Every seat but a dummy's has an existing player of the table; no two players of the
    table share a name key."""
    players = list(db.session.execute(db.select(Player).filter_by(group_id=group_id)).scalars())
    assert len({p.name_key for p in players}) == len(players)
    ids = {p.id for p in players}
    for match in db.session.execute(db.select(Match).filter_by(group_id=group_id)).scalars():
        for seat in match.seats:
            assert seat.player_id is None and match.game.variant.dummy_seat == seat.seat \
                or seat.player_id in ids


def one_change(rng, group_id, merged):
    """A random rename, merge or undo of a merge; refusals are part of the game."""
    names = sorted(players_of(group_id))
    kind = rng.choice(["rename", "rename", "merge", "undo"])
    try:
        if kind == "rename":
            old = rng.choice(names)
            new = rng.choice([old.upper(), old + "x", old[:-1] + "é", rng.choice(names)])
            rename(group_id, old, new)
        elif kind == "merge":
            merged.append(merge(group_id, *rng.sample(names, 2)))
        elif merged:
            undo(group_id, merged.pop(rng.randrange(len(merged))))
        else:
            return "nothing to undo"
    except Refused:
        return kind + " refused"
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sums_equal_a_recount_after_renames_merges_and_undos(app, seed):
    rng = random.Random(seed)
    with app.test_request_context():
        group, other = roster.create_group("T"), roster.create_group("U")
        # many players, few per match: merges that are not refused happen
        pool = [f"P{i}" for i in range(9)]
        keys = []
        for g in (group, other):
            for v, target, limit in GAMES * 2:
                keys.append(creation.create_match(g, rng.sample(pool, v.fewest), target, v,
                                                  limit).key)
        groups = [db.session.get(Group, group.id), db.session.get(Group, other.id)]
        merged, seen = [], set()
        for step in range(50):
            if step % 2:
                seen.add(one_change(rng, group.id, merged))
                assert_players_sound(group.id)
                assert_consistent(groups)
            else:
                one_write(rng, group, keys[:len(GAMES) * 2])
        assert seen >= {"rename", "merge", "undo", "rename refused", "merge refused"}


@pytest.fixture()
def table(app):
    with app.test_request_context():
        group = roster.create_group("T")
        m1 = creation.create_match(group, ["Ann", "Bob", "Cy", "Dee"], 1000,
                                   GAMES[0][0], None)
        m2 = creation.create_match(group, ["Anne", "Bob", "Cy", "Eve"], 1000,
                                   GAMES[0][0], None)
        for key in (m1.key, m2.key):
            match = writes.lock_match(key)
            hand_entry.add_hand(match, {"out_order": [0, 2], "calls": {"0": "tichu"},
                                        "card_points": [None, None]}, 1)
            db.session.rollback()
        yield group.id, m1.key, m2.key


def test_a_rename_follows_into_matches_ratings_and_statistics(app, table):
    group_id, m1, _m2 = table
    with app.test_request_context():
        before = db.session.execute(db.select(Match.revision).filter_by(key=m1)).scalar_one()
        rename(group_id, "Ann", "Annette")
        match = db.session.execute(db.select(Match).filter_by(key=m1)).scalar_one()
        assert match.names[0] == "Annette" and match.revision == before + 1
        group = db.session.get(Group, group_id)
        assert_consistent([group])
        outcomes = [ratings.outcome_of(m.settings, m.totals, m.winner_team)
                    for m in db.session.execute(db.select(Match)).scalars()]
        named = {r.name for r in ratings.rate([o for o in outcomes if o is not None])}
        assert "Annette" in named and "Ann" not in named


def test_a_rename_to_another_players_name_is_refused_as_a_merge(app, table):
    group_id, _m1, _m2 = table
    with app.test_request_context():
        with pytest.raises(Refused) as refused:
            rename(group_id, "Ann", " ANNE ")
        assert refused.value.field == "name" and refused.value.status == 409
        assert "merge" in refused.value.message
        rename(group_id, "Ann", "ANN")  # the same player, another spelling
        assert "ANN" in players_of(group_id)
        for bad in ("", "   ", "x" * 41, "a\x01b"):
            with pytest.raises(Refused):
                rename(group_id, "ANN", bad)


def test_a_merge_moves_the_seats_and_its_undo_puts_them_back(app, table):
    group_id, m1, m2 = table
    with app.test_request_context():
        key = players_of(group_id)["Ann"].key
        record = merge(group_id, "Ann", "Anne")
        assert "Ann" not in players_of(group_id)
        names = {k: db.session.execute(db.select(Match).filter_by(key=k)).scalar_one().names
                 for k in (m1, m2)}
        assert names[m1][0] == names[m2][0] == "Anne"
        assert_consistent([db.session.get(Group, group_id)])
        undo(group_id, record)
        back = players_of(group_id)["Ann"]
        assert back.key == key and not back.guest
        match = db.session.execute(db.select(Match).filter_by(key=m1)).scalar_one()
        assert match.names[0] == "Ann"
        assert_consistent([db.session.get(Group, group_id)])
        with pytest.raises(Refused) as again:
            undo(group_id, record)
        assert again.value.status == 409


def test_a_merge_of_two_players_of_one_match_is_refused(app, table):
    group_id, _m1, _m2 = table
    with app.test_request_context():
        with pytest.raises(Refused) as refused:
            merge(group_id, "Ann", "Bob")
        assert refused.value.rule == "H1" and refused.value.field == "into"
        with pytest.raises(Refused):
            merge(group_id, "Ann", "Ann")
        assert db.session.execute(db.select(db.func.count()).select_from(MatchSeat).where(
            MatchSeat.player_id == players_of(group_id)["Ann"].id)).scalar_one() == 1


def test_an_undo_waits_for_a_name_taken_since_and_for_a_later_merge(app, table):
    group_id, _m1, _m2 = table
    with app.test_request_context():
        first = merge(group_id, "Ann", "Anne")
        held(group_id)
        roster.player_named(group_id, "ann")  # a new player of the merged-away name
        db.session.commit()
        with pytest.raises(Refused) as taken:
            undo(group_id, first)
        assert taken.value.field == "merge" and taken.value.status == 409
        assert "rename ann first" in taken.value.message
        merge(group_id, "ann", "Bob")
        held(group_id)
        roster.player_named(group_id, "Zed")
        db.session.commit()
        merge(group_id, "Anne", "Zed")  # the player the first merge went into is gone
        with pytest.raises(Refused) as gone:
            undo(group_id, first)
        assert "undo that merge first" in gone.value.message
        assert_consistent([db.session.get(Group, group_id)])
