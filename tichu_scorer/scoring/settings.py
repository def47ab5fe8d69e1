"""A match's settings checked once, as `hand_problems` checks a hand: how long it lasts (a
target [E1], a number of hands [T3.5] or [R7], a lead [R6]) and whether its game takes
house rules at all ([R1], [GS7]). The new-match form, the settings page and the import ask
`settings_problems` and attach each problem to their own field; pages take the bounds as
data (`Bounds.html`), never as numbers of their own.

>>> from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU
>>> settings_problems(NANKING, target=1000, lead_by=300)
[]
>>> [(p.field, p.rule) for p in settings_problems(THREECHU, target=500, hand_limit=9,
...                                               lead_by=75)]
[('lead_by', 'R6'), ('hand_limit', 'T3.5')]
>>> [(p.field, p.rule) for p in settings_problems(SEIGNEUR, target=1000)]
[('target', 'GS7')]
"""

from __future__ import annotations

from typing import NamedTuple

from ..game.house import RULE_BOOK, HouseRules
from ..game.i18n import _
from ..game.variants import Variant
from .games import game_of
from .hand import Problem


class Bounds(NamedTuple):
    """The whole numbers a setting may take: `low` to `high` in steps of `step`."""

    low: int
    high: int
    step: int = 1

    def holds(self, value: object) -> bool:
        """A whole number (not a truth value) within the bounds, on a step.

        >>> LEAD.holds(500), LEAD.holds(75), LEAD.holds(500.0), LEAD.holds(True)
        (True, False, False, False)
        """
        return (isinstance(value, int) and not isinstance(value, bool)
                and self.low <= value <= self.high and value % self.step == 0)

    @property
    def html(self) -> dict[str, int]:
        """The bounds as a number field's attributes (no `step` for steps of one).

        >>> THREECHU_HANDS.html, HANDS.html
        ({'min': 3, 'max': 99, 'step': 3}, {'min': 1, 'max': 99})
        """
        found = {"min": self.low, "max": self.high}
        return found | {"step": self.step} if self.step != 1 else found


TARGET = Bounds(50, 10000, 50)  # [E1]
LEAD = Bounds(50, 10000, 50)  # [R6]: a lead that ends the match
HANDS = Bounds(1, 99)  # [R7]: a number of hands in place of the target
THREECHU_HANDS = Bounds(3, 99, 3)  # [T3.5]: everyone shuffles equally often


def hands_problem(hands: object) -> str | None:
    """[T3.5]: a Threechu match lasts a multiple of 3 hands."""
    low, high = THREECHU_HANDS.low, THREECHU_HANDS.high
    if not isinstance(hands, int) or isinstance(hands, bool) or not low <= hands <= high:
        return _("The number of hands must be a whole number from {low} to {high}.").format(
            low=low, high=high)
    if not THREECHU_HANDS.holds(hands):
        return _("The number of hands must be a multiple of 3, so everyone shuffles equally "
                 "often.")
    return None


def target_problem(target: object) -> str | None:
    """[E1]: why a match target is unusable, or None."""
    if not isinstance(target, int) or isinstance(target, bool):
        return _("The target must be a whole number.")
    if not TARGET.low <= target <= TARGET.high:
        return _("The target must lie between {low} and {high}.").format(low=TARGET.low,
                                                                          high=TARGET.high)
    if not TARGET.holds(target):
        return _("The target must be a multiple of 50.")
    return None


def settings_problems(game: Variant, target: object = None, hand_limit: object = None,
                      lead_by: object = None, house: HouseRules = RULE_BOOK,
                      ) -> list[Problem]:
    """Every problem of a match's settings, each with its field (`target`, `hand_limit`,
    `lead_by`, `house_rules`: the export's keys) and rule, in the order an import names the
    first. None is a setting not given: a team game given neither a target nor a number of
    hands plays to the rule book's target (an older export; `Game.end`).

    >>> from tichu_scorer.game.variants import NANKING, THREECHU
    >>> [(p.field, p.rule) for p in settings_problems(NANKING, 1000, 4)]
    [('hand_limit', 'R7')]
    >>> [(p.field, p.rule) for p in settings_problems(THREECHU, lead_by=300)]
    [('lead_by', 'R6'), ('hand_limit', 'T3.5')]
    """
    problems: list[Problem] = []
    points = game_of(game).has_target
    lead_ok = lead_by is None or LEAD.holds(lead_by)
    if not lead_ok:
        problems.append(Problem("lead_by", "R6", _(
            "The lead that ends the match must be {low} to {high} points in steps of "
            "{step}.").format(low=LEAD.low, high=LEAD.high, step=LEAD.step)))
    if not points and (house != RULE_BOOK or lead_by is not None):
        problems.append(Problem("house_rules", "R1", _(
            "Grand Seigneur has no points: no house rules on scoring.")))
    elif lead_by is not None and lead_ok and not game.teams:
        problems.append(Problem("lead_by", "R6", _(
            "A lead ends a match of two teams; Threechu keeps a total per player.")))
    if target is not None and (why := target_problem(target)):
        problems.append(Problem("target", "E1", why))
    if hand_limit is not None and game.lasts_hands and (why := hands_problem(hand_limit)):
        problems.append(Problem("hand_limit", "T3.5", why))
    if hand_limit is not None and not game.lasts_hands and not HANDS.holds(hand_limit):
        problems.append(Problem("hand_limit", "R7", _(
            "A match lasts {low} to {high} hands.").format(low=HANDS.low, high=HANDS.high)))
    if not points and (target is not None or hand_limit is not None):
        problems.append(Problem("target", "GS7", _(
            "Grand Seigneur has no target and no number of hands.")))
    elif game.lasts_hands and (target is None) == (hand_limit is None):
        problems.append(Problem("hand_limit", "T3.5", _(
            "A Threechu match lasts either a number of hands or to a target, and needs one "
            "of them.")))
    elif target is not None and hand_limit is not None and not game.lasts_hands:
        problems.append(Problem("hand_limit", "R7", _(
            "A match lasts a number of hands or plays to a target, not both.")))
    return problems
