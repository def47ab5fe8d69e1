"""§7: scoring a hand ([P1]–[P5]), one data line per case."""

import pytest

from tichu_scorer.scoring import Call, HandInput, InvalidHand, full_out_order, is_sweep, score_hand

T, G = Call.TICHU, Call.GRAND


def hand(out, calls=None, points=(None, None), wish=None):
    return HandInput(out_order=tuple(out), calls=calls or {}, card_points=points,
                     wish_offender=wish)


@pytest.mark.parametrize("rule, h, scores, card, sweep", [
    # [P1] card points, the other team derived as 100 − x
    ("P1", hand([0, 1], points=(60, None)), (60, 40), (60, 40), False),
    ("P1", hand([1, 0], points=(None, 35)), (65, 35), (65, 35), False),
    ("P1", hand([1, 0], points=(-25, 125)), (-25, 125), (-25, 125), False),
    ("P1", hand([3, 2, 1], points=(125, -25)), (125, -25), (125, -25), False),
    ("P1", hand([0, 1], points=(0, 100)), (0, 100), (0, 100), False),
    # [P2] double victory: 200 / 0, card points ignored
    ("P2", hand([0, 2], points=(40, 60)), (200, 0), (200, 0), True),
    ("P2", hand([3, 1]), (0, 200), (0, 200), True),
    ("P2", hand([2, 0, 1, 3]), (200, 0), (200, 0), True),
    # [P3] calls: only the caller's own first place counts
    ("P3", hand([0, 1], {0: T}, (50, 50)), (150, 50), (50, 50), False),
    ("P3", hand([1, 0], {0: T}, (50, 50)), (-50, 50), (50, 50), False),
    ("P3", hand([0, 1], {0: G}, (50, 50)), (250, 50), (50, 50), False),
    ("P3", hand([1, 0], {0: G}, (50, 50)), (-150, 50), (50, 50), False),
    # double victory with the partner's call lost: partner went out second
    ("P3", hand([0, 2], {2: T}), (100, 0), (200, 0), True),
    ("P3", hand([0, 2], {0: T, 2: G}), (100, 0), (200, 0), True),
    # both partners calling, one makes it
    ("P3", hand([2, 1, 0], {0: T, 2: T}, (30, 70)), (30, 70), (30, 70), False),
    # all four calling
    ("P3", hand([1, 0, 2], {0: T, 1: G, 2: T, 3: T}, (45, 55)), (-155, 155), (45, 55), False),
    ("P3", hand([1, 3], {0: G, 1: T, 2: T, 3: G}), (-300, 100), (0, 200), True),
    # opponent's call fails on a double victory
    ("P3", hand([0, 2], {1: T}), (200, -100), (200, 0), True),
    # [P4] wish penalty: opponents 200, offender's team 0, calls still by out-order
    ("P4", hand([0, 1], {}, (80, 20), wish=0), (0, 200), (0, 200), False),
    ("P4", hand([0, 2], {}, wish=2), (0, 200), (0, 200), False),
    ("P4", hand([1], {1: T}, wish=0), (0, 300), (0, 200), False),
    ("P4", hand([1], {0: T}, wish=1), (100, 0), (200, 0), False),
    # a stopped hand: nobody out yet, every call fails
    ("P4", hand([], {0: T, 3: G}, wish=3), (100, -200), (200, 0), False),
    ("P4", hand([], {}, wish=1), (200, 0), (200, 0), False),
])
def test_hand_scores(rule, h, scores, card, sweep):
    result = score_hand(h)
    assert result.team_scores == scores, rule
    assert result.card_points == card, rule
    assert result.sweep == sweep, rule
    # [P5] a team's score is its card points plus its call results
    for team in (0, 1):
        calls = sum(c.points for c in result.calls if c.seat % 2 == team)
        assert result.team_scores[team] == result.card_points[team] + calls


def test_call_results_name_each_caller():
    result = score_hand(hand([2, 1, 0], {0: T, 2: G}, (30, 70)))
    assert [(c.seat, c.call, c.made, c.points) for c in result.calls] == [
        (0, T, False, -100), (2, G, True, 200)]


@pytest.mark.parametrize("h, rules", [
    (hand([0, 1], points=(33, None)), ["P1"]),
    (hand([0, 1], points=(130, None)), ["P1"]),
    (hand([0, 1], points=(-30, None)), ["P1"]),
    (hand([0, 1], points=(50, 45)), ["P1"]),
    (hand([0, 1], points=(None, None)), ["P1"]),
    (hand([0, 1], points=(131, -31)), ["P1", "P1", "P1", "P1"]),
    (hand([0, 0], points=(50, 50)), ["H7"]),
    (hand([0, 4], points=(50, 50)), ["H1"]),
    (hand([], points=(50, 50)), ["H7"]),
    (hand([0, 1], {5: T}, (50, 50)), ["H1"]),
    (hand([0, 1], {}, (50, 50), wish=9), ["P4"]),
    (hand([0, 0, 9], {7: G}, (33, 33), wish=-1), ["H1", "H7", "H1", "P4"]),
    (hand([0, 0, 9], {7: G}, (33, 33)), ["H1", "H7", "H1", "P1", "P1", "P1"]),
])
def test_refusals_report_every_problem(h, rules):
    with pytest.raises(InvalidHand) as exc:
        score_hand(h)
    assert [p.rule for p in exc.value.problems] == rules
    assert all(p.message for p in exc.value.problems)


def test_card_points_ignored_when_not_counted():
    # [P2] double victory and [P4] wish penalty: no cards are counted, so no P1 problem
    assert score_hand(hand([0, 2], points=(33, 12))).team_scores == (200, 0)
    assert score_hand(hand([0, 1], points=(33, 12), wish=1)).team_scores == (200, 0)


@pytest.mark.parametrize("out, full", [
    ((0, 1, 2), (0, 1, 2, 3)), ((3, 1, 0), (3, 1, 0, 2)), ((0, 1), (0, 1)), ((), ()),
])
def test_tailender_is_derived(out, full):
    assert full_out_order(out) == full


@pytest.mark.parametrize("out, sweep", [
    ((0, 2), True), ((1, 3), True), ((0, 1), False), ((0,), False), ((0, 0), False), ((), False),
])
def test_double_victory_needs_partners_first_and_second(out, sweep):
    assert is_sweep(out) is sweep
