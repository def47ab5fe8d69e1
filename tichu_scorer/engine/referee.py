"""The referee: judges one disputed play in its context and cites the deciding rule.

The question (its parsing and its errors) lives in `questions`; here a possible question
gets its verdict in three parts: a pass, the reading of a play against the table, and
the wish ([W1]–[W5], [H6], [T3.3]).

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

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..game.i18n import _
from .budget import Budget, OutOfTime
from .cards import DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, Card, rank_text
from .combos import KIND_RULE, PASS, Combination, Kind, beats, contains_rank, on_table, readings
from .names import card_names
from .questions import (
    VARIANTS,
    Question,
    QuestionError,
    TrickPlay,
    check_cards,
    copies_allowed,
    parse_question,
    question,
    replay_trick,
)
from .wish import wish_play

_new = tuple.__new__


class DragonGift(NamedTuple):
    """What becomes of the trick a lawful Dragon wins: given to an opponent ([S6]), or kept
    by a player who goes out with it ([R5]); `given_away` is None when that depends on
    whether the Dragon is the player's last card (the hand was not given)."""

    given_away: bool | None
    rule: str

    def as_dict(self) -> dict[str, object]:
        return {"given_away": self.given_away, "rule": self.rule}


class Verdict(NamedTuple):
    """The referee's answer: legal or not, the deciding rule and the reason (immutable; a
    named tuple because one is built per question)."""

    legal: bool
    rule: str
    reason: str
    combination: Combination | None = None
    fulfilling_play: tuple[Card, ...] | None = None
    reading: str | None = None  # the combination described, when the reason already did
    dragon_gift: DragonGift | None = None  # a lawful Dragon: its trick's fate ([S6], [R5])

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "legal": self.legal, "rule": self.rule, "reason": self.reason,
            "combination": self.combination.as_dict() if self.combination else None}
        if self.combination is not None:
            out["reading"] = self.reading or self.combination.describe()
        if self.fulfilling_play is not None:
            out["fulfilling_play"] = [repr(c) for c in self.fulfilling_play]
        if self.dragon_gift is not None:
            out["dragon_gift"] = self.dragon_gift.as_dict()
        return out


def _dragon_gift(q: Question) -> tuple[DragonGift, str] | None:
    """[S6], [R5]: under house rule R5, what becomes of the trick if this lawful Dragon wins
    it, and why; None under the rule book and where no points are kept ([GS1])."""
    if not q.game.scored:
        return None
    if not q.house.dragon_kept_when_out:  # the rule book's verdicts stay as they were
        return None
    given = _("If the Dragon wins the trick, its player gives the whole trick (its 25 "
              "points included) to an opponent of his choice (S6).")
    if q.hand is None:
        return DragonGift(None, "R5"), given + " " + _(
            "House rule R5: if the Dragon is his last card, he goes out and keeps the trick.")
    if len(q.hand) == len(q.play):  # the play is the whole hand (check_cards: from it)
        return DragonGift(False, "R5"), _(
            "The Dragon is his last card: if it wins the trick, he goes out and keeps the "
            "trick (house rule R5).")
    return DragonGift(True, "S6"), given


def _not_a_combination(cards: Sequence[Card]) -> Verdict:
    shown = card_names(cards)
    if DOG_CARD in cards:
        return Verdict(False, "C8", _("{cards} are not a combination: the Dog only ever "
                                      "plays alone, as a lead.").format(cards=shown))
    if DR in cards:
        return Verdict(False, "S5", _("{cards} are not a combination: the Dragon only "
                                      "ever plays as a single.").format(cards=shown))
    if MJ in cards:
        return Verdict(False, "C8", _("{cards} are not a combination: the Mah Jong forms a "
                                      "single or the 1 of a straight, nothing else.").format(
                                          cards=shown))
    ranks = Counter(c.rank for c in cards if c.is_normal)
    if PH in cards and len(cards) == 5 and 4 in ranks.values():
        return Verdict(False, "S7", _("{cards} are not a full house or anything else: "
                                      "four of a kind and the Phoenix must be played some "
                                      "other way.").format(cards=shown))
    return Verdict(False, "C7", _("{cards} are not a combination (single, pair, stairs, "
                                  "trio, full house, straight or bomb).").format(cards=shown))


def _why_not(play: Combination, what: str, top: Combination) -> tuple[str, str]:
    """The rule a readable play breaks when it does not beat the table, and why; `what`
    describes the play."""
    if top.kind is Kind.DOG:
        return ("B5" if play.is_bomb else "S2"), _("Nothing can be played on the Dog, not "
                                                   "even a bomb: it passes the lead at once.")
    if play.kind is Kind.DOG:
        return "S2", _("The Dog may only be led, never played on a trick.")
    on = top.describe()
    if top.is_bomb:
        return ("B2" if play.is_bomb else "B3"), _("The {play} does not beat the {top}: only "
                                                   "a higher bomb beats a bomb.").format(
                                                       play=what, top=on)
    if play.kind is Kind.SINGLE and top.kind is Kind.SINGLE:
        if play.phoenix_single:
            return "S4", _("The Phoenix cannot be played on the Dragon.")
        if top.rank == DRAGON:
            return "S5", _("Only a bomb beats the Dragon, not a {play}.").format(play=what)
        if top.phoenix_single:
            return "S4", _("The Phoenix on the table is worth {value}; a single must be "
                           "strictly higher to beat it.").format(value=top.value_text())
    rule = KIND_RULE[top.kind]
    if play.kind is not top.kind:
        return rule, _("A {play} cannot follow a {top}: only a higher one of the same kind "
                       "and length, or a bomb, can.").format(play=what, top=on)
    if play.length != top.length:
        return rule, _("The {play} has {n} cards; it must have as many as the {top} "
                       "({m}).").format(play=what, n=play.length, top=on, m=top.length)
    return rule, _("The {play} is not higher than the {top}.").format(play=what, top=on)


def _legal_rule(play: Combination, what: str, top: Combination | None,
                q: Question) -> tuple[str, str]:
    """The rule that makes a play legal here and why; `what` describes the play."""
    if q.out_of_turn and top is not None:
        return "B4", _("A bomb may be thrown out of turn: the {play} beats the {top}.").format(
            play=what, top=top.describe())
    if play.is_bomb:
        if top is None:
            return "B4", _("A player may lead a bomb: {play}.").format(play=what)
        rule = "B2" if top.is_bomb else "B3"
        return rule, _("The {play} beats the {top}.").format(play=what, top=top.describe())
    if play.kind is Kind.DOG:
        return "S2", _("The Dog is led: the lead passes at once to the player's partner.")
    if play.phoenix_single:
        if top is None:
            return "S4", _("The Phoenix led is worth 1½.")
        return "S4", _("The Phoenix is worth ½ above the {top}: {value}.").format(
            top=top.describe(), value=play.value_text())
    if play.kind is Kind.SINGLE and play.rank == DRAGON:
        if top is None:
            return "S5", _("The Dragon is the highest single.")
        return "S5", _("The Dragon is the highest single and beats the {top}.").format(
            top=top.describe())
    if play.kind is Kind.SINGLE and play.rank == MAHJONG:
        return "S1", _("The Mah Jong leads as a 1; its player may name a wish.")
    if top is not None and top.phoenix_single:
        return "S4", _("The {play} is higher than the Phoenix, which is worth {value} "
                       "there.").format(play=what, value=top.value_text())
    rule = KIND_RULE[play.kind]
    if top is None:
        return rule, _("Any combination may be led: {play}.").format(play=what)
    return rule, _("The {play} beats the {top}.").format(play=what, top=top.describe())


class _Position(NamedTuple):
    """The question with its trick replayed: what the player owes now."""

    q: Question
    top: Combination | None
    held_wish: bool  # the hand holds a natural card of the wished rank ([W4]: not the Phoenix)
    gathering: bool  # [H6]: everyone else passed and the trick's owner is asked
    budget: Budget | None  # the CPU allowance of the wish search

    @classmethod
    def of(cls, q: Question, budget: Budget | None) -> _Position:
        top, owner = replay_trick(q)
        held = q.hand is not None and q.wish is not None and contains_rank(q.hand, q.wish)
        gathering = (top is not None and not q.out_of_turn and q.seat is not None
                     and owner == q.seat)
        return _new(cls, (q, top, held, gathering, budget))  # (skips the named tuple's __new__)

    def obliged(self) -> tuple[Card, ...] | None:
        """[W2]: a play fulfilling the wish when one is owed now, else None. Nothing is owed
        out of turn ([W5]), by the Threechu dummy ([T3.3]), or by an owner gathering ([H6])."""
        q = self.q
        if q.hand is None or q.wish is None or q.out_of_turn or q.dummy or self.gathering \
                or not self.held_wish:
            return None
        return wish_play(q.hand, q.wish, self.top, q.table, self.budget)


def _judge_pass(p: _Position) -> Verdict:
    """A pass ([H5]), an owner gathering ([H6]), or a pass the wish forbids ([W2])."""
    q = p.q
    if q.out_of_turn:
        return Verdict(True, "B4", _("Not throwing a bomb is always allowed."), PASS)
    if p.top is None:
        return Verdict(False, "H5", _("The leader of a trick may not pass."), PASS)
    if p.gathering:
        reason = _("Everyone else passed: the trick's owner gathers it and leads; he may, "
                   "but need not, bomb his own trick.")
        if p.held_wish:
            reason += " " + _("Gathering is not a pass: the wish for {rank}s is owed on his "
                              "lead.").format(rank=rank_text(q.wish or 0))
        return Verdict(True, "H6", reason, PASS)
    must = p.obliged()
    if must:
        reason = _("A pass is not allowed: the hand holds the wished {rank} and could "
                   "fulfil the wish by playing {cards}.").format(rank=rank_text(q.wish or 0),
                                                                 cards=card_names(must))
        return Verdict(False, "W2", reason + " " + _penalty(q), PASS, must)
    if p.held_wish and q.dummy:
        return Verdict(True, "T3.3", _("The dummy never has to fulfil the wish."), PASS)
    if p.held_wish:
        return Verdict(True, "W3", _("The hand holds the wished {rank} but no lawful "
                                     "combination with it, so it may pass.").format(
                                         rank=rank_text(q.wish or 0)), PASS)
    return Verdict(True, "H5", _("A player may pass and still play later in this trick."),
                   PASS)


def _read_play(p: _Position) -> Combination | Verdict:
    """The play as it lies on the table once played, or the verdict on why it cannot be
    played now: no combination ([C*]), the named reading ([C9]), out of turn ([B4], [B5]),
    on one's own trick ([H6]), or not beating the table."""
    q, top, table = p.q, p.top, p.q.table
    options = readings(q.play, table.distinct_suit_fours)
    if not options:
        return _not_a_combination(q.play)
    if q.phoenix_as is not None and PH in q.play and len(q.play) > 1:
        named = [c for c in options if c.phoenix_as == q.phoenix_as]
        if not named:
            return Verdict(False, "C9", _("{cards} cannot be read with the Phoenix as "
                                          "{rank}.").format(cards=card_names(q.play),
                                                            rank=rank_text(q.phoenix_as)),
                           options[0])
        options = named
    if q.out_of_turn:
        bombs = [c for c in options if c.is_bomb]
        if not bombs:
            return Verdict(False, "B4", _("Only a bomb may be played out of turn; this play is "
                                          "a {what}.").format(what=options[0].describe()),
                           options[0])
        if top is None:
            return Verdict(False, "B5", _("A bomb may not be thrown out of turn on an empty "
                                          "table: the leader leads first."), bombs[0])
        options = bombs
    if p.gathering and not options[0].is_bomb:
        return Verdict(False, "H6", _("Everyone else passed: the trick's owner may not play "
                                      "on his own trick except with a bomb; he gathers it and "
                                      "leads."), options[0])
    fit = [c for c in options if beats(c, top, table.dragon_beats_dragon)]
    if not fit:
        if top is None:
            return _not_a_combination(q.play)
        what = options[0].describe()
        rule, reason = _why_not(options[0], what, top)
        return Verdict(False, rule, reason, options[0], reading=what)
    return on_table(fit[0], top)


def _wish_ruling(p: _Position, play: Combination
                 ) -> tuple[bool, str | None, str, tuple[Card, ...] | None]:
    """A lawful play with a wish in force: (legal, the deciding rule or None to keep the
    play's own, what the wish adds to the reason, the fulfilling play) — fulfilled ([W1]),
    exempt ([W5], [H6], [T3.3]), owed ([W2]), or not owed ([W3], [W4])."""
    q, top = p.q, p.top
    w = rank_text(q.wish or 0)
    if contains_rank(q.play, q.wish or 0):
        return True, "W1", _("It holds the wished {rank}: the wish is fulfilled.").format(
            rank=w), None
    if q.out_of_turn:
        return True, "W5", _("A bomb thrown out of turn never has to fulfil the wish."), None
    # [W5] a bomb that beats the table; the owner's bomb on his own trick ([H6]) even under
    # the strict house rule, since gathering is not a pass and no wish is owed before his lead
    if play.is_bomb and top is not None and (p.gathering or not q.table.strict_wish):
        return True, "W5", _("A bomb never has to fulfil the wish; it stays in force."), None
    if q.dummy:
        return True, "T3.3", _("The dummy never has to fulfil the wish."), None
    if q.hand is None:
        return True, None, _("(Give the hand to check the wish for {rank}s.)").format(
            rank=w), None
    must = p.obliged()
    if must:
        owed = _owed(play, top).format(rank=w, cards=card_names(must))
        return False, "W2", owed + " " + _penalty(q), must
    if p.held_wish:
        return True, "W3", _("The hand holds the wished {rank} but no lawful combination "
                             "with it, so it may play anything.").format(rank=w), None
    if PH in q.hand:
        return True, "W4", _("The Phoenix does not count as the wished {rank}.").format(
            rank=w), None
    return True, "W3", _("The hand holds no {rank}.").format(rank=w), None


def _owed(play: Combination, top: Combination | None) -> str:
    """[W2]: why a lawful play is refused while the wish is owed ({rank}, {cards} to fill)."""
    if play.is_bomb and top is None:
        return _("A bomb is exempt from the wish only when it beats a combination on the "
                 "table (W5); leading, the holder of the wished {rank} must lead a "
                 "combination containing it: the hand could play {cards}.")
    if play.is_bomb:
        return _("The wish for {rank}s must be fulfilled (house rule: even instead of a "
                 "bomb): the hand could play {cards}.")
    return _("The wish for {rank}s must be fulfilled: the hand could play {cards}.")


def _penalty(q: Question) -> str:
    """What missing the owed wish by mistake costs ([W6]): the penalty [P4] as this game
    scores it (the sweep's points, 300 in Tientsin), or nothing where no score is kept."""
    if not q.game.scored:
        return _("Missed by mistake, it costs nothing: Grand Seigneur keeps no score "
                 "(W6, GS1).")
    if not q.house.wish_penalty:
        return _("Missed by mistake, it costs nothing: this match charges no wish penalty "
                 "(house rule R8).")
    return _("Missed by mistake, it costs the hand (W6, P4): the other team scores {points} "
             "card points, the offender's 0; calls still count.").format(
                 points=q.house.sweep_points(q.game.layout().sweep_bonus))


def judge(q: Question, budget: Budget | None = None) -> Verdict:
    """The verdict on `q.play`; QuestionError when the question itself is impossible,
    OutOfTime when `budget` is spent first (checked here and in the wish search)."""
    if budget is not None:
        budget.check()
    check_cards(q)
    position = _Position.of(q, budget)
    if not q.play:
        return _judge_pass(position)
    play = _read_play(position)
    if isinstance(play, Verdict):
        return play
    what = play.describe()
    rule, reason = _legal_rule(play, what, position.top, q)
    gift = _dragon_gift(q) if play.kind is Kind.SINGLE and play.rank == DRAGON else None
    fate = gift[0] if gift is not None else None
    if gift is not None:
        reason += " " + gift[1]
    if q.wish is None:
        return _new(Verdict, (True, rule, reason, play, None, what, fate))
    legal, wish_rule, note, must = _wish_ruling(position, play)
    if not legal:  # the reason is the wish's alone
        return _new(Verdict, (False, wish_rule or rule, note, play, must, what, None))
    return _new(Verdict, (True, wish_rule or rule, reason + " " + note, play, None, what,
                          fate))


__all__ = ["VARIANTS", "Budget", "DragonGift", "OutOfTime", "Question", "QuestionError",
           "TrickPlay", "Verdict", "copies_allowed", "judge", "parse_question", "question"]
