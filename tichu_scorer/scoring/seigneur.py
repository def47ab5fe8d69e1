"""Grand Seigneur (RULES.md §9.3): ranks, titles, seating and the push between hands.

No points: a hand is the order in which the players went out ([GS1]).

>>> titles(5)
('Great Lord', 'Lord', 'Squire', 'Pauper', 'Wretch')
>>> [(p.giver, p.receiver, p.cards) for p in pushes((3, 0, 4, 1, 2))]
[(2, 3, 2), (1, 0, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game.i18n import N_, _
from ..game.variants import SEIGNEUR
from .hand import Problem

MIN_PLAYERS, MAX_PLAYERS = SEIGNEUR.players
BASE_TITLES = (N_("Great Lord"), N_("Lord"), N_("Squire"), N_("Burgher"), N_("Pauper"),
               N_("Wretch"))
# [GS4]: with more than six players, extra middle titles, added in this order
EXTRA_TITLES = (N_("Grand Burgher"), N_("Petty Pauper"), N_("Knight"), N_("Petty Burgher"),
                N_("Grand Pauper"), N_("Beggar"))
# Every title from the highest to the lowest: the Squire third ([GS4]), then the Knight; each
# Grand title
# above its plain one and each Petty title below it, the Beggar just above the Wretch.
FULL_ORDER = ("Great Lord", "Lord", "Squire", "Knight", "Grand Burgher", "Burgher",
              "Petty Burgher", "Grand Pauper", "Pauper", "Petty Pauper", "Beggar", "Wretch")
# [GS5]: (giver's place from the last, receiver's place from the first, cards), by place
PUSHES_BY_PLACE = ((1, 1, 3), (2, 2, 2), (3, 3, 1))


def titles(players: int) -> tuple[str, ...]:
    """[GS4]: the titles from first to last for this many players.

    >>> titles(6)[3], len(titles(12))
    ('Burgher', 12)
    >>> titles(7)[3:]
    ('Grand Burgher', 'Burgher', 'Pauper', 'Wretch')
    >>> titles(9)[:4]
    ('Great Lord', 'Lord', 'Squire', 'Knight')
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Grand Seigneur is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if players == 5:
        return ("Great Lord", "Lord", "Squire", "Pauper", "Wretch")
    chosen = set(BASE_TITLES) | set(EXTRA_TITLES[:players - 6])
    return tuple(t for t in FULL_ORDER if t in chosen)


def decks(players: int) -> int:
    """[GS2]: two decks from seven players on."""
    return 2 if players >= 7 else 1


@dataclass(frozen=True)
class Push:
    """[GS5]: `giver` pushes his `cards` best cards to `receiver`, who pushes as many back."""

    giver: int
    receiver: int
    cards: int
    giver_title: str
    receiver_title: str


def pushes(ranking: Sequence[int]) -> list[Push]:
    """Who pushes how many cards to whom before the next hand, from the last hand's ranking
    (seats, first out first). By place, whatever the titles: the last pushes 3 cards to the
    first, the second-to-last 2 to the second, the third-to-last 1 to the third; with five
    players one card fewer at each level.

    >>> [(p.giver, p.receiver, p.cards) for p in pushes(tuple(range(8)))]
    [(7, 0, 3), (6, 1, 2), (5, 2, 1)]
    """
    n = len(ranking)
    names = titles(n)
    out = []
    for from_last, place, count in PUSHES_BY_PLACE:
        count -= 1 if n == 5 else 0
        if count > 0:
            giver, receiver = n - from_last, place - 1
            out.append(Push(ranking[giver], ranking[receiver], count, names[giver],
                            names[receiver]))
    return out


def places_to_tap(players: int) -> int:
    """[GS1]: the places a hand's finishing order needs; the last player's is derived.

    >>> places_to_tap(5)
    4
    """
    return players - 1


def ranking_problems(order: Sequence[object], players: int) -> list[Problem]:
    """[GS1]: a hand's finishing order lists every player once (the last may be left out)."""
    problems: list[Problem] = []
    seats = [s for s in order if isinstance(s, int) and not isinstance(s, bool)]
    if len(seats) != len(order):
        problems.append(Problem("out_order", "GS1", _("The finishing order must list seats.")))
    bad = sorted({s for s in seats if not 0 <= s < players})
    for seat in bad:
        problems.append(Problem("out_order", "GS1",
                                _("Seat {seat} does not exist: seats are 0 to {last}.").format(
                                    seat=seat, last=players - 1)))
    repeated = sorted({s for s in seats if seats.count(s) > 1})
    for seat in repeated:
        problems.append(Problem("out_order", "GS1", _("Seat {seat} is listed more than "
                                                      "once.").format(seat=seat)))
    if not bad and not repeated and len(seats) < places_to_tap(players):
        problems.append(Problem("out_order", "GS1",
                                _("Record the whole finishing order: {need} of {players} "
                                  "players (the last is derived).").format(
                                      need=places_to_tap(players), players=players)))
    return problems


def full_ranking(order: Sequence[int], players: int) -> tuple[int, ...]:
    """The finishing order with the last player added when one is missing."""
    missing = [s for s in range(players) if s not in order]
    return tuple(order) + tuple(missing) if len(missing) == 1 else tuple(order)


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    hands: int
    great_lord: int  # hands finished as Great Lord
    average_rank: float  # 1 = first out
    longest_reign: int  # most consecutive hands as Great Lord ([GS7])


def records(rankings: Sequence[Sequence[int]], players: int) -> list[PlayerRecord]:
    """[GS7]: per player, hands as Great Lord, the longest reign, and the average rank."""
    out = []
    for seat in range(players):
        places = [list(r).index(seat) + 1 for r in rankings if seat in r]
        reign = best = 0
        for r in rankings:
            reign = reign + 1 if r and r[0] == seat else 0
            best = max(best, reign)
        out.append(PlayerRecord(seat, len(places), sum(1 for p in places if p == 1),
                                sum(places) / len(places) if places else 0.0, best))
    return out
