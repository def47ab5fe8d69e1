"""The forms of a tournament's director: a new tournament (its kinds and pairings are the
formats', `formats.kinds`), a late arrival, a table reopened. A line of entries is read by
the tournament's format (`Format.read_entry`)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, RadioField, SelectChoice, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from ..forms import Form
from ..game.i18n import N_
from ..models import NAME_MAX
from .formats import (
    INDIVIDUAL,
    KNOCKOUT_SIZES,
    MOST_HANDS,
    MOST_ROUNDS,
    PAIRS_SWISS,
    kinds,
    pairings,
)


class TournamentForm(Form):
    name = StringField(_l("Name of the tournament"), filters=[lambda s: s.strip() if s else s],
                       validators=[DataRequired(), Length(max=NAME_MAX)])
    kind = RadioField(_l("Format"), default=INDIVIDUAL.kind,
                      choices=[SelectChoice(kind, label) for kind, label in kinds()])
    pairing = RadioField(_l("Pairs meet"), default=PAIRS_SWISS.pairing,
                         choices=[SelectChoice(word, label) for word, label in pairings()])
    knockout = RadioField(_l("Then a knockout of the best"), default="", choices=[
        SelectChoice("", N_("No")), *(SelectChoice(str(n), str(n)) for n in KNOCKOUT_SIZES)])
    rounds = IntegerField(_l("Rounds"), default=6,
                          validators=[InputRequired(), NumberRange(1, MOST_ROUNDS)])
    hands = IntegerField(_l("Hands per round"), default=4,
                         validators=[InputRequired(), NumberRange(1, MOST_HANDS)])
    entries = TextAreaField(_l("Players (one per line)"),
                            validators=[InputRequired(), Length(max=20_000)])


ARRIVAL_MAX = 3 * NAME_MAX + 5  # the longest pair's line: "Name: Player & Player"


class ArrivalForm(Form):
    name = StringField(_l("Late arrival"),
                       validators=[InputRequired(), Length(max=ARRIVAL_MAX)])


class ReopenForm(Form):
    """[TN5]: the table of a closed round to reopen (its match's key) and why; whether it
    may be reopened, and the reason's length, are the director's (`director.reopen`)."""

    table = StringField(_l("Table"), validators=[InputRequired(), Length(max=24)])
    reason = StringField(_l("Reason"), validators=[Length(max=2_000)])
