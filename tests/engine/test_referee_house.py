"""The referee under house rules (RULES.md §10.1): `[R5]` decides what becomes of the trick
a lawful Dragon wins; `[R8]` and `[R3]` what a missed wish costs. Legality never changes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.engine import QuestionError, judge, parse_question, question
from tichu_scorer.engine.cards import DECK
from tichu_scorer.engine.referee import DragonGift
from tichu_scorer.game.house import RULE_BOOK, HouseRules

R5 = HouseRules(dragon_kept_when_out=True)


# (trick, play, hand, house rules, variant, the Dragon's gift)
GIFTS = [
    ([["Aj"]], ["DR"], ["DR", "3s"], RULE_BOOK, "nanking", None),  # the rule book: as before
    ([["Aj"]], ["DR"], ["DR"], RULE_BOOK, "nanking", None),
    ([], ["DR"], ["DR"], R5, "nanking", DragonGift(False, "R5")),  # led as the last card
    ([["Aj"], ["PH"]], ["DR"], ["DR"], R5, "nanking", DragonGift(False, "R5")),
    ([["Aj"]], ["DR"], ["DR", "3s"], R5, "nanking", DragonGift(True, "S6")),  # not the last
    ([["Aj"]], ["DR"], None, R5, "nanking", DragonGift(None, "R5")),  # hand unknown
    ([["Aj"]], ["DR"], ["DR"], R5, "tientsin", DragonGift(False, "R5")),
    ([["Aj"]], ["DR"], ["DR"], R5, "threechu", DragonGift(False, "R5")),
    ([["Aj"]], ["DR"], ["DR"], R5, "seigneur", None),  # [GS1]: no points, no gift
    ([["9j"]], ["Kj"], ["Kj"], R5, "nanking", None),  # not the Dragon
]


@pytest.mark.parametrize("trick, play, hand, rules, variant, gift", GIFTS)
def test_r5_the_dragons_trick_is_kept_by_a_player_going_out_with_it(trick, play, hand, rules,
                                                                      variant, gift):
    verdict = judge(question(play, trick, hand=hand, house=rules, variant=variant))
    assert verdict.dragon_gift == gift
    assert verdict.legal and verdict.rule == ("S5" if play == ["DR"] else "C1")
    if gift is not None:
        assert gift.rule in verdict.reason
        assert verdict.as_dict()["dragon_gift"] == gift.as_dict()
    else:
        assert "dragon_gift" not in verdict.as_dict()


def test_an_unlawful_dragon_says_nothing_of_a_gift():
    verdict = judge(question(["DR"], [["9j", "9s", "9p", "9t"]], hand=["DR"], house=R5))
    assert (verdict.legal, verdict.rule, verdict.dragon_gift) == (False, "B3", None)


def test_r5_with_a_wish_keeps_the_wish_and_the_gift():
    verdict = judge(question(["DR"], [["Aj"]], hand=["DR"], wish="8", house=R5))
    assert (verdict.legal, verdict.rule, verdict.dragon_gift) == (True, "W3",
                                                                   DragonGift(False, "R5"))
    assert "R5" in verdict.reason and "8" in verdict.reason


@pytest.mark.parametrize("rules, words", [
    (RULE_BOOK, "the other team scores 200 card points"),
    (HouseRules(double_victory_points=100), "the other team scores 100 card points"),
    (HouseRules(wish_penalty=False), "R8"),
])
def test_the_cost_of_a_missed_wish_follows_r3_and_r8(rules, words):
    verdict = judge(question([], [["4j"]], hand=["8s", "Kj"], wish="8", house=rules))
    assert (verdict.legal, verdict.rule) == (False, "W2") and words in verdict.reason


def test_the_body_names_its_house_rules():
    body = {"play": ["DR"], "hand": ["DR"], "house_rules": {"dragon_kept_when_out": True}}
    assert parse_question(body).house == R5
    assert parse_question(body | {"house_rules": {}}).house == RULE_BOOK
    with pytest.raises(QuestionError) as caught:
        parse_question(body | {"house_rules": {"dragon_kept": True}})
    assert caught.value.field == "house_rules.dragon_kept" and "R1" in caught.value.message
    with pytest.raises(QuestionError) as caught:
        parse_question(body | {"house_rules": {"dragon_kept_when_out": "yes"}})
    assert caught.value.field == "house_rules.dragon_kept_when_out"
    assert "(R5)" in caught.value.message


CARDS = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)


@settings(max_examples=200, deadline=None)
@given(CARDS, st.lists(st.sampled_from(DECK), max_size=5, unique=True), st.booleans(),
       st.booleans())
def test_house_rules_change_no_verdict_but_the_dragons_gift(held, top, kept, dragon):
    """Legality, rule and reading are the rule book's under any house rules; only a lawful
    Dragon's gift (and what a missed wish costs) differ."""
    hand = [repr(c) for c in held]
    if dragon:  # the Dragon is played (half the cases)
        hand = ["DR", *(c for c in hand if c != "DR")]
    trick = [[repr(c) for c in top if c not in held]] if top else []
    plain = question(hand[:1], [t for t in trick if t], hand=hand)
    try:
        book = judge(plain)
    except QuestionError:
        return
    house = judge(replace(plain, house=HouseRules(dragon_kept_when_out=kept,
                                                  grand_tichu=False, victory_points=True)))
    assert (house.legal, house.rule, house.combination) == (book.legal, book.rule,
                                                            book.combination)
    assert book.dragon_gift is None  # the rule book's verdicts carry no gift
    dragon = house.combination is not None and house.combination.kind.name == "SINGLE" and (
        hand[0] == "DR")
    if not (kept and house.legal and dragon):
        assert house == book
    else:
        last = len(hand) == 1
        assert house.dragon_gift == (DragonGift(False, "R5") if last
                                     else DragonGift(True, "S6"))
