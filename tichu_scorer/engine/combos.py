"""Combinations (RULES.md §3, §5) and what beats what (§3–§5).

`readings` lists every way a set of cards can be read, each Phoenix reading included
([C9]); `beats` says whether one reading beats the combination on the table.

>>> [c.describe() for c in readings(parse_cards(["9j", "9s", "5p", "5t", "PH"]))]
['full house of 9s over 5s, Phoenix as 9', 'full house of 5s over 9s, Phoenix as 5']
>>> readings(parse_cards(["3j", "3s", "3p", "3t", "PH"]))
[]
>>> readings(parse_cards(["4j", "5j", "6j", "7j", "8j"]))[0].describe()
'straight flush bomb 4–8'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

from ..scoring.i18n import _
from .cards import DOG, DOG_CARD, DR, DRAGON, MAHJONG, MJ, PH, PHOENIX, Card, parse_cards, rank_text


class Kind(str, Enum):
    SINGLE = "single"
    PAIR = "pair"
    STAIRS = "stairs"
    TRIO = "trio"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    BOMB = "bomb"
    DOG = "dog"
    PASS = "pass"  # nosec B105: the name of a move, not a password


# The rule that defines each kind, cited when a play does not match the table.
KIND_RULE = {Kind.SINGLE: "C1", Kind.PAIR: "C2", Kind.STAIRS: "C3", Kind.TRIO: "C4",
             Kind.FULL_HOUSE: "C5", Kind.STRAIGHT: "C6", Kind.BOMB: "B2", Kind.DOG: "S2",
             Kind.PASS: "H5"}


class Combination(NamedTuple):
    """One reading of a play. `rank` is the top rank (the trio's for a full house; a
    Phoenix single's value, e.g. 8.5, once it lies on the table). Immutable; a named tuple
    because the enumerator creates thousands of them."""

    kind: Kind
    rank: float
    length: int
    cards: tuple[Card, ...] = ()
    phoenix_as: int | None = None
    straight_flush: bool = False

    @property
    def is_bomb(self) -> bool:
        return self.kind is Kind.BOMB

    @property
    def bomb_key(self) -> tuple[int, int, float]:
        """[B2]: straight flushes above fours; then length; then top rank."""
        return (1 if self.straight_flush else 0, self.length, self.rank)

    @property
    def phoenix_single(self) -> bool:
        return self.kind is Kind.SINGLE and self.cards == (PH,)

    def __repr__(self) -> str:
        return f"<{self.describe()}: {' '.join(repr(c) for c in self.cards)}>"

    def rank_text(self) -> str:
        if self.rank != int(self.rank):
            return f"{self.rank:.1f}"
        if self.rank == DRAGON:
            return "DR"
        return str(int(self.rank))

    def value_text(self) -> str:
        """A Phoenix single's value as a player says it: "1½", "8½", "A½"."""
        whole = int(self.rank)
        return (rank_text(whole) if whole > 1 else "1") + ("½" if self.rank != whole else "")

    def as_dict(self) -> dict[str, object]:
        """The docs/API.md shape: kind, rank, length, phoenix_as."""
        out: dict[str, object] = {"kind": self.kind.value, "rank": self.rank_text(),
                                  "length": self.length}
        if self.phoenix_as is not None:
            out["phoenix_as"] = rank_text(self.phoenix_as)
        return out

    def describe(self) -> str:
        """How the play reads, for a player: "straight 4–8, Phoenix as 6"."""
        k, top = self.kind, int(self.rank)
        ph = _(", Phoenix as {rank}").format(rank=rank_text(self.phoenix_as)) \
            if self.phoenix_as else ""
        if k is Kind.PASS:
            return _("a pass")
        if k is Kind.DOG:
            return _("the Dog")
        if k is Kind.SINGLE:
            if self.phoenix_single:
                return _("Phoenix single (worth {value})").format(value=self.value_text())
            name = _("Dragon") if top == DRAGON else _("Mah Jong") if top == MAHJONG \
                else rank_text(top)
            return _("single {card}").format(card=name)
        if k is Kind.PAIR:
            return _("pair of {rank}s").format(rank=rank_text(top)) + ph
        if k is Kind.TRIO:
            return _("trio of {rank}s").format(rank=rank_text(top)) + ph
        if k is Kind.FULL_HOUSE:
            pair = next(c.rank for c in self.cards if c.is_normal and c.rank != top) \
                if any(c.is_normal and c.rank != top for c in self.cards) else self.phoenix_as
            return _("full house of {trio}s over {pair}s").format(
                trio=rank_text(top), pair=rank_text(pair or 0)) + ph
        low = top - (self.length // 2 if k is Kind.STAIRS else self.length) + 1
        span = f"{rank_text(low) if low > 1 else '1'}–{rank_text(top)}"
        if k is Kind.STAIRS:
            return _("stairs {span} ({pairs} pairs)").format(span=span,
                                                             pairs=self.length // 2) + ph
        if k is Kind.STRAIGHT:
            return _("straight {span}").format(span=span) + ph
        if self.straight_flush:
            return _("straight flush bomb {span}").format(span=span)
        return _("bomb: four {rank}s").format(rank=rank_text(top))


PASS = Combination(Kind.PASS, 0, 0)


def _classify(counts: dict[int, int], n: int) -> tuple[Kind, int] | None:
    """The kind and top rank of natural cards given as rank -> count, or None ([C1]–[C7])."""
    ranks = sorted(counts)
    if n == 2 and len(ranks) == 1:
        return (Kind.PAIR, ranks[0]) if ranks[0] >= 2 else None
    if n == 3 and len(ranks) == 1:
        return (Kind.TRIO, ranks[0]) if ranks[0] >= 2 else None
    if n == 5 and len(ranks) == 2 and ranks[0] >= 2:
        a, b = ranks
        if counts[a] == 3 and counts[b] == 2:
            return Kind.FULL_HOUSE, a
        if counts[b] == 3 and counts[a] == 2:
            return Kind.FULL_HOUSE, b
        return None
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        return None
    if n >= 4 and n % 2 == 0 and ranks[0] >= 2 and all(counts[r] == 2 for r in ranks):
        return Kind.STAIRS, ranks[-1]
    if n >= 5 and len(ranks) == n:
        return Kind.STRAIGHT, ranks[-1]
    return None


def _natural_reading(cards: tuple[Card, ...], suits: set[str],
                     distinct_suit_fours: bool) -> list[Combination]:
    """The one reading of four or more natural cards, or [] ([C3], [C5], [C6], [B1])."""
    n = len(cards)
    ranks = sorted(c.rank for c in cards)
    low, high = ranks[0], ranks[-1]
    if low == high:
        if n == 4 and (not distinct_suit_fours or len(suits) == 4):
            return [Combination(Kind.BOMB, low, 4, cards)]
        return []
    if n >= 5 and high - low == n - 1 and len(set(ranks)) == n:
        if len(suits) == 1:
            return [Combination(Kind.BOMB, high, n, cards, straight_flush=True)]
        return [Combination(Kind.STRAIGHT, high, n, cards)]
    if n == 5:
        if ranks[1] == low and ranks[3] == high and ranks[2] in (low, high):
            return [Combination(Kind.FULL_HOUSE, ranks[2], 5, cards)]
        return []
    if n % 2 == 0 and high - low == n // 2 - 1 and ranks[0::2] == ranks[1::2] \
            and len(set(ranks)) == n // 2:
        return [Combination(Kind.STAIRS, high, n, cards)]
    return []


def readings(cards: Sequence[Card], distinct_suit_fours: bool = False) -> list[Combination]:
    """Every reading of `cards` as one combination, highest first; [] when there is none.

    A straight flush reads only as a bomb ([B6]); a Phoenix single reads as 1½ (its value
    on the table is set by `on_table`).
    """
    n = len(cards)
    if n == 0:
        return [PASS]
    if n == 1:
        c = cards[0]
        if c == DOG_CARD:
            return [Combination(Kind.DOG, 0, 1, (c,))]
        if c == PH:
            return [Combination(Kind.SINGLE, 1.5, 1, (c,))]
        return [Combination(Kind.SINGLE, c.rank, 1, (c,))]
    if n <= 3 and PH not in cards:  # the common short plays, without the general search
        rank = cards[0].rank
        if cards[0].suit and all(c.rank == rank and c.suit for c in cards):
            return [Combination(Kind.PAIR if n == 2 else Kind.TRIO, rank, n, tuple(cards))]
        return []
    suits = {c.suit for c in cards}
    if "" not in suits:  # natural cards only: the common long plays, read directly
        return _natural_reading(tuple(cards), suits, distinct_suit_fours)
    counts: dict[int, int] = {}
    suits = set()
    phoenixes = 0
    specials = False
    for rank, suit in cards:  # one pass: ranks, suits, special cards
        if suit:
            counts[rank] = counts.get(rank, 0) + 1
            suits.add(suit)
        elif rank == PHOENIX:
            phoenixes += 1
            specials = True
        elif rank == MAHJONG:
            counts[1] = counts.get(1, 0) + 1
            specials = True
        else:
            return []  # [C8], [S5]: the Dog and the Dragon only ever play alone
    if not specials:  # [B1]: bombs hold no special card
        if n == 4 and len(counts) == 1 and (not distinct_suit_fours or len(suits) == 4):
            return [Combination(Kind.BOMB, cards[0].rank, 4, tuple(cards))]
        if n >= 5 and len(suits) == 1 and len(counts) == n \
                and max(counts) - min(counts) == n - 1:
            return [Combination(Kind.BOMB, max(counts), n, tuple(cards), straight_flush=True)]
    if phoenixes > 1 or not counts:
        return []
    tcards = tuple(cards)
    found: list[Combination] = []
    if not phoenixes:
        kind = _classify(counts, n)
        if kind and (MAHJONG not in counts or kind[0] is Kind.STRAIGHT):
            found.append(Combination(kind[0], kind[1], n, tcards))
        return found
    low, high = min(counts), max(counts)
    # [S3]: the Phoenix stands for 2..A, never the Mah Jong; any reading has it next to or
    # among the natural ranks, so only those ranks need trying.
    for stand in range(max(2, low - 1), min(14, high + 1) + 1):
        trial = dict(counts)
        trial[stand] = trial.get(stand, 0) + 1
        kind = _classify(trial, n)
        if kind and (MAHJONG not in trial or kind[0] is Kind.STRAIGHT):
            found.append(Combination(kind[0], kind[1], n, tcards, phoenix_as=stand))
    found.sort(key=lambda c: -c.rank)
    return found


def on_table(play: Combination, top: Combination | None) -> Combination:
    """The play as it lies once played: a Phoenix single is worth ½ above what it beat ([S4])."""
    if play.phoenix_single and top is not None and top.kind is Kind.SINGLE:
        return Combination(Kind.SINGLE, top.rank + 0.5, 1, play.cards)
    return play


def beats(play: Combination, top: Combination | None, dragon_beats_dragon: bool = False) -> bool:
    """Whether `play` may follow `top` (None: an empty table, so any lead).

    >>> single = lambda t: readings(parse_cards([t]))[0]
    >>> beats(single("PH"), single("DR")), beats(single("2j"), single("PH"))
    (False, True)
    """
    if top is None:
        return play.kind is not Kind.PASS
    if top.kind is Kind.DOG:  # [S2]: nothing, not even a bomb
        return False
    if play.is_bomb:
        return not top.is_bomb or play.bomb_key > top.bomb_key  # [B2], [B3]
    if top.is_bomb or play.kind is not top.kind or play.length != top.length:
        return False
    if play.kind is Kind.SINGLE:
        if play.phoenix_single:  # [S4]: on anything but the Dragon
            return top.rank < DRAGON
        if top.rank == DRAGON:  # [S5]; [GS3] in Grand Seigneur
            return dragon_beats_dragon and play.rank == DRAGON
    return play.rank > top.rank


def contains_rank(cards: Sequence[Card], rank: int) -> bool:
    """A natural card of `rank` (2–A) is in the play (a Phoenix standing in does not count,
    [W1]); special cards have ranks outside 2–14, so the rank alone decides."""
    return any(c.rank == rank for c in cards)


__all__ = ["Kind", "Combination", "PASS", "KIND_RULE", "readings", "on_table", "beats",
           "contains_rank", "MJ", "PH", "DR", "DOG_CARD", "DOG", "PHOENIX", "parse_cards"]
