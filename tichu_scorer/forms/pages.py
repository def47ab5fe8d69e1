"""The forms of the other pages: a disputed play for the referee, a phone's name."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from ..core.answers import question
from ..game.variants import DEFAULT, SEIGNEUR
from ..tables import phones
from .base import Form

WISH_CHOICES = [SelectChoice("", _l("No wish"))] + [
    SelectChoice(r, r) for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


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
    """Whose phone this is (`tables/phones.py`): shown to the other phones of the table when this
    one saves a hand. Empty: the phone is "another phone" again."""

    name = StringField(_l("Whose phone is this?"),
                       validators=[Optional(), Length(max=phones.NAME_MAX)])
