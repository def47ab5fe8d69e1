"""WTForms: shape checks only. Meaning comes from `tichu_scorer.scoring`; each problem it
reports is attached to the field group it concerns, with its rule id."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from functools import cache
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length, NumberRange, Optional

from . import i18n, phones
from .answers import field_group, question
from .game.house import (
    DOUBLE_VICTORY,
    PRESETS,
    RULE_BOOK,
    HouseRules,
    HouseRulesError,
    read_house_rules,
)
from .game.i18n import N_
from .game.variants import DEFAULT, MAX_SEATS, SEIGNEUR, find
from .models import MOST_BOMBS, NAME_MAX, NOTE_MAX, Player
from .scoring import DEFAULT_TARGET, VARIANTS, Problem, Variant, hands_problem, target_problem
from .scoring.games import game_of

TARGET_CHOICES = [SelectChoice("1000"), SelectChoice("500"), SelectChoice("custom", N_("Custom"))]
CALL_CHOICES = [SelectChoice("", N_("No call")), SelectChoice("tichu", N_("Tichu")),
                SelectChoice("grand", N_("Grand Tichu"))]
NOBODY = SelectChoice("", _l("Nobody"))
HOUSE_CHOICES = [SelectChoice(key, name) for key, (name, _r, _h) in PRESETS.items()] + [
    SelectChoice("own", N_("Our own"))]
HOUSE_FLAGS = ("no_grand", "double_100", "victory_points", "dragon_kept", "no_wish")
MIN_LEAD, MAX_LEAD, MAX_HANDS = 50, 10000, 99
OWN_CALLS_LENGTH = 200  # [R9]: the own calls as typed (the pages' maxlength)
NO_SEAT = SelectChoice("", "—")


class Form(FlaskForm):
    """The app's forms: WTForms' own messages ("Not a valid choice") in the reader's
    language from translations loaded once per process (Flask-WTF reads the catalogue file
    again on every request that validates a form)."""

    class Meta(FlaskForm.Meta):
        def get_translations(self, form: Any) -> Any:
            return i18n.wtforms_translations()


class ProblemsMixin:
    """Problems from the pure core, grouped for display next to their fields."""

    problems: dict[str, list[Problem]]

    def validate(self, extra_validators: Any = None) -> bool:
        """The form's own checks, and each field sent only once: WTForms would silently
        take a repeated field's first value (`card_a=50&card_a=30`)."""
        valid: bool = super().validate(extra_validators)  # type: ignore[misc]
        repeated = [f for f in self  # type: ignore[attr-defined]
                    if len(f.raw_data or ()) > 1 and not isinstance(f, SelectMultipleField)]
        for f in repeated:
            f.errors.append(gettext("The field “%(field)s” was sent more than once; send "
                                    "one value.", field=f.name))
        if repeated:
            self._errors = None  # WTForms' cache of `errors`, made by the checks above
        return valid and not repeated

    def add_problem(self, group: str, problem: Problem) -> None:
        self.problems[group].append(problem)

    def shape_problems(self, rules: dict[str, tuple[str, str]]) -> None:
        """Turn WTForms shape errors into problems: field -> (group, rule)."""
        for name, errors in self.errors.items():  # type: ignore[attr-defined]
            group, rule = rules.get(name, (name, "P5"))
            for message in errors:
                self.problems[group].append(Problem(name, rule, message))


VARIANT_CHOICES = [SelectChoice(v.key, v.choice) for v in VARIANTS.values()]
LENGTH_CHOICES = [SelectChoice("hands", N_("A number of hands")),
                  SelectChoice("target", N_("To a target"))]


class HouseRulesMixin:
    """The house rules a match's own set is made of (RULES.md §10.1): [R2]–[R5], [R8] as
    boxes to tick and [R6]'s lead; `own_rules` reads them."""

    problems: dict[str, list[Problem]]
    no_grand = BooleanField(N_("No Grand Tichu"))
    double_100 = BooleanField(N_("Double victory worth 100"))
    victory_points = BooleanField(N_("Victory points 2 / 1 / 3"))
    dragon_kept = BooleanField(N_("The Dragon's trick is kept by a player going out with it"))
    no_wish = BooleanField(N_("No wish penalty"))
    lead_by = IntegerField(N_("The match ends at a lead of"), validators=[Optional()])
    custom_calls = StringField(N_("Own calls, worth like Tichu"), validators=[
        Optional(), Length(max=OWN_CALLS_LENGTH, message=_l(
            "Own calls: at most %(max)d characters; shorten their names."))])

    def own_rules(self) -> HouseRules:
        return replace(RULE_BOOK, grand_tichu=not self.no_grand.data,
                       double_victory_points=100 if self.double_100.data else DOUBLE_VICTORY,
                       victory_points=bool(self.victory_points.data),
                       dragon_kept_when_out=bool(self.dragon_kept.data),
                       wish_penalty=not self.no_wish.data, custom_calls=self.own_calls())

    def own_calls(self) -> tuple[tuple[str, int], ...]:
        """[R9]: "blind = 400, small = 50" as the core reads it; () where it cannot
        (`check_calls` says why)."""
        try:
            return read_house_rules({"custom_calls": own_calls(self.custom_calls.data)}
                                    ).custom_calls
        except (HouseRulesError, ValueError):
            return ()

    def check_calls(self) -> None:
        """[R9]: each call a name and its points (a multiple of 50, like Tichu's 100); not
        asked of a text already refused for its length."""
        if self.custom_calls.errors:
            return
        try:
            read_house_rules({"custom_calls": own_calls(self.custom_calls.data)})
        except HouseRulesError as exc:
            self.problems["house"].append(Problem("custom_calls", "R9", gettext(
                "Own calls: %(why)s. Write them as “blind = 400, small = 50”.",
                why=exc.message.split(": ", 1)[-1].removesuffix(" (R9)."))))
        except ValueError:
            self.problems["house"].append(Problem("custom_calls", "R9", gettext(
                "Own calls: write each as a name, “=” and its points, separated by commas: "
                "“blind = 400, small = 50”.")))

    def show_rules(self, rules: HouseRules, lead_by: int | None) -> None:
        """The boxes as these rules tick them."""
        self.no_grand.data = not rules.grand_tichu
        self.double_100.data = rules.double_victory_points == 100
        self.victory_points.data = rules.victory_points
        self.dragon_kept.data = rules.dragon_kept_when_out
        self.no_wish.data = not rules.wish_penalty
        self.lead_by.data = lead_by
        self.custom_calls.data = ", ".join(f"{n} = {v}" for n, v in rules.custom_calls)

    def check_lead(self, game: Variant) -> None:
        """[R6]: a lead of 50 to 10000 points in steps of 50, between two teams."""
        lead = self.lead_by.data
        if lead is not None and not (MIN_LEAD <= lead <= MAX_LEAD and lead % 50 == 0):
            self.problems["house"].append(Problem("lead_by", "R6", gettext(
                "The lead that ends the match must be %(low)s to %(high)s points in steps "
                "of 50.", low=MIN_LEAD, high=MAX_LEAD)))
        elif lead is not None and not game.teams:
            self.problems["house"].append(Problem("lead_by", "R6", gettext(
                "A lead ends a match of two teams; Threechu keeps a total per player.")))


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems = defaultdict(list)

    @property
    def house_rules(self) -> HouseRules:
        """[R1]: the preset chosen, or the match's own set."""
        if self.house.data in PRESETS:
            return PRESETS[self.house.data][1]
        return self.own_rules()

    @property
    def lead_value(self) -> int | None:
        """[R6]: a lead that ends the match (the match's own set only)."""
        if self.house.data != "own" or not game_of(self.game).has_target:
            return None
        return self.lead_by.data or None

    @property
    def fixed_hands_value(self) -> int | None:
        """[R7]: a number of hands for a points game that otherwise plays to a target."""
        if not game_of(self.game).has_target or self.game.lasts_hands:
            return None
        if self.house.data in PRESETS:
            return PRESETS[self.house.data][2]
        return self.fixed_hands.data or None

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
        if not game_of(self.game).has_target or self.by_hands or self.fixed_hands_value:
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
                               "lead_by": ("house", "R6"), "fixed_hands": ("house", "R7"),
                               "custom_calls": ("house", "R9")}
                            | {f: ("house", "R1") for f in HOUSE_FLAGS})
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
        self._check_house()
        if self.by_hands:
            why = hands_problem(self.hands.data)
            if why:
                self.add_problem("target", Problem("hands", "T3.5", why))
        elif self.fixed_hands_value:
            pass  # [R7]: no target
        elif game_of(self.game).has_target:
            if self.target.data == "custom" and self.custom_target.data is None:
                self.add_problem("target", Problem("custom_target", "E1",
                                                   gettext("Enter the custom target score.")))
            else:
                why = target_problem(self.target_value)
                if why:
                    self.add_problem("target", Problem("custom_target", "E1", why))
        return not any(self.problems.values())


    def _check_house(self) -> None:
        """[R6], [R7]: a lead of 50 to 10000 points in steps of 50; 1 to 99 hands."""
        if self.house.data != "own" or not game_of(self.game).has_target:
            return
        self.check_lead(self.game)
        self.check_calls()
        hands = self.fixed_hands.data
        if hands is not None and not self.game.lasts_hands and not 1 <= hands <= MAX_HANDS:
            self.add_problem("house", Problem("fixed_hands", "R7", gettext(
                "A match lasts 1 to %(most)s hands.", most=MAX_HANDS)))


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
        """The target as the new-match form takes it ([E1]); a name in every seat, each
        player once ([H1])."""
        self.validate()
        self.shape_problems({f"seat_{s}": ("players", "H1") for s in range(self.seats)}
                            | {"target": ("target", "E1"), "lead_by": ("house", "R6"),
                               "custom_calls": ("house", "R9")}
                            | {f: ("house", "R1") for f in HOUSE_FLAGS})
        if game_of(game).has_target:
            self.check_lead(game)
            self.check_calls()
        if game_of(game).has_target and hand_limit is None:
            why = target_problem(self.target.data)
            if why:
                self.add_problem("target", Problem("target", "E1", why))
        names = self.names
        if any(not n for n in names):
            self.add_problem("players", Problem("players", "H1",
                                                gettext("Every seat needs a name.")))
        if (twice := same_player(names)) is not None:
            self.add_problem("players", twice)
        return not any(self.problems.values())


def own_calls(text: str | None) -> dict[str, Any]:
    """[R9]'s calls as typed: "blind = 400, small = 50" (also "blind: 400"); ValueError
    for a part without a name and points.

    A name typed twice, in any capitals, keeps both values, which the house rules refuse
    ([R9]: one call a name), never the last silently.

    >>> own_calls("blind = 400, Small:50")
    {'blind': 400, 'Small': 50}
    >>> own_calls("blind = 50, BLIND = 100")
    {'blind': [50, 100]}
    """
    found: dict[str, Any] = {}
    spelled: dict[str, str] = {}  # casefolded name -> its first spelling
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, points = part.replace(":", "=").partition("=")
        if not sep or not name.strip():
            raise ValueError(part)
        value = points.strip()
        number: int | str = int(value) if value.lstrip("-").isdigit() else value
        name = spelled.setdefault(" ".join(name.split()).casefold(), " ".join(name.split()))
        if name in found:
            before = found[name]
            found[name] = [*(before if isinstance(before, list) else [before]), number]
        else:
            found[name] = number
    return found


def same_player(names: list[str]) -> Problem | None:
    """[H1]: two seats with one player, named as typed (names match without regard to
    case or spacing, as the table's players do)."""
    seen: dict[str, str] = {}
    for name in names:
        key = Player.key(name)
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


def _seat(value: object) -> int | None:
    """A seat from a select's value; blank (even whitespace, which Optional() lets through)
    means none. The select's choices already refused anything else."""
    text = value.strip() if isinstance(value, str) else ""
    # (a seat has at most two digits: a longer one is no seat, and a 5,000-digit one would
    # pass Python's limit for reading a whole number)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


class HandFormBase(ProblemsMixin, Form):
    seats: int = 4
    card_a = IntegerField("Team A card points", validators=[Optional(),
                                                            NumberRange(-1000, 1000)])
    card_b = IntegerField("Team B card points", validators=[Optional(),
                                                            NumberRange(-1000, 1000)])
    wish_offender = SelectField("Failed the Mah Jong wish", choices=[NOBODY],
                                validators=[Optional()])

    def __init__(self, *args: Any, names: tuple[str, ...] = (),
                 calls: tuple[tuple[str, int], ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems = defaultdict(list)
        self.names = names
        seat_choices = [SelectChoice(str(s), name) for s, name in enumerate(names)]
        self.wish_offender.choices = [NOBODY, *seat_choices]
        for place in range(1, self.seats + 1):
            self[f"place_{place}"].choices = [NO_SEAT, *seat_choices]
        if calls:  # [R9]: the match's own calls beside Tichu and Grand Tichu
            own = [SelectChoice(name, name) for name, _points in calls]
            for f in self.call_fields():
                f.choices = [*CALL_CHOICES, *own]

    def place_fields(self) -> list[Field]:
        return [self[f"place_{p}"] for p in range(1, self.seats + 1)]

    def call_fields(self) -> list[Field]:
        return [self[f"call_{s}"] for s in range(self.seats)]

    def fill(self, recorded: dict[str, Any]) -> None:
        """Show a stored hand (the docs/API.md shape) in the form, for editing."""
        for place, seat in zip(self.place_fields(), recorded.get("out_order", []),
                               strict=False):
            place.data = str(seat)
        for seat, f in enumerate(self.call_fields()):
            f.data = (recorded.get("calls") or {}).get(str(seat), "")
        points = recorded.get("card_points") or [None, None]
        self.card_a.data, self.card_b.data = points[0], points[1]
        wish = recorded.get("wish_penalty")
        self.wish_offender.data = str(wish["offender"]) if wish else ""
        for seat, f in enumerate(self.bomb_fields()):
            bombs = recorded.get("bombs") or []
            f.data = bombs[seat] if seat < len(bombs) and bombs[seat] else None
        self.note.data = recorded.get("note") or ""

    def bomb_fields(self) -> list[Field]:
        return [self[f"bombs_{s}"] for s in range(self.seats)]

    def extras(self) -> dict[str, Any]:
        """The bombs per seat and the note: stored with the hand, never scored."""
        return {"bombs": [f.data or 0 for f in self.bomb_fields()],
                "note": self.note.data or ""}

    def to_api(self) -> dict[str, Any]:
        """The submitted hand in the docs/API.md shape, for `scoring.read_hand`."""
        out = [seat for f in self.place_fields() if (seat := _seat(f.data)) is not None]
        calls = {str(s): f.data for s, f in enumerate(self.call_fields()) if f.data}
        wish = self.wish_offender.data
        return {"out_order": out, "calls": calls,
                "card_points": [self.card_a.data, self.card_b.data],
                "wish_penalty": {"offender": _seat(wish)} if _seat(wish) is not None else None}

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        rules = {f"place_{p}": ("out_order", "H7") for p in range(1, self.seats + 1)}
        rules |= {f"call_{s}": (f"call_{s}", "P3") for s in range(self.seats)}
        rules |= {"card_a": ("card_points", "P1"), "card_b": ("card_points", "P1"),
                  "wish_offender": ("wish", "P4"), "note": ("extras", "H1")}
        rules |= {f"bombs_{s}": ("extras", "B1") for s in range(self.seats)}
        for seat, f in enumerate(self.bomb_fields()):  # the player's name, not the field's
            if f.errors and len(f.raw_data or ()) <= 1:
                f.errors[:] = [gettext("Bombs of %(name)s: a count of 0 to %(most)s.",
                                       name=self.names[seat] if seat < len(self.names)
                                       else seat + 1, most=MOST_BOMBS)]
        self.shape_problems(rules)
        places = [_seat(f.data) is not None for f in self.place_fields()]
        if any(places[i + 1] and not places[i] for i in range(len(places) - 1)):
            self.add_problem("out_order", Problem("out_order", "H7", gettext(
                "Fill the out-order from first place on, without gaps.")))
        return not any(self.problems.values())

    def attach(self, problems: list[Problem]) -> None:
        """Attach problems found by the scoring core next to their fields."""
        for problem in problems:
            if problem not in self.problems[field_group(problem.field)]:
                self.add_problem(field_group(problem.field), problem)


class RankingFormBase(ProblemsMixin, Form):
    """Grand Seigneur: only the finishing order ([GS1])."""

    seats: int = 5

    def __init__(self, *args: Any, names: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems = defaultdict(list)
        seat_choices = [SelectChoice(str(s), name) for s, name in enumerate(names)]
        for place in range(1, self.seats + 1):
            self[f"place_{place}"].choices = [NO_SEAT, *seat_choices]

    def place_fields(self) -> list[Field]:
        return [self[f"place_{p}"] for p in range(1, self.seats + 1)]

    def fill(self, recorded: dict[str, Any]) -> None:
        for place, seat in zip(self.place_fields(), recorded.get("out_order", []),
                               strict=False):
            place.data = str(seat)

    def to_api(self) -> dict[str, Any]:
        return {"out_order": [seat for f in self.place_fields()
                              if (seat := _seat(f.data)) is not None]}

    def extras(self) -> dict[str, Any]:
        return {}  # Grand Seigneur's form asks for the finishing order only

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        self.shape_problems({f"place_{p}": ("out_order", "GS1")
                             for p in range(1, self.seats + 1)})
        return not any(self.problems.values())

    def attach(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.add_problem(field_group(problem.field), problem)


@cache
def ranking_form_class(seats: int) -> type[RankingFormBase]:
    attrs: dict[str, Any] = {"seats": seats}
    for place in range(1, seats + 1):
        attrs[f"place_{place}"] = SelectField(f"Out {place}.", choices=[NO_SEAT],
                                              validators=[Optional()])
    return type(f"RankingForm{seats}", (RankingFormBase,), attrs)


@cache
def hand_form_class(seats: int) -> type[HandFormBase]:
    """The hand form for a table of `seats` players: a place and a call per seat."""
    attrs: dict[str, Any] = {"seats": seats}
    for place in range(1, seats + 1):
        attrs[f"place_{place}"] = SelectField(f"Out {place}.", choices=[NO_SEAT],
                                              validators=[Optional()])
    for seat in range(seats):
        attrs[f"call_{seat}"] = RadioField(f"Call of seat {seat}", choices=CALL_CHOICES,
                                           default="", validators=[Optional()])
        attrs[f"bombs_{seat}"] = IntegerField(
            N_("Bombs"), validators=[Optional(), NumberRange(0, MOST_BOMBS)])
    attrs["note"] = StringField(N_("Note"), validators=[Optional(), Length(max=NOTE_MAX)])
    return type(f"HandForm{seats}", (HandFormBase,), attrs)


WISH_CHOICES = [SelectChoice("", _l("No wish"))] + [
    SelectChoice(r, r) for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


# How a trick line says "pass"; the page's card picker gets this list from the server.


class RefereeForm(Form):
    """A disputed play in card notation; read with GET, so a verdict is a shareable link."""

    class Meta(Form.Meta):
        csrf = False  # changes nothing on the server

    trick = TextAreaField("On the table",
                          validators=[Optional(), Length(max=2000)])
    play = StringField("Disputed play",
                       validators=[Optional(), Length(max=400)])
    hand = StringField("Rest of the hand (optional)",
                       validators=[Optional(), Length(max=400)])
    wish = SelectField("Mah Jong wish in force", choices=WISH_CHOICES, default="")
    variant = SelectField("Game", default=DEFAULT.key, choices=[
        SelectChoice(DEFAULT.key, _l("Tichu (4, 3 or 6 players)")),
        SelectChoice(SEIGNEUR.key, _l("Grand Seigneur"))])
    decks = SelectField("Decks (Grand Seigneur)", default="2", choices=[
        SelectChoice("2", _l("Two decks (7–12 players)")), SelectChoice("1", _l("One deck (5–6)"))])
    out_of_turn = BooleanField("Played out of turn")
    strict_wish = BooleanField("House rule: the wish beats a bomb (W5 strict)")
    dragon_kept = BooleanField("House rule: going out with the Dragon keeps its trick (R5)")
    dummy = BooleanField("Played from the dummy hand (Threechu)")
    match = StringField(validators=[Optional(), Length(max=24)])

    def question_body(self) -> dict[str, Any]:
        """The question in the docs/API.md shape (`answers.question`, which the phone's
        copy of the core reads the page's fields with, offline)."""
        return question({"trick": self.trick.data, "play": self.play.data,
                         "hand": self.hand.data, "wish": self.wish.data,
                         "variant": self.variant.data, "decks": self.decks.data,
                         "out_of_turn": self.out_of_turn.data,
                         "strict_wish": self.strict_wish.data, "dummy": self.dummy.data,
                         "dragon_kept": self.dragon_kept.data})


class PhoneForm(Form):
    """Whose phone this is (`phones.py`): shown to the other phones of the table when this
    one saves a hand. Empty: the phone is "another phone" again."""

    name = StringField(_l("Whose phone is this?"),
                       validators=[Optional(), Length(max=phones.NAME_MAX)])
