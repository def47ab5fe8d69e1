"""Ratings (`tichu_scorer.ratings`): OpenSkill over the matches' outcomes, every variant."""

from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN
from tichu_scorer.ratings import Outcome, outcome_of, outcome_of_state, rate
from tichu_scorer.scoring.hand import HandInput
from tichu_scorer.scoring.state import MatchState, Settings

FOUR = Settings(NANKING, ("Ann", "Bob", "Cy", "Dee"))


def by_name(rated):
    return {p.name: p for p in rated}


def test_a_team_that_keeps_winning_rises_and_the_losers_fall():
    won = outcome_of(FOUR, (1000, 300), 0)
    assert won.sides == (("Ann", "Cy"), ("Bob", "Dee")) and won.places == (1, 2)
    rated = by_name(rate([won] * 5))
    ann, bob = rated["Ann"], rated["Bob"]
    assert [value for _n, value in ann.history] == sorted(v for _n, v in ann.history)
    assert [value for _n, value in bob.history] == sorted((v for _n, v in bob.history),
                                                          reverse=True)
    assert ann.mu > 25 > bob.mu and ann.change > 0 > bob.change
    assert ann.matches == 5 and len(ann.history) == 5
    assert (ann.mu, ann.sigma) == (rated["Cy"].mu, rated["Cy"].sigma)  # partners share it


def test_uncertainty_shrinks_with_every_match():
    rated = rate([outcome_of(FOUR, (1000, 300), i % 2) for i in range(6)])
    ann = by_name(rated)["Ann"]
    sigmas = []
    for n in range(1, 7):
        sigmas.append(by_name(rate([outcome_of(FOUR, (1000, 300), i % 2)
                                     for i in range(n)]))["Ann"].sigma)
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[0] < 25 / 3
    assert ann.sigma == sigmas[-1]


def test_the_stored_winner_decides_first_place_not_the_totals():
    # [E2]-like: a team game's winner is what the match stored, whatever the totals say
    assert outcome_of(FOUR, (1000, 1000), 1).places == (2, 1)


def test_tientsin_rates_teams_of_three():
    six = Settings(TIENTSIN, tuple("ABCDEF"))
    outcome = outcome_of(six, (200, 1000), 1)
    assert outcome.sides == (("A", "C", "E"), ("B", "D", "F")) and outcome.places == (2, 1)
    rated = by_name(rate([outcome]))
    assert all(rated[n].mu > 25 for n in "BDF") and all(rated[n].mu < 25 for n in "ACE")


def test_threechu_rates_the_three_players_and_never_the_dummy():
    three = Settings(THREECHU, ("Ann", "Bob", "Cy", "Dummy"), None, 3)
    state = MatchState.of(three, [HandInput((0, 1, 2, 3), {}, (60, 40))] * 3)
    outcome = outcome_of_state(state, "k")
    assert state.finished and len(outcome.sides) == 3
    assert "Dummy" not in {n for side in outcome.sides for n in side}
    # places follow the players' totals (a shared total is a shared place)
    totals = [state.totals[i] for i in range(3)]
    for (name,), place in zip(outcome.sides, outcome.places, strict=True):
        seat = three.names.index(name)
        assert place == 1 + sum(1 for t in totals if t > state.totals[seat])
    assert "Dummy" not in by_name(rate([outcome]))


def test_grand_seigneur_finishing_order_is_respected():
    five = Settings(SEIGNEUR, ("A", "B", "C", "D", "E"))
    state = MatchState.of(five, [HandInput((4, 3, 2, 1), {}, (None, None))] * 3)
    outcome = outcome_of_state(state)
    assert dict(zip((s[0] for s in outcome.sides), outcome.places, strict=True)) == \
        {"E": 1, "D": 2, "C": 3, "B": 4, "A": 5}
    rated = rate([outcome] * 3)
    assert [p.name for p in rated] == ["E", "D", "C", "B", "A"]
    assert rated[0].mu > rated[1].mu > rated[2].mu > rated[3].mu > rated[4].mu


def test_a_corrected_past_match_changes_the_ratings():
    history = [outcome_of(FOUR, (1000, 300), 0), outcome_of(FOUR, (1000, 300), 0),
               outcome_of(FOUR, (1000, 400), 1)]
    corrected = [outcome_of(FOUR, (300, 1000), 1), *history[1:]]
    before, after = by_name(rate(history)), by_name(rate(corrected))
    assert after["Ann"].mu < before["Ann"].mu and after["Bob"].mu > before["Bob"].mu
    assert rate(history) == rate(list(history))  # recomputed the same from the same history


def test_nothing_to_rate():
    assert rate([]) == [] and rate([None]) == []
    assert outcome_of_state(MatchState.of(Settings(SEIGNEUR, tuple("ABCDE")), [])) is None
    assert rate([Outcome("x", (("Ann",), ("Ann",)), (1, 2))]) == []  # one player alone
