"""What a tournament's director does, stored: a tournament with its entries, late arrivals
and drop-outs between rounds, each round drawn and its tables stored as matches in one
transaction, and the standing read from the tables' matches (RULES.md `[TN1]`–`[TN4]`);
a table of a closed round reopened (`[TN5]`, `matches.closing`).

The rounds' tables are ordinary matches of the tournament's own table (`Tournament.group`):
each is scored on its own phones with the ordinary hand flow, and a director's correction
of a result is a correction of a hand, logged as every change of a match is. The pure
parts are `draw` (individual seating), `pairing` (pairs) and `standings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..game import variants
from ..game.house import PRESETS
from ..game.i18n import _
from ..matches import closing, match_log
from ..matches.creation import added_match, players_added
from ..matches.writes import begin_write, lock_match, writing
from ..models import (
    NAME_MAX,
    Group,
    HandEvent,
    Match,
    MatchSeat,
    Player,
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from ..scoring.state import MatchState
from . import draw, standings

INDIVIDUAL, PAIRS = "individual", "pairs"
SWISS, ALL = "swiss", "all"
MOST_ENTRIES = 256
MOST_ROUNDS = 20
MOST_HANDS = 20
HOUSE = PRESETS["tournament"][1]  # [TN1]: victory points, [R2] and [R3]
KNOCKOUT_HOUSE = replace(HOUSE, victory_points=False)  # a knockout match: to a target
KNOCKOUT_TARGET = 1000
KNOCKOUTS = (2, 4, 8)


class Refused(ValueError):
    """What the director asked cannot be done: the field, the rule and the reason."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.field, self.rule, self.message = field, rule, message


@dataclass(frozen=True)
class Entry:
    """An entry as asked for: a player's name, or a pair's name and its two players."""

    name: str
    members: tuple[str, ...] = ()


def clean(name: str) -> str:
    return " ".join(name.split())


def pair_name(members: Sequence[str]) -> str:
    return " & ".join(clean(m) for m in members)


def create(name: str, kind: str, entries: Sequence[Entry], rounds: int, hands: int,
           pairing: str | None = None, seed: int = 0,
           knockout: int | None = None) -> Tournament:
    """A new tournament with its own table (the caller's device becomes its scorer: the
    director). Entries are checked by `check_entries`; a knockout of the best 2, 4 or 8
    follows the rounds of a pairs tournament ([TN3])."""
    check_entries(kind, entries)
    knockout = knockout if kind == PAIRS else None
    if knockout and (knockout not in KNOCKOUTS or knockout > len(entries)):
        raise Refused("knockout", "TN3", _(
            "A knockout is for the best 2, 4 or 8 pairs, and no more than play."))
    title = clean(name)[:NAME_MAX] or "Tichu"
    with writing():
        group = Group(name=title)
        db.session.add(group)
        db.session.flush()
        tournament = Tournament(group_id=group.id, name=title,
                                kind=kind, pairing=pairing if kind == PAIRS else None,
                                rounds=rounds, hands=hands, seed=seed,
                                knockout=knockout or None)
        tournament.entries = [_entry(e) for e in entries]
        db.session.add(tournament)
    return tournament


def _entry(entry: Entry, joined: int = 1) -> TournamentEntry:
    name = clean(entry.name) or pair_name(entry.members)
    return TournamentEntry(name=name, name_key=Player.key(name), joined=joined,
                           members=[clean(m) for m in entry.members] or None)


def check_entries(kind: str, entries: Sequence[Entry], known: Sequence[str] = ()) -> None:
    """Refused unless every entry has a name, no name (nor a pair's player) comes twice,
    and there are enough for a first round (four players, or two pairs)."""
    seen = {Player.key(n) for n in known}
    pairs = set(seen)  # a pair's name, given or made of its players', is told apart too
    for entry in entries:
        names = [entry.name] if kind == INDIVIDUAL else [*entry.members]
        if kind == PAIRS and len([m for m in entry.members if clean(m)]) != 2:
            raise Refused("entries", "TN3", _("A pair is two players: %(pair)s.") % {
                "pair": entry.name or pair_name(entry.members)})
        if kind == PAIRS:
            named = clean(entry.name) or pair_name(entry.members)
            if Player.key(named) in pairs:
                raise Refused("entries", "TN3", _("%(name)s is entered twice.") % {
                    "name": named})
            pairs.add(Player.key(named))
        for name in names:
            if not clean(name) or len(clean(name)) > NAME_MAX:
                raise Refused("entries", "TN1", _(
                    "Each name has 1 to %(most)d characters.") % {"most": NAME_MAX})
            if Player.key(name) in seen:
                raise Refused("entries", "TN1", _("%(name)s is entered twice.") % {
                    "name": clean(name)})
            seen.add(Player.key(name))
    least = 4 if kind == INDIVIDUAL else 2
    if not known and len(entries) < least:
        raise Refused("entries", "TN1" if kind == INDIVIDUAL else "TN3", _(
            "A tournament needs at least four players (two pairs).") if least == 2 else _(
            "A tournament needs at least four players."))
    if len(entries) + len(known) > MOST_ENTRIES:
        raise Refused("entries", "TN1", _("At most %(most)d entries.") % {
            "most": MOST_ENTRIES})


def by_key(key: str) -> Tournament | None:
    return db.session.execute(
        db.select(Tournament).filter_by(key=key[:24])).scalar_one_or_none()


def of_group(group: Group) -> Tournament | None:
    """The tournament a table was made for, if any."""
    return db.session.execute(
        db.select(Tournament).filter_by(group_id=group.id)).scalar_one_or_none()


def _held(tournament_id: int) -> Tournament:
    """Begin a write holding the tournament (SQLite: the write lock; PostgreSQL: its row)."""
    begin_write()
    held: Tournament = db.session.execute(db.select(Tournament).filter_by(id=tournament_id)
                                          .with_for_update()).scalar_one()
    return held


def playing(tournament: Tournament, number: int) -> list[TournamentEntry]:
    """The entries that play round `number`: arrived by then, not yet left."""
    return [e for e in tournament.entries
            if e.joined <= number and (e.left is None or e.left > number)]


def arrive(tournament: Tournament, entry: Entry) -> TournamentEntry:
    """A late arrival: plays from the next round drawn."""
    with writing():
        held = _held(tournament.id)
        check_entries(held.kind, [entry], known=_names_in(held))
        row = _entry(entry, joined=len(held.played) + 1)
        held.entries.append(row)
    return row


def _names_in(tournament: Tournament) -> list[str]:
    names: list[str] = []
    for e in tournament.entries:
        names.extend([e.name] if tournament.kind == INDIVIDUAL else [e.name, *(e.members or [])])
    return names


def leave(tournament: Tournament, entry_id: int, leaving: bool = True) -> TournamentEntry:
    """A drop-out plays no round drawn from now on (its results so far stay); `leaving`
    False: it comes back, from the next round drawn."""
    with writing():
        held = _held(tournament.id)
        row = next((e for e in held.entries if e.id == entry_id), None)
        if row is None:
            raise Refused("entry", "TN2", _("No such entry in this tournament."))
        if not leaving:
            row.left = None
            row.joined = min(row.joined, len(held.played) + 1)
        elif row.left is None:
            row.left = len(held.played) + 1
    return row


def match_tournament(match: Match) -> Tournament | None:
    """The tournament whose round's table this match is, if any."""
    if match.tournament_round_id is None:
        return None
    rnd = db.session.get(TournamentRound, match.tournament_round_id)
    return rnd.tournament if rnd else None


def keep_rules(match: Match) -> None:
    """A tournament's table plays by the tournament ([TN1], [TN4]): its settings, its
    players and its place are the director's, on the tournament's page. Refused."""
    if match.tournament_round_id is not None:
        raise Refused("match", "TN4", _(
            "This match is table %(board)d of a tournament round: its players and rules are "
            "the tournament's, and it is neither deleted nor played again. Hands are "
            "corrected as in any match.") % {"board": match.board or 0})


def reopen(tournament: Tournament, match_key: str, reason: str) -> tuple[int, int]:
    """[TN5]: the director reopens one table of a closed round, giving a reason; its hands
    take changes (each logged as usual) until the next round is drawn. The reopening, its
    reason and the phone go into the table's log. Refused without a reason, for a table of
    another tournament, or one whose round is not closed. The table's round and board."""
    said = clean(reason)
    if not said:
        raise Refused("reason", "TN5", _(
            "Give the reason for reopening the table: it goes into the table's log."))
    if len(said) > closing.REASON_MAX:
        raise Refused("reason", "TN5", _("The reason has at most %(most)d characters.") % {
            "most": closing.REASON_MAX})
    tournament_id = tournament.id
    try:
        match = lock_match(match_key[:24])
        rnd = (db.session.get(TournamentRound, match.tournament_round_id)
               if match is not None and match.tournament_round_id is not None else None)
        if match is None or rnd is None or rnd.tournament_id != tournament_id:
            raise Refused("table", "TN5", _("No such table in this tournament."))
        found = closing.closure(match)
        if found is None or found.latest == found.round:
            raise Refused("table", "TN5", _(
                "Round %(number)d is the latest drawn: its tables are not closed, and are "
                "corrected at the table.") % {"number": rnd.number})
        board = match.board or 0
        if not found.closed:
            raise Refused("table", "TN5", _(
                "Table %(board)d of round %(number)d is already reopened.") % {
                "board": board, "number": found.round})
        closing.reopen(match, said, found.latest)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return found.round, board


def still_playing(rnd: TournamentRound) -> list[int]:
    """The boards of the round whose match has not ended ([TN4])."""
    return [m.board or 0 for m in rnd.tables if m.finished_at is None]


def draw_round(tournament: Tournament, number: int,
               check: Callable[[], None] = draw.nothing) -> TournamentRound:
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
    allowance: OutOfTime once spent, and nothing stored."""
    for _attempt in range(DRAW_SEARCHES):
        db.session.rollback()  # read what others stored until now
        asked = _asked(tournament, number)
        seating = asked.seating(check)  # the search: no write transaction, no lock
        with _drawing(number):
            held = _held(tournament.id)
            if _asked(held, number) != asked:
                continue  # changed meanwhile: nothing written, searched again
            rnd = _stored(held, number, seating)
        return rnd
    with _drawing(number):  # changed at every search: searched under the lock this time
        held = _held(tournament.id)
        rnd = _stored(held, number, _asked(held, number).seating(check))
    return rnd


DRAW_SEARCHES = 2  # searches of a round outside the write transaction before one inside


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


def _turn(tournament: Tournament, number: int) -> None:
    """Refused unless round `number` is the next to draw and the round before is over."""
    following = len(tournament.played) + 1
    last = tournament.rounds + knockout_stages(tournament)
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


def _stored(held: Tournament, number: int, seating: Seating) -> TournamentRound:
    """Round `number` with its tables as matches, in the caller's write transaction."""
    knockout = number > held.rounds
    rnd = TournamentRound(tournament_id=held.id, number=number,
                          stage="knockout" if knockout else "round")
    rnd.byes = list(seating.byes)
    rnd.unmet = [u.as_dict() for u in seating.unmet]
    db.session.add(rnd)
    db.session.flush()

    def add(board: int, names: Sequence[str], players: Mapping[str, Player]) -> Match:
        if knockout:  # [TN3]: to a target, a tie plays on ([E1])
            return added_match(held.group, names, KNOCKOUT_TARGET, variants.DEFAULT, None,
                               KNOCKOUT_HOUSE, players=players, tournament_round_id=rnd.id,
                               board=board)
        return added_match(held.group, names, None, variants.DEFAULT, held.hands, HOUSE,
                           players=players, tournament_round_id=rnd.id, board=board)

    players_added(held.group, seating.tables, add)
    # [TN5]: the rounds before are closed now; their tables' pages (kept per revision) and
    # live phones learn it from a new revision
    db.session.execute(db.update(Match).where(Match.tournament_round_id.in_(
        db.select(TournamentRound.id).where(TournamentRound.tournament_id == held.id,
                                            TournamentRound.number < number)))
        .values(revision=Match.revision + 1).execution_options(synchronize_session=False))
    return rnd


def knockout_stages(tournament: Tournament) -> int:
    """The knockout stages after the rounds: 1 for a final of the best 2, 2 for 4, 3 for 8."""
    return {2: 1, 4: 2, 8: 3}.get(tournament.knockout or 0, 0)


def _knockout(tournament: Tournament, number: int) -> _Knockout:
    """A knockout stage ([TN3]) as asked: the pairs of the standing after the rounds that
    still play (not dropped out), or the winners of the stage before."""
    rounds = rounds_of(tournament)
    stages = [r for r in rounds if r.knockout]
    seeded: tuple[str, ...] = ()
    winners = None
    if not stages:
        still = {e.name for e in playing(tournament, number)}
        seeded = tuple(line.name for line in table_standing(tournament, rounds=rounds)
                       if line.name in still)
    else:
        winners = tuple(t.sides[t.winner or 0][0] for t in stages[-1].tables)
    return _Knockout(tournament.knockout or 0, seeded, winners, _members(tournament.entries))


def _members(entries: Sequence[TournamentEntry]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each pair's name with its two players, in the order entered."""
    return tuple((e.name, tuple(e.members or ())) for e in entries)


def knockout_changed(rounds: Sequence[standings.Round]) -> list[str]:
    """Knockout stages drawn from a result corrected since ([TN4]): for each table of a
    later stage that seats a pair the stage before no longer sends, a sentence saying
    which. The director corrects it at that table (or plays it out as drawn)."""
    stages = [r for r in rounds if r.knockout]
    found = []
    for before, after in zip(stages, stages[1:], strict=False):
        winners = {t.sides[t.winner][0] for t in before.tables
                   if t.over and t.winner is not None}
        for table in after.tables:
            for side in table.sides:
                if winners and side[0] not in winners:
                    found.append(_("Table %(board)d of round %(number)d seats %(pair)s, but "
                                   "after a correction of round %(before)d that pair did "
                                   "not win its match there.") % {
                        "board": table.board, "number": after.number, "pair": side[0],
                        "before": before.number})
    return found


@dataclass(frozen=True)
class Seating:
    tables: tuple[tuple[str, ...], ...]  # four names by seat: 0 and 2 are partners
    byes: tuple[str, ...]
    unmet: tuple[draw.Unmet, ...] = ()


def _history(tournament: Tournament) -> tuple[draw.Round, ...]:
    tables = seated(tournament)  # two statements, not the matches of every round
    return tuple(draw.Round(tuple(t.names for t in tables.get(r.id, [])), tuple(r.byes))
                 for r in tournament.played)


def _asked(tournament: Tournament, number: int) -> _Individual | _Pairs | _Knockout:
    """What the draw of round `number` rests on, read: refused when it is not the next
    round, the round before is still being played, or too few play. Two reads that are
    equal draw the same seating (the draw and the pairing are deterministic)."""
    _turn(tournament, number)
    if number > tournament.rounds:
        return _knockout(tournament, number)
    if tournament.kind == INDIVIDUAL:
        return _individual(tournament, playing(tournament, number), number)
    return _pairs(tournament, playing(tournament, number), number)


def _individual(tournament: Tournament, entries: list[TournamentEntry],
                number: int) -> _Individual:
    names = tuple(e.name for e in entries)
    if len(names) < 4:
        raise Refused("entries", "TN1", _(
            "A round needs at least four players; %(count)d play.") % {"count": len(names)})
    return _Individual(names, tournament.seed * 1000 + number, _history(tournament))


def _pairs(tournament: Tournament, entries: list[TournamentEntry], number: int) -> _Pairs:
    if len(entries) < 2:
        raise Refused("entries", "TN3", _(
            "A round needs at least two pairs; %(count)d play.") % {"count": len(entries)})
    changed = any(e.joined > 1 or e.left is not None for e in tournament.entries)
    if tournament.pairing == ALL and not changed:  # the round robin: nothing else counts
        return _Pairs(ALL, False, number, 0, _members(entries), frozenset(), (), ())
    rounds = rounds_of(tournament)  # read once: who met, who sat out, the standing
    met = frozenset(frozenset(sum(t.sides, ())) for r in rounds for t in r.tables)
    had = tuple(b for r in rounds for b in r.byes)  # two byes counted twice
    names = [e.name for e in entries]
    plays = set(names)
    ranked = [line.name for line in table_standing(tournament, rounds=rounds)
              if line.name in plays]
    listed = set(ranked)
    ranked += [n for n in names if n not in listed]
    return _Pairs(tournament.pairing, changed, number, tournament.rounds - number + 1,
                  _members(entries), met, had, tuple(ranked))


@dataclass(frozen=True)
class _Individual:
    """An individual round as its draw asks it ([TN1], [TN2]): who plays, the seed, and
    the rounds before (who sat where, who sat out)."""

    names: tuple[str, ...]
    seed: int
    history: tuple[draw.Round, ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        made = draw.draw(self.names, 1, seed=self.seed, history=self.history, check=check)
        new = made.rounds[0]
        return Seating(new.tables, new.byes, made.unmet)


@dataclass(frozen=True)
class _Pairs:
    """A pairs round as its pairing asks it ([TN3]): the pairing, whether the field changed
    since the first round, the round and the rounds left with it, the pairs that play
    with their players (as entered), who met whom, the byes so far and the pairs ranked by
    the standing (these three not read for a round robin of an unchanged field)."""

    pairing: str | None
    changed: bool
    number: int
    left: int
    members: tuple[tuple[str, tuple[str, ...]], ...]
    met: frozenset[frozenset[str]]
    had: tuple[str, ...]
    ranked: tuple[str, ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        from . import pairing
        names = [name for name, _players in self.members]
        planned = None
        if self.pairing == ALL and self.changed:  # a plan for the rounds left, none met twice
            planned = pairing.all_against_all(names, self.met, self.left, self.had, check)
        if self.pairing == ALL and not self.changed:
            schedule = pairing.round_robin(names)
            games = schedule[(self.number - 1) % len(schedule)]
            tables = tuple((a, b) for a, b in games if a is not None and b is not None)
            byes: tuple[str, ...] = tuple(n for a, b in games if a is None or b is None
                                          for n in (a, b) if n is not None)
            unmet: tuple[Any, ...] = ()
        elif planned is not None:
            tables, byes, unmet = planned.tables, ((planned.bye,) if planned.bye else ()), ()
        else:
            made = pairing.swiss(self.ranked, self.met, self.had, check)
            tables, byes, unmet = made.tables, ((made.bye,) if made.bye else ()), made.unmet
        members = dict(self.members)
        return Seating(tuple((members[a][0], members[b][0], members[a][1], members[b][1])
                             for a, b in tables), byes, tuple(unmet))


@dataclass(frozen=True)
class _Knockout:
    """A knockout stage as asked ([TN3]): its size, and the standing's pairs that still
    play (the first stage) or the stage before's winners by match (None before), with
    every pair's players."""

    size: int
    seeded: tuple[str, ...]
    winners: tuple[str, ...] | None
    members: tuple[tuple[str, tuple[str, ...]], ...]

    def seating(self, check: Callable[[], None]) -> Seating:
        """The best `size` 1 v N, 2 v N-1, …; later stages pair the winners so that the
        two best seeds meet only in the final."""
        from . import pairing
        try:
            games = (pairing.knockout(self.seeded, self.size) if self.winners is None
                     else pairing.next_knockout(self.winners))
        except pairing.PairingError as exc:
            raise Refused("round", "TN3", str(exc)) from None
        members = dict(self.members)
        return Seating(tuple((members[a][0], members[b][0], members[a][1], members[b][1])
                             for a, b in games), ())


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


def pair_names(tournament: Tournament) -> dict[frozenset[str], str]:
    """A pairs tournament's pairs by their two players' names."""
    return {frozenset(Player.key(m) for m in e.members or []): e.name
            for e in tournament.entries}


def sides_of(tournament: Tournament, names: Sequence[str],
             pairs: dict[frozenset[str], str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Whom each side of a table credits: the two partners (individual), or the pair."""
    a, b = (names[0], names[2]), (names[1], names[3])
    if tournament.kind == INDIVIDUAL:
        return a, b
    return tuple((pairs.get(frozenset(map(Player.key, side)), " & ".join(side)),)
                 for side in (a, b))  # type: ignore[return-value]


def table_of(tournament: Tournament, table: Seated,
             pairs: dict[frozenset[str], str]) -> standings.Table:
    """A round's table as the standing reads it."""
    return standings.Table(table.board, sides_of(tournament, table.names, pairs),
                           table.victory, (table.totals[0], table.totals[1]), table.hands,
                           table.over, table.winner)


def _recounted(tournament: Tournament, match: Match,
               pairs: dict[frozenset[str], str]) -> standings.Table:
    """A table recounted from its match's hands by the match state."""
    state = MatchState.of(match.settings, [h.input for h in match.hands])
    return table_of(tournament, Seated(
        match.key, match.scorer_key, match.board or 0, tuple(match.player_names),
        state.totals, state.victory, len(state.hands), state.over, state.winner), pairs)


def rounds_of(tournament: Tournament, recount: bool = False) -> list[standings.Round]:
    """The rounds as the standing reads them: from the matches' stored results, or,
    `recount`, every table recounted from its hands (the check of the stored results)."""
    pairs = pair_names(tournament)
    if recount:
        return [standings.Round(r.number, tuple(_recounted(tournament, m, pairs)
                                                for m in r.tables), tuple(r.byes),
                                r.stage == "knockout")
                for r in tournament.played]
    tables = seated(tournament)
    return [standings.Round(r.number, tuple(table_of(tournament, t, pairs)
                                            for t in tables.get(r.id, [])), tuple(r.byes),
                            r.stage == "knockout")
            for r in tournament.played]


def table_standing(tournament: Tournament, recount: bool = False,
                   rounds: list[standings.Round] | None = None) -> list[standings.Line]:
    if rounds is None:
        rounds = rounds_of(tournament, recount)
    lines = standings.standing(rounds, tournament.kind == INDIVIDUAL,
                               [e.name for e in tournament.entries])
    return standings.with_knockout(lines, rounds)


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
