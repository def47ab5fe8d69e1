"""`tournaments.director` with `drawing` and `stored`, called directly in an app context (no
HTTP): a tournament created with its own table and its entries checked by its format
([TN1], [TN3]; each format's checks: tests/tournaments/formats/); each round drawn and its tables
stored as matches of the tournament's rules in one transaction, refused when it is not the
next or the round before is still playing ([TN4]) and nothing stored then; the same seed
draws the same round; late arrivals and drop-outs from the next round; byes credited
([TN2]); a pairs tournament's match points, round robin and knockout ([TN3]); the tables as
stored and the standing equal to a recount from the hands; the corrections listed.

The files in this folder are pure and marked `one_database` by their path
(`tests/conftest.py`); the tests here use the database and are marked `every_database` so
that CI runs them against PostgreSQL too."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tichu_scorer.extensions import db
from tichu_scorer.matches import corrections, creation, hand_entry, roster, writes
from tichu_scorer.models import Match, Tournament, TournamentRound
from tichu_scorer.tournaments import director, drawing, formats, standings, stored
from tichu_scorer.tournaments.formats import INDIVIDUAL, PAIRS_ALL, PAIRS_SWISS, Entry, Refused

DATABASE = pytest.mark.every_database  # runs on SQLite and PostgreSQL (see the docstring)
# side A (seats 0 and 2) out first, B's seat 1 second; A took 60 card points, B 40
A_WINS = {"out_order": [0, 1], "card_points": [60, None]}
B_WINS = {"out_order": [1, 0], "card_points": [None, 60]}


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def individual(names, rounds=3, hands=1, seed=7):
    return director.create("Club cup", INDIVIDUAL, [Entry(n) for n in names], rounds, hands,
                           seed)


def pairs(count, rounds=3, hands=1, fmt=PAIRS_SWISS, knockout=None):
    entries = [Entry(f"Pair {i}", (f"A{i}", f"B{i}")) for i in range(count)]
    return director.create("Pairs cup", fmt, entries, rounds, hands, 3, knockout)


def fresh(tournament: Tournament) -> Tournament:
    db.session.rollback()
    return db.session.get(Tournament, tournament.id)


def play(match_key: str, *hands: dict) -> Match:
    for data in hands:
        match = writes.lock_match(match_key)
        added = hand_entry.add_hand(match, data, match.hand_count + 1)
        assert added.hand is not None, added.problems
    db.session.rollback()
    return writes.match_by_key(match_key)


def play_round(tournament: Tournament, number: int, *hands: dict) -> None:
    for match in [m.key for m in fresh(tournament).played[number - 1].tables]:
        play(match, *hands)


def refusal(call, *args, **kwargs) -> tuple[str, str, str]:
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)
    return caught.value.field, caught.value.rule, caught.value.message


# stored: creating, drawing, arriving and leaving


@DATABASE
def test_a_tournament_gets_its_own_table_and_its_entries(ctx):
    made = individual(["  Ann ", "Bob", "Cy", "Dee"])
    tournament = fresh(made)
    assert tournament.name == "Club cup" and tournament.group.name == "Club cup"
    assert director.of_group(tournament.group) == tournament
    assert director.by_key(tournament.key) == tournament
    assert director.by_key("nope") is None
    assert director.by_key(tournament.key + "x" * 100) is None  # read as its first 24
    assert director.of_group(roster.create_group("Other")) is None
    assert [(e.name, e.joined, e.left, e.members) for e in tournament.entries] == [
        ("Ann", 1, None, None), ("Bob", 1, None, None), ("Cy", 1, None, None),
        ("Dee", 1, None, None)]
    assert tournament.pairing is None and tournament.knockout is None  # individual: none


@DATABASE
def test_a_pairs_tournament_names_its_pairs_and_checks_its_knockout(ctx):
    entries = [Entry("", (" Ann ", "Bob")), Entry("Dragons", ("Cy", "Dee"))]
    made = director.create("   ", PAIRS_ALL, entries, 2, 1, knockout=2)
    tournament = fresh(made)
    assert tournament.name == "Tichu" and tournament.pairing == PAIRS_ALL.pairing
    assert tournament.knockout == 2
    assert [(e.name, e.members) for e in tournament.entries] == [
        ("Ann & Bob", ["Ann", "Bob"]), ("Dragons", ["Cy", "Dee"])]
    assert formats.pair_names(tournament.entries) == {frozenset({"ann", "bob"}): "Ann & Bob",
                                               frozenset({"cy", "dee"}): "Dragons"}
    count = db.session.scalar(db.select(db.func.count()).select_from(Tournament))
    for knockout in (4, 3):  # more pairs than play; not 2, 4 or 8
        assert refusal(director.create, "Cup", PAIRS_SWISS, entries, 2, 1,
                       knockout=knockout)[:2] == ("knockout", "TN3")
    assert db.session.scalar(db.select(db.func.count()).select_from(Tournament)) == count


@DATABASE
def test_a_round_is_stored_as_tables_of_the_tournaments_rules(ctx):
    players = [f"P{i}" for i in range(10)]
    made = individual(players, rounds=2, hands=3)
    rnd = drawing.draw_round(made, 1)
    tournament = fresh(made)
    (row,) = tournament.played
    assert row.id == rnd.id and row.number == 1 and row.stage == "round"
    assert [m.board for m in row.tables] == [1, 2]
    seated = [n for m in row.tables for n in m.player_names]
    assert len(row.byes) == 2  # ten players: the fewest sit out ([TN2])
    assert sorted(seated + row.byes) == sorted(players)  # everyone once
    for match in row.tables:
        assert match.group_id == tournament.group_id
        assert (match.target, match.hand_limit) == (None, 3)  # [R7]: the round's hands
        house = match.house
        assert house == formats.HOUSE
        assert house.victory_points and not house.grand_tichu  # [TN1]: [R4], [R2]
        assert house.double_victory_points == 100  # [R3]
        assert director.match_tournament(match) == tournament
    assert drawing.still_playing(row) == [1, 2]


@DATABASE
def test_the_same_seed_draws_the_same_round(ctx):
    players = [f"P{i}" for i in range(9)]
    seatings = []
    for _ in range(2):
        made = individual(players, seed=42)
        drawing.draw_round(made, 1)
        (rnd,) = fresh(made).played
        seatings.append(([m.player_names for m in rnd.tables], rnd.byes))
    assert seatings[0] == seatings[1] and len(seatings[0][1]) == 1


@DATABASE
def test_a_draw_out_of_turn_is_refused_and_stores_nothing(ctx):
    made = individual(["A", "B", "C", "D"], rounds=2)
    assert refusal(drawing.draw_round, made, 2)[:2] == ("round", "TN4")
    assert "Round 1 is the next" in refusal(drawing.draw_round, made, 0)[2]
    drawing.draw_round(made, 1)
    assert "already drawn" in refusal(drawing.draw_round, made, 1)[2]  # a second tap
    field, rule, message = refusal(drawing.draw_round, made, 2)
    assert (field, rule) == ("round", "TN4") and "table 1 is still playing" in message
    play_round(made, 1, A_WINS)
    assert drawing.still_playing(fresh(made).played[0]) == []
    drawing.draw_round(made, 2)
    play_round(made, 2, B_WINS)
    assert refusal(drawing.draw_round, made, 3)[:2] == ("round", "TN1")  # two rounds only
    tournament = fresh(made)
    assert [r.number for r in tournament.played] == [1, 2]
    assert db.session.scalar(db.select(db.func.count()).select_from(Match)) == 2


@DATABASE
def test_arrivals_and_drop_outs_play_from_the_next_round(ctx):
    made = individual(["A", "B", "C", "D", "E"])
    drawing.draw_round(made, 1)
    late = director.arrive(made, Entry(" Newcomer "))
    assert (late.name, late.joined, late.left) == ("Newcomer", 2, None)
    assert refusal(director.arrive, made, Entry("newcomer"))[:2] == ("entries", "TN1")
    tournament = fresh(made)
    a = next(e for e in tournament.entries if e.name == "A")
    gone = director.leave(tournament, a.id)
    assert gone.left == 2
    assert director.leave(fresh(made), a.id).left == 2  # leaving twice changes nothing
    tournament = fresh(made)
    playing = [{e.name for e in formats.playing(tournament.entries, n)} for n in (1, 2)]
    assert playing == [{"A", "B", "C", "D", "E"}, {"B", "C", "D", "E", "Newcomer"}]
    back = director.leave(tournament, a.id, leaving=False)
    assert (back.left, back.joined) == (None, 1)
    assert refusal(director.leave, fresh(made), 10**6)[:2] == ("entry", "TN2")


@DATABASE
def test_too_few_players_left_for_a_round_is_refused(ctx):
    made = individual(["A", "B", "C", "D"], rounds=2)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS)
    director.leave(fresh(made), fresh(made).entries[0].id)
    field, rule, message = refusal(drawing.draw_round, fresh(made), 2)
    assert (field, rule) == ("entries", "TN1") and "3 play" in message
    assert len(fresh(made).played) == 1


# stored: the tables' results and the standing


@DATABASE
def test_the_tables_as_stored_hold_each_matchs_result(ctx):
    made = individual(["A", "B", "C", "D"], rounds=2, hands=2)
    drawing.draw_round(made, 1)
    (match,) = fresh(made).played[0].tables
    play(match.key, A_WINS)
    rnd = fresh(made).played[0]
    (seated,) = stored.seated(fresh(made))[rnd.id]
    # one hand: A 60 to B 40, 2 victory points to 0 ([R4]); one hand of two: not over
    assert (seated.key, seated.board, seated.names) == (match.key, 1, tuple(match.player_names))
    assert (seated.totals, seated.victory, seated.hands, seated.over, seated.winner) == (
        (60, 40), (2, 0), 1, False, None)
    play(match.key, A_WINS)
    (seated,) = stored.seated(fresh(made))[rnd.id]
    assert (seated.totals, seated.victory, seated.hands, seated.over, seated.winner) == (
        (120, 80), (4, 0), 2, True, 0)
    table = stored.table_of(INDIVIDUAL, seated, {})
    assert table == standings.Table(1, ((seated.names[0], seated.names[2]),
                                        (seated.names[1], seated.names[3])),
                                    (4, 0), (120, 80), 2, True, 0)


@DATABASE
def test_a_bye_is_credited_the_rounds_average_per_player(ctx):
    made = individual(["A", "B", "C", "D", "E"], rounds=1, hands=2)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS, A_WINS)
    tournament = fresh(made)
    (bye,) = tournament.played[0].byes
    (match,) = tournament.played[0].tables
    winners = {match.player_names[0], match.player_names[2]}
    lines = {line.name: line for line in stored.table_standing(tournament)}
    # [TN2]: per hand, the players average (2 + 2 + 0 + 0) / 4 = 1 victory point and
    # (60 + 60 + 40 + 40) / 4 = 50 points; two hands
    assert (lines[bye].victory, lines[bye].points) == (Fraction(2), Fraction(100))
    assert (lines[bye].byes, lines[bye].played) == (1, 0)
    for name in winners:
        assert (lines[name].victory, lines[name].points, lines[name].place) == (4, 120, 1)
    assert lines[bye].place == 3
    assert stored.table_standing(tournament) == stored.table_standing(tournament,
                                                                          recount=True)


@DATABASE
def test_the_standing_follows_a_correction_and_lists_it(ctx):
    made = individual(["A", "B", "C", "D"], rounds=1, hands=1)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS)
    assert stored.corrections(fresh(made)) == []  # a hand added is no correction
    match = writes.lock_match(fresh(made).played[0].tables[0].key)
    hand = match.hands[0]
    assert corrections.edit_hand(match, hand, B_WINS, hand.version) == []
    tournament = fresh(made)
    (match,) = tournament.played[0].tables
    lines = stored.table_standing(tournament)
    assert lines == stored.table_standing(tournament, recount=True)
    assert {line.name for line in lines if line.place == 1} == {match.player_names[1],
                                                                match.player_names[3]}
    (fix,) = stored.corrections(tournament)
    assert (fix.round, fix.board, fix.match_key, fix.event.action) == (1, 1, match.key,
                                                                        "edited")
    assert "60 → 40" in fix.said  # the change in words, as the match's log says it


@DATABASE
def test_corrections_are_listed_newest_first_up_to_most(ctx):
    made = individual(["A", "B", "C", "D"], rounds=1, hands=3)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS, A_WINS, A_WINS)
    key = fresh(made).played[0].tables[0].key
    for number in (3, 2):
        corrections.undo_last(writes.lock_match(key), number)
    listed = stored.corrections(fresh(made))
    assert [c.event.action for c in listed] == ["undone", "undone"]
    assert [c.event.position for c in listed] == [2, 3]  # the newest first
    assert listed[0].event.id > listed[1].event.id
    assert len(stored.corrections(fresh(made), most=1)) == 1


@DATABASE
def test_an_ordinary_match_keeps_its_own_rules(ctx):
    match = creation.create_match(roster.create_group("T"), ["A", "B", "C", "D"], 1000)
    assert director.match_tournament(match) is None
    director.keep_rules(match)  # not refused
    made = individual(["A", "B", "C", "D"])
    drawing.draw_round(made, 1)
    (table,) = fresh(made).played[0].tables
    field, rule, message = refusal(director.keep_rules, table)
    assert (field, rule) == ("match", "TN4") and "table 1 of a tournament round" in message


@DATABASE
def test_a_round_robin_of_pairs_meets_every_pair_once_with_match_points(ctx):
    made = pairs(4, rounds=3, fmt=PAIRS_ALL)
    met = []
    for number in (1, 2, 3):
        drawing.draw_round(made, number)
        for board, match in enumerate(fresh(made).played[number - 1].tables, 1):
            # a pair's players sit as partners: seats 0 and 2, 1 and 3
            names = match.player_names
            assert {names[0][1:], names[2][1:]} == {names[0][1:]} != {names[1][1:]}
            play(match.key, A_WINS if board == 1 else B_WINS)
        met += [frozenset(t.sides[0] + t.sides[1])
                for t in stored.rounds_of(fresh(made))[number - 1].tables]
    assert len(met) == len(set(met)) == 6  # every pair met every other once ([TN3])
    lines = stored.table_standing(fresh(made))
    assert sum(line.match_points for line in lines) == 6 * standings.WIN  # a win is 2
    assert all(line.played == 3 and line.byes == 0 for line in lines)
    assert lines == stored.table_standing(fresh(made), recount=True)


@DATABASE
def test_a_tie_gives_each_pair_one_match_point(ctx):
    made = pairs(2, rounds=1, hands=2)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS, B_WINS)  # 100 to 100, 2 victory points each
    lines = stored.table_standing(fresh(made))
    assert [(line.match_points, line.place) for line in lines] == [(1, 1), (1, 1)]


@DATABASE
def test_a_knockout_final_is_played_to_a_target_by_the_two_best(ctx):
    made = pairs(3, rounds=1, knockout=2)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS)
    tournament = fresh(made)
    seeds = [line.name for line in stored.table_standing(tournament)]
    drawing.draw_round(tournament, 2)
    final = fresh(made).played[1]
    assert final.stage == "knockout" and final.byes == []
    (match,) = final.tables
    assert (match.target, match.hand_limit) == (formats.Knockout.target, None)
    assert not match.house.victory_points  # [TN3]: a knockout match is to a target
    table = stored.rounds_of(fresh(made))[1].tables[0]
    assert [side[0] for side in table.sides] == seeds[:2]  # 1 v 2
    assert refusal(drawing.draw_round, fresh(made), 3)[:2] == ("round", "TN1")  # no 3rd
    for _ in range(5):  # B: a double victory (100, [R3]) and a Tichu made, 200 a hand
        played = play(match.key, {"out_order": [1, 3], "calls": {"1": "tichu"}})
    assert played.finished and played.totals == [0, 1000]  # the second seed won the final
    lines = stored.table_standing(fresh(made))
    assert [(line.name, line.place) for line in lines[:2]] == [(seeds[1], 1), (seeds[0], 2)]
    assert refusal(drawing.draw_round, fresh(made), 3)[:2] == ("round", "TN1")


@DATABASE
def test_two_rounds_of_one_number_cannot_be_stored(ctx):
    """The database keeps a round once, whichever request drew it (two directors at once):
    the draw's refusal of an IntegrityError rests on this."""
    made = individual(["A", "B", "C", "D"])
    drawing.draw_round(made, 1)
    db.session.add(TournamentRound(tournament_id=made.id, number=1))
    with pytest.raises(Exception, match="(?i)unique|duplicate"):
        db.session.flush()
    db.session.rollback()


@DATABASE
def test_a_round_is_closed_once_the_next_is_drawn(ctx):
    made = individual(["A", "B", "C", "D"], rounds=2)
    drawing.draw_round(made, 1)
    play_round(made, 1, A_WINS)
    drawing.draw_round(fresh(made), 2)
    key = fresh(made).played[0].tables[0].key
    match = writes.lock_match(key)
    hand = match.hands[0]
    problems = []
    try:
        problems = corrections.edit_hand(match, hand, B_WINS, hand.version)
    except Refused:
        problems = ["refused"]
    db.session.rollback()
    assert problems, "a hand of a closed round was changed"
