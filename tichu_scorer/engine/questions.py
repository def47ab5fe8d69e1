"""The referee's question: a disputed play in its context, read from the docs/API.md body or
built from notation, and checked for possibility before it is judged.

A question that cannot be judged (bad notation, a card twice, a trick that could not have
happened) raises `QuestionError` naming the field (API 400).

>>> q = question(["8s"], [["4j"]], hand=["8s", "Kj"], wish="8")
>>> q.play, q.wish, q.trick[0].cards
((8s,), 8, (4j,))
>>> parse_question({"play": ["5j", "5j"]}).play
(5j, 5j)
>>> parse_question({"play": ["1j"]})
Traceback (most recent call last):
...
tichu_scorer.engine.questions.QuestionError: '1j' is not a card: ranks are 2-10, J, Q, K, A.
>>> check_cards(parse_question({"play": ["5j", "5j"], "hand": ["5j", "5j", "6s"]}))
Traceback (most recent call last):
...
tichu_scorer.engine.questions.QuestionError: Jade 5 appears twice; the deck has only one.

Messages name the cards the server read ("Jade 5") and quote, as typed, a word that is no
card; each is marked for translation (`game.i18n`), so the web layer shows it in the
reader's language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..game.house import RULE_BOOK, HouseRules, HouseRulesError, read_house_rules
from ..game.i18n import _
from ..game.variants import DEFAULT, VARIANTS, Variant, find
from .cards import (
    ACE,
    DECK,
    DOG_CARD,
    MJ,
    SUITS,
    Card,
    NotationError,
    parse_card,
    parse_cards,
    parse_rank,
)
from .combos import Combination, Kind, beats, contains_rank, on_table, readings
from .names import card_name, card_names
from .plays import Table

MAX_SEAT = 11  # the largest table has twelve seats ([GS1])


class QuestionError(ValueError):
    """A question that cannot be judged: bad notation, impossible cards or trick (API 400)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TrickPlay:
    cards: tuple[Card, ...]
    seat: int | None = None


_TABLES = {(seigneur, strict): Table(distinct_suit_fours=seigneur, dragon_beats_dragon=seigneur,
                                    strict_wish=strict)
           for seigneur in (False, True) for strict in (False, True)}
# each variant's tables by the house rule, looked up once per question part (the referee's
# hot path): (variant key, strict_wish) -> Table
_TABLE_OF = {(key, strict): _TABLES[(game.big_deck, strict)]
             for key, game in VARIANTS.items() for strict in (False, True)}
TABLE_OF = _TABLE_OF  # (the referee reads it once per question)
# the variants of one deck, whose cards are all distinct: checked with sets
_SIMPLE = {key: not game.big_deck for key, game in VARIANTS.items()}
_DOG = Kind.DOG
_OF_RANK = {r: tuple(Card(r, suit) for suit in SUITS) for r in range(2, ACE + 1)}


@dataclass(frozen=True)
class Question:
    play: tuple[Card, ...]
    trick: tuple[TrickPlay, ...] = ()
    hand: tuple[Card, ...] | None = None
    wish: int | None = None
    out_of_turn: bool = False
    seat: int | None = None
    variant: str = DEFAULT.key
    decks: int = 1
    strict_wish: bool = False
    phoenix_as: int | None = None  # [C9]: the reading the player names, if any
    dummy: bool = False  # Threechu: played from the dummy hand, which never owes the wish
    house: HouseRules = RULE_BOOK  # RULES.md §10.1: the referee reads [R5] (and [R8])

    @property
    def game(self) -> Variant:
        return VARIANTS[self.variant]

    @property
    def table(self) -> Table:
        return _TABLE_OF[self.variant, self.strict_wish]


def question(play: Sequence[object], trick: Sequence[Sequence[object]] = (),
             hand: Sequence[object] | None = None, wish: object = None,
             **options: object) -> Question:
    """A question from notation, for tests and doctests: trick items are card lists."""
    return Question(play=parse_cards(play),
                    trick=tuple(TrickPlay(parse_cards(t)) for t in trick),
                    hand=parse_cards(hand) if hand is not None else None,
                    wish=parse_rank(wish) if wish is not None else None,
                    **options)  # type: ignore[arg-type]


def copies_allowed(card: Card, variant: str, decks: int) -> int:
    """How many of this card the game's deck holds ([D1], [GS2])."""
    if not VARIANTS[variant].big_deck:
        return 1
    if card == DOG_CARD:
        return 0
    return 1 if card == MJ or decks == 1 else decks


def deck_of(variant: str, decks: int) -> dict[Card, int]:
    """The game's deck: each card it holds and how many copies ([D1], [GS2]).

    >>> seigneur = deck_of("seigneur", 2)
    >>> DOG_CARD in seigneur, seigneur[MJ], seigneur[parse_cards(["5j"])[0]], len(seigneur)
    (False, 1, 2, 55)
    """
    counts = ((card, copies_allowed(card, variant, decks)) for card in DECK)
    return {card: n for card, n in counts if n}


# the most cards of any game: Grand Seigneur's two decks ([GS2])
MOST_CARDS = max(sum(deck_of(key, n).values()) for key, game in VARIANTS.items()
                 for n in game.decks)


def check_cards(q: Question) -> None:
    """Every card at most as often as the deck holds it; the play from the hand."""
    read_cards(q)


def read_cards(q: Question) -> bool:
    """`check_cards` in one reading of the cards, and whether the hand holds a natural card
    of the wished rank ([W4]: not the Phoenix); False without a hand or a wish. A question
    of distinct cards, all in one deck, is checked with sets; any other is counted."""
    hand, play, trick = q.hand, q.play, q.trick
    held = hand if hand is not None else play
    held_set = set(held)
    if not _SIMPLE[q.variant] or len(held_set) != len(held) \
            or (len(play) > 1 and len(set(play)) != len(play)) \
            or (hand is not None and not held_set.issuperset(play)):
        _count_cards(q)
    elif trick:
        on = trick[0].cards if len(trick) == 1 else [c for t in trick for c in t.cards]
        if on and (len(set(on)) != len(on) or not held_set.isdisjoint(on)):
            _count_cards(q)
    seat = q.seat
    if seat is not None and not 0 <= seat <= MAX_SEAT:
        raise QuestionError("seat", _("seat must be a number from 0 to 11."))
    wish = q.wish
    if hand is None or wish is None:
        return False
    natural = _OF_RANK.get(wish)  # (a wish outside 2-A: the hand's ranks read one by one)
    return not held_set.isdisjoint(natural) if natural else contains_rank(hand, wish)


def _count_cards(q: Question) -> None:
    """QuestionError for a card given more often than the deck holds it, or played but not
    held."""
    held = q.hand if q.hand is not None else q.play
    simple = _SIMPLE[q.variant]
    held_set = set(held)
    on_table_cards = [c for t in q.trick for c in t.cards]
    if not simple or len(held_set) != len(held) or not held_set.isdisjoint(on_table_cards) \
            or len(set(on_table_cards)) != len(on_table_cards) or len(set(q.play)) != len(q.play):
        for name, cards in (("trick", on_table_cards), ("play", list(q.play)),
                            ("hand", list(held) + on_table_cards)):
            for card, n in Counter(cards).items():
                allowed = copies_allowed(card, q.variant, q.decks)
                if n > allowed:
                    raise QuestionError(name, _too_many(card, name == "hand", allowed))
    if q.hand is not None:
        if simple:
            missing_cards = [c for c in q.play if c not in held_set]
        else:
            missing_cards = list((Counter(q.play) - Counter(q.hand)).elements())
        if missing_cards:
            raise QuestionError("play", _("The given hand does not hold {cards}.").format(
                cards=card_names(missing_cards)))


def _too_many(card: Card, hand_and_table: bool, allowed: int) -> str:
    """Why a card is given more often than the game's deck holds it."""
    name = card_name(card)
    if allowed == 0:
        return _("{card} is not in this game's deck.").format(card=name)
    if hand_and_table:
        message = _("{card} is both in the hand and on the table; the deck has only one.") \
            if allowed == 1 else _("{card} is in the hand and on the table more often than "
                                   "the {n} decks hold it.")
    else:
        message = _("{card} appears twice; the deck has only one.") if allowed == 1 \
            else _("{card} appears more often than the {n} decks hold it.")
    return message.format(card=name, n=allowed)


def replay_trick(q: Question) -> tuple[Combination | None, int | None]:
    """The combination on top of the trick and its player's seat; QuestionError if the
    trick could not have happened."""
    return replay(q.trick, q.table)


def replay(trick: Sequence[TrickPlay], table: Table) -> tuple[Combination | None, int | None]:
    """`replay_trick` of `trick` under `table`'s rules."""
    if len(trick) == 1 and trick[0].cards:  # a lead alone (the most frequent): its highest reading
        options = readings(trick[0].cards, table.distinct_suit_fours)
        if options:
            return options[0], trick[0].seat
    top: Combination | None = None
    owner: int | None = None
    for i, item in enumerate(trick, start=1):
        if top is not None and top[0] is _DOG:
            raise QuestionError("trick", _("Nothing follows the Dog: it passes the lead at "
                                           "once (S2)."))
        cards = item.cards
        if not cards:
            if top is None:
                raise QuestionError("trick", _("Play {i} on the table is a pass, but a trick "
                                               "starts with a lead (H5).").format(i=i))
            continue
        options = readings(cards, table.distinct_suit_fours)
        if not options:
            raise QuestionError("trick", _("Play {i} on the table ({cards}) is not a "
                                           "combination.").format(
                                               i=i, cards=card_names(cards)))
        if top is None:  # a lead: its highest reading (any reading leads)
            top = options[0]
        else:
            for play in options:
                if beats(play, top, table.dragon_beats_dragon):
                    break
            else:
                raise QuestionError("trick", _("Play {i} on the table ({cards}) could not "
                                               "have been played on the {top}.").format(
                                                   i=i, cards=card_names(cards),
                                                   top=top.describe()))
            top = on_table(play, top)
        owner = item.seat
    return top, owner


def _variant_and_decks(body: dict[str, object]) -> tuple[str, int]:
    name = body.get("variant")
    game = DEFAULT if name is None else find(name)
    if game is None:
        raise QuestionError("variant", _("variant must be one of {names}.").format(
            names=", ".join(VARIANTS)))
    if body.get("dummy") and not game.has_dummy:
        raise QuestionError("dummy", _("Only Threechu has a dummy hand."))
    decks = body.get("decks", max(game.decks))
    if not game.big_deck:
        if "decks" in body and decks not in (None, 1):
            raise QuestionError("decks", _("decks applies to Grand Seigneur only."))
        return game.key, 1
    if not isinstance(decks, int) or isinstance(decks, bool) or decks not in game.decks:
        raise QuestionError("decks", _("decks must be 1 or 2."))
    return game.key, decks


def not_a_card(text: object) -> str:
    """Why `text` is no card, quoting it as typed (the notation of docs/API.md).

    >>> not_a_card("1j")
    "'1j' is not a card: ranks are 2-10, J, Q, K, A."
    >>> not_a_card("5x")[:40]
    "'5x' is not a card: the suit letter must"
    """
    quoted = f"{text!r:.20}"
    word = "".join(text.split()) if isinstance(text, str) else ""
    if len(word) < 2:
        return _("{word} is not a card: write cards like 5j, 10s, Ap, MJ.").format(word=quoted)
    if word[-1].lower() not in SUITS:
        return _("{word} is not a card: the suit letter must be j (Jade), s (Sword), "
                 "p (Pagoda) or t (Star).").format(word=quoted)
    return _("{word} is not a card: ranks are 2-10, J, Q, K, A.").format(word=quoted)


def _cards(name: str, value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise QuestionError(name, _("{field} must be a list of cards like [\"5j\", "
                                    "\"PH\"].").format(field=name))
    if len(value) > 56:
        raise QuestionError(name, _("{field} has more cards than a hand can hold.").format(
            field=name))
    try:
        return parse_cards(value)
    except NotationError:
        raise QuestionError(name, not_a_card(_first_unread(value))) from None


def _first_unread(texts: list[object]) -> object:
    """The first of `texts` that is no card."""
    for text in texts:
        try:
            parse_card(text)
        except NotationError:
            return text
    return texts[0]  # (not reached: parse_cards refused one of them)


def _seat(value: object, name: str, message: str) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise QuestionError(name, message)
    return value


def _trick(body: dict[str, object]) -> tuple[TrickPlay, ...]:
    raw = body.get("trick") or []
    if not isinstance(raw, list) or len(raw) > 200:
        raise QuestionError("trick", _("trick must be a list of {{\"cards\": [...]}} "
                                       "items.").format())
    trick = []
    cards = 0
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or "cards" not in item:
            raise QuestionError("trick", _("trick item {i} must be {{\"cards\": "
                                           "[...]}}.").format(i=i))
        cards += len(item["cards"]) if isinstance(item["cards"], list) else 0
        if cards > MOST_CARDS:  # refused before reading them all (a body of 11,000 cards)
            raise QuestionError("trick", _("The trick holds more cards than any deck."))
        seat = _seat(item.get("seat"), "trick", _("trick item {i}: seat must be a "
                                                  "number.").format(i=i))
        trick.append(TrickPlay(_cards("trick", item["cards"]), seat))
    return tuple(trick)


def _rank(body: dict[str, object], name: str) -> int | None:
    raw = body.get(name)
    try:
        return parse_rank(raw) if raw not in (None, "") else None
    except NotationError:
        raise QuestionError(name, _("{word} is not a rank: ranks are 2-10, J, Q, K, "
                                    "A.").format(word=f"{raw!r:.20}")) from None


def _flag(body: dict[str, object], name: str) -> bool:
    value = body.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise QuestionError(name, _("{field} must be true or false.").format(field=name))
    return value


def parse_question(body: object) -> Question:
    """A Question from the docs/API.md JSON body; QuestionError naming the field otherwise."""
    if not isinstance(body, dict):
        raise QuestionError("body", _("The body must be a JSON object."))
    variant, decks = _variant_and_decks(body)
    if "play" not in body:
        raise QuestionError("play", _("play is required: the disputed cards, or [] for a "
                                      "pass."))
    play = _cards("play", body["play"])
    trick = _trick(body)
    hand = body.get("hand")
    hand_cards = _cards("hand", hand) if hand is not None else None
    wish = _rank(body, "wish")
    out_of_turn, strict_wish, dummy = (_flag(body, name)
                                       for name in ("out_of_turn", "strict_wish", "dummy"))
    seat = _seat(body.get("seat"), "seat", _("seat must be a number."))
    phoenix_as = _rank(body, "phoenix_as")
    try:
        house = read_house_rules(body.get("house_rules"))
    except HouseRulesError as exc:
        raise QuestionError(exc.field, exc.message) from None
    return Question(play=play, trick=trick, hand=hand_cards, wish=wish, seat=seat,
                    variant=variant, decks=decks, phoenix_as=phoenix_as,
                    out_of_turn=out_of_turn, strict_wish=strict_wish, dummy=dummy,
                    house=house)


__all__ = ["VARIANTS", "QuestionError", "TrickPlay", "Question", "question", "copies_allowed",
           "deck_of", "check_cards", "read_cards", "replay_trick", "replay", "parse_question",
           "not_a_card"]
