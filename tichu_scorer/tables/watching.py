"""Watch codes: a table's board on a screen that never joined the table (a club's TV, a
projector), read-only. A table made for a tournament shows its standing board; any other
table its evening (Tonight: tonight's matches added up per player and partnership).

A watch code (`codes.WATCH_LENGTH` characters) opens that one page and nothing else: the
screen is given no right in its session (the page is read afresh through its link each time
it changes, `static/js/live.js`), so the table's matches, log, exports and statistics stay
closed to it. Rotating the table's links makes a new code (`Group.rotate`): the old one is
a 404 from then on, as a code that never was."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from ..clock import utcnow
from ..extensions import db
from ..game.variants import SideKind
from ..models import Group, Match
from . import codes, evenings

# "Tonight": the matches started in the last 12 hours (as `views.stats.TONIGHT`)
TONIGHT = timedelta(hours=12)


def by_code(typed: str) -> Group | None:
    """The table whose watch code `typed` is (any case, spacing or dashes), or None."""
    code = codes.read(typed)
    if code is None or len(code) != codes.WATCH_LENGTH:
        return None
    found: Group | None = db.session.execute(
        db.select(Group).filter_by(watch_code=code)).scalar_one_or_none()
    return found


@dataclass(frozen=True)
class Evening:
    """Tonight at a table, as a screen shows it: the matches and their tally."""

    matches: list[Match]
    standing: evenings.Standing


def tonight(group: Group) -> Evening:
    """The matches of the last 12 hours at `group`, oldest first, and their tally per player
    and partnership (the Threechu dummy is no player; Grand Seigneur scores no points)."""
    matches = list(db.session.execute(
        db.select(Match).where(Match.group_id == group.id,
                               Match.started_at >= utcnow() - TONIGHT)
        .order_by(Match.started_at, Match.id)).scalars())
    played = [evenings.Evening.Match(
        m.names, tuple(() if side.kind is SideKind.DUMMY else side.seats
                       for side in m.game.variant.sides(m.names)),
        tuple(m.totals or ()), m.winner_team) for m in matches if m.game.variant.scored]
    return Evening(matches, evenings.tally(played))
