"""The forms of a tournament's director: a new tournament, a late arrival, a table
reopened."""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, RadioField, SelectChoice, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from ..forms import Form
from ..game.i18n import N_
from ..models import NAME_MAX
from .director import ALL, INDIVIDUAL, MOST_HANDS, MOST_ROUNDS, PAIRS, SWISS, Entry

SPLIT = re.compile(r"\s*(?:&|\+|/|,| und | and )\s*", re.IGNORECASE)
PAIR_NAMED = re.compile(r"^\s*([^:]{1,40}?)\s*:\s*(.+)$")


def read_entry(line: str, kind: str) -> Entry:
    """A line of the entries box: a player's name, or a pair: "Ann & Bob" (also "Ann, Bob"
    or "Ann / Bob"), optionally named first: "Dragons: Ann & Bob".

    >>> read_entry("Dragons: Ann & Bob", "pairs")
    Entry(name='Dragons', members=('Ann', 'Bob'))
    >>> read_entry(" Ann ,Bob", "pairs").members
    ('Ann', 'Bob')
    """
    if kind == INDIVIDUAL:
        return Entry(" ".join(line.split()))
    named = PAIR_NAMED.match(line)
    name, rest = (named.group(1), named.group(2)) if named else ("", line)
    members = tuple(m for m in (" ".join(p.split()) for p in SPLIT.split(rest.strip())) if m)
    return Entry(" ".join(name.split()), members)


def read_entries(text: str, kind: str) -> list[Entry]:
    return [read_entry(line, kind) for line in text.splitlines() if line.strip()]


class TournamentForm(Form):
    name = StringField(_l("Name of the tournament"), filters=[lambda s: s.strip() if s else s],
                       validators=[DataRequired(), Length(max=NAME_MAX)])
    kind = RadioField(_l("Format"), default=INDIVIDUAL, choices=[
        SelectChoice(INDIVIDUAL, N_("Individual: new partners every round")),
        SelectChoice(PAIRS, N_("Pairs: fixed partners"))])
    pairing = RadioField(_l("Pairs meet"), default=SWISS, choices=[
        SelectChoice(SWISS, N_("Swiss: pairs of close standing")),
        SelectChoice(ALL, N_("All against all"))])
    knockout = RadioField(_l("Then a knockout of the best"), default="", choices=[
        SelectChoice("", N_("No")), SelectChoice("2", "2"), SelectChoice("4", "4"),
        SelectChoice("8", "8")])
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
