"""A match comes and goes: a new match, a rematch, and a match deleted."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .. import statistics
from ..extensions import db
from ..game import variants
from ..game.house import RULE_BOOK, HouseRules
from ..models import Group, Match, Player
from ..scoring import Variant
from . import prebuilt, writes
from .roster import player_named, players_named, seat_rows
from .writes import Conflict, writing


def create_match(group: Group, names: Sequence[str], target: int | None,
                 game: Variant = variants.DEFAULT, hand_limit: int | None = None,
                 rematch_of: str | None = None, house: HouseRules = RULE_BOOK,
                 lead_by: int | None = None) -> Match:
    """A new match of table `group` with these players in seats 0, 1, …, played by these
    house rules ([R1]). The write holds the table first (`writes.lock_table`); a rematch
    then holds the match it follows (key `rematch_of`): Conflict when it was deleted."""
    group_id = group.id  # (the write begins by ending the read: the id is kept first)
    with writing():
        writes.lock_table(group_id)
        held = writes.hold_match(rematch_of) if rematch_of else None
        if rematch_of and held is None:
            raise Conflict()
        match = added_match(group, names, target, game, hand_limit, house, lead_by,
                            rematch_of_id=held.id if held else None)
    return match


def added_match(group: Group, names: Sequence[str], target: int | None,
                game: Variant = variants.DEFAULT, hand_limit: int | None = None,
                house: HouseRules = RULE_BOOK, lead_by: int | None = None,
                rematch_of_id: int | None = None,
                players: Mapping[str, Player] | None = None, **placed: int) -> Match:
    """A new match added in the caller's write transaction (`create_match`, and the
    tables of a tournament's round, all stored at once: `players_added`; `placed`: a
    table's round and board). `players`: the players of its names, read already; then
    the caller records its statistics (`statistics.record_imported`)."""
    match = Match(group_id=group.id, variant=game.key, target=target,
                  hand_limit=hand_limit, stamp=prebuilt.next_stamp(group.id), lead_by=lead_by,
                  house_rules=None if house == RULE_BOOK else house.as_dict(),
                  rematch_of_id=rematch_of_id, **placed)
    match.seats = seat_rows(game, [players[name] if players is not None
                                   else player_named(group.id, name) for name in names])
    match.totals = [0] * match.sides
    match.victory = [0] * match.sides if house.victory_points else None  # [R4]
    db.session.add(match)
    if players is None:
        statistics.record(match)  # a match without hands still counts as played
    return match


def players_added(group: Group, tables: Sequence[Sequence[str]],
                  add: Callable[[int, Sequence[str], Mapping[str, Player]], Match]
                  ) -> list[Match]:
    """Many new matches at once (a tournament's round): their players read and created
    together, each match added by `add(board, names, players)` (`added_match` with
    `players`), then stored and counted in one go (a match without hands still counts as
    played)."""
    players = players_named(group.id, [name for names in tables for name in names])
    matches = [add(board, names, players) for board, names in enumerate(tables, 1)]
    db.session.flush()
    statistics.record_imported(matches)
    return matches


def rematch(match: Match) -> Match:
    return create_match(match.group, match.player_names, match.target, match.game.variant,
                        match.hand_limit, rematch_of=match.key, house=match.house,
                        lead_by=match.lead_by)


def delete_match(match: Match) -> None:
    """Remove a match with its hands and log (the scorer confirmed it). `match` is held.
    On SQLite its table keeps its stamp, so that the next match stored never takes it
    again: SQLite may give the next match its id too, and the statistics would take one for
    the other (there one writer at a time changes the database; on PostgreSQL, whose ids
    never repeat, the table's row is left alone, as every other change of a match does)."""
    try:
        if db.session.get_bind().dialect.name == "sqlite":  # (PostgreSQL never reuses ids)
            prebuilt.keep_stamp(match.group_id, match.stamp or 0)
        # a rematch of it stays, as a match of its own
        prebuilt.unlink_rematches(match.id)
        statistics.forget(match)
        db.session.delete(match)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
