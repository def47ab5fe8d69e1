"""The evening's rotation (`tichu_scorer/tables/evenings.py`), followed for a whole evening: with
five or six players everyone plays as often as possible (after every match the numbers of
matches played differ by at most one), nobody sits out twice before everyone sat out as
often, and a partnership repeats only when every other one was played as often."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.tables import evenings


def play_evening(names, rounds):
    played: list[evenings.Evening.Match] = []
    for _ in range(rounds):
        following = evenings.next_match(names, played)
        assert following is not None and len(set(following.seats)) == 4
        assert set(following.seats) | set(following.sitting_out) == set(names)
        played.append(evenings.Evening.Match(following.seats, ((0, 2), (1, 3)), (100, 0), 0))
        counts = [sum(n in m.names for m in played) for n in names]
        assert max(counts) - min(counts) <= 1, counts
    return played


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 6), st.integers(1, 15))
def test_everyone_plays_as_often_as_possible(players, rounds):
    play_evening([f"P{i}" for i in range(players)], rounds)


def test_five_players_each_partner_everyone_before_a_pair_repeats():
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    played = play_evening(names, 5)
    pairs = [tuple(sorted((m.names[a], m.names[b]))) for m in played for a, b in ((0, 2), (1, 3))]
    assert len(pairs) == 10 and len(set(pairs)) >= 9  # 10 pairs exist; at most one repeat


def test_four_players_change_partners_each_match():
    names = ["Ann", "Bob", "Cy", "Dee"]
    played = play_evening(names, 3)
    pairs = [frozenset((m.names[0], m.names[2])) for m in played]
    assert len(set(pairs)) == 3  # each of the three partnerships of Ann once


def test_a_standing_adds_points_and_wins_per_player_and_pair():
    played = [evenings.Evening.Match(("Ann", "Bob", "Cy", "Dee"), ((0, 2), (1, 3)), (1000, 400), 0),
              evenings.Evening.Match(("Ann", "Dee", "Bob", "Cy"), ((0, 2), (1, 3)), (300, 1050), 1)]
    standing = evenings.tally(played)
    assert standing.players["Ann"] == evenings.Line(2, 1, 1300)
    assert standing.players["Cy"] == evenings.Line(2, 2, 2050)
    assert standing.ranked_players()[0][0] == "Cy"
    assert standing.pairs[("Ann", "Cy")] == evenings.Line(1, 1, 1000)
