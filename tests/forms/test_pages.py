"""`forms.pages`: the referee's question from the address, the phone's name."""

from __future__ import annotations

import pytest
from flask import request

from tichu_scorer import forms

pytestmark = pytest.mark.one_database  # no database is asked


def test_the_referee_form_reads_a_question_from_the_address(app):
    asked = {"trick": "5j", "play": "6s", "wish": "7", "out_of_turn": "y"}
    with app.test_request_context(query_string=asked):
        form = forms.RefereeForm(request.args)  # read with GET, as the view does
        assert form.validate()
        body = form.question_body()
    assert (body["trick"], body["play"], body["wish"]) == ([{"cards": ["5j"]}], ["6s"], "7")
    assert (body["out_of_turn"], body["strict_wish"]) == (True, False)
    with app.test_request_context(query_string={"wish": "1"}):  # the Mah Jong is 1 [S1]
        form = forms.RefereeForm(request.args)
        assert not form.validate() and list(form.errors) == ["wish"]


def test_a_phones_name_is_at_most_24_characters(app):
    with app.test_request_context(method="POST", data={"name": "x" * 25}):
        form = forms.PhoneForm()
        assert not form.validate() and list(form.errors) == ["name"]
    with app.test_request_context(method="POST", data={"name": "x" * 24}):
        assert forms.PhoneForm().validate()
