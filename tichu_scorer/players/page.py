"""The reads of a player's page (`views.player_page`): what the player played and won over a
period (matches and hands), with each partner and against each opponent, the calls, the
first outs, the double victories and the wishes missed. Read with SQL aggregation from
the statistics' stored sums (`MatchTally` per match, `TableTally` per table), the seats and
the hands' wish column; no loop over hands in Python, so the page costs about the same at
10,000 matches as at ten (benchmarks/bench_player_page.py, docs/PERFORMANCE.md).

Partners and opponents come from the seats: in Nanking and Tientsin a partner is a player of
the same fixed team, every other player an opponent. Threechu has no fixed partners (the
shuffler plays the dummy's hand, and the dummy is no player): every other player is an
opponent. Grand Seigneur has no partners either, and no points: its matches count as played
(with their hands) and against each other player; nobody wins one (it has no end).

The statistics' rows name a player by the name the row was counted under (`who`); they are
read through `tally_who` alone, so that a change of keying (a rename that rekeys the rows)
is one edit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, literal
from sqlalchemy.orm import aliased

from ..extensions import db
from ..game.variants import VARIANTS, Variant
from ..models import Hand, Match, MatchSeat, MatchTally, Player, TableTally
from ..scoring.stats import COUNTS, Tally, percent
from ..statistics.counting import PLAYER, SCORED

_MATCH = MatchTally.__table__
_TABLE = TableTally.__table__


def tally_who(player: Player) -> str:
    """How the statistics' rows name the player (`MatchTally.who`, `TableTally.who`)."""
    return player.name


@dataclass(frozen=True)
class Companion:
    """Another player met in the period: as a partner (same team) or as an opponent.
    `won`: matches the player won with or against them; `their_won`: matches the other won
    (against the player); `hands`, `points`: the player's hands and points in those
    matches."""

    key: str
    name: str
    matches: int
    won: int
    their_won: int
    hands: int
    points: int

    @property
    def win_percent(self) -> int | None:
        return percent(self.won, self.matches)

    @property
    def per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def balance(self) -> int:
        """Head to head: the player's wins less the other's."""
        return self.won - self.their_won


@dataclass(frozen=True)
class Played:
    """Matches and hands of one variant (every variant, Grand Seigneur too)."""

    variant: Variant
    matches: int
    hands: int


@dataclass
class PlayerFigures:
    """Everything the page shows of a player over a period."""

    played: list[Played] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)  # summed over the scored variants
    by_variant: list[tuple[Variant, Tally]] = field(default_factory=list)
    missed_wishes: int = 0
    partners: list[Companion] = field(default_factory=list)
    opponents: list[Companion] = field(default_factory=list)

    @property
    def matches(self) -> int:
        return sum(p.matches for p in self.played)

    @property
    def hands(self) -> int:
        return sum(p.hands for p in self.played)

    def won_by_variant(self) -> dict[str, int]:
        return {variant.key: tally.won for variant, tally in self.by_variant}

    def hands_won_by_variant(self) -> dict[str, int]:
        """Hands won per scored variant (the statistics' `hands_won`; Grand Seigneur's
        hands have no score, and nobody wins one)."""
        return {variant.key: tally.hands_won for variant, tally in self.by_variant}

    def best_partner(self) -> Companion | None:
        """The partner won with most often (by rate; then more matches); none before a
        match was won with anyone."""
        won_with = [c for c in self.partners if c.won]
        return _first(won_with, lambda c: (-(c.won / c.matches), -c.matches, c.name))

    def worst_partner(self) -> Companion | None:
        """The partner won with least often; none when every partner's rate is the best's."""
        found = _first(self.partners, lambda c: (c.won / c.matches, -c.matches, c.name))
        best = self.best_partner()
        if found is None or best is None or found.won / found.matches >= best.won / best.matches:
            return None
        return found

    def best_partner_points(self) -> Companion | None:
        """The partner with whom the side scored most per hand."""
        scored = [c for c in self.partners if c.hands]
        return _first(scored, lambda c: (-(c.per_hand or 0.0), -c.hands, c.name))

    def worst_partner_points(self) -> Companion | None:
        """The partner with whom the side scored least per hand, below the best."""
        scored = [c for c in self.partners if c.hands]
        found = _first(scored, lambda c: ((c.per_hand or 0.0), -c.hands, c.name))
        best = self.best_partner_points()
        if found is None or best is None or (found.per_hand or 0.0) >= (best.per_hand or 0.0):
            return None
        return found

    def rival(self) -> Companion | None:
        """The opponent met most often (then the closest head to head)."""
        return _first(self.opponents, lambda c: (-c.matches, abs(c.balance), c.name))

    def nemesis(self) -> Companion | None:
        """The opponent who won most often against the player, more often than they lost."""
        beaten = [c for c in self.opponents if c.balance < 0]
        return _first(beaten, lambda c: (c.balance, -c.their_won, c.name))


def _first(companions: Sequence[Companion],
           order: Callable[[Companion], Any]) -> Companion | None:
    return min(companions, key=order) if companions else None


def figures(player: Player, since: datetime | None = None) -> PlayerFigures:
    """The player's figures over every match of their table, or those started at or after
    `since`."""
    out = PlayerFigures(played=_played(player, since))
    if not out.played:
        return out
    out.by_variant = _tallies(player, since)
    for _variant, tally in out.by_variant:
        for name in COUNTS:
            setattr(out.tally, name, getattr(out.tally, name) + getattr(tally, name))
    out.missed_wishes = _missed_wishes(player, since)
    out.partners, out.opponents = _companions(player, since)
    return out


def latest(player: Player, since: datetime | None = None, limit: int = 10) -> list[Match]:
    """The player's latest matches in the period, the newest first: the table's matches
    read newest first from their listing's index, each asked whether the player sat in it
    (the index of the player's seats), until `limit` are found."""
    seat, where = _mine(since)
    sat = db.select(seat.match_id).where(seat.match_id == Match.id,
                                         seat.player_id == player.id).exists()
    return list(db.session.execute(
        db.select(Match).where(Match.group_id == player.group_id, sat, *where)
        .order_by(Match.started_at.desc(), Match.id.desc()).limit(limit)).scalars())


def _mine(since: datetime | None) -> tuple[type[MatchSeat], list[ColumnElement[bool]]]:
    """The player's seats (`seat.player_id` is the player), and the period's condition."""
    seat = aliased(MatchSeat)
    return seat, [] if since is None else [Match.started_at >= since]


def _played(player: Player, since: datetime | None) -> list[Played]:
    """Matches and hands per variant (every variant), in the variants' order."""
    seat, where = _mine(since)
    rows = db.session.execute(
        db.select(Match.variant, func.count(), func.coalesce(func.sum(Match.hand_count), 0))
        .select_from(seat).join(Match, Match.id == seat.match_id)
        .where(seat.player_id == player.id, *where)
        .group_by(Match.variant)).all()
    found = {variant: (int(n), int(hands)) for variant, n, hands in rows}
    return [Played(v, *found[k]) for k, v in VARIANTS.items() if k in found]


def _tallies(player: Player, since: datetime | None) -> list[tuple[Variant, Tally]]:
    """The statistics' counts of the player per scored variant: the table's sums for all
    matches (one row per variant), the period's matches' rows summed otherwise."""
    who = tally_who(player)
    if since is None:
        query = (db.select(_TABLE.c.variant, *(_TABLE.c[c] for c in COUNTS))
                 .where(_TABLE.c.group_id == player.group_id, _TABLE.c.side == PLAYER,
                        _TABLE.c.who == who))
    else:
        seat, where = _mine(since)
        query = (db.select(Match.variant, *(func.sum(_MATCH.c[c]) for c in COUNTS))
                 .select_from(seat).join(Match, Match.id == seat.match_id)
                 .join(_MATCH, and_(_MATCH.c.match_id == seat.match_id,
                                    _MATCH.c.side == PLAYER, _MATCH.c.who == who))
                 .where(seat.player_id == player.id, *where)
                 .group_by(Match.variant))
    found = {variant: _tally(counts) for variant, *counts in db.session.execute(query)}
    return [(VARIANTS[k], found[k]) for k in SCORED if k in found and found[k].matches]


def _tally(counts: Sequence[int | None]) -> Tally:
    tally = Tally()
    for name, n in zip(COUNTS, counts, strict=True):
        setattr(tally, name, int(n or 0))
    return tally


def _missed_wishes(player: Player, since: datetime | None) -> int:
    """Hands in play whose wish penalty the player's seat took ([R5])."""
    seat, where = _mine(since)
    query = (db.select(func.count()).select_from(seat)
             .join(Hand, and_(Hand.match_id == seat.match_id, Hand.wish_offender == seat.seat))
             .where(seat.player_id == player.id, Hand.deleted_at.is_(None)))
    if where:
        query = query.join(Match, Match.id == seat.match_id).where(*where)
    return int(db.session.execute(query).scalar_one())


def _won(seat: type[MatchSeat]) -> Any:
    """1 when the seat's side won the match: its team's, or (no teams) the seat's own."""
    return case((and_(seat.team.is_not(None), Match.winner_team == seat.team), 1),
                (and_(seat.team.is_(None), Match.winner_team == seat.seat), 1), else_=0)


def _companions(player: Player, since: datetime | None
                ) -> tuple[list[Companion], list[Companion]]:
    """Every other player of the player's matches in the period, as partner and as
    opponent: one grouped read of the seats, the matches and the player's stored counts
    per match (hands and points)."""
    mine, where = _mine(since)
    other = aliased(MatchSeat)
    partner = case((and_(mine.team.is_not(None), other.team == mine.team), literal(1)),
                   else_=literal(0))
    rows = db.session.execute(
        db.select(other.player_id, partner, func.count(), func.sum(_won(mine)),
                  func.sum(_won(other)), func.coalesce(func.sum(_MATCH.c.hands), 0),
                  func.coalesce(func.sum(_MATCH.c.points), 0))
        .select_from(mine)
        .join(other, and_(other.match_id == mine.match_id, other.player_id.is_not(None),
                          other.player_id != mine.player_id))
        .join(Match, Match.id == mine.match_id)
        .outerjoin(_MATCH, and_(_MATCH.c.match_id == mine.match_id, _MATCH.c.side == PLAYER,
                                _MATCH.c.who == tally_who(player)))
        .where(mine.player_id == player.id, *where)
        .group_by(other.player_id, partner)).all()
    ids = {row[0] for row in rows}
    people = {p.id: p for p in db.session.execute(
        db.select(Player).where(Player.id.in_(ids))).scalars()} if ids else {}
    partners: list[Companion] = []
    opponents: list[Companion] = []
    for player_id, is_partner, n, won, their_won, hands, points in rows:
        person = people[player_id]
        found = Companion(person.key, person.name, int(n), int(won or 0),
                          int(their_won or 0), int(hands), int(points))
        (partners if is_partner else opponents).append(found)
    def order(c: Companion) -> tuple[int, str]:
        return -c.matches, c.name.casefold()
    return sorted(partners, key=order), sorted(opponents, key=order)
