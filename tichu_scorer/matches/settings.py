"""A match's settings changed after it began: the target and the players' names."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import phones
from ..extensions import db
from ..models import HandEvent, Match, Player
from .ending import after_the_end, recompute
from .roster import player_named


def change_settings(match: Match, target: int | None, names: Sequence[str],
                    describe: Callable[[Mapping[str, Any], Mapping[str, Any]], str]) -> bool:
    """A new target (the result follows from the hands again, [E1]) and the players' names
    in this match: a seat whose name changes takes the table's player of that name, or a
    new one (other matches keep their players). The change goes into the match's log, with
    `describe(before, after)` as its stored words. `match` must be held (`lock_match`).
    False when nothing changed (nothing is written)."""
    try:
        before = settings_of(match)
        was_after_the_end = after_the_end(match)
        if target is not None and match.settings.game.has_target:
            match.target = target
        seats = [s for s in match.seats if s.player is not None]
        for seat, name in zip(seats, names, strict=True):
            if seat.player is None or Player.key(" ".join(name.split())) != seat.player.name_key:
                seat.player = player_named(match.group_id, name)
        after = settings_of(match)
        if after == before:
            db.session.rollback()
            return False
        recompute(match, was_after_the_end)
        db.session.add(HandEvent(match_id=match.id, hand_id=None, position=match.hand_count,
                                 action="settings", summary=describe(before, after),
                                 before=before, after=after, phone=phones.name()))
        db.session.commit()
        return True
    except Exception:
        db.session.rollback()
        raise


def settings_of(match: Match) -> dict[str, Any]:
    """What the settings page changes, as the log keeps it: the target and the names."""
    return {"target": match.target, "names": list(match.player_names)}
