"""The pairs tournament's pairing (RULES.md [TN3]): all against all, Swiss rounds that
repeat no meeting where any pairing avoids it (checked against a brute force over every
pairing of small events), fair byes, the knockout bracket, and the same pairing for the
same input in any process."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.tournaments.matching import maximum
from tichu_scorer.tournaments.pairing import (
    Pairing,
    PairingError,
    all_against_all,
    knockout,
    next_knockout,
    round_robin,
    swiss,
)

ROOT = Path(__file__).resolve().parents[2]


def names(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


# -- all against all ------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40))
def test_round_robin_every_pair_meets_every_other_once(n):
    pairs = names(n)
    rounds = round_robin(pairs)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings: Counter[frozenset[str]] = Counter()
    byes: list[str] = []
    for one in rounds:
        seated = [p for a, b in one for p in (a, b) if p is not None]
        assert sorted(seated) == sorted(pairs)  # everyone once a round, by bye or at a table
        assert len(one) == (n + 1) // 2
        for a, b in one:
            if b is None:
                byes.append(a)
            else:
                meetings[frozenset((a, b))] += 1
        assert all(b is not None for _a, b in one[:-1])  # the bye's table comes last
    assert set(meetings) == {frozenset(c) for c in itertools.combinations(pairs, 2)}
    assert set(meetings.values()) == {1}
    assert sorted(byes) == (sorted(pairs) if n % 2 else [])  # one bye each when odd


@pytest.mark.parametrize("call", [round_robin, swiss, lambda p: knockout(p, 2)])
@pytest.mark.parametrize("pairs, says", [
    ([], "at least two pairs"),
    (["Solo"], "at least two pairs"),
    (["Ann & Bob", "Cy & Di", " ann & bob"], "“ ann & bob” is named twice"),
    (["Ann & Bob", "  "], "Every pair needs a name"),
])
def test_too_few_or_repeated_pairs_are_refused_citing_tn3(call, pairs, says):
    if call not in (round_robin, swiss) and len(pairs) < 2:  # a knockout counts its own
        says = f"needs 2 pairs; there are {len(pairs)}"
    with pytest.raises(PairingError) as refused:
        call(pairs)
    assert refused.value.rule == "TN3" and "(TN3)" in str(refused.value)
    assert says in refused.value.message


# -- Swiss: an independent, exhaustive reference ---------------------------------------

class Reference:
    """The Swiss pairing by brute force: the fewest rematches over every pairing (and
    every fair bye), then top-down the closest opponent that keeps that fewest."""

    def __init__(self, n: int, meetings: set[frozenset[int]], byes: Counter[int]) -> None:
        self.n, self.meetings, self.byes = n, meetings, byes

    def again(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.meetings

    @cache  # noqa: B019 (one reference per round)
    def fewest(self, left: tuple[int, ...]) -> int:
        """The fewest rematches of any pairing of `left` (an even count), by trying every
        opponent of its first."""
        if not left:
            return 0
        top, rest = left[0], left[1:]
        return min(self.again(top, q) + self.fewest(tuple(v for v in rest if v != q))
                   for q in rest)

    def pairing(self) -> tuple[int | None, int, list[tuple[int, int]]]:
        everyone = tuple(range(self.n))
        bye = None
        if self.n % 2:
            fair = [c for c in everyone if self.byes[c] == min(self.byes[v] for v in everyone)]
            # the fewest rematches, then the lowest ranked
            bye = min(reversed(fair), key=lambda c: self.fewest(
                tuple(v for v in everyone if v != c)))
        left = tuple(v for v in everyone if v != bye)
        budget = best = self.fewest(left)
        tables = []
        while left:
            top, rest = left[0], left[1:]
            for q in [q for q in rest if not self.again(top, q)] + [
                    q for q in rest if self.again(top, q)]:
                after = tuple(v for v in rest if v != q)
                if self.again(top, q) + self.fewest(after) <= budget:
                    budget -= self.again(top, q)
                    tables.append((top, q))
                    left = after
                    break
        return bye, best, tables


def play(n: int, rounds: int, seed: int, check=None) -> list[Pairing]:
    """Play `rounds` Swiss rounds of `n` pairs with random results (2 match points for a
    win, 1 each for a tie), ranked by match points then at random; `check` sees each
    round's pairing with the meetings and byes before it."""
    rng = random.Random(seed)
    pairs = names(n)
    points = Counter({p: 0 for p in pairs})
    met: list[frozenset[str]] = []
    byes: list[str] = []
    made = []
    for _round in range(rounds):
        tie = {p: rng.random() for p in pairs}
        standing = sorted(pairs, key=lambda p: (-points[p], tie[p]))
        pairing = swiss(standing, met, byes)
        if check:
            check(standing, met, byes, pairing)
        for a, b in pairing.tables:
            winner = rng.choice([a, b, None])
            points[a] += 2 if winner == a else 1 if winner is None else 0
            points[b] += 2 if winner == b else 1 if winner is None else 0
            met.append(frozenset((a, b)))
        if pairing.bye:
            points[pairing.bye] += 2
            byes.append(pairing.bye)
        made.append(pairing)
    return made


def check_against_reference(standing, met, byes, pairing):
    index = {p: i for i, p in enumerate(standing)}
    reference = Reference(len(standing), {frozenset(index[p] for p in m) for m in met},
                          Counter(index[b] for b in byes))
    bye, fewest, tables = reference.pairing()
    seated = [p for t in pairing.tables for p in t]
    assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == sorted(standing)
    assert pairing.rematches == fewest == sum(frozenset(t) in set(met) for t in pairing.tables)
    assert (pairing.unmet == ()) == (fewest == 0)
    assert pairing.bye == (None if bye is None else standing[bye])
    assert [(index[a], index[b]) for a, b in pairing.tables] == tables


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_swiss_rounds_are_the_exhaustive_searchs(n, seed):
    """Every round of an event of 2 to 12 pairs, as many rounds as all-against-all has:
    no rematch wherever any pairing avoids one (the fewest otherwise), the fair bye, and
    top-down the closest opponents, as an exhaustive search finds them."""
    play(n, n - 1 + n % 2, seed, check_against_reference)


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_an_even_event_repeats_no_meeting_before_its_last_rounds(n):
    """With random results, rounds 2 to n - 1 of a 6- to 12-pair event where a pairing
    without rematches exists (the reference says which) have none."""
    for seed in range(4):
        made = play(n, n - 1, seed, check_against_reference)
        assert made[0].rematches == made[1].rematches == 0  # never forced this early


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 25).filter(lambda n: n % 2), seed=st.integers(0, 2**32),
       before=st.integers(0, 3))
def test_nobody_has_a_second_bye_before_all_had_one(n, seed, before):
    """An odd event: each round's bye goes to a pair with the fewest byes so far, so the
    first n rounds give n different pairs the bye, and the next ones start over."""
    made = play(n, before + n, seed)
    given_byes = [p.bye for p in made]
    assert None not in given_byes
    counts = Counter()
    for bye in given_byes:
        assert counts[bye] == min(counts[p] for p in names(n))  # the fewest so far
        counts[bye] += 1
    assert len(set(given_byes[:n])) == n  # the first n rounds: n different pairs


def test_without_history_the_best_meets_the_next_best():
    assert swiss(names(6)).tables == (("p0", "p1"), ("p2", "p3"), ("p4", "p5"))
    odd = swiss(names(5))
    assert odd.bye == "p4" and odd.tables == (("p0", "p1"), ("p2", "p3"))


def test_the_next_best_met_before_is_passed_over_for_the_closest_new_opponent():
    made = swiss(["A", "B", "C", "D", "E", "F"], [("A", "B"), ("C", "D")])
    assert made.tables == (("A", "C"), ("B", "D"), ("E", "F"))
    assert made.rematches == 0


def test_a_closer_opponent_that_would_force_a_rematch_later_is_not_taken():
    """C has met B, D, E and F: only A is new to C. A's closest new opponent is B, but
    A v B would leave C nobody new, so A meets C."""
    met = [("C", "D"), ("C", "E"), ("C", "F"), ("B", "C")]
    made = swiss(["A", "B", "C", "D", "E", "F"], met)
    assert made.tables == (("A", "C"), ("B", "D"), ("E", "F")) and made.rematches == 0


def test_when_everyone_has_met_everyone_the_fewest_rematches_are_reported():
    pairs = names(4)
    met = [frozenset((a, b)) for one in round_robin(pairs) for a, b in one]
    made = swiss(pairs, met)
    assert made.rematches == 2 and len(made.tables) == 2
    [unmet] = made.unmet
    assert unmet.rule == "TN3"
    assert unmet.message == ("Every pairing of this round seats pairs who have met before: "
                             "2 tables have two pairs meeting again.")
    assert made.as_dict()["unmet"] == [{"rule": "TN3", "message": unmet.message}]


def test_one_rematch_is_said_in_the_singular():
    made = swiss(["A", "B", "C", "D"], [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"),
                                         ("A", "D")])
    assert made.tables == (("A", "D"), ("B", "C"))  # only B v C is new
    assert made.rematches == 1 and "1 table has two pairs" in made.unmet[0].message


def test_the_bye_goes_where_it_spares_a_rematch_among_fair_byes_only():
    assert swiss(["A", "B", "C"]).bye == "C"
    assert swiss(["A", "B", "C"], [("A", "B")]).bye == "B"  # C's bye would seat A v B again
    forced = swiss(["A", "B", "C"], [("A", "B")], byes=["B", "A"])  # C's turn: fairness first
    assert forced.bye == "C" and forced.tables == (("A", "B"),) and forced.rematches == 1


def test_names_are_told_apart_without_case_and_pairs_that_left_do_not_count():
    made = swiss(["Ann", "Bob", "Cy", "Di", "Ed"], [(" ANN", "bob"), ("Gone", "Cy")],
                 byes=["ed", "Gone"])
    assert made.bye == "Di"  # Ed has had a bye; the one of Gone, who left, does not count
    assert made.tables == (("Ann", "Cy"), ("Bob", "Ed"))
    assert made == swiss(["Ann", "Bob", "Cy", "Di", "Ed"], [("Ann", "Bob")], ["Ed"])


@pytest.mark.parametrize("n", [32, 33])
def test_thirty_two_pairs_over_seven_rounds_are_paired_without_rematches(n):
    made = play(n, 7, 5)
    assert all(p.rematches == 0 for p in made)
    assert len({p.bye for p in made}) == (7 if n % 2 else 1)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 30), rounds=st.integers(0, 6), seed=st.integers(0, 2**32))
def test_the_same_standing_and_history_give_the_same_pairing(n, rounds, seed):
    state = {}

    def keep(standing, met, byes, pairing):
        state.update(standing=standing, met=list(met), byes=list(byes), pairing=pairing)

    play(n, rounds + 1, seed, keep)
    again = swiss(state["standing"], list(reversed(state["met"])), state["byes"])
    assert again == state["pairing"]


def test_the_same_pairing_in_another_process():
    """Nothing depends on the order of a set of names (string hashing changes it from one
    process to the next)."""
    code = ("from tichu_scorer.tournaments.pairing import swiss; "
            "names = [f'p{i}' for i in range(15)]; "
            "met = [frozenset((names[i], names[(i * 7 + 3) % 15])) for i in range(15)]; "
            "print(swiss(names, met, ['p14']).as_dict())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=ROOT, env={"PYTHONHASHSEED": str(h)}).stdout
            for h in (1, 2)}
    assert len(runs) == 1


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 10), edges=st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9))))
def test_the_matching_is_maximum(n, edges):
    """The blossom search against every matching of a small graph (odd cycles included)."""
    allowed = [[a != b and ((a, b) in edges or (b, a) in edges) for b in range(n)]
               for a in range(n)]
    found = maximum(list(range(n)), allowed, {})
    assert all(found[found[v]] == v and allowed[v][found[v]] for v in found)

    @cache
    def best(left: frozenset[int]) -> int:  # the largest matching among `left`
        if not left:
            return 0
        v = min(left)
        rest = left - {v}
        return max([best(rest)] + [1 + best(rest - {w}) for w in rest if allowed[v][w]])

    assert len(found) // 2 == best(frozenset(range(n)))


# -- knockout ---------------------------------------------------------------------------

def test_the_knockout_seats_the_best_against_the_last_qualified():
    seeds = names(10)
    assert knockout(seeds, 2) == [("p0", "p1")]
    assert knockout(seeds, 4) == [("p0", "p3"), ("p1", "p2")]
    assert knockout(seeds, 8) == [("p0", "p7"), ("p1", "p6"), ("p2", "p5"), ("p3", "p4")]


@pytest.mark.parametrize("size", [2, 4, 8])
def test_the_two_best_seeds_can_meet_only_in_the_final(size):
    seeds = names(size)
    for outcome in itertools.product([0, 1], repeat=size - 1):
        results = iter(outcome)
        stage = knockout(seeds, size)
        while True:
            final = len(stage) == 1
            tables = [set(t) for t in stage]
            assert ({"p0", "p1"} in tables) <= final
            winners = [t[next(results)] for t in stage]
            if final:
                break
            stage = next_knockout(winners)
    seeds_win = knockout(seeds, size)
    while len(seeds_win) > 1:  # the favourites win every match
        seeds_win = next_knockout([a for a, _b in seeds_win])
    assert seeds_win == [("p0", "p1")]


@pytest.mark.parametrize("size, seeds, says", [
    (3, 8, "best 2, 4 or 8 pairs, not 3"),
    (16, 16, "best 2, 4 or 8 pairs, not 16"),
    (0, 4, "best 2, 4 or 8 pairs, not 0"),
    (8, 7, "A knockout of the best 8 needs 8 pairs; there are 7"),
])
def test_other_knockout_sizes_and_too_few_pairs_are_refused(size, seeds, says):
    with pytest.raises(PairingError, match="TN3") as refused:
        knockout(names(seeds), size)
    assert says in refused.value.message


@pytest.mark.parametrize("winners", [[], ["p0"], ["p0", "p1", "p2"], names(8)])
def test_the_next_stage_takes_the_winners_of_two_or_four_matches(winners):
    with pytest.raises(PairingError, match=r"winners of 2 or 4 matches, not \d+ \(TN3\)"):
        next_knockout(winners)


@pytest.mark.parametrize("count", [6, 7, 8, 9])
def test_all_against_all_after_a_change_plans_the_rounds_left_without_a_rematch(count):
    """A pair leaves after three rounds and another arrives: each later round, planned
    anew from what was played, seats nobody against a pair met before, and the byes go
    to those who sat out least."""
    names = [f"P{i}" for i in range(count)]
    plan = round_robin(names)
    met = [frozenset(t) for r in plan[:3] for t in r if t[1] is not None]
    byes = [t[0] for r in plan[:3] for t in r if t[1] is None]
    field = names[1:] + ["New"]
    left = len(plan) - 3
    for number in range(left):
        made = all_against_all(field, met, left - number, byes)
        assert made is not None
        tables = [frozenset(t) for t in made.tables]
        assert not set(tables) & set(met)
        seated = [n for t in made.tables for n in t] + ([made.bye] if made.bye else [])
        assert sorted(seated) == sorted(field)
        if made.bye:
            counts = {n: byes.count(n) for n in field}
            assert counts[made.bye] == min(counts.values())
            byes.append(made.bye)
        met += tables


def test_all_against_all_says_none_when_every_plan_repeats():
    met = [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D")]
    assert all_against_all(["A", "B", "C", "D"], met, 2) is None
