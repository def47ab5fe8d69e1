"""The ways of playing (RULES.md §9): one description per variant that every layer asks.

Nothing outside this module compares a variant's name: the database, the forms, the API,
the import, the statistics and the templates ask the `Variant` what it is like.

>>> NANKING.sides(("Ann", "Bob", "Cy", "Dee"))[1].names
('Bob', 'Dee')
>>> [s.kind.value for s in THREECHU.sides(("Ann", "Bob", "Cy", "Dummy"))]
['player', 'player', 'player', 'dummy']
>>> THREECHU.layout(hand_number=2).members(0)
(1, 3)
>>> [v.key for v in VARIANTS.values() if v.lasts_hands], MAX_SEATS
(['threechu'], 12)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from . import layouts
from .i18n import N_
from .layouts import TEAM_LETTERS, Layout, threechu


class SideKind(Enum):
    """What holds one of a match's totals."""

    TEAM = "team"
    PLAYER = "player"
    DUMMY = "dummy"


@dataclass(frozen=True)
class Side:
    """One of a match's totals: a team (its letter and players), a player, or the dummy."""

    index: int
    kind: SideKind
    label: str  # the team's letter, or the player's name ("Dummy" for the dummy)
    seats: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def is_team(self) -> bool:
        return self.kind is SideKind.TEAM

    @property
    def is_dummy(self) -> bool:
        return self.kind is SideKind.DUMMY

    @property
    def css(self) -> str:
        """The class the pages colour this side with: team-a, team-b, player or dummy."""
        return f"team-{self.label.lower()}" if self.is_team else self.kind.value


@dataclass(frozen=True)
class Variant:
    """A way of playing: who sits, what is scored, how long a match lasts."""

    key: str  # as stored, exported and sent to the API
    title: str  # message id: "Four players"
    choice: str  # message id of the short choice: "4 players"
    fewest: int
    most: int
    players_rule: str  # the rule that sets the number of players
    teams: bool = False  # two fixed teams keep the totals ([H1], [T6.1])
    ranked: bool = False  # a finishing order and no points ([GS1], [GS7])
    dummy_seat: int | None = None  # Threechu: the dummy's seat after the players' ([T3.1])
    lasts_hands: bool = False  # may last a number of hands instead of a target ([T3.5])
    base: Layout | None = None  # the seating of the team games
    hint: str = ""  # message id: how the players sit
    decks: tuple[int, ...] = (1,)  # one deck, or one or two without the Dog ([GS2], [GS3])

    @property
    def big_deck(self) -> bool:
        """Played with Grand Seigneur's cards: one or two decks, no Dog, a four of a kind in
        four suits, a Dragon on a Dragon ([GS2], [GS3])."""
        return self.decks != (1,)

    @property
    def sweep_title(self) -> str:
        """Message id of the sweep: a double victory, or a triple one with teams of three."""
        if self.base is not None and self.base.team_size == 3:
            return N_("Triple victory")
        return N_("Double victory")

    def seat_tag(self, seat: int) -> tuple[str, int] | None:
        """A team game's name of a seat: its team's letter and its place in the team
        (A1, B1, A2, …); None without fixed teams."""
        if not self.teams or self.base is None:
            return None
        team = self.base.team_of(seat)
        return TEAM_LETTERS[team], self.base.members(team).index(seat) + 1

    @property
    def players(self) -> tuple[int, int]:
        """How many players it takes (fewest, most)."""
        return self.fewest, self.most

    @property
    def scored(self) -> bool:
        """Card points and calls are scored (every variant but Grand Seigneur)."""
        return not self.ranked

    @property
    def has_dummy(self) -> bool:
        return self.dummy_seat is not None

    @property
    def max_seats(self) -> int:
        return self.most + (1 if self.has_dummy else 0)

    def seat_count(self, players: int) -> int:
        """Seats at the table: the players, and the dummy's hand in Threechu."""
        return players + (1 if self.has_dummy else 0)

    def team_of(self, seat: int) -> int | None:
        """The fixed team of a seat; None where teams change each hand or there are none."""
        return self.base.team_of(seat) if self.teams and self.base else None

    def side_count(self, seats: int) -> int:
        """How many totals a match keeps: two teams, one per seat, or none (ranked)."""
        if self.ranked:
            return 0
        return 2 if self.teams else seats

    def shuffler(self, hand_number: int) -> int | None:
        """[T3.1]: in Threechu the shuffle passes to the left each hand: seat 0, 1, 2, 0, …"""
        return (hand_number - 1) % self.fewest if self.has_dummy else None

    def layout(self, names: tuple[str, ...] = (), hand_number: int = 1,
               shuffler: int | None = None) -> Layout:
        """The scoring seating of one hand (Threechu: the shuffler plays the dummy)."""
        if self.dummy_seat is not None:
            if shuffler is None:
                shuffler = self.shuffler(hand_number) or 0
            layout = threechu(self.dummy_seat, shuffler)
        elif self.base is not None:
            layout = self.base
        else:
            raise ValueError(f"{self.key} scores no card points")
        return layout.named(names) if names else layout

    def sides(self, names: Sequence[str]) -> tuple[Side, ...]:
        """The match's totals in order, with who holds each."""
        names = tuple(names)
        if self.ranked:
            return ()
        if self.teams and self.base is not None:
            out = []
            for team, letter in enumerate(TEAM_LETTERS):
                seats = tuple(s for s in range(len(names)) if self.base.team_of(s) == team)
                out.append(Side(team, SideKind.TEAM, letter, seats,
                                tuple(names[s] for s in seats)))
            return tuple(out)
        return tuple(Side(s, SideKind.DUMMY if s == self.dummy_seat else SideKind.PLAYER,
                          name, (s,), (name,)) for s, name in enumerate(names))

    def side_scores(self, team_scores: Sequence[int],
                    player_scores: Mapping[str, int] | None, seats: int) -> list[int]:
        """What a stored hand adds to each total: the teams' scores, or each seat's."""
        if self.teams:
            return list(team_scores)
        if self.ranked:
            return []
        scores = player_scores or {}
        return [int(scores.get(str(s), 0)) for s in range(seats)]

    def seat_scores(self, team_scores: Sequence[int],
                    player_scores: Mapping[str, int] | None, seats: int,
                    layout: Layout) -> tuple[int, ...]:
        """What a stored hand gave each seat (its side's score)."""
        if self.teams:
            return tuple(team_scores[layout.team_of(s)] for s in range(seats))
        return tuple(self.side_scores(team_scores, player_scores, seats))


NANKING = Variant(
    "nanking", N_("Four players"), N_("4 players"), 4, 4, "H1", teams=True,
    base=layouts.NANKING,
    hint=N_("Partners sit opposite. Play goes round the table A1 → B1 → A2 → B2."))
THREECHU = Variant(
    "threechu", N_("Threechu: three and a dummy"), N_("3 + dummy"), 3, 3, "T3.1",
    dummy_seat=layouts.DUMMY, lasts_hands=True,
    hint=N_("Three players; each hand the shuffler also plays the dummy hand, and the "
            "shuffle passes to the left."))
TIENTSIN = Variant(
    "tientsin", N_("Tientsin: six players"), N_("6 players"), 6, 6, "T6.1", teams=True,
    base=layouts.TIENTSIN,
    hint=N_("Two teams of three, seated alternately: A1 → B1 → A2 → B2 → A3 → B3."))
SEIGNEUR = Variant(
    "seigneur", N_("Grand Seigneur: 5–12"), N_("5–12"), 5, 12, "GS1", ranked=True, decks=(1, 2),
    hint=N_("Five to twelve players, no partners and no points: everyone races to go out "
            "first. Fill as many names as there are players (from seven on, use two decks)."))

VARIANTS: dict[str, Variant] = {v.key: v for v in (NANKING, THREECHU, TIENTSIN, SEIGNEUR)}
DEFAULT = NANKING
MOST_BOMBS = 4  # [B1]: bombs one player may be counted with in a hand (one tap each)
MAX_SEATS = max(v.max_seats for v in VARIANTS.values())  # the largest table ([GS1])


def find(key: object) -> Variant | None:
    """The variant of this name, None for anything else (any type)."""
    return VARIANTS.get(key) if isinstance(key, str) else None


def variant(key: str) -> Variant:
    """The variant of a stored name (KeyError for an unknown one: a bug, not input)."""
    return VARIANTS[key]
