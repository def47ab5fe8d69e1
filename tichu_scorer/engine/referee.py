"""The referee: judges one disputed play in its context and cites the deciding rule.

>>> q = question(trick=[["DR"]], play=["PH"])
>>> v = judge(q); (v.legal, v.rule)
(False, 'S4')
>>> v = judge(question(trick=[["4j"]], play=["5s"], hand=["5s", "8t", "PH"], wish="8"))
>>> (v.legal, v.rule, v.fulfilling_play)
(False, 'W2', (8t,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..scoring.i18n import _
from .cards import (
    DOG_CARD,
    DR,
    MJ,
    PH,
    Card,
    NotationError,
    parse_cards,
    parse_rank,
    rank_text,
    show,
)
from .combos import KIND_RULE, PASS, Combination, Kind, beats, contains_rank, on_table, readings
from .plays import Table, wish_play

VARIANTS = ("nanking", "threechu", "tientsin", "seigneur")


class QuestionError(ValueError):
    """A question that cannot be judged: bad notation, impossible cards or trick (API 400)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TrickPlay:
    cards: tuple[Card, ...]
    seat: int | None = None


@dataclass(frozen=True)
class Question:
    play: tuple[Card, ...]
    trick: tuple[TrickPlay, ...] = ()
    hand: tuple[Card, ...] | None = None
    wish: int | None = None
    out_of_turn: bool = False
    seat: int | None = None
    variant: str = "nanking"
    decks: int = 1
    strict_wish: bool = False
    phoenix_as: int | None = None  # [C9]: the reading the player names, if any
    dummy: bool = False  # Threechu: played from the dummy hand, which never owes the wish

    @property
    def table(self) -> Table:
        return _TABLES[(self.variant == "seigneur", self.strict_wish)]


_TABLES = {(seigneur, strict): Table(distinct_suit_fours=seigneur, dragon_beats_dragon=seigneur,
                                    strict_wish=strict)
           for seigneur in (False, True) for strict in (False, True)}


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


def copies_allowed(card: Card, variant: str, decks: int) -> int:
    """How many of this card the game's deck holds ([D1], [GS2])."""
    if variant != "seigneur":
        return 1
    if card == DOG_CARD:
        return 0
    return 1 if card == MJ or decks == 1 else decks


def question(play: Sequence[object], trick: Sequence[Sequence[object]] = (),
             hand: Sequence[object] | None = None, wish: object = None,
             **options: object) -> Question:
    """A question from notation, for tests and doctests: trick items are card lists."""
    return Question(play=parse_cards(play),
                    trick=tuple(TrickPlay(parse_cards(t)) for t in trick),
                    hand=parse_cards(hand) if hand is not None else None,
                    wish=parse_rank(wish) if wish is not None else None,
                    **options)  # type: ignore[arg-type]


def _check_cards(q: Question) -> None:
    """Every card at most as often as the deck holds it; the play from the hand."""
    on_table = [c for t in q.trick for c in t.cards]
    held = list(q.hand) if q.hand is not None else list(q.play)
    everything = held + on_table
    simple = q.variant != "seigneur"
    if simple and len(set(everything)) == len(everything) and len(set(q.play)) == len(q.play):
        pass  # the common case: one deck, every card once
    else:
        for name, cards in (("trick", on_table), ("play", list(q.play)), ("hand", everything)):
            for card, n in Counter(cards).items():
                allowed = copies_allowed(card, q.variant, q.decks)
                if n > allowed:
                    if allowed == 0:
                        raise QuestionError(name, f"{card!r} is not in this game's deck.")
                    where = "both in the hand and on the table" if name == "hand" else "twice"
                    raise QuestionError(name, f"{card!r} appears {where}; the deck has "
                                        f"{'only one' if allowed == 1 else str(allowed)}.")
    if q.hand is not None:
        if simple:
            held_set = set(q.hand)
            missing_cards = [c for c in q.play if c not in held_set]
        else:
            missing_cards = list((Counter(q.play) - Counter(q.hand)).elements())
        if missing_cards:
            raise QuestionError("play", f"{show(missing_cards)} is not in the given hand.")
    if q.seat is not None and not 0 <= q.seat < 12:
        raise QuestionError("seat", "seat must be a number from 0 to 11.")


def replay_trick(q: Question) -> tuple[Combination | None, int | None]:
    """The combination on top of the trick and its player's seat; QuestionError if the
    trick could not have happened."""
    top: Combination | None = None
    owner: int | None = None
    for i, item in enumerate(q.trick, start=1):
        if top is not None and top.kind is Kind.DOG:
            raise QuestionError("trick", "Nothing follows the Dog: it passes the lead at once "
                                         "(S2).")
        if not item.cards:
            if top is None:
                raise QuestionError("trick", f"Trick item {i} is a pass, but a trick starts "
                                             "with a lead (H5).")
            continue
        options = readings(item.cards, q.table.distinct_suit_fours)
        if not options:
            raise QuestionError("trick", f"Trick item {i} ({show(item.cards)}) is not a "
                                         "combination.")
        fit = [c for c in options if beats(c, top, q.table.dragon_beats_dragon)]
        if not fit:
            raise QuestionError("trick", f"Trick item {i} ({show(item.cards)}) could not "
                                         f"have been played on {top.describe() if top else ''}.")
        top = on_table(fit[0], top)
        owner = item.seat
    return top, owner


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
        if top.rank == 15:
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
    if play.kind is Kind.SINGLE and play.rank == 15:
        if top is None:
            return "S5", _("The Dragon is the highest single.")
        return "S5", _("The Dragon is the highest single and beats the {top}.").format(
            top=top.describe())
    if play.kind is Kind.SINGLE and play.rank == 1:
        return "S1", _("The Mah Jong leads as a 1; its player may name a wish.")
    if top is not None and top.phoenix_single:
        return "S4", _("The {play} is higher than the Phoenix, which is worth {value} "
                       "there.").format(play=what, value=top.value_text())
    rule = KIND_RULE[play.kind]
    if top is None:
        return rule, _("Any combination may be led: {play}.").format(play=what)
    return rule, _("The {play} beats the {top}.").format(play=what, top=top.describe())


def judge(q: Question) -> Verdict:
    """The verdict on `q.play`; QuestionError when the question itself is impossible."""
    _check_cards(q)
    top, owner = replay_trick(q)
    table = q.table
    wish = q.wish
    held_wish = q.hand is not None and wish is not None and contains_rank(q.hand, wish)

    def obliged() -> tuple[Card, ...] | None:
        if q.hand is None or wish is None or q.out_of_turn or not held_wish or q.dummy:
            return None
        return wish_play(q.hand, wish, top, table)

    if not q.play:
        if q.out_of_turn:
            return Verdict(True, "B4", _("Not throwing a bomb is always allowed."), PASS)
        if top is None:
            return Verdict(False, "H5", _("The leader of a trick may not pass."), PASS)
        must = obliged()
        if must:
            return Verdict(False, "W2", _("A pass is not allowed: the hand holds the wished "
                                          "{rank} and could fulfil the wish by playing "
                                          "{cards}. Missed by mistake, it costs the hand "
                                          "(W6, P4).").format(rank=rank_text(wish or 0),
                                                              cards=show(must)), PASS, must)
        if held_wish and q.dummy:
            return Verdict(True, "T3.3", _("The dummy never has to fulfil the wish."), PASS)
        if held_wish:
            return Verdict(True, "W3", _("The hand holds the wished {rank} but no lawful "
                                         "combination with it, so it may pass.").format(
                                             rank=rank_text(wish or 0)), PASS)
        return Verdict(True, "H5", _("A player may pass and still play later in this trick."),
                       PASS)

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
    if top is not None and owner is not None and owner == q.seat and not options[0].is_bomb:
        return Verdict(False, "H6", _("Everyone else passed: the trick's owner may not play "
                                      "on his own trick except with a bomb; he gathers it and "
                                      "leads."), options[0])
    fit = [c for c in options if beats(c, top, table.dragon_beats_dragon)]
    if not fit:
        return _why_not(options[0], top, table) if top else _not_a_combination(q.play)
    play = on_table(fit[0], top)
    rule, reason = _legal_rule(play, top, q)

    if wish is not None:
        w = rank_text(wish)
        if contains_rank(q.play, wish):
            return Verdict(True, "W1", reason + " " + _("It holds the wished {rank}: the wish "
                                                      "is fulfilled.").format(rank=w), play)
        if q.out_of_turn:
            return Verdict(True, "W5", reason + " " + _("A bomb thrown out of turn never has "
                                                      "to fulfil the wish."), play)
        if play.is_bomb and not table.strict_wish:
            return Verdict(True, "W5", reason + " " + _("A bomb never has to fulfil the wish; "
                                                      "it stays in force."), play)
        if q.dummy:
            return Verdict(True, "T3.3", reason + " " + _("The dummy never has to fulfil the "
                                                        "wish."),
                           play)
        if q.hand is None:
            return Verdict(True, rule, reason + " " + _("(Give the hand to check the wish for "
                                                      "{rank}s.)").format(rank=w),
                           play)
        must = obliged()
        if must:
            message = (_("The wish for {rank}s must be fulfilled (house rule: even instead of a "
                         "bomb): the hand could play {cards}. Missed by mistake, it costs the "
                         "hand (W6, P4).") if play.is_bomb else
                       _("The wish for {rank}s must be fulfilled: the hand could play {cards}. "
                         "Missed by mistake, it costs the hand (W6, P4)."))
            return Verdict(False, "W2", message.format(rank=w, cards=show(must)), play, must)
        if held_wish:
            return Verdict(True, "W3", reason + " " + _("The hand holds the wished {rank} but "
                                                      "no lawful combination with it, so it "
                                                      "may play anything.").format(rank=w),
                           play)
        if PH in q.hand:
            return Verdict(True, "W4", reason + " " + _("The Phoenix does not count as the "
                                                      "wished {rank}.").format(rank=w), play)
        return Verdict(True, "W3", reason + " " + _("The hand holds no {rank}.").format(rank=w),
                       play)
    return Verdict(True, rule, reason, play)


def parse_question(body: object) -> Question:
    """A Question from the API.md JSON body; QuestionError naming the field otherwise."""
    if not isinstance(body, dict):
        raise QuestionError("body", "The body must be a JSON object.")
    variant = body.get("variant", "nanking")
    if variant is None:
        variant = "nanking"
    if variant not in VARIANTS:
        raise QuestionError("variant", f"variant must be one of {', '.join(VARIANTS)}.")
    if body.get("dummy") and variant != "threechu":
        raise QuestionError("dummy", "Only Threechu has a dummy hand.")
    decks = body.get("decks", 2 if variant == "seigneur" else 1)
    if variant != "seigneur":
        if "decks" in body and decks not in (None, 1):
            raise QuestionError("decks", "decks applies to Grand Seigneur only.")
        decks = 1
    elif decks not in (1, 2) or isinstance(decks, bool):
        raise QuestionError("decks", "decks must be 1 or 2.")

    def cards(name: str, value: object) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise QuestionError(name, f"{name} must be a list of cards like [\"5j\", \"PH\"].")
        if len(value) > 56:
            raise QuestionError(name, f"{name} has more cards than a hand can hold.")
        try:
            return parse_cards(value)
        except NotationError as exc:
            raise QuestionError(name, str(exc)) from None

    if "play" not in body:
        raise QuestionError("play", "play is required: the disputed cards, or [] for a pass.")
    play = cards("play", body["play"])
    raw_trick = body.get("trick") or []
    if not isinstance(raw_trick, list) or len(raw_trick) > 200:
        raise QuestionError("trick", "trick must be a list of {\"cards\": [...]} items.")
    trick = []
    for i, item in enumerate(raw_trick, start=1):
        if not isinstance(item, dict) or "cards" not in item:
            raise QuestionError("trick", f"trick item {i} must be {{\"cards\": [...]}}.")
        seat = item.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise QuestionError("trick", f"trick item {i}: seat must be a number.")
        trick.append(TrickPlay(cards("trick", item["cards"]), seat))
    hand = body.get("hand")
    hand_cards = cards("hand", hand) if hand is not None else None
    wish_raw = body.get("wish")
    try:
        wish = parse_rank(wish_raw) if wish_raw not in (None, "") else None
    except NotationError as exc:
        raise QuestionError("wish", str(exc)) from None
    flags = {}
    for name in ("out_of_turn", "strict_wish", "dummy"):
        value = body.get(name, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise QuestionError(name, f"{name} must be true or false.")
        flags[name] = value
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise QuestionError("seat", "seat must be a number.")
    named = body.get("phoenix_as")
    try:
        phoenix_as = parse_rank(named) if named not in (None, "") else None
    except NotationError as exc:
        raise QuestionError("phoenix_as", str(exc)) from None
    return Question(play=play, trick=tuple(trick), hand=hand_cards, wish=wish, seat=seat,
                    variant=variant, decks=decks, phoenix_as=phoenix_as, **flags)
