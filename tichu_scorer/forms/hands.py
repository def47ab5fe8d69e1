"""The hand forms: a place, a call and bombs per seat for the points games, the finishing
order for Grand Seigneur. Shape checks only; the hand's meaning comes from `scoring`, each
problem attached to the field group it concerns, with its rule id."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from functools import cache
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import Field, IntegerField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import Length, NumberRange, Optional

from ..core.answers import field_group
from ..game.i18n import N_
from ..models import MOST_BOMBS, NOTE_MAX
from ..scoring import Problem
from .base import Form, ProblemsMixin

CALL_CHOICES = [SelectChoice("", N_("No call")), SelectChoice("tichu", N_("Tichu")),
                SelectChoice("grand", N_("Grand Tichu"))]
NOBODY = SelectChoice("", _l("Nobody"))
NO_SEAT = SelectChoice("", "—")


def _seat(value: object) -> int | None:
    """A seat from a select's value; blank (even whitespace, which Optional() lets through)
    means none. The select's choices already refused anything else."""
    text = value.strip() if isinstance(value, str) else ""
    # (a seat has at most two digits: a longer one is no seat, and a 5,000-digit one would
    # pass Python's limit for reading a whole number)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def _api(places: list[int | None], calls: dict[str, str], card_a: int | None,
         card_b: int | None, wish: int | None) -> dict[str, Any]:
    """A hand in the docs/API.md shape, for `scoring.read_hand`."""
    return {"out_order": [seat for seat in places if seat is not None], "calls": calls,
            "card_points": [card_a, card_b],
            "wish_penalty": {"offender": wish} if wish is not None else None}


WHOLE = re.compile(r"-?[0-9]{1,4}")  # a whole number as the form's number fields send it


class _NotPlain(Exception):
    """A field the form would read otherwise than as sent (`HandFormBase.plain`)."""


def _one(sent: MultiDict[str, str], name: str) -> str:
    """The field's value, "" when not sent; sent twice, not plain."""
    values = sent.getlist(name)
    if len(values) > 1:
        raise _NotPlain(name)
    return values[0] if values else ""


def _choice(sent: MultiDict[str, str], name: str, choices: Mapping[str, Any]) -> Any:
    """The choice the field names, None when blank."""
    value = _one(sent, name)
    if value and value not in choices:
        raise _NotPlain(name)
    return choices[value] if value else None


def _number(sent: MultiDict[str, str], name: str, low: int, high: int) -> int | None:
    """The whole number in the field, None when blank."""
    value = _one(sent, name)
    if value and not (WHOLE.fullmatch(value) and low <= int(value) <= high):
        raise _NotPlain(name)
    return int(value) if value else None


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
        return _api([_seat(f.data) for f in self.place_fields()],
                    {str(s): f.data for s, f in enumerate(self.call_fields()) if f.data},
                    self.card_a.data, self.card_b.data, _seat(self.wish_offender.data))

    @classmethod
    def plain(cls, sent: MultiDict[str, str], names: tuple[str, ...],
              calls: tuple[tuple[str, int], ...] = ()
              ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """`to_api` and `extras` of the form that `sent` (the request's form fields) fills,
        without building it (the form costs a sixth of a save's CPU), when the form takes
        every value as sent: each field sent once at most, in the shape the page sends it (a
        seat or a call among the choices, a whole number in its range, a note not too long;
        or blank), the places without gaps. None for anything else: the form itself then
        reads it, and says what is wrong (tests/forms: the same hand, or None)."""
        seats = {str(s): s for s in range(len(names))}
        allowed = {c: c for c in ("tichu", "grand", *(name for name, _points in calls))}
        try:
            places = [_choice(sent, f"place_{p}", seats) for p in range(1, cls.seats + 1)]
            chosen = {str(s): c for s in range(cls.seats)
                      if (c := _choice(sent, f"call_{s}", allowed))}
            card_a, card_b = (_number(sent, n, -1000, 1000) for n in ("card_a", "card_b"))
            bombs = [_number(sent, f"bombs_{s}", 0, MOST_BOMBS) or 0 for s in range(cls.seats)]
            wish, note = _choice(sent, "wish_offender", seats), _one(sent, "note")
            _one(sent, "csrf_token")
        except _NotPlain:
            return None
        if len(note) > NOTE_MAX or any(places[i + 1] is not None and places[i] is None
                                       for i in range(len(places) - 1)):
            return None
        return (_api(places, chosen, card_a, card_b, wish), {"bombs": bombs, "note": note})

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

    @classmethod
    def plain(cls, sent: MultiDict[str, str], names: tuple[str, ...],
              calls: tuple[tuple[str, int], ...] = ()) -> None:
        return None  # (`HandFormBase.plain`): the form reads the finishing order itself

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
