"""[D1]–[D3] and the card notation of API.md."""

from itertools import product

import pytest

from tichu_scorer.engine.cards import (
    DECK,
    NotationError,
    parse_card,
    parse_cards,
    parse_rank,
    show,
    spellings,
)


def test_deck_has_56_cards_and_100_points():  # [D1], [D2]
    assert len(DECK) == len(set(DECK)) == 56
    assert sum(c.points for c in DECK) == 100


@pytest.mark.parametrize("text, printed", [
    ("5j", "5j"), ("10s", "10s"), ("Ts", "10s"), ("tS", "10s"), ("qp", "Qp"), ("At", "At"),
    ("mj", "MJ"), ("Dog", "DOG"), ("ph", "PH"), ("dr", "DR"), (" 1 0 j ", "10j"), ("Kt", "Kt"),
])
def test_parse_and_print_round_trip(text, printed):
    card = parse_card(text)
    assert repr(card) == printed
    assert parse_card(repr(card)) == card


@pytest.mark.parametrize("text", ["", "1j", "11s", "5x", "j", "Dragon?", "PHX", "0t", 5, None])
def test_bad_notation_is_refused_clearly(text):
    with pytest.raises(NotationError) as exc:
        parse_card(text)
    assert "card" in str(exc.value)


@pytest.mark.parametrize("text, rank", [("2", 2), ("10", 10), ("t", 10), ("j", 11),
                                        ("Q", 12), ("k", 13), ("A", 14)])
def test_parse_rank(text, rank):
    assert parse_rank(text) == rank


@pytest.mark.parametrize("text", ["1", "MJ", "DR", "11", "", None, 15])
def test_wish_is_never_a_special_card(text):  # [S1]
    with pytest.raises(NotationError):
        parse_rank(text)


def test_show_sorts_lowest_first():  # [D3]
    assert show(parse_cards(["DR", "Aj", "2s", "MJ", "PH", "DOG"])) == "DOG MJ 2s Aj DR PH"


@pytest.mark.parametrize("text", ["²j", "٣s", "²", "１０p"])
def test_non_ascii_digits_are_not_ranks(text):
    with pytest.raises(NotationError):
        parse_card(text) if text[-1] in "jspt" else parse_rank(text)


def _words(alphabet, longest):
    for size in range(1, longest + 1):
        yield from ("".join(letters) for letters in product(alphabet, repeat=size))


def test_spellings_are_exactly_what_the_parser_reads():
    """The page's card picker reads typed words with `spellings`: over every short word of
    the notation's letters, and every case of the special names, a word is a spelling of a
    card exactly when the server parses it as that card (leading zeros aside)."""
    spelled = {word: card for card in DECK for word in spellings(card)}
    specials = ("".join(cs) for name in ("MJ", "DOG", "HOUND", "PH", "DR", "DRX", "PHO")
                for cs in product(*({c.lower(), c.upper()} for c in name)))
    for word in [*_words("0123456789jspt JQKATjqkat,", 3), *specials]:
        try:
            parsed = parse_card(word)
        except NotationError:
            parsed = None
        if word.strip().startswith("0") or " " in word:
            continue  # "02j" and "J t" parse, but no typed word of the picker holds them
        assert spelled.get(word) == parsed, word
