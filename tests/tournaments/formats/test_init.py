"""`formats`: a tournament's format found from its stored words, and the choices the new
tournament's form offers. Pure."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tichu_scorer.tournaments import formats
from tichu_scorer.tournaments.formats import INDIVIDUAL, PAIRS_ALL, PAIRS_SWISS


@pytest.mark.parametrize("kind, pairing, fmt", [
    ("individual", None, INDIVIDUAL), ("individual", "swiss", INDIVIDUAL),
    ("pairs", "swiss", PAIRS_SWISS), ("pairs", "all", PAIRS_ALL),
    ("pairs", None, PAIRS_SWISS),  # the pairing the draw has always given it
])
def test_a_format_is_found_from_its_stored_words(kind, pairing, fmt):
    assert formats.named(kind, pairing) is fmt
    assert formats.of(SimpleNamespace(kind=kind, pairing=pairing)) is fmt


def test_each_format_is_stored_as_it_is_found():
    for fmt in formats.FORMATS:
        assert formats.named(fmt.kind, fmt.pairing) is fmt


def test_an_unknown_kind_is_a_bug():
    with pytest.raises(ValueError, match="teams"):
        formats.named("teams")


def test_the_form_offers_each_kind_once_and_the_pairings_of_pairs():
    assert formats.kinds() == [("individual", "Individual: new partners every round"),
                               ("pairs", "Pairs: fixed partners")]
    assert formats.pairings() == [("swiss", "Swiss: pairs of close standing"),
                                  ("all", "All against all")]
