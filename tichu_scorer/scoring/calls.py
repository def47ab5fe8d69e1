"""A player's call (RULES.md [P3]) and a match's own calls ([R9]): what a call word means
under a match's house rules, read in one place, and its name on a sheet or in a log.

>>> read_call("grand").points, call_name("tichu")
(200, 'Tichu')
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ..game.house import RULE_BOOK, HouseRules
from ..game.i18n import N_

TICHU_POINTS, GRAND_POINTS = 100, 200  # [P3]: what a made call gives, a failed one takes


class Call(str, Enum):
    """A player's call before or during a hand ([P3])."""

    TICHU = "tichu"
    GRAND = "grand"

    @property
    def points(self) -> int:
        return TICHU_POINTS if self is Call.TICHU else GRAND_POINTS

    @property
    def label(self) -> str:
        return N_("Tichu") if self is Call.TICHU else N_("Grand Tichu")


class CustomCall(NamedTuple):
    """[R9]: a call a match defines, with its name and value; it works like Tichu ([P3]).
    Read like a `Call`: `value` is its name as the API writes it, `points` its worth."""

    value: str
    points: int

    @property
    def label(self) -> str:
        return self.value


AnyCall = Call | CustomCall
_BUILT_IN: dict[str, Call] = {call.value: call for call in Call}


def read_call(word: object, rules: HouseRules = RULE_BOOK) -> AnyCall | None:
    """What a call word means under a match's house rules: Tichu or Grand Tichu ([P3]), or
    one of the match's own calls by its name, worth what the rules say ([R9]); None for any
    other word. The one reading of a call word, wherever it comes from: the API, the hand
    form, a stored hand, a log entry, an import.

    >>> blind = HouseRules(custom_calls=(("blind", 400),))
    >>> read_call("tichu"), read_call("blind", blind)
    (<Call.TICHU: 'tichu'>, CustomCall(value='blind', points=400))
    >>> read_call("blind"), read_call("Tichu"), read_call(["tichu"])
    (None, None, None)
    """
    if not isinstance(word, str):
        return None
    built_in = _BUILT_IN.get(word)
    if built_in is not None:
        return built_in
    points = rules.call_points(word)
    return None if points is None else CustomCall(word, points)


def call_name(word: object, rules: HouseRules = RULE_BOOK) -> str:
    """A stored call word as a sheet or a log names it (`read_call`): "Tichu" or "Grand
    Tichu" (marked for translation), one of the match's own calls by its name ([R9]), and a
    word these rules do not define (a call the match dropped since) as it is.

    >>> call_name("grand"), call_name("blind", HouseRules(custom_calls=(("blind", 400),)))
    ('Grand Tichu', 'blind')
    """
    call = read_call(word, rules)
    return call.label if call is not None else str(word)
