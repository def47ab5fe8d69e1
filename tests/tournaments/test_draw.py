"""The individual tournament draw (RULES.md [TN1], [TN2]): invariants over random
tournaments (hypothesis), the partner repeats it avoids where avoidable, the ones it reports
where not, byes with late arrivals and drop-outs, and the same draw for the same seed."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.tournaments import draw as module
from tichu_scorer.tournaments.draw import Round, draw, key, met, repeats

ROOT = Path(__file__).resolve().parents[2]


def names(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def check_round(one: Round, players: list[str]) -> None:
    """Everyone is seated exactly once or sits out; tables of four; players mod 4 sit out."""
    seated = [name for table in one.tables for name in table]
    assert all(len(table) == 4 for table in one.tables)
    assert sorted(seated + list(one.byes)) == sorted(players)
    assert len(one.byes) == len(players) % 4


def bye_counts(rounds: list[Round], players: list[str]) -> Counter[str]:
    counts: Counter[str] = Counter({p: 0 for p in players})
    for one in rounds:
        counts.update(b for b in one.byes if b in counts)
    return counts


def check_byes_fair(history: list[Round], drawn: tuple[Round, ...], players: list[str]) -> None:
    """[TN2]: before each new round's byes, nobody who sits out has sat out more than
    anyone who plays (history counted): nobody sits out twice before everyone once."""
    so_far = bye_counts(history, players)
    for one in drawn:
        if one.byes:
            playing = [p for p in players if p not in one.byes]
            assert max(so_far[b] for b in one.byes) <= min(so_far[p] for p in playing)
        so_far.update(one.byes)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 40), rounds=st.integers(1, 8), seed=st.integers(0, 2**64))
def test_every_round_seats_everyone_once_with_fair_byes(n, rounds, seed):
    players = names(n)
    made = draw(players, rounds, seed)
    assert len(made.rounds) == rounds
    for one in made.rounds:
        check_round(one, players)
    check_byes_fair([], made.rounds, players)
    counts = bye_counts(list(made.rounds), players)
    assert max(counts.values()) - min(counts.values()) <= 1  # byes spread evenly
    partners, opponents = met(made.rounds)
    assert (made.partner_repeats, made.opponent_repeats) == (repeats(partners),
                                                             repeats(opponents))
    if rounds <= n - 1 - (n % 4 > 0) and n >= 8:  # partners enough: none meets again
        assert made.partner_repeats == 0 and made.unmet == ()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 30), played=st.integers(1, 4), rounds=st.integers(1, 5),
       left=st.integers(0, 3), arrived=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_late_arrivals_and_drop_outs_continue_from_the_history(n, played, rounds, left,
                                                               arrived, seed):
    before = names(n)
    history = list(draw(before, played, seed).rounds)
    now = before[left:] + names(arrived, "new")
    if len(now) < 4:
        now += names(4 - len(now), "x")
    made = draw(now, rounds, seed + 1, history)
    for one in made.rounds:
        check_round(one, now)
    check_byes_fair(history, made.rounds, now)
    partners, opponents = met([*history, *made.rounds])
    assert (made.partner_repeats, made.opponent_repeats) == (repeats(partners),
                                                             repeats(opponents))


@pytest.mark.parametrize("n, rounds", [(16, 6), (64, 6), (17, 6), (30, 6), (12, 11),
                                       (8, 7), (256, 20)])
def test_no_partner_meets_again_where_that_is_possible(n, rounds):
    for seed in range(3 if n < 100 else 1):
        made = draw(names(n), rounds, seed)
        assert made.partner_repeats == 0 and made.unmet == (), (n, rounds, seed)


def test_sixteen_players_over_six_rounds_meet_few_opponents_again():
    """Each plays 12 opponents among 15 others over six rounds: most can be new."""
    assert max(draw(names(16), 6, seed).opponent_repeats for seed in range(5)) <= 6


def test_partners_that_must_meet_again_are_reported_and_kept_few():
    made = draw(names(4), 5, 3)  # four players: three partners each, five rounds
    partners, _ = met(made.rounds)
    assert made.partner_repeats == 2 * 5 - 6 == repeats(partners)
    assert max(partners.values()) == 2  # spread over the pairs, not one pair five times
    [unmet] = made.unmet
    assert unmet.rule == "TN1" and "4 pairs" in unmet.message
    assert "more rounds to play than partners" in unmet.message


def test_repeats_count_the_history_too():
    history = [Round((("A", "B", "C", "D"),)), Round((("a", "b", "c", "d"),))]
    made = draw(["A", "B", "C", "D"], 1, 0, history)
    assert made.partner_repeats >= 2  # A and C partnered twice in the history (case aside)
    assert made.partner_repeats - 2 == 0  # the new round pairs them otherwise
    assert made.unmet == ()


def test_a_history_with_byes_sends_the_others_out_first():
    players = names(9)  # one sits out each round
    history = [Round(((players[0], players[1], players[2], players[3]),
                      (players[4], players[5], players[6], players[7])), (players[8],))]
    made = draw(players, 8, 11, history)
    assert players[8] not in {b for one in made.rounds for b in one.byes}
    assert sorted(b for one in made.rounds for b in one.byes) == sorted(players[:8])


def test_among_equal_byes_who_played_most_sits_out_first():
    """A late arrival has missed rounds already: it does not sit out before those who
    played every round (same bye count)."""
    players = names(8)
    history = [Round(((players[0], players[1], players[2], players[3]),
                      (players[4], players[5], players[6], players[7])))]
    made = draw([*players, "late"], 1, 5, history)
    assert made.rounds[0].byes != ("late",)


def test_names_are_told_apart_without_case_and_kept_as_given():
    history = [Round((("ANN", "bob", "Cy", "di"),))]
    made = draw(["Ann", "Bob", "Cy", "Di"], 1, 2, history)
    assert {n for t in made.rounds[0].tables for n in t} == {"Ann", "Bob", "Cy", "Di"}
    assert key(" ANN ") == key("ann")


@given(seed=st.integers(0, 2**64), n=st.integers(4, 30))
@settings(max_examples=20, deadline=None)
def test_the_same_seed_gives_the_same_draw(seed, n):
    history = list(draw(names(n), 2, seed + 1).rounds)
    assert draw(names(n), 3, seed, history) == draw(names(n), 3, seed, history)


def test_the_same_seed_gives_the_same_draw_in_another_process():
    """Nothing depends on the order of a set of names (which string hashing changes from
    one process to the next)."""
    code = ("from tichu_scorer.tournaments.draw import draw; "
            "print(draw([f'p{i}' for i in range(23)], 4, 99).as_dict())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=ROOT, env={"PYTHONHASHSEED": str(h)}).stdout
            for h in (1, 2)}
    assert len(runs) == 1
    assert runs.pop().strip() == str(draw(names(23), 4, 99).as_dict())


def test_different_seeds_give_different_draws():
    assert len({str(draw(names(16), 3, seed).as_dict()) for seed in range(5)}) > 1


def test_the_work_is_bounded_and_the_callers_check_is_called(monkeypatch):
    calls = []
    monkeypatch.setattr(module, "MAX_STEPS", 2000)
    made = draw(names(12), 20, 1, check=lambda: calls.append(1))
    assert calls  # the caller's CPU allowance is asked
    for one in made.rounds:  # still a whole draw when the swaps run out
        check_round(one, names(12))
    assert made.unmet and made.unmet[0].rule == "TN1"


def test_a_check_that_raises_stops_the_draw():
    class Spent(Exception):
        pass

    def spent():
        raise Spent

    with pytest.raises(Spent):
        draw(names(12), 20, 1, check=spent)


def test_a_repeat_the_search_could_have_avoided_is_reported_as_such(monkeypatch):
    """16 players have 15 partners each: 15 rounds without a partner repeat exist, and the
    draw finds them; without its swaps (the greedy seating alone) it does not, and says
    that it found no such seating rather than that none exists."""
    assert draw(names(16), 15, 0).partner_repeats == 0
    monkeypatch.setattr(module, "MAX_STEPS", 0)
    made = draw(names(16), 15, 0)
    assert made.partner_repeats > 0
    [unmet] = made.unmet
    assert unmet.rule == "TN1" and unmet.message.startswith("The draw found no seating")
    assert f"{made.partner_repeats} pairs partner again" in unmet.message
