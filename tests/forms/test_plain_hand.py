"""`HandFormBase.plain`: a new hand read from the form's fields without building the form
(the save's quick path) gives what the form gives, or gives way to the form."""

from __future__ import annotations

import random

import pytest
from flask import request

from tests.forms.common import NAMES
from tichu_scorer import forms
from tichu_scorer.models import MOST_BOMBS, NOTE_MAX

pytestmark = pytest.mark.one_database  # no database is asked

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
BLANK = [None, ""]  # None: the field not sent
ODD = [" ", "x", "-1", "00", "+1", " 1", "١", "1.0", "5_0", "٥٠", "1005", "-1001", "Tichu",
       " tichu", "blind", ["0", "1"], ["", ""], "x" * (NOTE_MAX + 1), " " * (NOTE_MAX + 1)]


def sent(rng: random.Random, seats: int) -> dict:
    """Form fields as the page sends them, each field now and then blank, not sent, or
    changed to a value no page sends (a script's, a mistake's)."""
    out = rng.sample(range(seats), rng.randint(0, seats))
    fields: dict = {f"place_{p}": str(seat) for p, seat in enumerate(out, start=1)}
    fields |= {f"place_{p}": rng.choice(BLANK) for p in range(len(out) + 1, seats + 1)}
    fields |= {f"call_{s}": rng.choice(["tichu", "grand", "blind", *BLANK])
               for s in range(seats)}
    fields |= {f"bombs_{s}": rng.choice([str(n) for n in range(MOST_BOMBS + 1)] + BLANK)
               for s in range(seats)}
    fields |= {"card_a": rng.choice(["50", "-25", "0", "-0", "0050", "1000", "-1000", *BLANK]),
               "card_b": rng.choice(["50", "125", *BLANK]),
               "wish_offender": rng.choice([str(s) for s in range(seats)] + BLANK),
               "note": rng.choice(["late", " ", "x" * NOTE_MAX, *BLANK]),
               "csrf_token": rng.choice(["token", None])}
    odd = rng.choice([0.0, 0.02, 0.1, 0.5])
    fields = {k: rng.choice(ODD + [str(seats)]) if rng.random() < odd else v
              for k, v in fields.items()}
    return {k: v for k, v in fields.items() if v is not None}


@pytest.mark.parametrize("names, calls", [(NAMES, ()), (NAMES, (("blind", 400),)),
                                          (SIX, ())])
def test_a_hand_read_plain_is_the_hand_the_form_reads(app, names, calls):
    rng = random.Random(len(names) * 10 + len(calls))
    form_class = forms.hand_form_class(len(names))
    read = 0
    for _ in range(800):
        data = sent(rng, len(names))
        with app.test_request_context(method="POST", data=data):
            plain = form_class.plain(request.form, names, calls)
            form = form_class(names=names, calls=calls)
            valid = form.validate()
            if plain is not None:
                read += 1
                assert valid, (data, form.errors)
                assert plain == (form.to_api(), form.extras()), data
    assert read > 100  # the quick path was taken often enough to be compared


def test_the_hand_forms_page_sends_is_read_plain(app):
    """What hand.js sends for a hand: every field, the unused ones blank."""
    data = {"place_1": "2", "place_2": "0", "place_3": "", "place_4": "", "call_0": "tichu",
            "call_1": "", "call_2": "", "call_3": "", "card_a": "", "card_b": "35",
            "wish_offender": "", "bombs_0": "", "bombs_1": "1", "bombs_2": "", "bombs_3": "",
            "note": "", "csrf_token": "token", "number": "3", "entry": "3",
            "client_id": "c-1"}
    with app.test_request_context(method="POST", data=data):
        assert forms.hand_form_class(4).plain(request.form, NAMES) == (
            {"out_order": [2, 0], "calls": {"0": "tichu"}, "card_points": [None, 35],
             "wish_penalty": None}, {"bombs": [0, 1, 0, 0], "note": ""})


def test_grand_seigneurs_form_reads_its_fields_itself(app):
    with app.test_request_context(method="POST", data={"place_1": "0"}):
        assert forms.ranking_form_class(5).plain(request.form, NAMES + ("Eve",)) is None
