"""House rules (RULES.md §10.1, `[R1]`–`[R9]`) as one frozen value both cores read: scoring
honours R2, R3, R4, R8 and R9, the referee R5. The default is the rule book.

`read_house_rules` reads the docs/API.md shape (the `house_rules` object of both endpoints)
and raises `HouseRulesError` naming the field and the rule for an unknown key, a value of
the wrong type, or one no table plays by. Match-level rules (`[R6]`, `[R7]`) belong to a
match, not to one hand, and are not here (`scoring.settings` checks them).

`FLAGS` is the one table of the rules a match's own set ticks as a box (its box's name,
the rule, the box's words, the value a ticked box gives), and `PRESETS` the common sets:
the forms, the settings page, the templates, the rematch and the import read these two and
name no rule themselves. A new yes/no house rule is a field of `HouseRules` and a row of
`FLAGS` (tests/scoring/test_house.py, tests/views/test_house_flags.py).

>>> read_house_rules(None) == RULE_BOOK, read_house_rules({}) is RULE_BOOK
(True, True)
>>> club = read_house_rules({"double_victory_points": 100, "victory_points": True,
...                          "custom_calls": {"blind": 400}})
>>> club.sweep_points(200), club.sweep_points(300), club.call_points("blind")
(100, 150, 400)
>>> read_house_rules({"grand_tichu": "no"})
Traceback (most recent call last):
...
tichu_scorer.game.house.HouseRulesError: house_rules.grand_tichu: must be true or false (R2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

from .i18n import N_, _

DOUBLE_VICTORY = 200  # [P2]: the rule book's double victory
MOST_POINTS = 1000  # a double victory or a custom call worth more is no table's rule
POINTS_STEP = 10  # [R3]: Tientsin's triple victory is 3/2 of it, still a multiple of 5
CALL_STEP = 5  # [R9]: every score in Tichu is a multiple of 5
MOST_CALLS = 8
NAME_LENGTH = 30
BUILT_IN_CALLS = ("tichu", "grand")


class HouseRulesError(ValueError):
    """A `house_rules` object that cannot be read: the field (`house_rules.<key>`), the rule
    it concerns and a sentence (API 400)."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(f"{field}: {message} ({rule}).")
        self.field = field
        self.rule = rule
        self.message = f"{field}: {message} ({rule})."


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules one hand is played by; the defaults are the rule book."""

    grand_tichu: bool = True  # False: [R2], no Grand Tichu
    double_victory_points: int = DOUBLE_VICTORY  # [R3]: 100
    victory_points: bool = False  # [R4]: 2 / 1 / 0 per hand, a double victory 3 / 0
    wish_penalty: bool = True  # False: [R8], a missed wish is not charged
    custom_calls: tuple[tuple[str, int], ...] = ()  # [R9]: (name, value), like Tichu
    dragon_kept_when_out: bool = False  # [R5]: the referee's Dragon-gift answer

    def sweep_points(self, book: int) -> int:
        """[R3]: what a sweep scores when the rule book gives it `book` (a double victory
        200, Tientsin's triple victory 300): scaled as the double victory is (Ruling).

        >>> HouseRules(double_victory_points=100).sweep_points(300)
        150
        """
        if self.double_victory_points == DOUBLE_VICTORY:
            return book
        return book * self.double_victory_points // DOUBLE_VICTORY

    def call_points(self, name: str) -> int | None:
        """[R9]: the value of a custom call of this name, None when there is none."""
        for call, value in self.custom_calls:
            if call == name:
                return value
        return None

    def as_dict(self) -> dict[str, object]:
        """The docs/API.md shape, which `read_house_rules` reads back: each field by its
        name, the own calls as an object."""
        return {key: dict(self.custom_calls) if key == "custom_calls" else getattr(self, key)
                for key in KEYS}


RULE_BOOK = HouseRules()
KEYS = tuple(f.name for f in fields(HouseRules))  # the API's keys, in the fields' order


@dataclass(frozen=True, slots=True)
class Flag:
    """A house rule a match's own set ticks as a box: `box` names the form's field, `key`
    the field of `HouseRules` (and the API's key) it sets to `on` when ticked (the rule
    book's value otherwise), `rule` its id, `label` the box's words (a message id) and
    `said` how a match's page names it when its value is not the rule book's (the box's
    words unless given; a number is given to it as `points`).

    >>> [f.box for f in FLAGS]
    ['no_grand', 'double_100', 'victory_points', 'dragon_kept', 'no_wish']
    >>> FLAGS[0].rules(RULE_BOOK, True).grand_tichu, FLAGS[0].ticked(RULE_BOOK)
    (False, False)
    """

    box: str
    key: str
    rule: str
    label: str
    on: bool | int
    said: str = ""

    @property
    def off(self) -> object:
        """The rule book's value."""
        return getattr(RULE_BOOK, self.key)

    def ticked(self, rules: HouseRules) -> bool:
        """Whether these rules tick the box."""
        return bool(getattr(rules, self.key) == self.on)

    def rules(self, rules: HouseRules, ticked: object) -> HouseRules:
        """`rules` with this box ticked or not."""
        value: Any = self.on if ticked else self.off
        return replace(rules, **{self.key: value})

    def named(self, rules: HouseRules) -> tuple[str, str, dict[str, object]] | None:
        """[R1]: (rule id, message id, its values) when `rules` differ from the rule book
        here, as `named_rules` gives them."""
        value = getattr(rules, self.key)
        if value == self.off:
            return None
        return self.rule, self.said or self.label, {} if self.said == "" else {"points": value}


# The boxes of a match's own set, in the order the pages show them.
FLAGS = (
    Flag("no_grand", "grand_tichu", "R2", N_("No Grand Tichu"), False),
    Flag("double_100", "double_victory_points", "R3", N_("Double victory worth 100"), 100,
         said=N_("Double victory worth %(points)s")),
    Flag("victory_points", "victory_points", "R4", N_("Victory points 2 / 1 / 3"), True),
    Flag("dragon_kept", "dragon_kept_when_out", "R5",
         N_("The Dragon's trick is kept by a player going out with it"), True),
    Flag("no_wish", "wish_penalty", "R8", N_("No wish penalty"), False),
)
BY_KEY = {f.key: f for f in FLAGS}  # a flag by its field of `HouseRules`
# the API's yes/no keys, each with its rule (a number, R3, is read by `_points`)
_FLAGS = {f.key: f.rule for f in FLAGS if isinstance(f.on, bool)}


def _whole(value: object) -> int | None:
    """A JSON integer (100 or 100.0, as JSON Schema counts them), None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _points(field: str, rule: str, value: object, step: int, low: int) -> int:
    number = _whole(value)
    if number is None:
        raise HouseRulesError(field, rule, _("must be a whole number"))
    if not low <= number <= MOST_POINTS or number % step:
        raise HouseRulesError(field, rule, _("must be a multiple of {step} from {low} to "
                                             "{most}").format(step=step, low=low,
                                                              most=MOST_POINTS))
    return number


def _custom_calls(raw: object) -> tuple[tuple[str, int], ...]:
    field = "house_rules.custom_calls"
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise HouseRulesError(field, "R9", _('must map a call\'s name to its value, e.g. '
                                             '{{"blind": 400}}').format())
    if len(raw) > MOST_CALLS:
        raise HouseRulesError(field, "R9", _("may name at most {n} calls").format(
            n=MOST_CALLS))
    calls = []
    seen: set[str] = set()
    for name, value in raw.items():
        if not isinstance(name, str):
            raise HouseRulesError(field, "R9", _("a call's name must be text"))
        shown = name[:NAME_LENGTH]
        if not name.strip() or len(name) > NAME_LENGTH or name != name.strip():
            raise HouseRulesError(field, "R9", _("a call's name must be 1 to {n} characters, "
                                                 "without spaces around it").format(
                                                     n=NAME_LENGTH))
        if name.lower() in BUILT_IN_CALLS:
            raise HouseRulesError(f"{field}.{shown}", "R9", _(
                '"tichu" and "grand" are the rule book\'s calls; give a custom call '
                'another name'))
        if isinstance(value, list) or name.casefold() in seen:
            # a name given twice (the API's JSON keeps both), or in other capitals: one
            # call at the table, whatever its capitals
            raise HouseRulesError(f"{field}.{shown}", "R9", _("names a call more than once"))
        seen.add(name.casefold())
        calls.append((name, _points(f"{field}.{shown}", "R9", value, CALL_STEP, CALL_STEP)))
    return tuple(calls)


def read_house_rules(raw: object) -> HouseRules:
    """The house rules of the docs/API.md `house_rules` object (missing, null or {}: the
    rule book); HouseRulesError naming the first field that is wrong."""
    if raw is None:
        return RULE_BOOK
    if not isinstance(raw, Mapping):
        raise HouseRulesError("house_rules", "R1", _("must be an object of house rules"))
    if not raw:
        return RULE_BOOK
    for key in raw:
        if key not in KEYS:
            raise HouseRulesError(f"house_rules.{key[:NAME_LENGTH]}", "R1", _(
                "is no house rule; the keys are {keys}").format(keys=", ".join(KEYS)))
    values: dict[str, Any] = {}  # each checked below
    for key in KEYS:
        if key in _FLAGS and key in raw:
            rule = _FLAGS[key]
            if not isinstance(raw[key], bool):
                raise HouseRulesError(f"house_rules.{key}", rule, _("must be true or false"))
            values[key] = raw[key]
    if "double_victory_points" in raw:
        values["double_victory_points"] = _points("house_rules.double_victory_points", "R3",
                                                  raw["double_victory_points"], POINTS_STEP, 0)
    if "custom_calls" in raw:
        values["custom_calls"] = _custom_calls(raw["custom_calls"])
    rules = replace(RULE_BOOK, **values)
    return RULE_BOOK if rules == RULE_BOOK else rules


class Preset(NamedTuple):
    """A common set of house rules (RULES.md §10.1's sources): the message id of its name,
    its house rules, a fixed number of hands [R7] for the points games that may last one,
    and the message id of the hint the new-match form gives beside it (`own_length`: for a
    game that lasts a number of hands of its own, Threechu, where `hands` does not apply)."""

    name: str
    rules: HouseRules
    hands: int | None
    hint: str
    own_length: str = ""

    def hint_for(self, lasts_hands: bool) -> str:
        """The hint for a game that lasts a number of hands of its own, or not."""
        return self.own_length if lasts_hands and self.own_length else self.hint


# A match starts with one of these, or with its own choice of the rules above.
PRESETS: dict[str, Preset] = {
    "book": Preset(N_("Rule book"), RULE_BOOK, None,
                   N_("Grand Tichu, double victory 200, wish penalty.")),
    "tournament": Preset(
        N_("Tournament (German championship)"),
        HouseRules(grand_tichu=False, double_victory_points=100, victory_points=True), 4,
        N_("4 hands, no Grand Tichu, double victory 100, victory points (TN1)."),
        N_("No Grand Tichu, double victory 100, victory points (TN1).")),
    "club": Preset(N_("Club: 2 / 1 / 3 victory points"),
                   HouseRules(double_victory_points=100, victory_points=True), None,
                   N_("Double victory 100; each hand also gives 2 victory points to the "
                      "side with more points, 1 each on a tie, 3 for a double victory (R4).")),
}


def preset_of(rules: HouseRules, hand_limit: int | None) -> str | None:
    """The preset these rules are, None for a set of their own.

    >>> preset_of(RULE_BOOK, None), preset_of(PRESETS["tournament"].rules, 4)
    ('book', 'tournament')
    >>> preset_of(HouseRules(wish_penalty=False), None) is None
    True
    """
    for key, preset in PRESETS.items():
        if preset.rules == rules and (preset.hands is None or preset.hands == hand_limit):
            return key
    return None


def named_rules(rules: HouseRules, lead_by: int | None = None,
                ) -> list[tuple[str, str, dict[str, object]]]:
    """[R1]: each house rule a match plays by, as (rule id, message id, its values): what
    its page, its sheet and its export name. The rule book names none.

    >>> [r for r, _m, _v in named_rules(PRESETS["tournament"].rules, lead_by=300)]
    ['R2', 'R3', 'R4', 'R6']
    >>> named_rules(RULE_BOOK)
    []
    """
    said = [named for flag in FLAGS if (named := flag.named(rules)) is not None]
    if lead_by:
        said.append(("R6", N_("Ends at a lead of %(lead)s"), {"lead": lead_by}))
    said.sort(key=lambda named: named[0])  # by rule id, R2 to R8 (one digit each)
    for name, value in rules.custom_calls:
        said.append(("R9", N_("Call “%(name)s”: %(points)s"), {"name": name, "points": value}))
    return said
