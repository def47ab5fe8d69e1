"""`statistics.counting`: what the statistics count of a match, as plain values. A stored
match's counts per player and per partnership follow the rules ([P2], [P3], [E1]); a hand's
own counts (`counted_hand`) added up over the hands give the match's counts (what
`record_hand` relies on); a game without points counts nothing; Threechu's dummy is no
player ([T3.4]); and the rows' form (`who`, `rows`, `from_rows`) and the page's figures
from summed rows (`shown`). `tests/test_statistics.py` checks the whole against its own
recount after random writes; this file checks each function on cases worked out by hand."""

from __future__ import annotations

import pytest

from tests.matches.conftest import add, new_match
from tichu_scorer.extensions import db
from tichu_scorer.game import variants
from tichu_scorer.matches import hand_entry, writes
from tichu_scorer.scoring.stats import COUNTS, MatchTallies, Tally
from tichu_scorer.statistics import counting

# Ann (seat 0) and Cy (seat 2) out first and second, Ann called Tichu: a double victory,
# 200 + 100 = 300 to A, 0 to B ([P2], [P3])
SWEEP_TICHU = {"out_order": [0, 2], "calls": {"0": "tichu"}}
# Bob out first, Ann second; A took 30 card points, B 70; Cy's Grand Tichu failed: A -170
GRAND_FAILED = {"out_order": [1, 0], "card_points": [30, None], "calls": {"2": "grand"}}


def counts(**given: int) -> list[int]:
    """A row's counts in `COUNTS` order, zero where not given."""
    assert set(given) <= set(COUNTS)
    return [given.get(name, 0) for name in COUNTS]


@pytest.fixture()
def ctx(app):
    with app.test_request_context():
        yield app


def add_with_bombs(key: str, data: dict, bombs: list[int]):
    match = writes.lock_match(key)
    added = hand_entry.add_hand(match, data, match.hand_count + 1, extras={"bombs": bombs})
    assert added.hand is not None, added.problems
    db.session.rollback()
    return writes.match_by_key(key)


# pure: the rows' form and the page's figures


@pytest.mark.one_database
def test_who_names_a_player_or_a_partnership():
    assert counting.who("Ann") == (counting.PLAYER, "Ann")
    side, who = counting.who(("Zoë", 'Bo "B"'))
    assert side == counting.PAIR and who == '["Zoë","Bo \\"B\\""]'  # compact, not escaped


@pytest.mark.one_database
def test_rows_are_the_counts_by_who_in_the_order_of_counts():
    tallies = MatchTallies("nanking", players={"Ann": Tally(matches=1, hands=2, points=130)},
                           pairs={("Ann", "Cy"): Tally(matches=1, won=1, bombs=3)})
    assert counting.rows(tallies) == {(0, "Ann"): counts(matches=1, hands=2, points=130),
                                      (1, '["Ann","Cy"]'): counts(matches=1, won=1, bombs=3)}
    assert counting.rows(None) == {}


@pytest.mark.one_database
def test_from_rows_leaves_out_who_has_no_match_left():
    found = {(0, "Ann"): counts(matches=2, points=300), (0, "Gone"): counts(points=-5),
             counting.who(("Ann", "Cy")): counts(matches=1, tichu_called=1)}
    tallies = counting.from_rows("tientsin", found)
    assert tallies.variant == "tientsin" and list(tallies.players) == ["Ann"]
    ann = tallies.players["Ann"]
    assert (ann.matches, ann.points, ann.variants) == (2, 300, {"tientsin"})
    assert tallies.pairs[("Ann", "Cy")].tichu_called == 1


@pytest.mark.one_database
def test_shown_orders_variants_players_and_pairs():
    found = [("tientsin", 0, "Zed", counts(matches=1)),
             ("nanking", 0, "Bob", counts(matches=1, points=50)),
             ("nanking", 0, "Ann", counts(matches=1)),
             ("nanking", 0, "Cy", counts(matches=3)),
             ("nanking", 1, '["Ann","Cy"]', counts(matches=1)),
             ("nanking", 1, '["Bob","Dee"]', counts(matches=2)),
             ("seigneur", 0, "Ann", counts(matches=5)),  # a game without points: never shown
             ("threechu", 1, '["A","B"]', counts(matches=1)),  # no player: nothing shown
             ("nanking", 0, "Old", [0, 0, 0, None, 0, 0, 0, 0, 0, 0, None, None])]  # NULL sums: 0
    shown = counting.shown(found)
    assert [v.variant.key for v in shown] == ["nanking", "tientsin"]  # the variants' order
    nanking = shown[0]
    assert [name for name, _t in nanking.players] == ["Cy", "Ann", "Bob"]  # most matches
    assert [names for names, _t in nanking.pairs] == [("Bob", "Dee"), ("Ann", "Cy")]
    assert dict(nanking.players)["Bob"].points == 50
    assert counting.shown([]) == []


# stored matches, counted


def test_a_matchs_counts_follow_the_scoring_rules(ctx):
    key = add(new_match().key, SWEEP_TICHU).key
    match = add_with_bombs(key, GRAND_FAILED, [1, 0, 0, 2])
    found = counting.rows(counting.counted(match))
    # each player and each side won one hand: A the first (300 : 0), B the second (70 : -170)
    assert found == {
        (0, "Ann"): counts(matches=1, hands=2, hands_won=1, points=130, first_out=1,
                           double_victories=1, tichu_called=1, tichu_made=1, bombs=1),
        (0, "Bob"): counts(matches=1, hands=2, hands_won=1, points=70, first_out=1),
        (0, "Cy"): counts(matches=1, hands=2, hands_won=1, points=130, double_victories=1,
                          grand_called=1),
        (0, "Dee"): counts(matches=1, hands=2, hands_won=1, points=70, bombs=2),
        counting.who(("Ann", "Cy")): counts(matches=1, hands=2, hands_won=1, points=130,
                                            first_out=1, double_victories=1, tichu_called=1,
                                            tichu_made=1, grand_called=1, bombs=1),
        counting.who(("Bob", "Dee")): counts(matches=1, hands=2, hands_won=1, points=70,
                                             first_out=1, bombs=2)}


def test_the_winners_are_the_stored_result(ctx):
    match = add(new_match(target=300).key, SWEEP_TICHU)  # 300 to 0: A wins ([E1])
    assert match.finished and match.winner_team == 0
    facts = counting.match_facts(match)
    assert facts.winners == ("Ann", "Cy") and facts.finished
    found = counting.rows(counting.counted(match))
    assert [found[counting.who(k)][1] for k in ("Ann", "Bob", "Cy", "Dee")] == [1, 0, 1, 0]
    assert found[counting.who(("Ann", "Cy"))][1] == 1
    assert found[counting.who(("Bob", "Dee"))][1] == 0
    going = add(new_match(target=1000, table="U").key, SWEEP_TICHU)
    assert counting.match_facts(going).winners == () and not going.finished


def test_a_hands_own_counts_add_up_to_the_matchs(ctx):
    """`record_hand` adds each hand's counts to the match's: their sum is the match
    counted whole, the hand that ends the match bringing who won."""
    key = new_match(target=600).key
    total = counting.rows(counting.counted(writes.match_by_key(key)))  # played, no hand
    assert total[(0, "Ann")] == counts(matches=1)
    hands = [SWEEP_TICHU, GRAND_FAILED, SWEEP_TICHU, SWEEP_TICHU]  # 300, 130, 430, 730
    for data in hands:
        match = add(key, data)
        hand = match.hands[-1]
        own = counting.rows(counting.counted_hand(match, hand))
        assert all(c[0] == 0 for c in own.values())  # no match counted again
        assert all(c[2] == 1 for c in own.values())  # this one hand
        assert own[(0, "Ann")][1] == (1 if match.finished else 0)
        total = {k: [a + b for a, b in zip(total[k], c, strict=True)] for k, c in own.items()}
    assert match.finished and match.totals == [730, 70]
    assert total == counting.rows(counting.counted(match))


def test_match_facts_reads_the_hands_given_with_their_bombs(ctx):
    key = add(new_match().key, SWEEP_TICHU).key
    match = add_with_bombs(key, GRAND_FAILED, [1, 0, 0, 2])
    whole = counting.match_facts(match)
    assert [f.bombs for f in whole.hands] == [(), (1, 0, 0, 2)]
    assert [f.out_order for f in whole.hands] == [(0, 2), (1, 0)]
    assert whole.hands[0].seat_scores == (300, 0, 300, 0) and whole.hands[0].sweep
    last = counting.match_facts(match, [match.hands[1]])
    assert len(last.hands) == 1 and last.hands[0].seat_scores == (-170, 70, -170, 70)


def test_threechus_dummy_is_no_player_and_it_has_no_partnerships(ctx):
    match = add(new_match(["A", "B", "C"], None, variants.THREECHU, hand_limit=3).key,
                {"out_order": [1, 2], "card_points": [None, 40]})
    tallies = counting.counted(match)
    assert sorted(tallies.players) == ["A", "B", "C"] and tallies.pairs == {}
    assert tallies.players["B"].first_out == 1 and tallies.players["B"].hands == 1


def test_tientsins_partnerships_are_of_three(ctx):
    names = ["P0", "P1", "P2", "P3", "P4", "P5"]
    tallies = counting.counted(new_match(names, 1000, variants.TIENTSIN))
    assert sorted(tallies.pairs) == [("P0", "P2", "P4"), ("P1", "P3", "P5")]
    assert len(tallies.players) == 6


def test_a_game_without_points_counts_nothing(ctx):
    match = add(new_match(["A", "B", "C", "D", "E"], None, variants.SEIGNEUR).key,
                {"out_order": [2, 0, 4, 1]})
    assert counting.counted(match) is None and counting.rows(counting.counted(match)) == {}
    assert "seigneur" not in counting.SCORED
