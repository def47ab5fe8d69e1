"""What the tests of `forms` share: the players and sentences they use, and the forms as the
views make them, validated in a request context (no HTTP, no database)."""

from __future__ import annotations

from tichu_scorer import forms
from tichu_scorer.game import variants

FOUR = {"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy", "seat_3": "Dee"}
THREECHU = {"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cy", "variant": "threechu"}
NAMES = ("Ann", "Bob", "Cy", "Dee")
SAME = "“{}” and “{}” are the same player (names match whatever their capitals); each " \
       "seat needs a different player."
LEAD = "The lead that ends the match must be 50 to 10000 points in steps of 50."


def said(form) -> dict[str, list[tuple[str, str, str]]]:
    """The form's problems by group, as (field, rule, message)."""
    return {group: [(p.field, p.rule, p.message) for p in found]
            for group, found in form.problems.items() if found}


def new_match(app, data, tables=("new",)):
    """The new-match form as the view makes it (its tables' choices set), validated."""
    with app.test_request_context(method="POST", data=data):
        form = forms.NewMatchForm()
        form.table.choices = [(t, t) for t in tables]
        return form.validate(), form


def settings(app, data, seats=4, game=variants.NANKING, hand_limit=None):
    with app.test_request_context(method="POST", data=data):
        form = forms.MatchSettingsForm(seats=seats)
        return form.check(game, hand_limit), form


def hand(app, data, seats=4, names=NAMES, calls=()):
    with app.test_request_context(method="POST", data=data):
        form = forms.hand_form_class(seats)(names=names, calls=calls)
        return form.validate(), form
