"""What a tournament's director does, stored: a tournament with its entries (checked by its
format, `formats`), late arrivals and drop-outs between rounds, a table of a closed round
reopened (`[TN5]`, `matches.closing`), and a tournament's table kept to the tournament's
rules. Drawing a round is `drawing`'s; reading the tables and the standing, `stored`'s.

The rounds' tables are ordinary matches of the tournament's own table (`Tournament.group`):
each is scored on its own phones with the ordinary hand flow, and a director's correction
of a result is a correction of a hand, logged as every change of a match is.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..extensions import db
from ..game.i18n import _
from ..matches import closing
from ..matches.roster import players_named
from ..matches.writes import lock_match, writing
from ..models import NAME_MAX, Group, Match, Player, Tournament, TournamentEntry, TournamentRound
from . import formats
from .formats import Entry, Format, Refused, clean, pair_name
from .stored import held

__all__ = ["Refused", "arrive", "by_key", "create", "keep_rules", "leave", "match_tournament",
           "of_group", "reopen"]


def create(name: str, fmt: Format, entries: Sequence[Entry], rounds: int, hands: int,
           seed: int = 0, knockout: int | None = None) -> Tournament:
    """A new tournament with its own table (the caller's device becomes its scorer: the
    director). Entries are checked by the format; a knockout of the best 2, 4 or 8
    follows the rounds of a pairs tournament ([TN3])."""
    fmt.check_entries(entries)
    knockout = fmt.check_knockout(knockout, len(entries))
    title = clean(name)[:NAME_MAX] or "Tichu"
    with writing():
        group = Group(name=title)
        db.session.add(group)
        db.session.flush()
        tournament = Tournament(group_id=group.id, name=title, kind=fmt.kind,
                                pairing=fmt.pairing, rounds=rounds, hands=hands, seed=seed,
                                knockout=knockout)
        tournament.entries = [_entry(e) for e in entries]
        db.session.add(tournament)
        players_named(group.id, _people(tournament.entries))  # on the table's players page
    return tournament


def _people(entries: Sequence[TournamentEntry]) -> list[str]:
    """The players of entries: each one's name, or a pair's members."""
    return [m for e in entries for m in (e.members or [e.name])]


def _entry(entry: Entry, joined: int = 1) -> TournamentEntry:
    name = clean(entry.name) or pair_name(entry.members)
    return TournamentEntry(name=name, name_key=Player.key_of(name), joined=joined,
                           members=[clean(m) for m in entry.members] or None)


def by_key(key: str) -> Tournament | None:
    return db.session.execute(
        db.select(Tournament).filter_by(key=key[:24])).scalar_one_or_none()


def of_group(group: Group) -> Tournament | None:
    """The tournament a table was made for, if any."""
    return db.session.execute(
        db.select(Tournament).filter_by(group_id=group.id)).scalar_one_or_none()


def arrive(tournament: Tournament, entry: Entry) -> TournamentEntry:
    """A late arrival: plays from the next round drawn."""
    with writing():
        ours = held(tournament.id)
        fmt = formats.of(ours)
        fmt.check_entries([entry], known=fmt.known_names(ours.entries))
        row = _entry(entry, joined=len(ours.played) + 1)
        ours.entries.append(row)
        players_named(ours.group_id, _people([row]))
    return row


def leave(tournament: Tournament, entry_id: int, leaving: bool = True) -> TournamentEntry:
    """A drop-out plays no round drawn from now on (its results so far stay); `leaving`
    False: it comes back, from the next round drawn."""
    with writing():
        ours = held(tournament.id)
        row = next((e for e in ours.entries if e.id == entry_id), None)
        if row is None:
            raise Refused("entry", "TN2", _("No such entry in this tournament."))
        if not leaving:
            row.left = None
            row.joined = min(row.joined, len(ours.played) + 1)
        elif row.left is None:
            row.left = len(ours.played) + 1
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
