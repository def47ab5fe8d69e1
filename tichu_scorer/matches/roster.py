"""Players and tables: a new table, the player of a name (created when new), the names a
new-match form offers, and the seats of a new match."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import NAME_MAX, Group, MatchSeat, Player
from ..scoring import Variant
from .writes import writing


def create_group(name: str) -> Group:
    """A new table; the caller's device becomes its scorer (`access.join`)."""
    with writing():
        group = Group(name=" ".join(name.split())[:NAME_MAX] or "Tichu")
        db.session.add(group)
    return group


def player_named(group_id: int, name: str) -> Player:
    """The player with this name (any case, any spacing), created when new."""
    clean = " ".join(name.split())
    key = Player.key_of(clean)
    found = db.select(Player).filter_by(group_id=group_id, name_key=key)
    player = db.session.execute(found).scalar_one_or_none()
    if player is None:
        try:  # another table may bring the same new name at the same moment (PostgreSQL)
            with db.session.begin_nested():
                player = Player(group_id=group_id, name=clean, name_key=key)
                db.session.add(player)
        except IntegrityError:
            player = db.session.execute(found).scalar_one()
    return player


def players_named(group_id: int, names: Sequence[str]) -> dict[str, Player]:
    """The players of these names (any case, any spacing), by the name as given, new ones
    created: one read and one insert for all (a tournament's round seats hundreds). When
    another write brings one of the new names at the same moment, one at a time."""
    clean = {name: " ".join(name.split()) for name in names}
    keys: dict[str, str] = {}
    for name in clean.values():  # a new player takes the name as first given
        keys.setdefault(Player.key_of(name), name)
    found = {p.name_key: p for p in db.session.execute(db.select(Player).where(
        Player.group_id == group_id, Player.name_key.in_(list(keys)))).scalars()}
    missing = [Player(group_id=group_id, name=c, name_key=k) for k, c in keys.items()
               if k not in found]
    if missing:
        try:
            with db.session.begin_nested():
                db.session.add_all(missing)
        except IntegrityError:
            return {name: player_named(group_id, name) for name in clean}
        found.update((p.name_key, p) for p in missing)
    return {name: found[Player.key_of(c)] for name, c in clean.items()}


def known_names(groups: Sequence[Group], limit: int = 200) -> list[str]:
    """Names of the players of these tables, most recent first, for the new-match form
    (a table's names are seen only by its members)."""
    if not groups:
        return []
    rows = db.session.execute(
        db.select(Player.name).where(Player.group_id.in_([g.id for g in groups]))
        .order_by(Player.created_at.desc(), Player.id.desc()).limit(limit)).scalars()
    return list(rows)


def seat_rows(game: Variant, players: Sequence[Player]) -> list[MatchSeat]:
    """The seats of a new match: the players in seats 0, 1, … with their fixed team (team
    games alternate, partners opposite, [H1], [T6.1]); Threechu adds the dummy's seat."""
    rows = [MatchSeat(seat=seat, team=game.team_of(seat), player=player)
            for seat, player in enumerate(players)]
    if game.dummy_seat is not None:
        rows.append(MatchSeat(seat=game.dummy_seat, team=None, player=None))
    return rows
