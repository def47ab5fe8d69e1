"""The JSON export: one match or the whole history, lossless (`json_import` reads it back;
the CSV sheet is `csv_sheet`)."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Match, MatchSeat
from . import follow_events

FORMAT, VERSION = "tichu-scorer", 1
CHUNK = 500  # values per IN (…): far below every database's limit on parameters
EXPORT_BATCH = 50  # matches an export reads (and holds) at a time


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def match_dict(match: Match, followed: dict[tuple[int, int], list[dict[str, Any]]] | None = None
               ) -> dict[str, Any]:
    """Everything about a match: players, settings, every hand (deleted ones too) with the
    events of a followed hand (`followed`: read for a batch of matches at once), the log."""
    numbers = {h.id: h.number for h in match.all_hands}
    if followed is None:
        followed = follow_events.of_matches([match.id])
    return {
        "variant": match.variant, "target": match.target, "hand_limit": match.hand_limit,
        # [R1]: the house rules (docs/API.md's shape; {} the rule book) and [R6]
        "house_rules": match.house_rules or {}, "lead_by": match.lead_by,
        "started_at": _time(match.started_at), "finished_at": _time(match.finished_at),
        "players": [s.player.name if s.player else None for s in match.seats],
        # each player's key (its page) and guest mark, by seat (an import keeps them)
        "player_keys": [s.player.key if s.player else None for s in match.seats],
        "guests": [s.player.guest if s.player else None for s in match.seats],
        "hands": [{
            "number": h.number, "out_order": h.out_order, "calls": h.calls,
            "card_points": h.card_points_entered, "wish_offender": h.wish_offender,
            "shuffler": h.shuffler, "client_id": h.client_id, "version": h.version,
            "created_at": _time(h.created_at), "deleted_at": _time(h.deleted_at),
            "team_scores": h.team_scores, "player_scores": h.player_scores,
        } | h.extras() | follow_events.exported(followed, match, h) for h in match.all_hands],
        "log": [{"hand_number": numbers.get(e.hand_id or 0), "position": e.position,
                 "action": e.action, "summary": e.summary, "before": e.before,
                 "after": e.after, "at": _time(e.at)} | ({"phone": e.phone} if e.phone else {})
                for e in match.events],
    }


def _load(match_ids: Iterable[int] | None = None) -> list[Match]:
    query = db.select(Match).order_by(Match.id).options(
        selectinload(Match.all_hands), selectinload(Match.events),
        selectinload(Match.seats).joinedload(MatchSeat.player))
    if match_ids is not None:
        query = query.where(Match.id.in_(list(match_ids)))
    return list(db.session.execute(query).scalars())


def _batches(match_ids: Sequence[int]) -> Iterator[list[Match]]:
    """The matches with these ids (in this order), EXPORT_BATCH at a time with their hands,
    log and players (four queries a batch, and one for their followed hands' events in
    `stream_json`): an export holds one batch in memory."""
    for chunk in chunks(match_ids, EXPORT_BATCH):
        yield _load(chunk)


def export_json(match_ids: Iterable[int] | None = None) -> dict[str, Any]:
    matches = _load(match_ids)
    followed = follow_events.of_matches([m.id for m in matches])
    return {"format": FORMAT, "version": VERSION,
            "matches": [match_dict(m, followed) for m in matches]}


def stream_json(match_ids: Sequence[int]) -> Iterator[str]:
    """`json.dumps(export_json(match_ids), indent=1, ensure_ascii=False)`, to the character,
    a match at a time: a match nested in the document is its own dump indented two more
    spaces (JSON strings hold no line break, so indenting lines is exact)."""
    head = {"format": FORMAT, "version": VERSION, "matches": []}
    opening = json.dumps(head, indent=1, ensure_ascii=False)
    if not match_ids:
        yield opening
        return
    yield opening[:-len("[]\n}")] + "["  # up to and with the list's opening bracket
    first = True
    for batch in _batches(match_ids):
        parts = []
        followed = follow_events.of_matches([m.id for m in batch])
        for match in batch:
            text = json.dumps(match_dict(match, followed), indent=1, ensure_ascii=False)
            parts.append(("\n" if first else ",\n") + textwrap.indent(text, "  "))
            first = False
        yield "".join(parts)
    yield "\n ]\n}"


def chunks(values: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start:start + size]
