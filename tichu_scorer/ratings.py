"""Player ratings from finished matches: OpenSkill's Weng-Lin Plackett-Luce model (the
`openskill` package does all the rating math; nothing here is home-made).

A match is rated as its sides' finishing places: the two teams of Nanking and Tientsin
(the winner first), the three players of Threechu by their totals (the dummy is a hand of
cards, not a player: never rated), and the players of Grand Seigneur by their average place
over the match's hands ([GS7]); a shared place is a tie. Ratings are recomputed from the
whole history every time they are asked for, oldest match first, so a corrected past match
changes every rating after it. Pure: no I/O.

>>> from tichu_scorer.game.variants import NANKING
>>> from tichu_scorer.scoring.state import Settings
>>> won = outcome_of(Settings(NANKING, ("Ann", "Bob", "Cy", "Dee")), (1000, 200), 0)
>>> won.sides, won.places
((('Ann', 'Cy'), ('Bob', 'Dee')), (1, 2))
>>> table = rate([won, won])
>>> [(r.name, r.matches) for r in table][:2], table[0].ordinal > 0 > table[-1].ordinal
([('Ann', 2), ('Cy', 2)], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from .game.names import key as name_key
from .scoring import seigneur
from .scoring.state import MatchState, Settings


@dataclass(frozen=True)
class Outcome:
    """One rated match as plain data: who played on each side and each side's place (1 is
    best; sides sharing a place tied)."""

    key: str  # the match's key, for the history's labels
    sides: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]


def _places(scores: Sequence[float]) -> tuple[int, ...]:
    """Each score's place, the highest first; equal scores share a place (1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other > score) for score in scores)


def outcome_of(settings: Settings, totals: Sequence[int], winner: int | None,
               rankings: Sequence[Sequence[int]] = (), key: str = "") -> Outcome | None:
    """A match's outcome from its settings and result: the totals and winning side a points
    game stores, or the hands' finishing orders of Grand Seigneur. None when nobody can be
    rated (fewer than two sides with players, or no hand)."""
    variant = settings.variant
    if variant.ranked:
        if not rankings:
            return None
        records = seigneur.records(rankings, settings.seats)
        played = [r for r in records if r.hands]
        return Outcome(key, tuple((settings.names[r.seat],) for r in played),
                       _places([-r.average_rank for r in played]))
    every = variant.sides(settings.names)
    sides = [s for s in every if not s.is_dummy]
    if len(sides) < 2 or len(totals) < len(every):
        return None
    scores = [float(totals[s.index]) for s in sides]
    if winner is not None:  # the stored result decides first place ([E1], [E2])
        top = max(scores) + 1
        scores = [top if s.index == winner else v for s, v in zip(sides, scores, strict=True)]
    return Outcome(key, tuple(s.names for s in sides), _places(scores))


def outcome_of_state(state: MatchState, key: str = "") -> Outcome | None:
    """`outcome_of` read from a match's pure state (its totals, winner and hands)."""
    return outcome_of(state.settings, state.totals, state.winner, state.rankings, key)


SHOWN_START = 1000  # a new player's rating as shown: the ordinal 0
SHOWN_STEP = 20  # rating points shown per point of OpenSkill's scale
PROVISIONAL = 5  # a rating from fewer matches is provisional (said on the page)


def shown(value: float) -> float:
    """A value of OpenSkill's scale (an ordinal or a mu) on the scale the page shows: a new
    player's rating (ordinal 0) is 1,000, a mu of 25 (everyone's start) 1,500; the same
    line stretched, so that mu − 3 sigma stays the rating: `shown(mu) − 3 · SHOWN_STEP ·
    sigma == shown(mu − 3 sigma)`. The ordinal itself starts at 0 and falls below it after
    losses, which a page saying "it starts at 0" showed as negative ratings."""
    return SHOWN_START + SHOWN_STEP * value


@dataclass
class PlayerRating:
    """A player's rating after the rated matches: mu (the skill as estimated), sigma (how
    unsure that is), the ordinal (mu - 3 sigma: the skill the player has at least, almost
    surely), its change in the last match played, and its history. The page shows them on
    its own scale (`shown`); `provisional` below `PROVISIONAL` matches."""

    name: str
    mu: float
    sigma: float
    matches: int = 0
    change: float = 0.0  # of the ordinal, in the player's last match
    history: list[tuple[int, float]] = field(default_factory=list)  # (match #, ordinal)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def rating(self) -> float:
        """The rating as shown: a new player's is 1,000."""
        return shown(self.ordinal)

    @property
    def skill(self) -> float:
        """mu as shown (a new player's is 1,500)."""
        return shown(self.mu)

    @property
    def spread(self) -> float:
        """sigma as shown (a new player's is about 167)."""
        return SHOWN_STEP * self.sigma

    @property
    def shown_change(self) -> float:
        return SHOWN_STEP * self.change

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL


def model() -> PlackettLuce:
    """The rating model: Plackett-Luce with OpenSkill's defaults (mu 25, sigma 25/3), so a
    new player's ordinal is 0."""
    return PlackettLuce()


START = model().mu - 3 * model().sigma  # a new player's ordinal: 0


def rate(outcomes: Iterable[Outcome | None]) -> list[PlayerRating]:
    """Every player's rating after these matches in order (oldest first), the best ordinal
    first (then the name). A player appearing twice in one match is rated once (their first
    side); a match with fewer than two sides left is skipped."""
    skill = model()
    current: dict[str, PlackettLuceRating] = {}
    out: dict[str, PlayerRating] = {}
    for number, outcome in enumerate(outcomes, start=1):
        if outcome is None:
            continue
        seen: set[str] = set()
        teams: list[list[str]] = []
        places: list[float] = []
        for names, place in zip(outcome.sides, outcome.places, strict=True):
            team = [n for n in names if n not in seen]
            seen.update(team)
            if team:
                teams.append(team)
                places.append(place)
        if len(teams) < 2:
            continue
        before = [[current.get(n) or skill.rating(name=n) for n in team] for team in teams]
        after = skill.rate(before, ranks=places)
        for team, rated in zip(teams, after, strict=True):
            for name, new in zip(team, rated, strict=True):
                current[name] = new
                player = out.get(name)
                if player is None:
                    player = out[name] = PlayerRating(name, skill.mu, skill.sigma)
                old = player.ordinal
                player.mu, player.sigma = new.mu, new.sigma
                player.matches += 1
                player.change = player.ordinal - old
                player.history.append((number, player.ordinal))
    return sorted(out.values(), key=lambda p: (-p.ordinal, p.name))


def strengths(players: Iterable[PlayerRating]) -> dict[str, tuple[float, float]]:
    """Each player's mu and sigma by the name's key (spaces and capitals do not count), as
    `fairness` reads them."""
    return {name_key(p.name): (p.mu, p.sigma) for p in players}


__all__: Sequence[str] = ("PROVISIONAL", "Outcome", "PlayerRating", "outcome_of",
                          "outcome_of_state", "rate", "shown", "strengths")
