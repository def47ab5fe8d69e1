"""Cards and their notation (RULES.md §1, docs/API.md "Card notation").

A card prints as the API writes it and parses back from that text:

>>> parse_card("10s"), parse_card(" J t "), parse_card("ph")
(10s, Jt, PH)
>>> parse_cards(["MJ", "5j", "Ap"])
(MJ, 5j, Ap)
>>> parse_card("1j")
Traceback (most recent call last):
...
tichu_scorer.engine.cards.NotationError: '1j' is not a card: ranks are 2-10, J, Q, K, A
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import NamedTuple

from ..game.i18n import N_

SUITS = ("j", "s", "p", "t")  # Jade, Sword, Pagoda, Star
SUIT_NAMES = {"j": N_("Jade"), "s": N_("Sword"), "p": N_("Pagoda"), "t": N_("Star")}
RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_OF_TEXT = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
_RANK_TEXT = {r: str(r) for r in range(2, 11)} | RANK_TEXT | {1: "MJ"}  # rank_text's

# Ranks of the special cards. MAHJONG ranks 1 ([S1]); the Dragon is above every rank ([S5]).
MAHJONG, DOG, PHOENIX, DRAGON = 1, 0, 16, 15
ACE = 14  # the highest natural rank ([D1])
SPECIAL_TEXT = {MAHJONG: "MJ", DOG: "DOG", PHOENIX: "PH", DRAGON: "DR"}
SPECIAL_OF_TEXT = {"MJ": MAHJONG, "DOG": DOG, "HOUND": DOG, "PH": PHOENIX, "DR": DRAGON}
SPECIAL_NAMES = {MAHJONG: N_("Mah Jong"), DOG: N_("Dog"), PHOENIX: N_("Phoenix"),
                 DRAGON: N_("Dragon")}


class NotationError(ValueError):
    """Text that is not a card in the API notation."""


def rank_text(rank: int) -> str:
    """The printed form of a rank from 2 to A (1 prints as the Mah Jong).

    >>> rank_text(10), rank_text(14), rank_text(1)
    ('10', 'A', 'MJ')
    """
    text = _RANK_TEXT.get(rank)
    return text if text is not None else str(rank)


def parse_rank(text: object) -> int:
    """A wish rank from "2"…"10", "J", "Q", "K", "A" (case-insensitive, T = 10).

    >>> parse_rank("q"), parse_rank("10"), parse_rank(8)
    (12, 10, 8)
    """
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= ACE:
        return text
    if not isinstance(text, str):
        raise NotationError(f"{text!r:.20} is not a rank: ranks are 2-10, J, Q, K, A")
    t = text.strip().upper()
    if t in RANK_OF_TEXT:
        return RANK_OF_TEXT[t]
    if t.isascii() and t.isdigit() and 2 <= int(t) <= 10:
        return int(t)
    raise NotationError(f"{text!r:.20} is not a rank: ranks are 2-10, J, Q, K, A")


class Card(NamedTuple):
    """One card. `rank` 2–14 with a suit, or a special card's rank with suit ''.

    A named tuple: immutable, ordered by (rank, suit), and hashed in C, which the referee's
    many set and dict look-ups rely on for speed.
    """

    rank: int
    suit: str = ""

    @property
    def is_normal(self) -> bool:
        return self.suit != ""

    @property
    def points(self) -> int:
        """Card points ([D2]): 5s are 5, 10s and Ks 10, Dragon 25, Phoenix −25."""
        if self.suit:
            return 5 if self.rank == 5 else 10 if self.rank in (10, 13) else 0
        return 25 if self.rank == DRAGON else -25 if self.rank == PHOENIX else 0

    @property
    def name(self) -> str:
        """A player's name for the card, e.g. "Jade 5", "Phoenix"."""
        if self.suit:
            return f"{SUIT_NAMES[self.suit]} {rank_text(self.rank)}"
        return SPECIAL_NAMES[self.rank]

    def __repr__(self) -> str:
        text = _NOTATION.get(self)  # every card of the deck, written once
        if text is not None:
            return text
        if self.suit:
            return rank_text(self.rank) + self.suit
        return SPECIAL_TEXT[self.rank]

    def __str__(self) -> str:
        return self.__repr__()


MJ = Card(MAHJONG)
DOG_CARD = Card(DOG)
PH = Card(PHOENIX)
DR = Card(DRAGON)
SPECIALS = (MJ, DOG_CARD, PH, DR)
NORMALS = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, ACE + 1))
DECK = NORMALS + SPECIALS
_NOTATION: dict[Card, str] = {}
_NOTATION.update((card, repr(card)) for card in DECK)
_ORDER = {card: i for i, card in enumerate(sorted(
    DECK, key=lambda c: (c.rank, SUITS.index(c.suit) if c.suit else -1)))}


def parse_card(text: object) -> Card:
    """A card from its notation (case-insensitive for ranks and specials; whitespace ignored)."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise NotationError(f"{text!r:.20} is not a card: write cards like 5j, 10s, Ap, MJ")
    t = "".join(text.split())
    upper = t.upper()
    if upper in SPECIAL_OF_TEXT:
        return SPECIALS[(MAHJONG, DOG, PHOENIX, DRAGON).index(SPECIAL_OF_TEXT[upper])]
    if len(t) < 2:
        raise NotationError(f"{text!r:.20} is not a card: write cards like 5j, 10s, Ap, MJ")
    suit = t[-1].lower()
    if suit not in SUITS:
        raise NotationError(f"{text!r:.20} is not a card: the suit letter must be "
                            "j (Jade), s (Sword), p (Pagoda) or t (Star)")
    try:
        rank = parse_rank(t[:-1])
    except NotationError:
        raise NotationError(f"{text!r:.20} is not a card: ranks are 2-10, J, Q, K, A") from None
    return Card(rank, suit)


def spellings(card: Card) -> list[str]:
    """Every one-word way of writing `card` that `parse_card` reads: the letters in either
    case, T for 10, HOUND for the Dog (not counting leading zeros). The page's card picker
    reads typed cards with this list, so that it never reads a card the server would not.

    >>> spellings(parse_card("10s"))
    ['10S', '10s', 'TS', 'Ts', 'tS', 'ts']
    >>> len(spellings(DOG_CARD))
    40
    """
    if card.suit:
        ranks = ["10", "T"] if card.rank == 10 else [rank_text(card.rank)]
        words = [rank + card.suit for rank in ranks]
    else:
        words = [word for word, rank in SPECIAL_OF_TEXT.items() if rank == card.rank]
    return sorted({"".join(letters) for word in words
                   for letters in product(*({ch.lower(), ch.upper()} for ch in word))})


def parse_cards(texts: Iterable[object]) -> tuple[Card, ...]:
    """Cards from a list of notations, in the given order."""
    return tuple(parse_card(t) for t in texts)


def show(cards: Iterable[Card]) -> str:
    """Cards in notation, lowest first, e.g. "4j 5s PH 7t 8t".

    >>> show(parse_cards(["8t", "PH", "4j"]))
    '4j 8t PH'
    """
    return " ".join(map(repr, sort_cards(cards)))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Lowest first: Dog, Mah Jong, 2…A by rank then suit, Dragon, Phoenix."""
    cards = list(cards)
    try:
        return sorted(cards, key=_ORDER.__getitem__)  # the deck's order, looked up
    except KeyError:  # a card outside the deck
        return sorted(cards, key=lambda c: (c.rank, SUITS.index(c.suit) if c.suit else -1))

