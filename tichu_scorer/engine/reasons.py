"""The referee's reasons: for each ruling, the rule it cites (decided at once) and the
sentence a player reads (`Prose`, written only when the verdict's reason is read).

>>> from .combos import readings
>>> from .cards import parse_cards
>>> rule, prose = why_not(readings(parse_cards(["4j"]))[0], readings(parse_cards(["9s"]))[0])
>>> rule, prose()
('C1', 'The single 4 is not higher than the single 9.')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..game.house import HouseRules
from ..game.i18n import _
from ..game.variants import Variant
from .cards import DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, Card, rank_text
from .combos import KIND_RULE, Combination, Kind
from .names import card_names
from .verdict import DragonGift, Prose


def joined(*parts: Prose) -> Prose:
    """The sentences of `parts`, one after another."""
    return lambda: " ".join(part() for part in parts)


def not_a_combination(cards: Sequence[Card]) -> tuple[str, Prose]:
    """[C7], [C8], [S5], [S7]: why `cards` form no combination."""
    if DOG_CARD in cards:
        return "C8", lambda: _("{cards} are not a combination: the Dog only ever plays "
                               "alone, as a lead.").format(cards=card_names(cards))
    if DR in cards:
        return "S5", lambda: _("{cards} are not a combination: the Dragon only ever plays "
                               "as a single.").format(cards=card_names(cards))
    if MJ in cards:
        return "C8", lambda: _("{cards} are not a combination: the Mah Jong forms a single "
                               "or the 1 of a straight, nothing else.").format(
                                   cards=card_names(cards))
    if PH in cards and len(cards) == 5 and \
            4 in Counter(c.rank for c in cards if c.is_normal).values():
        return "S7", lambda: _("{cards} are not a full house or anything else: four of a "
                               "kind and the Phoenix must be played some other way.").format(
                                   cards=card_names(cards))
    return "C7", lambda: _("{cards} are not a combination (single, pair, stairs, trio, full "
                           "house, straight or bomb).").format(cards=card_names(cards))


_SINGLE, _BOMB, _DOG = Kind.SINGLE, Kind.BOMB, Kind.DOG  # (globals: faster than `Kind.X`)
_PH = (PH,)


def _dog_top() -> str:
    return _("Nothing can be played on the Dog, not even a bomb: it passes the lead at once.")


def why_not(play: Combination, top: Combination) -> tuple[str, Prose]:
    """The rule a readable play breaks when it does not beat the table, and why."""
    kind, on = play[0], top[0]
    if on is _DOG:
        return ("B5" if kind is _BOMB else "S2"), _dog_top
    if kind is _DOG:
        return "S2", lambda: _("The Dog may only be led, never played on a trick.")
    if on is _BOMB:
        return ("B2" if kind is _BOMB else "B3"), lambda: _(
            "The {play} does not beat the {top}: only a higher bomb beats a bomb.").format(
                play=play.describe(), top=top.describe())
    if kind is _SINGLE and on is _SINGLE:
        if play.phoenix_single:
            return "S4", lambda: _("The Phoenix cannot be played on the Dragon.")
        if top[1] == DRAGON:
            return "S5", lambda: _("Only a bomb beats the Dragon, not a {play}.").format(
                play=play.describe())
        if top.phoenix_single:
            return "S4", lambda: _("The Phoenix on the table is worth {value}; a single must "
                                   "be strictly higher to beat it.").format(
                                       value=top.value_text())
    rule = KIND_RULE[on]
    if kind is not on:
        return rule, lambda: _("A {play} cannot follow a {top}: only a higher one of the same "
                               "kind and length, or a bomb, can.").format(
                                   play=play.describe(), top=top.describe())
    if play[2] != top[2]:
        return rule, lambda: _("The {play} has {n} cards; it must have as many as the {top} "
                               "({m}).").format(play=play.describe(), n=play.length,
                                                top=top.describe(), m=top.length)
    return rule, lambda: _("The {play} is not higher than the {top}.").format(
        play=play.describe(), top=top.describe())


def legal_rule(play: Combination, top: Combination | None,
               out_of_turn: bool) -> tuple[str, Prose]:
    """The rule that makes a play legal here and why."""
    kind = play[0]
    if out_of_turn and top is not None:
        return "B4", lambda: _("A bomb may be thrown out of turn: the {play} beats the "
                               "{top}.").format(play=play.describe(), top=top.describe())
    if kind is _BOMB:
        if top is None:
            return "B4", lambda: _("A player may lead a bomb: {play}.").format(
                play=play.describe())
        return ("B2" if top[0] is _BOMB else "B3"), lambda: _(
            "The {play} beats the {top}.").format(play=play.describe(), top=top.describe())
    if kind is _DOG:
        return "S2", lambda: _("The Dog is led: the lead passes at once to the player's "
                               "partner.")
    if kind is _SINGLE:
        if play[3] == _PH:  # the Phoenix single
            if top is None:
                return "S4", lambda: _("The Phoenix led is worth 1½.")
            return "S4", lambda: _("The Phoenix is worth ½ above the {top}: {value}.").format(
                top=top.describe(), value=play.value_text())
        if play[1] == DRAGON:
            if top is None:
                return "S5", lambda: _("The Dragon is the highest single.")
            return "S5", lambda: _("The Dragon is the highest single and beats the "
                                   "{top}.").format(top=top.describe())
        if play[1] == MAHJONG:
            return "S1", lambda: _("The Mah Jong leads as a 1; its player may name a wish.")
    if top is None:
        return KIND_RULE[kind], lambda: _("Any combination may be led: {play}.").format(
            play=play.describe())
    if top[0] is _SINGLE and top[3] == _PH:  # on the Phoenix single
        return "S4", lambda: _("The {play} is higher than the Phoenix, which is worth {value} "
                               "there.").format(play=play.describe(), value=top.value_text())
    return KIND_RULE[kind], lambda: _("The {play} beats the {top}.").format(
        play=play.describe(), top=top.describe())


def dragon_gift(game: Variant, house: HouseRules, hand: Sequence[Card] | None,
                play: Sequence[Card]) -> tuple[DragonGift, Prose] | None:
    """[S6], [R5]: under house rule R5, what becomes of the trick if this lawful Dragon wins
    it, and why; None under the rule book and where no points are kept ([GS1])."""
    if not game.scored:
        return None
    if not house.dragon_kept_when_out:  # the rule book's verdicts stay as they were
        return None

    def given() -> str:
        return _("If the Dragon wins the trick, its player gives the whole trick (its 25 "
                 "points included) to an opponent of his choice (S6).")

    if hand is None:
        return DragonGift(None, "R5"), lambda: given() + " " + _(
            "House rule R5: if the Dragon is his last card, he goes out and keeps the trick.")
    if len(hand) == len(play):  # the play is the whole hand (check_cards: from it)
        return DragonGift(False, "R5"), lambda: _(
            "The Dragon is his last card: if it wins the trick, he goes out and keeps the "
            "trick (house rule R5).")
    return DragonGift(True, "S6"), given


def owed(play: Combination, top: Combination | None, wish: int, must: Sequence[Card],
         game: Variant, house: HouseRules) -> Prose:
    """[W2]: why a lawful play is refused while the wish is owed, and what missing it
    costs."""
    def text() -> str:
        if play.is_bomb and top is None:
            why = _("A bomb is exempt from the wish only when it beats a combination on the "
                    "table (W5); leading, the holder of the wished {rank} must lead a "
                    "combination containing it: the hand could play {cards}.")
        elif play.is_bomb:
            why = _("The wish for {rank}s must be fulfilled (house rule: even instead of a "
                    "bomb): the hand could play {cards}.")
        else:
            why = _("The wish for {rank}s must be fulfilled: the hand could play {cards}.")
        return why.format(rank=rank_text(wish), cards=card_names(must)) + " " + \
            penalty(game, house)
    return text


def pass_refused(wish: int, must: Sequence[Card], game: Variant, house: HouseRules) -> Prose:
    """[W2]: why a pass is refused while the wish is owed."""
    return lambda: _("A pass is not allowed: the hand holds the wished {rank} and could "
                     "fulfil the wish by playing {cards}.").format(
                         rank=rank_text(wish), cards=card_names(must)) + " " + \
        penalty(game, house)


def penalty(game: Variant, house: HouseRules) -> str:
    """What missing the owed wish by mistake costs ([W6]): the penalty [P4] as this game
    scores it (the sweep's points, 300 in Tientsin), or nothing where no score is kept."""
    if not game.scored:
        return _("Missed by mistake, it costs nothing: Grand Seigneur keeps no score "
                 "(W6, GS1).")
    if not house.wish_penalty:
        return _("Missed by mistake, it costs nothing: this match charges no wish penalty "
                 "(house rule R8).")
    return _("Missed by mistake, it costs the hand (W6, P4): the other team scores {points} "
             "card points, the offender's 0; calls still count.").format(
                 points=house.sweep_points(game.layout().sweep_bonus))


__all__ = ["dragon_gift", "joined", "legal_rule", "not_a_combination", "owed",
           "pass_refused", "penalty", "why_not"]
