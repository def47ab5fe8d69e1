"""§3 combinations, §4 special cards as singles, §5 bombs: readings and beating."""

import pytest

from tichu_scorer.engine import beats, parse_cards, readings
from tichu_scorer.engine.combos import Kind


def read(*cards):
    return readings(parse_cards(cards))


@pytest.mark.parametrize("rule, cards, kind, rank, length, phoenix", [
    ("C1", ["7j"], "single", 7, 1, None),
    ("C2", ["7j", "7s"], "pair", 7, 2, None),
    ("C2", ["7j", "PH"], "pair", 7, 2, 7),
    ("C3", ["5j", "5s", "6p", "6t"], "stairs", 6, 4, None),
    ("C3", ["Jj", "Js", "Qp", "Qt", "Kj", "PH"], "stairs", 13, 6, 13),
    ("C4", ["2j", "2s", "2p"], "trio", 2, 3, None),
    ("C4", ["2j", "2s", "PH"], "trio", 2, 3, 2),
    ("C5", ["5j", "5s", "5p", "9t", "9j"], "full_house", 5, 5, None),
    ("C5", ["5j", "5s", "PH", "9t", "9j"], "full_house", 9, 5, 9),
    ("C5", ["5j", "5s", "5p", "9t", "PH"], "full_house", 5, 5, 9),
    ("C6", ["4j", "5s", "6p", "7t", "8j"], "straight", 8, 5, None),
    ("C6", ["MJ", "2s", "3p", "4t", "5j"], "straight", 5, 5, None),
    ("C6", ["MJ", "2s", "3p", "4t", "PH"], "straight", 5, 5, 5),
    ("C6", ["10s", "Jp", "Qt", "Kj", "Aj", "PH"], "straight", 14, 6, 9),
    ("C6", ["4j", "5s", "PH", "7t", "8j"], "straight", 8, 5, 6),
    ("C9", ["4j", "5s", "6p", "7t", "PH"], "straight", 8, 5, 8),
    ("B1", ["9j", "9s", "9p", "9t"], "bomb", 9, 4, None),
    ("B1", ["2p", "3p", "4p", "5p", "6p"], "bomb", 6, 5, None),
    ("B6", ["9t", "10t", "Jt", "Qt", "Kt", "At"], "bomb", 14, 6, None),
    ("S2", ["DOG"], "dog", 0, 1, None),
    ("S1", ["MJ"], "single", 1, 1, None),
    ("S5", ["DR"], "single", 15, 1, None),
    ("S4", ["PH"], "single", 1.5, 1, None),
])
def test_readings(rule, cards, kind, rank, length, phoenix):
    best = readings(parse_cards(cards))[0]
    assert (best.kind.value, best.rank, best.length, best.phoenix_as) == \
        (kind, rank, length, phoenix), rule


def test_c9_every_phoenix_reading():
    fh = read("9j", "9s", "5p", "5t", "PH")
    assert [(c.rank, c.phoenix_as) for c in fh] == [(9, 9), (5, 5)]
    st = read("4j", "5s", "6p", "7t", "PH")
    assert sorted((c.rank, c.phoenix_as) for c in st) == [(7, 3), (8, 8)]


@pytest.mark.parametrize("rule, cards", [
    ("C7", ["5j", "5s", "8p", "8t"]),           # pairs not adjacent
    ("C7", ["5j", "5s", "5p", "8t"]),           # trio plus a single
    ("C7", ["4j", "5s", "6p", "7t"]),           # a run of four
    ("C7", ["5j", "5s", "5p", "6t", "6j", "6s"]),  # two trios
    ("C7", ["Qj", "Ks", "Ap", "2t", "3j"]),     # no wrap-around
    ("C7", ["5j", "6s"]),
    ("C8", ["DOG", "5j"]),
    ("C8", ["DR", "DOG"]),
    ("C8", ["MJ", "MJ"]),
    ("C8", ["MJ", "2s"]),
    ("C8", ["MJ", "PH"]),
    ("S3", ["PH", "DR"]),
    ("S3", ["Kj", "Ks", "Ap", "At", "PH", "PH"]),
    ("S3", ["Jj", "Qs", "Kp", "At", "PH"]),      # the Phoenix cannot make a rank above A
    ("S5", ["DR", "Aj", "Kj", "Qj", "Jj"]),
    ("S7", ["3j", "3s", "3p", "3t", "PH"]),
    ("B1", ["2p", "3p", "4p", "5p", "PH"]),      # no special card in a bomb: a straight
])
def test_not_combinations(rule, cards):
    got = readings(parse_cards(cards))
    if rule == "B1":
        assert got and not any(c.is_bomb for c in got)
    elif rule == "S3" and cards == ["Jj", "Qs", "Kp", "At", "PH"]:
        assert [(c.rank, c.phoenix_as) for c in got] == [(14, 10)]
    else:
        assert got == [], rule


@pytest.mark.parametrize("rule, top, play, ok", [
    ("C1", ["7j"], ["8s"], True),
    ("C1", ["7j"], ["7s"], False),
    ("C2", ["7j", "7s"], ["8j", "PH"], True),
    ("C2", ["7j", "7s"], ["8j"], False),
    ("C3", ["5j", "5s", "6p", "6t"], ["6j", "6s", "7p", "7t"], True),
    ("C3", ["5j", "5s", "6p", "6t"], ["6j", "6s", "7p", "7t", "8j", "8s"], False),
    ("C5", ["5j", "5s", "5p", "Aj", "As"], ["6j", "6s", "6p", "2t", "2s"], True),
    ("C5", ["9j", "9s", "9p", "2j", "2s"], ["8j", "8s", "8p", "Aj", "As"], False),
    ("C6", ["3j", "4s", "5p", "6t", "7j"], ["4j", "5s", "6p", "7t", "8s"], True),
    ("C6", ["3j", "4s", "5p", "6t", "7j"], ["4j", "5s", "6p", "7t", "8s", "9s"], False),
    ("S4", ["Aj"], ["PH"], True),
    ("S4", ["DR"], ["PH"], False),
    ("S4", ["PH"], ["2j"], True),
    ("S4", ["PH"], ["MJ"], False),
    ("S5", ["Aj"], ["DR"], True),
    ("S5", ["DR"], ["Aj"], False),
    ("S2", ["DOG"], ["Aj"], False),
    ("B3", ["Aj", "As"], ["2j", "2s", "2p", "2t"], True),
    ("B3", ["DR"], ["2j", "2s", "2p", "2t"], True),
    ("B3", ["2j", "2s", "2p", "2t"], ["Aj", "As"], False),
    ("B2", ["2j", "2s", "2p", "2t"], ["3j", "3s", "3p", "3t"], True),
    ("B2", ["Aj", "As", "Ap", "At"], ["2p", "3p", "4p", "5p", "6p"], True),
    ("B2", ["3p", "4p", "5p", "6p", "7p"], ["2j", "3j", "4j", "5j", "6j", "7j"], True),
    ("B2", ["3p", "4p", "5p", "6p", "7p"], ["2j", "3j", "4j", "5j", "6j"], False),
    ("B2", ["3p", "4p", "5p", "6p", "7p"], ["4j", "5j", "6j", "7j", "8j"], True),
    ("B5", ["DOG"], ["2j", "2s", "2p", "2t"], False),
])
def test_beats(rule, top, play, ok):
    top_c = readings(parse_cards(top))[0]
    play_c = readings(parse_cards(play))[0]
    assert beats(play_c, top_c) is ok, rule


def test_anything_may_be_led():
    for cards in (["DOG"], ["PH"], ["MJ"], ["2j", "3j", "4j", "5j", "6j"]):
        assert beats(read(*cards)[0], None)
    assert read()[0].kind is Kind.PASS and not beats(read()[0], None)
