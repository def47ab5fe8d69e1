"""The referee's fast paths against its slow ones, case by case: a pass that owes no wish
(answered in `judge` from four fixed verdicts) against the full ruling on a pass
(`_judge_pass` on the position the former way built it: `check_cards`, `replay_trick`,
`contains_rank`); the one reading of the cards (`read_cards`) against the count of every
card; a lone lead replayed at once against the replay of any trick; and a verdict's reason,
written when read, against the text and shape it had as a named tuple."""

import pickle
from dataclasses import replace

import pytest

from tichu_scorer.engine.cards import parse_cards
from tichu_scorer.engine.combos import contains_rank
from tichu_scorer.engine.questions import (
    Question,
    QuestionError,
    TrickPlay,
    _count_cards,
    question,
    read_cards,
    replay,
    replay_trick,
)
from tichu_scorer.engine.referee import _judge_pass, _Position, judge
from tichu_scorer.engine.verdict import DESCRIBED, Verdict
from tichu_scorer.game.house import HouseRules

OWNED = [[0, ["4j"]], [1, []], [2, []], [3, []]]  # seat 0's trick, back to seat 0


def _q(trick, hand=None, wish=None, seats=False, **options):
    """A pass on `trick` (card lists, or [seat, cards] with `seats`)."""
    plays = tuple(TrickPlay(parse_cards(t[1]), t[0]) if seats else TrickPlay(parse_cards(t))
                  for t in trick)
    base = question([], hand=hand, wish=wish, **options)
    return replace(base, trick=plays)


# (question, the rule the pass gets)
PASSES = [
    (_q([]), "H5"),                                              # the leader may not pass
    (_q([], hand=["8s", "Kj"]), "H5"),
    (_q([], hand=["8s", "Kj"], wish="9"), "H5"),                 # a wish the hand cannot meet
    (_q([["4j"]]), "H5"),
    (_q([["4j"]], hand=["8s", "Kj"]), "H5"),
    (_q([["4j"]], hand=["8s", "Kj"], wish="9"), "H5"),           # no 9: nothing owed
    (_q([["4j"]], wish="8"), "H5"),                              # no hand given
    (_q([["4j"]], hand=["PH", "Kj"], wish="8"), "H5"),           # the Phoenix is no 8 ([W4])
    (_q([["4j"]], out_of_turn=True), "B4"),
    (_q([], out_of_turn=True), "B4"),
    (_q([["4j"]], hand=["8s"], wish="8", out_of_turn=True), "B4"),
    (_q(OWNED, seats=True, seat=0), "H6"),
    (_q(OWNED, seats=True, seat=0, hand=["9s"], wish="8"), "H6"),
    (_q(OWNED, seats=True, seat=1), "H5"),                       # not the owner
    (_q(OWNED, seats=True), "H5"),                               # no seat given
    (_q([["DOG"]]), "H5"),
    (_q([["3j", "4s", "5p", "6t", "7j"]], hand=["5j", "6s", "9t"], wish="A"), "H5"),
    (_q([["4j"]], hand=["8s", "Kj"], wish="8", variant="threechu", dummy=True), "T3.3"),
    # with the wished rank held: the slow path itself
    (_q([["4j"]], hand=["8s", "Kj"], wish="8"), "W2"),
    (_q([["9j"]], hand=["8s", "Kj"], wish="8"), "W3"),
    (_q(OWNED, seats=True, seat=0, hand=["8s"], wish="8"), "H6"),
    (_q([], hand=["8s"], wish="8"), "H5"),
    (_q([["4j"]], hand=["8s", "Kj"], wish="8", variant="seigneur"), "W2"),
    (_q([["4j"]], hand=["8s", "Kj"], wish="8", house=HouseRules(wish_penalty=False)), "W2"),
]


def _slow_position(q: Question) -> _Position:
    """The position as the referee built it before its fast paths."""
    top, owner = replay_trick(q)
    held = q.hand is not None and q.wish is not None and contains_rank(q.hand, q.wish)
    gathering = top is not None and not q.out_of_turn and q.seat is not None and owner == q.seat
    return _Position(q, q.table, top, held, gathering, None)


@pytest.mark.parametrize("q, rule", PASSES)
def test_a_pass_gets_the_slow_paths_verdict(q, rule):
    fast, slow = judge(q), _judge_pass(_slow_position(q))
    assert fast == slow and fast.rule == rule
    assert fast.as_dict() == slow.as_dict() and fast.reason == slow.reason


# questions whose cards are checked: (question, the refused field or None)
CARDS = [
    (question(["5j"], hand=["5j", "6s"]), None),
    (question(["5j", "5j"], hand=["5j", "6s"]), "play"),
    (question(["5j"], hand=["5j", "5j"]), "hand"),
    (question(["7s"], hand=["5j", "6s"]), "play"),
    (question(["5j"], [["5j"]], hand=["5j"]), "hand"),
    (question(["5j"], [["6s"], ["6s"]]), "trick"),
    (question(["5j"], [["6s"], ["7s"]], hand=["5j", "7s"]), "hand"),
    (question(["5j", "5j"]), "play"),
    (question(["DOG"], variant="seigneur"), "play"),
    (question(["5j", "5j"], hand=["5j", "5j", "6s"], variant="seigneur", decks=2), None),
    (question(["5j", "5j"], hand=["5j", "6s"], variant="seigneur", decks=2), "play"),
    (question(["5j"], [["5j"], ["6j"]], hand=["5j"], variant="seigneur", decks=2), None),
    (question(["5j"], hand=["5j", "8s"], wish="8"), None),
    (question(["5j"], hand=["5j"], seat=12), "seat"),
]


def _slow_check(q: Question) -> bool:
    """Every card counted, then the seat; whether the hand holds the wished rank."""
    _count_cards(q)
    if q.seat is not None and not 0 <= q.seat <= 11:
        raise QuestionError("seat", "seat must be a number from 0 to 11.")
    return q.hand is not None and q.wish is not None and contains_rank(q.hand, q.wish)


@pytest.mark.parametrize("q, field", CARDS)
def test_one_reading_of_the_cards_refuses_as_the_count_does(q, field):
    try:
        expected = _slow_check(q)
    except QuestionError as exc:
        with pytest.raises(QuestionError) as got:
            read_cards(q)
        assert (got.value.field, got.value.message) == (exc.field, exc.message) \
            and exc.field == field
    else:
        assert field is None and read_cards(q) == expected


@pytest.mark.parametrize("trick", [
    [["4j"]], [["PH"]], [["DR"]], [["9j", "9s", "PH", "5p", "5t"]],
    [["4j", "5j", "6j", "7j", "8j"]],
    [["3j", "4s", "5p", "6t", "PH"]], [["5j", "5s", "PH"]],
])
def test_a_lone_lead_is_replayed_as_any_trick(trick):
    q = question([], trick)
    lone = replay(q.trick, q.table)
    again = replay(q.trick + (TrickPlay(()),), q.table)  # (the general loop: a pass after it)
    assert lone == again


def test_a_verdicts_reason_reads_as_the_named_tuples_did():
    v = Verdict(False, "C1", lambda: "Not higher.", judge(question(["4j"], [["9s"]])).combination,
                None, DESCRIBED)
    assert v.reason == v[2] == "Not higher." and v.reading == "single 4" == v[5]
    assert list(v) == [False, "C1", "Not higher.", v.combination, None, "single 4", None]
    assert v == Verdict(False, "C1", "Not higher.", v.combination, None, "single 4")
    assert hash(v) == hash(tuple(v)) and "Not higher." in v and len(v) == 7
    assert v._replace(rule="C2").rule == "C2" and v._asdict()["reason"] == "Not higher."
    assert repr(v).startswith("Verdict(legal=False, rule='C1', reason='Not higher.'")
    assert pickle.loads(pickle.dumps(v)) == v == Verdict._make(list(v))
    match v:
        case Verdict(legal=False, rule=rule, reason=reason):
            assert (rule, reason) == ("C1", "Not higher.")
        case _:
            pytest.fail("a verdict matches by its fields")
