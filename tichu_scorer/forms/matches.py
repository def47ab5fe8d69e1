"""The new-match form and a match's settings page: the shape of their fields here, the
meaning of the settings from the core (`scoring.settings_problems`), each problem attached
to the field the page shows it by."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask_babel import gettext
from wtforms import (
    BooleanField,
    Field,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import Length, Optional

from ..game.house import PRESETS, RULE_BOOK, HouseRules
from ..game.i18n import N_
from ..game.names import hidden
from ..game.variants import DEFAULT, MAX_SEATS, find
from ..models import NAME_MAX, Player
from ..scoring import (
    DEFAULT_TARGET,
    VARIANTS,
    Problem,
    Variant,
    hands_problem,
    settings_problems,
    target_problem,
)
from ..scoring.games import game_of
from .base import Form, ProblemsMixin
from .house import HouseRulesMixin

TARGET_CHOICES = [SelectChoice("1000"), SelectChoice("500"), SelectChoice("custom", N_("Custom"))]
HOUSE_CHOICES = [SelectChoice(key, preset.name) for key, preset in PRESETS.items()] + [
    SelectChoice("own", N_("Our own"))]
VARIANT_CHOICES = [SelectChoice(v.key, v.choice) for v in VARIANTS.values()]
LENGTH_CHOICES = [SelectChoice("hands", N_("A number of hands")),
                  SelectChoice("target", N_("To a target"))]


class NewMatchForm(ProblemsMixin, HouseRulesMixin, Form):
    variant = RadioField("Game", choices=VARIANT_CHOICES, default=DEFAULT.key)
    target = RadioField("Play to", choices=TARGET_CHOICES, default=str(DEFAULT_TARGET))
    custom_target = IntegerField("Custom target", validators=[Optional()])
    length = RadioField("The match lasts", choices=LENGTH_CHOICES, default="hands")
    hands = IntegerField("Number of hands (a multiple of 3)", default=9,
                         validators=[Optional()])
    # the device's tables (set by the view) and "new"; a new table's name
    table = SelectField("Table", choices=[], validate_choice=True)
    table_name = StringField("Name of the new table", validators=[Optional(),
                                                                  Length(max=NAME_MAX)])
    # House rules (RULES.md §10.1): a preset, or a set of the match's own
    house = RadioField("House rules", choices=HOUSE_CHOICES, default="book")
    fixed_hands = IntegerField(N_("The match lasts a number of hands"),
                               validators=[Optional()])
    presets = PRESETS  # the page's hint beside each preset

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems = defaultdict(list)

    @property
    def house_rules(self) -> HouseRules:
        """[R1]: the preset chosen, or the match's own set; none in a game without points."""
        if not game_of(self.game).has_target:
            return RULE_BOOK
        if self.house.data in PRESETS:
            return PRESETS[self.house.data].rules
        return self.own_rules()

    @property
    def lead_value(self) -> int | None:
        """[R6]: a lead that ends the match (the match's own set only; as entered, which
        the core checks)."""
        if self.house.data != "own" or not game_of(self.game).has_target:
            return None
        lead: int | None = self.lead_by.data
        return lead

    @property
    def fixed_hands_value(self) -> int | None:
        """[R7]: a number of hands for a points game that otherwise plays to a target."""
        if not game_of(self.game).has_target or self.game.lasts_hands:
            return None
        if self.house.data in PRESETS:
            return PRESETS[self.house.data].hands
        hands: int | None = self.fixed_hands.data  # as entered, which the core checks
        return hands

    def seat_fields(self) -> list[Field]:
        return [self[f"seat_{s}"] for s in range(MAX_SEATS)]

    @property
    def game(self) -> Variant:
        """The game chosen (the default one until a valid choice is made)."""
        return find(self.variant.data) or DEFAULT

    @property
    def by_hands(self) -> bool:
        """The match lasts a number of hands (a Threechu choice, [T3.5])."""
        return self.game.lasts_hands and self.length.data != "target"

    @property
    def names(self) -> list[str]:
        """The names entered, in seat order (empty fields skipped)."""
        cleaned = [" ".join((f.data or "").split()) for f in self.seat_fields()]
        return [n for n in cleaned if n]

    @property
    def target_value(self) -> int | None:
        if (not game_of(self.game).has_target or self.by_hands
                or self.fixed_hands_value is not None):
            return None  # [GS7]: no points; or a number of hands
        if self.target.data == "custom":
            return int(self.custom_target.data or 0)
        return int(self.target.data or DEFAULT_TARGET)

    @property
    def hand_limit(self) -> int | None:
        if self.by_hands:
            return int(self.hands.data or 9)
        return self.fixed_hands_value

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        self.shape_problems({f"seat_{s}": ("players", "H1") for s in range(MAX_SEATS)}
                            | {"target": ("target", "E1"), "custom_target": ("target", "E1"),
                               "variant": ("variant", "H1"), "length": ("target", "T3.5"),
                               "hands": ("target", "T3.5"), "table": ("table", "H1"),
                               "table_name": ("table", "H1"), "house": ("house", "R1"),
                               "fixed_hands": ("house", "R7")} | self.house_shapes())
        if self.problems:
            return False
        fewest, most = self.game.players
        names = self.names
        rule = self.game.players_rule
        if not fewest <= len(names) <= most:
            need = str(fewest) if fewest == most else f"{fewest}–{most}"
            self.add_problem("players", Problem("players", rule, gettext(
                "This game needs %(need)s players; %(given)s names were given.", need=need,
                given=len(names))))
        if (twice := same_player(names)) is not None:
            self.add_problem("players", twice)
        if self.house.data == "own" and game_of(self.game).has_target:
            self.check_calls()
        # a number field the match needs, left empty (the core is not asked about it)
        if self.by_hands and self.hands.data is None:
            self.add_problem("target", Problem("hands", "T3.5", hands_problem(None) or ""))
        if (self.target_value is not None and self.target.data == "custom"
                and self.custom_target.data is None):
            self.add_problem("target", Problem("custom_target", "E1",
                                               gettext("Enter the custom target score.")))
        self.attach_settings(
            settings_problems(self.game, self.target_value, self.hand_limit, self.lead_value,
                              self.house_rules),
            {"target": ("target", "custom_target"), "lead_by": ("house", "lead_by"),
             "house_rules": ("house", "house"),
             "hand_limit": ("target", "hands") if self.by_hands else ("house", "fixed_hands")})
        return not any(self.problems.values())


class MatchSettingsForm(ProblemsMixin, HouseRulesMixin, Form):
    """Change a match after its start: the target, the players' names and the house rules
    ([R1]: changed like any setting, logged)."""

    target = IntegerField("Play to", validators=[Optional()])
    confirm = BooleanField("Yes, delete this match and all its hands")

    def __init__(self, *args: Any, seats: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems = defaultdict(list)
        self.seats = seats

    def seat_fields(self) -> list[Field]:
        return [self[f"seat_{s}"] for s in range(self.seats)]

    @property
    def names(self) -> list[str]:
        return [" ".join((f.data or "").split()) for f in self.seat_fields()]

    def check(self, game: Variant, hand_limit: int | None) -> bool:
        """The target ([E1]) and the lead ([R6]) as the core checks a match's settings, in a
        game with points; a name in every seat, each player once ([H1])."""
        self.validate()
        self.shape_problems({f"seat_{s}": ("players", "H1") for s in range(self.seats)}
                            | {"target": ("target", "E1")} | self.house_shapes())
        if game_of(game).has_target:
            self.check_calls()
            target = self.target.data if hand_limit is None else None
            if hand_limit is None and target is None and not self.target.errors:
                # the page's field left empty: the target it asks for is no number
                self.add_problem("target", Problem("target", "E1", target_problem(None) or ""))
            self.attach_settings(
                settings_problems(game, target, hand_limit, self.lead_by.data),
                {"target": ("target", "target"), "hand_limit": ("target", "target"),
                 "lead_by": ("house", "lead_by")})
        names = self.names
        if any(not n for n in names):
            self.add_problem("players", Problem("players", "H1",
                                                gettext("Every seat needs a name.")))
        if (twice := same_player(names)) is not None:
            self.add_problem("players", twice)
        return not any(self.problems.values())


def same_player(names: list[str]) -> Problem | None:
    """[H1]: two seats with one player, named as typed (names match without regard to
    case, spacing or unseen characters, as the table's players do); or a name holding a
    character nobody sees (`game.names.hidden`)."""
    seen: dict[str, str] = {}
    for name in names:
        if (unseen := hidden(name)) is not None:
            return Problem("players", "H1", gettext(
                "“%(name)s” holds a character that cannot be seen (%(code)s): type the name "
                "again.", name=name, code=unseen))
        key = Player.key_of(name)
        if name and key in seen:
            return Problem("players", "H1", gettext(
                "“%(first)s” and “%(second)s” are the same player (names match whatever "
                "their capitals); each seat needs a different player.",
                first=seen[key], second=name))
        seen[key] = name
    return None


for _number in range(MAX_SEATS):
    setattr(MatchSettingsForm, f"seat_{_number}",
            StringField(f"Player {_number + 1}", validators=[Length(max=NAME_MAX)]))

    setattr(NewMatchForm, f"seat_{_number}",
            StringField(f"Player {_number + 1}", validators=[Optional(), Length(max=NAME_MAX)]))
