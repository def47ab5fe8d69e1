"""A followed hand's events in the JSON export and import (RULES.md §11, `[L6]`: the events
stay with the hand): read for a batch of matches at once, checked on import as every field
of a hand is, and written in one statement with the hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..clock import utcnow
from ..core import follow
from ..extensions import db
from ..follow_rows import FollowEvent
from ..game.i18n import _
from ..models import Hand, Match
from .checks import Spot, parse_time, refuse

MAX_EVENTS = 200  # a hand's events in a file: a real hand has a few dozen
PHONE_MAX = 24


def of_matches(match_ids: Sequence[int]) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """The events of these matches' hands, by (match id, hand number), in order, in the
    export's shape."""
    if not match_ids:
        return {}
    found: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for row in db.session.execute(db.select(FollowEvent).where(
            FollowEvent.match_id.in_(list(match_ids)))
            .order_by(FollowEvent.match_id, FollowEvent.hand, FollowEvent.seq)).scalars():
        event = follow.Event(row.kind, row.seat, row.rank, row.phone,
                             row.at.isoformat() if row.at else None)
        found.setdefault((row.match_id, row.hand), []).append(event.as_dict())
    return found


def checked(raw: object, seats: int, where: Spot) -> list[dict[str, Any]]:
    """A hand's `follow` list from a file, each event as the app would have taken it
    (its kind, seat and rank; its phone's name and time), or the import refused."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        raise refuse(where, _("follow must be a list of at most {n} events.").format(
            n=MAX_EVENTS))
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise refuse(where, _("every event of follow must be an object."))
        try:
            event = follow.Event.read(item, seats)
        except follow.BadEvent as exc:
            raise refuse(where, f"follow: {exc.message}") from None
        phone = item.get("phone")
        if phone is not None and not (isinstance(phone, str) and len(phone) <= PHONE_MAX):
            raise refuse(where, _("follow: a phone's name is text of at most {n} "
                                  "characters.").format(n=PHONE_MAX))
        out.append({"kind": event.kind, "seat": event.seat, "rank": event.rank,
                    "phone": phone, "at": parse_time(item.get("at"), where, "follow.at")})
    return out


def rows(matches: Iterable[Match]) -> list[dict[str, Any]]:
    """The rows of the imported hands' events (each hand's `follow`, set by `checked`)."""
    out = []
    for match in matches:
        for hand in match.all_hands:
            for seq, event in enumerate(getattr(hand, "follow", ()), start=1):
                out.append({"match_id": match.id, "hand": hand.number, "seq": seq,
                            "client_id": None, "device": None, **event,
                            "at": event["at"] or utcnow()})
    return out


def exported(found: dict[tuple[int, int], list[dict[str, Any]]], match: Match,
             hand: Hand) -> dict[str, Any]:
    """The `follow` field of a hand in the export, when it was followed."""
    events = found.get((match.id, hand.number))
    return {"follow": events} if events else {}
