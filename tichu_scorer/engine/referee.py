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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..scoring.i18n import _
from .cards import DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, Card, rank_text, show
from .combos import KIND_RULE, PASS, Combination, Kind, beats, contains_rank, on_table, readings
from .plays import Table, wish_play
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


@dataclass(frozen=True)
class Verdict:
    legal: bool
    rule: str
    reason: str
    combination: Combination | None = None
    fulfilling_play: tuple[Card, ...] | None = field(default=None)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "legal": self.legal, "rule": self.rule, "reason": self.reason,
            "combination": self.combination.as_dict() if self.combination else None}
        if self.combination is not None:
            out["reading"] = self.combination.describe()
        if self.fulfilling_play is not None:
            out["fulfilling_play"] = [repr(c) for c in self.fulfilling_play]
        return out


def _not_a_combination(cards: Sequence[Card]) -> Verdict:
    shown = show(cards)
    if DOG_CARD in cards:
        return Verdict(False, "C8", _("{cards} is not a combination: the Dog only ever plays "
                                      "alone, as a lead.").format(cards=shown))
    if DR in cards:
        return Verdict(False, "S5", _("{cards} is not a combination: the Dragon only ever "
                                      "plays as a single.").format(cards=shown))
    if MJ in cards:
        return Verdict(False, "C8", _("{cards} is not a combination: the Mah Jong forms a "
                                      "single or the 1 of a straight, nothing else.").format(
                                          cards=shown))
    ranks = Counter(c.rank for c in cards if c.is_normal)
    if PH in cards and len(cards) == 5 and 4 in ranks.values():
        return Verdict(False, "S7", _("{cards} is not a full house or anything else: four of "
                                      "a kind and the Phoenix must be played some other "
                                      "way.").format(cards=shown))
    return Verdict(False, "C7", _("{cards} is not a combination (single, pair, stairs, trio, "
                                  "full house, straight or bomb).").format(cards=shown))


def _why_not(play: Combination, top: Combination, table: Table) -> Verdict:
    """The rule a readable play breaks when it does not beat the table."""
    what, on = play.describe(), top.describe()
    if top.kind is Kind.DOG:
        rule = "B5" if play.is_bomb else "S2"
        return Verdict(False, rule, _("Nothing can be played on the Dog, not even a bomb: it "
                                      "passes the lead at once."), play)
    if play.kind is Kind.DOG:
        return Verdict(False, "S2", _("The Dog may only be led, never played on a trick."),
                       play)
    if top.is_bomb:
        rule = "B2" if play.is_bomb else "B3"
        return Verdict(False, rule, _("The {play} does not beat the {top}: only a higher bomb "
                                      "beats a bomb.").format(play=what, top=on), play)
    if play.kind is Kind.SINGLE and top.kind is Kind.SINGLE:
        if play.phoenix_single:
            return Verdict(False, "S4", _("The Phoenix cannot be played on the Dragon."), play)
        if top.rank == DRAGON:
            return Verdict(False, "S5", _("Only a bomb beats the Dragon, not a {play}.").format(
                play=what), play)
        if top.phoenix_single:
            return Verdict(False, "S4", _("The Phoenix on the table is worth {value}; a single "
                                          "must be strictly higher to beat it.").format(
                                              value=top.value_text()), play)
    rule = KIND_RULE[top.kind]
    if play.kind is not top.kind:
        return Verdict(False, rule, _("A {play} cannot follow a {top}: only a higher one of "
                                      "the same kind and length, or a bomb, can.").format(
                                          play=what, top=on), play)
    if play.length != top.length:
        return Verdict(False, rule, _("The {play} has {n} cards; it must have as many as the "
                                      "{top} ({m}).").format(play=what, n=play.length, top=on,
                                                             m=top.length), play)
    return Verdict(False, rule, _("The {play} is not higher than the {top}.").format(
        play=what, top=on), play)


def _legal_rule(play: Combination, top: Combination | None, q: Question) -> tuple[str, str]:
    what = play.describe()
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


@dataclass(frozen=True)
class _Position:
    """The question with its trick replayed: what the player owes now."""

    q: Question
    top: Combination | None
    held_wish: bool  # the hand holds a natural card of the wished rank ([W4]: not the Phoenix)
    gathering: bool  # [H6]: everyone else passed and the trick's owner is asked

    @classmethod
    def of(cls, q: Question) -> _Position:
        top, owner = replay_trick(q)
        held = q.hand is not None and q.wish is not None and contains_rank(q.hand, q.wish)
        gathering = (top is not None and not q.out_of_turn and q.seat is not None
                     and owner == q.seat)
        return cls(q, top, held, gathering)

    def obliged(self) -> tuple[Card, ...] | None:
        """[W2]: a play fulfilling the wish when one is owed now, else None. Nothing is owed
        out of turn ([W5]), by the Threechu dummy ([T3.3]), or by an owner gathering ([H6])."""
        q = self.q
        if q.hand is None or q.wish is None or q.out_of_turn or q.dummy or self.gathering \
                or not self.held_wish:
            return None
        return wish_play(q.hand, q.wish, self.top, q.table)


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
        return Verdict(False, "W2", _("A pass is not allowed: the hand holds the wished "
                                      "{rank} and could fulfil the wish by playing "
                                      "{cards}. Missed by mistake, it costs the hand "
                                      "(W6, P4).").format(rank=rank_text(q.wish or 0),
                                                          cards=show(must)), PASS, must)
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
                                          "{rank}.").format(cards=show(q.play),
                                                            rank=rank_text(q.phoenix_as)),
                           options[0])
        options = named
    if q.out_of_turn:
        bombs = [c for c in options if c.is_bomb]
        if not bombs:
            return Verdict(False, "B4", _("Only a bomb may be played out of turn; {cards} is a "
                                          "{what}.").format(cards=show(q.play),
                                                            what=options[0].describe()),
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
        return _why_not(options[0], top, table) if top else _not_a_combination(q.play)
    return on_table(fit[0], top)


def _judge_wish(p: _Position, play: Combination, rule: str, reason: str) -> Verdict:
    """A lawful play with a wish in force: fulfilled ([W1]), exempt ([W5], [H6], [T3.3]),
    owed ([W2]), or not owed ([W3], [W4])."""
    q, top = p.q, p.top
    wish = q.wish or 0
    w = rank_text(wish)
    if contains_rank(q.play, wish):
        return Verdict(True, "W1", reason + " " + _("It holds the wished {rank}: the wish "
                                                  "is fulfilled.").format(rank=w), play)
    if q.out_of_turn:
        return Verdict(True, "W5", reason + " " + _("A bomb thrown out of turn never has "
                                                  "to fulfil the wish."), play)
    # [W5] a bomb that beats the table; the owner's bomb on his own trick ([H6]) even under
    # the strict house rule, since gathering is not a pass and no wish is owed before his lead
    if play.is_bomb and top is not None and (p.gathering or not q.table.strict_wish):
        return Verdict(True, "W5", reason + " " + _("A bomb never has to fulfil the wish; "
                                                  "it stays in force."), play)
    if q.dummy:
        return Verdict(True, "T3.3", reason + " " + _("The dummy never has to fulfil the "
                                                    "wish."), play)
    if q.hand is None:
        return Verdict(True, rule, reason + " " + _("(Give the hand to check the wish for "
                                                  "{rank}s.)").format(rank=w), play)
    must = p.obliged()
    if must:
        if play.is_bomb and top is None:
            message = _("A bomb is exempt from the wish only when it beats a combination on "
                        "the table (W5); leading, the holder of the wished {rank} must lead a "
                        "combination containing it: the hand could play {cards}. Missed by "
                        "mistake, it costs the hand (W6, P4).")
        elif play.is_bomb:
            message = _("The wish for {rank}s must be fulfilled (house rule: even instead of a "
                        "bomb): the hand could play {cards}. Missed by mistake, it costs the "
                        "hand (W6, P4).")
        else:
            message = _("The wish for {rank}s must be fulfilled: the hand could play {cards}. "
                        "Missed by mistake, it costs the hand (W6, P4).")
        return Verdict(False, "W2", message.format(rank=w, cards=show(must)), play, must)
    if p.held_wish:
        return Verdict(True, "W3", reason + " " + _("The hand holds the wished {rank} but "
                                                  "no lawful combination with it, so it "
                                                  "may play anything.").format(rank=w), play)
    if PH in q.hand:
        return Verdict(True, "W4", reason + " " + _("The Phoenix does not count as the "
                                                  "wished {rank}.").format(rank=w), play)
    return Verdict(True, "W3", reason + " " + _("The hand holds no {rank}.").format(rank=w),
                   play)


def judge(q: Question) -> Verdict:
    """The verdict on `q.play`; QuestionError when the question itself is impossible."""
    check_cards(q)
    position = _Position.of(q)
    if not q.play:
        return _judge_pass(position)
    play = _read_play(position)
    if isinstance(play, Verdict):
        return play
    rule, reason = _legal_rule(play, position.top, q)
    if q.wish is None:
        return Verdict(True, rule, reason, play)
    return _judge_wish(position, play, rule, reason)


__all__ = ["VARIANTS", "Question", "QuestionError", "TrickPlay", "Verdict", "copies_allowed",
           "judge", "parse_question", "question"]
