"""Cards as a player names them in a sentence, in the reader's language: the suit then the
rank as printed on the card ("Sword 8", "Pagoda K"), the special cards by name ("Phoenix").
The notation ("8s") stays for the API's card lists and for quoting words that are no card.

>>> from .cards import PH, parse_card, parse_cards
>>> card_name(parse_card("8s")), card_name(parse_card("10t")), card_name(PH)
('Sword 8', 'Star 10', 'Phoenix')
>>> card_names(parse_cards(["8t", "PH", "4j"]))
'Jade 4, Star 8 and Phoenix'
>>> card_names(parse_cards(["5j"]))
'Jade 5'
"""

from __future__ import annotations

from collections.abc import Iterable

from ..game.i18n import _
from .cards import SPECIAL_NAMES, SUIT_NAMES, Card, rank_text, sort_cards


def card_name(card: Card) -> str:
    """One card's name: "Jade 5", "Mah Jong"."""
    if card.suit:
        return _("{suit} {rank}").format(suit=_(SUIT_NAMES[card.suit]),
                                         rank=rank_text(card.rank))
    return _(SPECIAL_NAMES[card.rank])


def card_names(cards: Iterable[Card]) -> str:
    """Cards named lowest first, the last joined by "and": "Jade 4, Star 8 and Phoenix"."""
    names = [card_name(c) for c in sort_cards(cards)]
    if len(names) < 2:
        return "".join(names)
    return _("{cards} and {last}").format(cards=", ".join(names[:-1]), last=names[-1])


__all__ = ["card_name", "card_names"]
