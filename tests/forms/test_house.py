"""`forms.house`: own calls read as typed ([R9])."""

from __future__ import annotations

import pytest

from tichu_scorer import forms

pytestmark = pytest.mark.one_database  # no database is asked


def test_own_calls_reads_names_and_points_as_typed():
    assert forms.own_calls("blind = 400, Small:50") == {"blind": 400, "Small": 50}
    assert forms.own_calls(" Blind   Tichu = -50 , , ") == {"Blind Tichu": -50}
    assert forms.own_calls("huge = lots") == {"huge": "lots"}  # the rules say why not
    assert forms.own_calls(None) == forms.own_calls("") == {}
    for typed in ("blind", "= 400", "blind = 400, small"):
        with pytest.raises(ValueError):
            forms.own_calls(typed)
