"""The referee on real table disputes: one data line per dispute, each citing its rule."""

from dataclasses import replace

import pytest

from tichu_scorer.engine import QuestionError, judge, parse_question, question
from tichu_scorer.engine.cards import parse_cards
from tichu_scorer.engine.referee import TrickPlay

# seat 0 led the 4 and everyone else passed: the trick is seat 0's to gather ([H6])
OWNED = [[0, ["4j"]], [1, []], [2, []], [3, []]]

# (rule, trick, play, hand, wish, options, legal)
DISPUTES = [
    # "Can the Phoenix go on the Dragon?"
    ("S4", [["DR"]], ["PH"], None, None, {}, False),
    ("S4", [["Aj"]], ["PH"], None, None, {}, True),
    ("S4", [["9j"], ["PH"]], ["10s"], None, None, {}, True),
    ("S4", [["9j"], ["PH"]], ["9s"], None, None, {}, False),
    ("S4", [["PH"]], ["MJ"], None, None, {}, False),
    ("S5", [["Aj"], ["PH"]], ["DR"], None, None, {}, True),
    ("S5", [["DR"]], ["Aj"], None, None, {}, False),
    # "Is 3-3-3-3-Phoenix a full house?"
    ("S7", [], ["3j", "3s", "3p", "3t", "PH"], None, None, {}, False),
    # "Can he bomb my Dog?"
    ("B5", [["DOG"]], ["5j", "5s", "5p", "5t"], None, None, {"out_of_turn": True}, False),
    ("S2", [["DOG"]], ["Aj"], None, None, {}, False),
    ("S2", [], ["DOG"], None, None, {}, True),
    ("S2", [["3j"]], ["DOG"], None, None, {}, False),
    # "You had an 8 — you had to play it!"
    ("W2", [["4j"]], [], ["8s", "Kj"], "8", {}, False),
    ("W2", [["4j"]], ["Kj"], ["8s", "Kj"], "8", {}, False),
    ("W1", [["4j"]], ["8s"], ["8s", "Kj"], "8", {}, True),
    ("W3", [["9j"]], [], ["8s", "Kj"], "8", {}, True),           # the 8 cannot beat a 9
    ("W3", [["9j"]], ["Kj"], ["7s", "Kj"], "8", {}, True),        # holds no 8
    ("W4", [["9j"]], ["Kj"], ["PH", "Kj"], "8", {}, True),        # the Phoenix is no 8
    ("W4", [["4j"]], ["PH"], ["PH", "Kj"], "8", {}, True),        # not fulfilled, still legal
    # the wish through a Phoenix-assisted straight
    ("W2", [["3j", "4s", "5p", "6t", "7j"]], [], ["5j", "6s", "PH", "8t", "9t", "2s"], "8", {},
     False),
    # the wish through a bomb: pass refused, the bomb is the fulfilling play
    ("W2", [["Aj"]], [], ["8j", "8s", "8p", "8t", "3s"], "8", {}, False),
    # ... or through a straight flush only
    ("W2", [["Aj"]], [], ["4p", "5p", "6p", "7p", "8p", "2s", "Kj"], "6", {}, False),
    ("W3", [["Aj"]], [], ["4p", "5p", "6p", "7p", "9p", "2s", "Kj"], "6", {}, True),
    # [T3.3] the Threechu dummy never has to fulfil the wish
    ("T3.3", [["4j"]], [], ["8s", "Kj"], "8", {"variant": "threechu", "dummy": True}, True),
    ("T3.3", [["4j"]], ["Kj"], ["8s", "Kj"], "8", {"variant": "threechu", "dummy": True}, True),
    # [W5] a bomb never has to fulfil the wish ... unless the strict house rule is chosen
    ("W5", [["4j"]], ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8", {}, True),
    ("W2", [["4j"]], ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8",
     {"strict_wish": True}, False),
    ("W5", [["4j"]], ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8",
     {"out_of_turn": True, "strict_wish": True}, True),
    # leading with the wish in force: the holder must lead it
    ("W2", [], ["Kj"], ["8s", "Kj"], "8", {}, False),
    ("W2", [], ["DOG"], ["8s", "DOG"], "8", {}, False),
    ("W1", [], ["8s", "8j"], ["8s", "8j"], "8", {}, True),
    # [H5] passing; the leader may not pass
    ("H5", [["4j"]], [], None, None, {}, True),
    ("H5", [], [], None, None, {}, False),
    # [H6] the owner of the trick may play on it only with a bomb
    ("H6", [[0, ["4j"]], [1, []], [2, []], [3, []]], ["5j"], None, None, {"seat": 0}, False),
    ("B3", [[0, ["4j"]], [1, []], [2, []], [3, []]], ["5j", "5s", "5p", "5t"], None, None,
     {"seat": 0}, True),
    # [H6] gathering is not a pass: the owner holding the wished 8 gathers, the wish is owed
    # on his lead (issue 11: it was refused under W2 while playing the 8 broke H6)
    ("H6", OWNED, [], ["8s", "Kj"], "8", {"seat": 0}, True),
    ("H6", OWNED, ["8s"], ["8s", "Kj"], "8", {"seat": 0}, False),
    ("H6", OWNED, [], ["8s", "Kj"], "8", {"seat": 0, "strict_wish": True}, True),
    # ... he may, not must, bomb his own trick; the bomb need not hold the wished rank
    ("H6", OWNED, [], ["8s", "9j", "9s", "9p", "9t"], "8", {"seat": 0}, True),
    ("H6", OWNED, [], ["8j", "8s", "8p", "8t"], "8", {"seat": 0}, True),
    ("W5", OWNED, ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8", {"seat": 0},
     True),
    ("W5", OWNED, ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8",
     {"seat": 0, "strict_wish": True}, True),
    ("W1", OWNED, ["8j", "8s", "8p", "8t"], ["8j", "8s", "8p", "8t"], "8", {"seat": 0}, True),
    # ... while another seat on the same trick still owes the wish
    ("W2", OWNED, [], ["8s", "Kj"], "8", {"seat": 1}, False),
    # [W2]/[W5] leading a bomb while holding the wished rank: W5 only exempts a bomb that
    # beats the table (issue 11: it was allowed)
    ("W2", [], ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8", {}, False),
    ("W2", [], ["2p", "3p", "4p", "5p", "6p"], ["8s", "2p", "3p", "4p", "5p", "6p"], "8", {},
     False),
    ("W1", [], ["4p", "5p", "6p", "7p", "8p"], ["8s", "4p", "5p", "6p", "7p", "8p"], "8", {},
     True),
    ("W3", [], ["9j", "9s", "9p", "9t"], ["7s", "9j", "9s", "9p", "9t"], "8", {}, True),
    ("T3.3", [], ["9j", "9s", "9p", "9t"], ["8s", "9j", "9s", "9p", "9t"], "8",
     {"variant": "threechu", "dummy": True}, True),
    # [B4] bombs out of turn, on one's own trick, and leading
    ("B4", [["Aj"]], ["2j", "2s", "2p", "2t"], None, None, {"out_of_turn": True}, True),
    ("B4", [["Aj"]], ["2j"], None, None, {"out_of_turn": True}, False),
    ("B4", [], ["2j", "2s", "2p", "2t"], None, None, {}, True),
    ("B5", [], ["2j", "2s", "2p", "2t"], None, None, {"out_of_turn": True}, False),
    # [B2]/[B3] bomb order
    ("B2", [["9j", "9s", "9p", "9t"]], ["2p", "3p", "4p", "5p", "6p"], None, None, {}, True),
    ("B2", [["2p", "3p", "4p", "5p", "6p"]], ["Aj", "As", "Ap", "At"], None, None, {}, False),
    ("B3", [["Aj", "As", "Ap", "At"]], ["DR"], None, None, {}, False),
    ("B3", [["DR"]], ["2j", "2s", "2p", "2t"], None, None, {}, True),
    # [B6] a straight flush is a bomb, so it beats any straight
    ("B3", [["9j", "10s", "Jp", "Qt", "Kj"]], ["2p", "3p", "4p", "5p", "6p"], None, None, {},
     True),
    # [C*] the kind and length must match
    ("C2", [["7j", "7s"]], ["8j", "8s", "8p"], None, None, {}, False),
    ("C6", [["3j", "4s", "5p", "6t", "7j"]], ["4j", "5s", "6p", "7t", "8s", "9s"], None, None,
     {}, False),
    ("C6", [["3j", "4s", "5p", "6t", "7j"]], ["4j", "5s", "PH", "7t", "8s"], None, None, {},
     True),
    ("C3", [["5j", "5s", "6p", "6t"]], ["7j", "7s", "8p", "PH"], None, None, {}, True),
    ("C5", [["9j", "9s", "9p", "2j", "2s"]], ["10j", "10s", "PH", "3j", "3s"], None, None, {},
     True),
    ("C7", [], ["5j", "5s", "8p", "8t"], None, None, {}, False),
    ("C8", [], ["MJ", "2s"], None, None, {}, False),
    ("S5", [], ["DR", "Aj"], None, None, {}, False),
    ("S1", [], ["MJ"], None, None, {}, True),
]


def _question(trick, play, hand, wish, options):
    items = []
    for item in trick:
        if item and isinstance(item[0], int):
            items.append(TrickPlay(parse_cards(item[1]), item[0]))
        else:
            items.append(TrickPlay(parse_cards(item)))
    q = question(play, [], hand, wish, **options)
    return replace(q, trick=tuple(items))


@pytest.mark.parametrize("rule, trick, play, hand, wish, options, legal", DISPUTES)
def test_dispute(rule, trick, play, hand, wish, options, legal):
    verdict = judge(_question(trick, play, hand, wish, options))
    assert (verdict.legal, verdict.rule) == (legal, rule), verdict.reason
    assert verdict.reason and verdict.reason[-1] in ".)"
    if verdict.rule == "W2":
        assert verdict.fulfilling_play
        assert judge(_question(trick, [repr(c) for c in verdict.fulfilling_play], hand, wish,
                               options)).legal
        assert "P4" in verdict.reason  # [W6] a missed wish is penalised in scoring


@pytest.mark.parametrize("variant, cost", [
    ("nanking", "the other team scores 200 card points, the offender's 0; calls still count"),
    ("threechu", "the other team scores 200 card points"),
    ("tientsin", "the other team scores 300 card points"),  # [T6.6] the triple victory
    ("seigneur", "it costs nothing: Grand Seigneur keeps no score (W6, GS1)")])
@pytest.mark.parametrize("play", [[], ["Kj"]])
def test_a_missed_wish_says_what_it_costs(variant, cost, play):
    """[W6]: the refusal says in words what the penalty [P4] is in this game."""
    verdict = judge(question(play, [["4j"]], ["8s", "Kj"], "8", variant=variant))
    assert verdict.rule == "W2" and cost in verdict.reason, verdict.reason


def test_reading_is_described():
    v = judge(question(["4j", "5s", "PH", "7t", "8t"], [["3j", "4s", "5p", "6t", "7j"]]))
    assert v.combination.describe() == "straight 4–8, Phoenix as 6"
    assert v.as_dict()["combination"] == {"kind": "straight", "rank": "8", "length": 5,
                                          "phoenix_as": "6"}


@pytest.mark.parametrize("kwargs, field", [
    ({"play": ["5j", "5j"]}, "play"),
    ({"play": ["5j"], "hand": ["6j"]}, "play"),
    ({"play": ["5j"], "trick": [["5j"]]}, "hand"),
    ({"play": ["6j"], "trick": [["5j"], ["4j"]]}, "trick"),
    ({"play": ["6j"], "trick": [[]]}, "trick"),
    ({"play": ["6j"], "trick": [["5j", "7j"]]}, "trick"),
    ({"play": ["6j"], "trick": [["DOG"], ["7j"]]}, "trick"),
])
def test_impossible_questions(kwargs, field):
    with pytest.raises(QuestionError) as exc:
        judge(question(**kwargs))
    assert exc.value.field == field


@pytest.mark.parametrize("trick, play, rank, phoenix_as", [
    # both readings beat fours full: the higher one, nines full, is reported
    (["4j", "4s", "4p", "2j", "2s"], ["9j", "9s", "5p", "5t", "PH"], 9, 9),
    # on eights full only nines full beats: one legal reading makes the play legal
    (["8j", "8s", "8p", "4j", "4s"], ["9j", "9s", "5p", "5t", "PH"], 9, 9),
    # the Phoenix completes 4–7 at either end; only 4–8 beats the straight 3–7
    (["3j", "4s", "5p", "6t", "7j"], ["4j", "5s", "6p", "7t", "PH"], 8, 8),
])
def test_c9_a_play_is_legal_when_any_reading_is(trick, play, rank, phoenix_as):
    """[C9]: legal if any reading is legal now; the highest legal reading is reported."""
    verdict = judge(question(play, [trick]))
    assert verdict.legal, verdict.reason
    assert (verdict.combination.rank, verdict.combination.phoenix_as) == (rank, phoenix_as)


@pytest.mark.parametrize("named, legal, rank", [(None, True, 9), (9, True, 9), (5, False, 5),
                                                (7, False, None)])
def test_c9_the_reading_the_player_names(named, legal, rank):
    # 9-9-5-5-PH on eights full: legal as nines full; named as fives full it is not
    v = judge(question(["9j", "9s", "5p", "5t", "PH"], [["8j", "8s", "8p", "4j", "4s"]],
                       phoenix_as=named))
    assert v.legal is legal
    if rank is not None:
        assert v.combination.rank == rank
    else:
        assert v.rule == "C9"


# --- the API's body read (`parse_question`; through HTTP: tests/views/test_api_referee.py) ---

@pytest.mark.parametrize("trick", [{"cards": []}, [{"cards": []}] * 201])
def test_a_trick_that_is_no_list_of_plays_is_refused_naming_it(trick):
    with pytest.raises(QuestionError) as exc:
        parse_question({"play": ["6j"], "trick": trick})
    assert exc.value.field == "trick"


def test_a_flag_sent_as_null_is_false():
    asked = parse_question({"play": ["6j"], "out_of_turn": None, "strict_wish": None,
                            "dummy": None})
    assert (asked.out_of_turn, asked.strict_wish, asked.dummy) == (False, False, False)
    with pytest.raises(QuestionError) as exc:
        parse_question({"play": ["6j"], "out_of_turn": 0})
    assert exc.value.field == "out_of_turn"
