"""A tournament as stored, read (RULES.md `[TN1]`–`[TN4]`): held for a write, each round's
tables as the pages show them and as the standing reads them — from the matches' stored
results in two statements of the columns needed, or, `recount`, recounted from the hands
by the match state (the tests' invariant) —, the standing, and the corrections made at its
tables. What a table's sides credit and how the entries rank are the format's
(`formats`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..extensions import db
from ..matches import match_log
from ..matches.writes import begin_write
from ..models import HandEvent, Match, MatchSeat, Player, Tournament, TournamentRound
from ..scoring.state import MatchState
from . import formats, standings


def held(tournament_id: int) -> Tournament:
    """Begin a write holding the tournament (SQLite: the write lock; PostgreSQL: its row)."""
    begin_write()
    found: Tournament = db.session.execute(db.select(Tournament).filter_by(id=tournament_id)
                                           .with_for_update()).scalar_one()
    return found


class Seated(NamedTuple):
    """A round's table as stored: its match's key and score code, its board, the players'
    names by seat, and the match's stored result (`prebuilt.DERIVED`)."""

    key: str
    code: str
    board: int
    names: tuple[str, ...]
    totals: tuple[int, ...]
    victory: tuple[int, ...]
    hands: int
    over: bool
    winner: int | None


def seated(tournament: Tournament) -> dict[int, list[Seated]]:
    """Every round's tables (by round id, in board order), read in two statements of the
    columns the pages show (the matches' results, then their players' names), not as whole
    matches."""
    ours = (db.select(Match.id).join(TournamentRound,
                                     TournamentRound.id == Match.tournament_round_id)
            .where(TournamentRound.tournament_id == tournament.id))
    names: dict[int, list[str]] = {}
    for match_id, name in db.session.execute(
            db.select(MatchSeat.match_id, Player.name)
            .join(Player, Player.id == MatchSeat.player_id)
            .where(MatchSeat.match_id.in_(ours.scalar_subquery()))
            .order_by(MatchSeat.match_id, MatchSeat.seat)):
        names.setdefault(match_id, []).append(name)
    found: dict[int, list[Seated]] = {}
    for row in db.session.execute(
            db.select(Match.id, Match.key, Match.scorer_key, Match.tournament_round_id,
                      Match.board, Match.totals, Match.victory, Match.hand_count,
                      Match.finished_at.is_not(None).label("over"), Match.winner_team)
            .where(Match.id.in_(ours.scalar_subquery()))
            .order_by(Match.tournament_round_id, Match.board, Match.id)):
        found.setdefault(row.tournament_round_id, []).append(Seated(
            row.key, row.scorer_key, row.board or 0, tuple(names.get(row.id, ())),
            tuple(row.totals), tuple(row.victory or ()), row.hand_count, bool(row.over),
            row.winner_team))
    return found


def table_of(fmt: formats.Format, table: Seated,
             pairs: dict[frozenset[str], str]) -> standings.Table:
    """A round's table as the standing reads it."""
    return standings.Table(table.board, fmt.sides(table.names, pairs), table.victory,
                           (table.totals[0], table.totals[1]), table.hands, table.over,
                           table.winner)


def _recounted(match: Match) -> Seated:
    """A table recounted from its match's hands by the match state."""
    state = MatchState.of(match.settings, [h.input for h in match.hands])
    return Seated(match.key, match.scorer_key, match.board or 0, tuple(match.player_names),
                  state.totals, state.victory, len(state.hands), state.over, state.winner)


class Drawn(NamedTuple):
    """A round drawn: its row, its stage (`formats.Stage`: the format's, or a knockout's),
    and each table as stored with the table the standing reads."""

    row: TournamentRound
    stage: formats.Stage
    tables: list[tuple[Seated, standings.Table]]

    @property
    def counted(self) -> standings.Round:
        """The round as the standing reads it."""
        return standings.Round(self.row.number, tuple(t for _s, t in self.tables),
                               tuple(self.row.byes), self.stage.knockout)


def drawn(tournament: Tournament, recount: bool = False) -> list[Drawn]:
    """Every round drawn, oldest first: from the matches' stored results, or, `recount`,
    every table recounted from its hands (the check of the stored results)."""
    fmt = formats.of(tournament)
    pairs = formats.pair_names(tournament.entries)
    tables = ({r.id: [_recounted(m) for m in r.tables] for r in tournament.played}
              if recount else seated(tournament))
    return [Drawn(r, fmt.stage_named(r.stage),
                  [(t, table_of(fmt, t, pairs)) for t in tables.get(r.id, [])])
            for r in tournament.played]


def rounds_of(tournament: Tournament, recount: bool = False) -> list[standings.Round]:
    """The rounds as the standing reads them (see `drawn`)."""
    return [d.counted for d in drawn(tournament, recount)]


def table_standing(tournament: Tournament, recount: bool = False,
                   rounds: Sequence[standings.Round] | None = None) -> list[standings.Line]:
    """The standing, best first, as the tournament's format ranks it."""
    if rounds is None:
        rounds = rounds_of(tournament, recount)
    return formats.of(tournament).standing(rounds, [e.name for e in tournament.entries])


class Correction(NamedTuple):
    """A change of a hand already entered at a table of the tournament ([TN4]), as logged."""

    round: int
    board: int
    match_key: str
    event: HandEvent
    said: str


def corrections(tournament: Tournament, most: int = 50) -> list[Correction]:
    """The newest changes of hands already entered (edited, deleted, undone, restored) at
    the tournament's tables, newest first: every correction is in its match's log."""
    rows = db.session.execute(
        db.select(HandEvent, TournamentRound.number)
        .join(Match, Match.id == HandEvent.match_id)
        .join(TournamentRound, TournamentRound.id == Match.tournament_round_id)
        .where(TournamentRound.tournament_id == tournament.id,
               HandEvent.action != "added")
        .order_by(HandEvent.id.desc()).limit(most)).all()
    return [Correction(number, event.match.board or 0, event.match.key, event,
                       match_log.words(event.match, event)) for event, number in rows]
