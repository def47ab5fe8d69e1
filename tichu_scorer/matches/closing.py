"""A tournament's table once its round is closed ([TN5]): when the next round is drawn, the
round before takes no more changes of its hands (`check`, called by every write of a hand
before it changes anything), unless the director reopened that table, giving a reason,
while the latest round drawn is still the latest (`reopen`).

The state is read from what is stored, never kept beside it: a table is closed when a round
after its own is drawn; it is reopened when its log's latest "reopened" entry names the
latest round drawn (`HandEvent.after`: {"round": that number}; the entry's summary is the
reason, its phone who reopened it). So the next draw closes a reopened table again, and the
log says, for each reopening, which rounds had been drawn before the changes made under it
(`reopenings`, `drawn_before`): those rounds were drawn from a standing corrected since.

An ordinary match is never closed and costs no statement. On PostgreSQL the check holds the
tournament's row (FOR KEY SHARE) until the change commits: a draw holds it FOR UPDATE, so a
change either waits for the draw and sees the round drawn, or the draw waits for the change
and reads the standing it leaves. (SQLite: the database's write lock already orders them.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from flask_babel import gettext
from sqlalchemy import bindparam, func

from ..extensions import db
from ..models import HandEvent, Match, Tournament, TournamentRound
from ..scoring import Problem
from ..tables import phones
from .ending import changed

REOPENED = "reopened"  # the log's action for a reopening ([TN5])
REASON_MAX = 200  # characters of a reopening's reason

# the table's round and its tournament, the tournament's row held (PostgreSQL)
_OWN_READ = (db.select(TournamentRound.tournament_id, TournamentRound.number)
             .join(Tournament, Tournament.id == TournamentRound.tournament_id)
             .where(TournamentRound.id == bindparam("round")))
_OWN = _OWN_READ.with_for_update(read=True, key_share=True, of=Tournament)
# read after the row is held: a draw that held it has committed its round by then
_LATEST = (db.select(func.max(TournamentRound.number))
           .where(TournamentRound.tournament_id == bindparam("tournament")))
_REOPENED = (db.select(HandEvent.after)
             .where(HandEvent.match_id == bindparam("match"), HandEvent.action == REOPENED)
             .order_by(HandEvent.id.desc()).limit(1))


class Closed(Exception):
    """A change of a table whose round is closed ([TN5]): `problem` says which, and nothing
    is changed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class Closure(NamedTuple):
    """A tournament table's place among the rounds drawn: its round, the latest round, and
    the latest round when it was last reopened (None: never)."""

    round: int
    latest: int
    reopened_in: int | None

    @property
    def closed(self) -> bool:
        return self.latest > self.round and self.reopened_in != self.latest


def closure(match: Match, hold: bool = True) -> Closure | None:
    """Where the table stands ([TN5]); None for a match that is no tournament's table.
    Call it in the write that holds the match (`writes.lock_match`); `hold=False` on a
    page that only shows it (no row is locked)."""
    if match.tournament_round_id is None:
        return None
    own = db.session.execute(_OWN if hold else _OWN_READ,
                             {"round": match.tournament_round_id}).one_or_none()
    if own is None:
        return None
    latest = db.session.scalar(_LATEST, {"tournament": own.tournament_id}) or own.number
    reopened = None
    if latest > own.number:
        reopened = round_of(db.session.scalar(_REOPENED, {"match": match.id}))
    return Closure(own.number, latest, reopened)


def round_of(after: object) -> int | None:
    """The round a "reopened" entry names (`HandEvent.after`), None if it names none."""
    number = after.get("round") if isinstance(after, Mapping) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def closed(match: Match, hold: bool = True) -> Problem | None:
    """[TN5]: the problem of changing a hand of this table now, None when it may change
    (`hold`: as `closure`)."""
    found = closure(match, hold)
    if found is None or not found.closed:
        return None
    return Problem("match", "TN5", gettext(
        "Round %(number)d is closed: round %(next)d has been drawn, so table %(board)d can "
        "no longer change its hands. Nothing was changed. The director may reopen the table, "
        "giving a reason.", number=found.round, next=found.round + 1, board=match.board or 0))


def check(match: Match, hold: bool = True) -> None:
    """Raise `Closed` when the table's round is closed ([TN5]); nothing for any other
    match (`hold`: as `closure`; False for a form only shown)."""
    if (problem := closed(match, hold)) is not None:
        raise Closed(problem)


def reopen(match: Match, reason: str, latest: int) -> None:
    """Log the reopening of a closed table (`match` held) with its reason and the phone's
    name: its hands take changes while round `latest` is the latest drawn. The caller
    commits."""
    db.session.add(HandEvent(match_id=match.id, hand_id=None, position=match.hand_count,
                             action=REOPENED, summary=reason[:REASON_MAX], before=None,
                             after={"round": latest}, phone=phones.name()))
    changed(match)  # its page, log and exports name the new state


class Reopening(NamedTuple):
    """A table reopened ([TN5]): its match, its round and board, the latest round when it
    was reopened, the reason and whether a hand was changed under it."""

    match_key: str
    round: int
    board: int
    latest: int
    reason: str
    changed: bool


def reopenings(tournament_id: int) -> list[Reopening]:
    """Every reopening of the tournament's tables, oldest first, read from their logs in
    one statement (only the logs of tables ever reopened)."""
    ours = (db.select(Match.id).join(TournamentRound,
                                     TournamentRound.id == Match.tournament_round_id)
            .where(TournamentRound.tournament_id == tournament_id))
    reopened = (db.select(HandEvent.match_id).where(
        HandEvent.action == REOPENED, HandEvent.match_id.in_(ours.scalar_subquery())))
    rows = db.session.execute(
        db.select(HandEvent.id, HandEvent.match_id, HandEvent.action, HandEvent.after,
                  HandEvent.summary, Match.key, Match.board, TournamentRound.number)
        .join(Match, Match.id == HandEvent.match_id)
        .join(TournamentRound, TournamentRound.id == Match.tournament_round_id)
        .where(HandEvent.match_id.in_(reopened.scalar_subquery()))
        .order_by(HandEvent.id))
    found: list[dict[str, Any]] = []
    last: dict[int, dict[str, Any]] = {}  # each table's latest reopening so far
    for row in rows:
        if row.action == REOPENED and (latest := round_of(row.after)) is not None:
            last[row.match_id] = {"match_key": row.key, "round": row.number,
                                  "board": row.board or 0, "latest": latest,
                                  "reason": row.summary, "changed": False}
            found.append(last[row.match_id])
        elif row.match_id in last:  # a change made under that reopening
            last[row.match_id]["changed"] = True
    return [Reopening(**r) for r in found]


def drawn_before(reopened: Iterable[Reopening]) -> dict[int, list[tuple[int, int]]]:
    """[TN5]: for each round drawn before a correction made under a reopening, the
    corrected tables as (round, board): the rounds after the table's own, up to the latest
    when it was reopened.

    >>> drawn_before([Reopening("k", 1, 2, 3, "typo", True),
    ...               Reopening("m", 2, 1, 3, "no change", False)])
    {2: [(1, 2)], 3: [(1, 2)]}
    """
    marks: dict[int, list[tuple[int, int]]] = {}
    for r in reopened:
        if not r.changed:
            continue
        for number in range(r.round + 1, r.latest + 1):
            if (r.round, r.board) not in marks.setdefault(number, []):
                marks[number].append((r.round, r.board))
    return marks
