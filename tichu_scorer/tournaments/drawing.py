"""A tournament's round drawn and stored (RULES.md `[TN1]`–`[TN4]`): refused out of turn or
while a table of the round before plays; the seating searched outside the write
transaction from what the format says the draw rests on (`Format.ground`, reading the
tournament through `Played`), and stored with its tables as matches of the stage's rules
in one transaction that holds the tournament. The seating itself is the format's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError

from .. import fairness
from ..extensions import db
from ..game import variants
from ..game.i18n import _
from ..matches.creation import added_match, players_added
from ..matches.writes import writing
from ..models import Match, Player, Tournament, TournamentEntry, TournamentRound
from . import draw, fair_draw, formats, standings, stored
from .formats import Refused, Seating
from .formats.individual import IndividualGround

DRAW_SEARCHES = 2  # searches of a round outside the write transaction before one inside


class Played:
    """A stored tournament as a draw reads it (`formats.Past`): its plan and entries, and,
    when the format asks, its rounds as the standing reads them and who sat where, each
    read once."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.seed, self.rounds = tournament.seed, tournament.rounds
        self.knockout = tournament.knockout
        self.entries: Sequence[TournamentEntry] = tournament.entries
        self._tables: list[standings.Round] | None = None

    def tables(self) -> list[standings.Round]:
        if self._tables is None:
            self._tables = stored.rounds_of(self.tournament)
        return self._tables

    def seatings(self) -> tuple[draw.Round, ...]:
        tables = stored.seated(self.tournament)  # two statements, not every round's matches
        return tuple(draw.Round(tuple(t.names for t in tables.get(r.id, [])), tuple(r.byes))
                     for r in self.tournament.played)


def still_playing(rnd: TournamentRound) -> list[int]:
    """The boards of the round whose match has not ended ([TN4])."""
    return [m.board or 0 for m in rnd.tables if m.finished_at is None]


def draw_round(tournament: Tournament, number: int,
               check: Callable[[], None] = draw.nothing,
               fair: Mapping[str, fairness.Strength] | None = None) -> TournamentRound:
    """Draw round `number` and store its tables, in one transaction. Refused when it is not
    the next round, when the round before is still being played ([TN4]), or when too few
    play. A draw that cannot meet a rule is stored all the same, with what it could not
    meet (`TournamentRound.unmet`). Two directors drawing at once store it once.

    The seating is searched before that transaction, so that other tables save meanwhile
    (SQLite's write lock is held only while the round is stored), from what the draw rests
    on (`_asked`): the transaction reads that again and stores the seating only if nothing
    of it changed meanwhile (a result, an arrival, a drop-out); else it is searched once
    more, and after a second change inside the transaction, under the lock, as every draw
    once was: a change made meanwhile never refuses a draw. `check` is the search's CPU
    allowance: OutOfTime once spent, and nothing stored.

    `fair`: the players' ratings (by name key) when the director draws an individual
    round's partners fair (`fair_draw`): the same tables, each partnered the fairest way
    that repeats no partner the draw avoided. The same ratings at every search."""
    for _attempt in range(DRAW_SEARCHES):
        db.session.rollback()  # read what others stored until now
        asked = _asked(tournament, number)
        seating = _fair(asked, asked.seating(check), fair)  # no write transaction, no lock
        with _drawing(number):
            held = stored.held(tournament.id)
            if _asked(held, number) != asked:
                continue  # changed meanwhile: nothing written, searched again
            rnd = _stored(held, number, seating)
        return rnd
    with _drawing(number):  # changed at every search: searched under the lock this time
        held = stored.held(tournament.id)
        asked = _asked(held, number)
        rnd = _stored(held, number, _fair(asked, asked.seating(check), fair))
    return rnd


def _fair(asked: formats.Ground, seating: Seating,
          fair: Mapping[str, fairness.Strength] | None) -> Seating:
    """An individual round's seating with each table partnered fair, when asked."""
    if fair is None or not isinstance(asked, IndividualGround):
        return seating
    tables = fair_draw.fair_tables(seating.tables, asked.history, fair)
    return Seating(tuple(t.seats for t in tables), seating.byes, seating.unmet)


@contextmanager
def _drawing(number: int) -> Iterator[None]:
    """The write transaction of a draw: refused when another director's request drew the
    round first (its unique key)."""
    try:
        with writing():
            yield
    except IntegrityError:
        db.session.rollback()
        raise Refused("round", "TN4", _(
            "Round %(number)d is already drawn.") % {"number": number}) from None


def _asked(tournament: Tournament, number: int) -> formats.Ground:
    """What the draw of round `number` rests on, read: refused when it is not the next
    round, the round before is still being played, or too few play. Two reads that are
    equal draw the same seating (the draw and the pairing are deterministic)."""
    _turn(tournament, number)
    stage = formats.of(tournament).draws(number, tournament.rounds)
    return stage.ground(Played(tournament), number)


def _turn(tournament: Tournament, number: int) -> None:
    """Refused unless round `number` is the next to draw and the round before is over."""
    following = len(tournament.played) + 1
    last = formats.of(tournament).rounds_in(tournament.rounds, tournament.knockout)
    if 1 <= number < following:  # a second tap, or a second director
        raise Refused("round", "TN4", _(
            "Round %(number)d is already drawn.") % {"number": number})
    if number != following and following <= last:
        raise Refused("round", "TN4", _(
            "Round %(number)d is the next to draw.") % {"number": following})
    if following > last:
        raise Refused("round", "TN1", _(
            "The tournament has %(rounds)d rounds.") % {"rounds": tournament.rounds})
    if tournament.played and (boards := still_playing(tournament.played[-1])):
        raise Refused("round", "TN4", _(
            "Round %(number)d is not over: table %(boards)s is still playing.") % {
            "number": number - 1, "boards": ", ".join(map(str, boards))})


def _stored(held: Tournament, number: int, seating: formats.Seating) -> TournamentRound:
    """Round `number` with its tables as matches of its stage's rules, in the caller's
    write transaction."""
    stage = formats.of(held).draws(number, held.rounds)
    rules = stage.table_rules(held.hands)
    rnd = TournamentRound(tournament_id=held.id, number=number, stage=stage.stage)
    rnd.byes = list(seating.byes)
    rnd.unmet = [u.as_dict() for u in seating.unmet]
    db.session.add(rnd)
    db.session.flush()

    def add(board: int, names: Sequence[str], players: Mapping[str, Player]) -> Match:
        return added_match(held.group, names, rules.target, variants.DEFAULT, rules.hands,
                           rules.house, players=players, tournament_round_id=rnd.id,
                           board=board)

    players_added(held.group, seating.tables, add)
    # [TN5]: the rounds before are closed now; their tables' pages (kept per revision) and
    # live phones learn it from a new revision
    db.session.execute(db.update(Match).where(Match.tournament_round_id.in_(
        db.select(TournamentRound.id).where(TournamentRound.tournament_id == held.id,
                                            TournamentRound.number < number)))
        .values(revision=Match.revision + 1).execution_options(synchronize_session=False))
    return rnd
