"""The referee: judges one disputed play in its context and cites the deciding rule.

The question (its parsing and its errors) lives in `questions`; here a possible question
gets its verdict in three parts: a pass, the reading of a play against the table, and
the wish ([W1]–[W5], [H6], [T3.3]). Each ruling decides its rule at once; the sentence
that explains it (`reasons`) is written when the verdict's reason is read (`verdict`).

>>> q = question(trick=[["DR"]], play=["PH"])
>>> v = judge(q); (v.legal, v.rule)
(False, 'S4')
>>> v = judge(question(trick=[["4j"]], play=["5s"], hand=["5s", "8t", "PH"], wish="8"))
>>> (v.legal, v.rule, v.fulfilling_play)
(False, 'W2', (8t,))
>>> bomb = ["9j", "9s", "9p", "9t"]
>>> v = judge(question(bomb, hand=bomb + ["8s"], wish="8"))  # leading: no W5 exemption
>>> (v.legal, v.rule, v.fulfilling_play)
(False, 'W2', (8s,))

Under the house rule `[R5]` a lawful Dragon also says what becomes of the trick it wins:
kept by a player who goes out with it, else given away ([S6]). Under the rule book the
verdict says nothing of it:

>>> from tichu_scorer.game.house import HouseRules
>>> r5 = HouseRules(dragon_kept_when_out=True)
>>> judge(question(["DR"], [["Aj"]], hand=["DR"], house=r5)).dragon_gift
DragonGift(given_away=False, rule='R5')
>>> judge(question(["DR"], [["Aj"]], hand=["DR", "3s"], house=r5)).dragon_gift
DragonGift(given_away=True, rule='S6')
>>> judge(question(["DR"], [["Aj"]], hand=["DR", "3s"])).dragon_gift is None
True
"""

from __future__ import annotations

from typing import NamedTuple, cast

from ..game.i18n import N_, _
from .budget import Budget, OutOfTime
from .cards import DRAGON, PH, Card, rank_text
from .combos import PASS, Combination, Kind, beats, contains_rank, on_table, readings
from .names import card_names
from .plays import Table
from .questions import (
    TABLE_OF,
    VARIANTS,
    Question,
    QuestionError,
    TrickPlay,
    check_cards,
    copies_allowed,
    parse_question,
    question,
    read_cards,
    replay,
)
from .reasons import (
    dragon_gift,
    joined,
    legal_rule,
    not_a_combination,
    owed,
    pass_refused,
    why_not,
)
from .verdict import DESCRIBED, DragonGift, Prose, Verdict
from .wish import wish_play

_new = tuple.__new__
_SINGLE, _BOMB = Kind.SINGLE, Kind.BOMB


def _prose(text: str) -> Prose:
    return lambda: _(text)


# The verdicts on a pass that owes no wish ([H5], [H6], [B4]): the same every time, their
# reasons translated when read.
_NOT_BOMBING = Verdict(True, "B4", _prose(N_("Not throwing a bomb is always allowed.")), PASS)
_LEADER_PASSES = Verdict(False, "H5", _prose(N_("The leader of a trick may not pass.")), PASS)
_GATHERS = Verdict(True, "H6", _prose(N_(
    "Everyone else passed: the trick's owner gathers it and leads; he may, but need not, bomb "
    "his own trick.")), PASS)
_PASSES = Verdict(True, "H5", _prose(N_("A player may pass and still play later in this trick.")),
                  PASS)


class _Position(NamedTuple):
    """The question with its trick replayed: what the player owes now."""

    q: Question
    table: Table
    top: Combination | None
    held_wish: bool  # the hand holds a natural card of the wished rank ([W4]: not the Phoenix)
    gathering: bool  # [H6]: everyone else passed and the trick's owner is asked
    budget: Budget | None  # the CPU allowance of the wish search

    def obliged(self) -> tuple[Card, ...] | None:
        """[W2]: a play fulfilling the wish when one is owed now, else None. Nothing is owed
        out of turn ([W5]), by the Threechu dummy ([T3.3]), or by an owner gathering ([H6])."""
        q = self.q
        if q.hand is None or q.wish is None or q.out_of_turn or q.dummy or self.gathering \
                or not self.held_wish:
            return None
        return wish_play(q.hand, q.wish, self.top, self.table, self.budget)


def _judge_pass(p: _Position) -> Verdict:
    """A pass ([H5]), an owner gathering ([H6]), or a pass the wish forbids ([W2]). `judge`
    answers a pass that owes no wish itself, as this does (tests/engine/test_fast_paths.py)."""
    q = p.q
    if q.out_of_turn:
        return _NOT_BOMBING
    if p.top is None:
        return _LEADER_PASSES
    wish = q.wish or 0
    if p.gathering:
        if not p.held_wish:
            return _GATHERS
        return Verdict(True, "H6", lambda: _GATHERS.reason + " " + _(
            "Gathering is not a pass: the wish for {rank}s is owed on his lead.").format(
                rank=rank_text(wish)), PASS)
    must = p.obliged()
    if must:
        return Verdict(False, "W2", pass_refused(wish, must, q.game, q.house), PASS, must)
    if p.held_wish and q.dummy:
        return Verdict(True, "T3.3", _prose(N_("The dummy never has to fulfil the wish.")),
                       PASS)
    if p.held_wish:
        return Verdict(True, "W3", lambda: _("The hand holds the wished {rank} but no lawful "
                                             "combination with it, so it may pass.").format(
                                                 rank=rank_text(wish)), PASS)
    return _PASSES


def _read_play(q: Question, table: Table, top: Combination | None,
               gathering: bool) -> Combination | Verdict:
    """The play as it lies on the table once played, or the verdict on why it cannot be
    played now: no combination ([C*]), the named reading ([C9]), out of turn ([B4], [B5]),
    on one's own trick ([H6]), or not beating the table."""
    play = q.play
    options = readings(play, table.distinct_suit_fours)
    if not options:
        return Verdict(False, *not_a_combination(play))
    named_rank = q.phoenix_as
    if named_rank is not None and len(play) > 1 and PH in play:
        named = [c for c in options if c.phoenix_as == named_rank]
        if not named:
            return Verdict(False, "C9", lambda: _(
                "{cards} cannot be read with the Phoenix as {rank}.").format(
                    cards=card_names(play), rank=rank_text(named_rank)), options[0])
        options = named
    first = options[0]
    if q.out_of_turn:
        bombs = [c for c in options if c[0] is _BOMB]
        if not bombs:
            return Verdict(False, "B4", lambda: _(
                "Only a bomb may be played out of turn; this play is a {what}.").format(
                    what=first.describe()), first)
        if top is None:
            return Verdict(False, "B5", _prose(N_("A bomb may not be thrown out of turn on an "
                                               "empty table: the leader leads first.")),
                           bombs[0])
        options, first = bombs, bombs[0]
    if gathering and first[0] is not _BOMB:
        return Verdict(False, "H6", _prose(N_("Everyone else passed: the trick's owner may not "
                                           "play on his own trick except with a bomb; he "
                                           "gathers it and leads.")), first)
    if top is None:
        return first  # any reading leads, the highest first
    ddd = table.dragon_beats_dragon
    for c in options:
        if beats(c, top, ddd):
            return on_table(c, top)
    rule, why = why_not(first, top)
    return _new(Verdict, (False, rule, why, first, None, DESCRIBED, None))


def _wish_ruling(p: _Position, play: Combination
                 ) -> tuple[bool, str | None, Prose, tuple[Card, ...] | None]:
    """A lawful play with a wish in force: (legal, the deciding rule or None to keep the
    play's own, what the wish adds to the reason, the fulfilling play) — fulfilled ([W1]),
    exempt ([W5], [H6], [T3.3]), owed ([W2]), or not owed ([W3], [W4])."""
    q, top = p.q, p.top
    wish = q.wish or 0
    if contains_rank(q.play, wish):
        return True, "W1", lambda: _("It holds the wished {rank}: the wish is "
                                     "fulfilled.").format(rank=rank_text(wish)), None
    if q.out_of_turn:
        return True, "W5", _prose(N_("A bomb thrown out of turn never has to fulfil the wish.")), \
            None
    # [W5] a bomb that beats the table; the owner's bomb on his own trick ([H6]) even under
    # the strict house rule, since gathering is not a pass and no wish is owed before his lead
    if play.is_bomb and top is not None and (p.gathering or not p.table.strict_wish):
        return True, "W5", _prose(N_("A bomb never has to fulfil the wish; it stays in force.")), \
            None
    if q.dummy:
        return True, "T3.3", _prose(N_("The dummy never has to fulfil the wish.")), None
    hand = q.hand
    if hand is None:
        return True, None, lambda: _("(Give the hand to check the wish for {rank}s.)").format(
            rank=rank_text(wish)), None
    must = p.obliged()
    if must:
        return False, "W2", owed(play, top, wish, must, q.game, q.house), must
    if p.held_wish:
        return True, "W3", lambda: _("The hand holds the wished {rank} but no lawful "
                                     "combination with it, so it may play anything.").format(
                                         rank=rank_text(wish)), None
    if PH in hand:
        return True, "W4", lambda: _("The Phoenix does not count as the wished {rank}.").format(
            rank=rank_text(wish)), None
    return True, "W3", lambda: _("The hand holds no {rank}.").format(rank=rank_text(wish)), None


def judge(q: Question, budget: Budget | None = None) -> Verdict:
    """The verdict on `q.play`; QuestionError when the question itself is impossible,
    OutOfTime when `budget` is spent first (checked here and in the wish search). The
    verdict's reason is written when it is read (`verdict`)."""
    if budget is not None:
        budget.check()
    held_wish = read_cards(q)
    table = TABLE_OF[q.variant, q.strict_wish]
    top, owner = replay(q.trick, table)
    gathering = top is not None and not q.out_of_turn and q.seat is not None \
        and owner == q.seat
    if not q.play and not held_wish:  # a pass that owes no wish ([W2] needs the wished rank)
        if q.out_of_turn:
            return _NOT_BOMBING
        if top is None:
            return _LEADER_PASSES
        return _GATHERS if gathering else _PASSES
    if not q.play:
        return _judge_pass(_new(_Position, (q, table, top, held_wish, gathering, budget)))
    read = _read_play(q, table, top, gathering)
    if read.__class__ is Verdict:
        return read
    play = cast(Combination, read)
    rule, reason = legal_rule(play, top, q.out_of_turn)
    fate = None
    if play[0] is _SINGLE and play[1] == DRAGON:
        gift = dragon_gift(q.game, q.house, q.hand, q.play)
        if gift is not None:
            fate, why = gift
            reason = joined(reason, why)
    if q.wish is None:
        return _new(Verdict, (True, rule, reason, play, None, DESCRIBED, fate))
    position = _new(_Position, (q, table, top, held_wish, gathering, budget))
    legal, wish_rule, note, must = _wish_ruling(position, play)
    if not legal:  # the reason is the wish's alone
        return _new(Verdict, (False, wish_rule or rule, note, play, must, DESCRIBED, None))
    return _new(Verdict, (True, wish_rule or rule, joined(reason, note), play, None, DESCRIBED,
                          fate))


__all__ = ["VARIANTS", "Budget", "DragonGift", "OutOfTime", "Question", "QuestionError",
           "TrickPlay", "Verdict", "check_cards", "copies_allowed", "judge", "parse_question",
           "question"]
