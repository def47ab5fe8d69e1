"""A table's evening read from the database, once for every page that shows it: the Tonight
page (`views/tables.py`), a screen opened by the watch code (`views/watch.py`) and the
evening's result to share (`results/build.py`). What it adds up is `evenings`' (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from ..clock import utcnow
from ..extensions import db
from ..game import variants
from ..game.variants import SideKind
from ..models import Group, Match
from .evenings import Evening, Standing, tally

# "Tonight" is the matches started in the last 12 hours: an evening's play, however late
# it ends, without knowing the table's time zone (times are stored in UTC).
TONIGHT = timedelta(hours=12)


@dataclass(frozen=True)
class Tonight:
    """A table's evening: its matches of the last 12 hours (oldest first), the scored ones
    as `Evening.Match`es (`played`; the four-player ones also in `fours`, for the
    rotation), and their tally per player and partnership."""

    matches: list[Match]
    played: list[Evening.Match]
    fours: list[Evening.Match]
    standing: Standing


def tonight(group: Group) -> Tonight:
    """The matches started at `group` in the last 12 hours, and their tally (the Threechu
    dummy is no player of the evening; Grand Seigneur scores no points and is not counted)."""
    matches = list(db.session.execute(
        db.select(Match).where(Match.group_id == group.id,
                               Match.started_at >= utcnow() - TONIGHT)
        .order_by(Match.started_at, Match.id)).scalars())
    scored = [m for m in matches if m.game.variant.scored]
    played = [Evening.Match(m.names, tuple(() if side.kind is SideKind.DUMMY else side.seats
                                           for side in m.game.variant.sides(m.names)),
                            tuple(m.totals or ()), m.winner_team) for m in scored]
    fours = [p for p, m in zip(played, scored, strict=True)
             if m.game.variant == variants.DEFAULT]
    return Tonight(matches, played, fours, tally(played))
