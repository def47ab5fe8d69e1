"""Checks of an import's parts that need no database: where in the file a problem is, the
sizes an import may have, and the log entries (their fields, and what an edit or a change
of settings says it changed).

`entry_problem` is also how the log page tells whether it can read a stored entry: an
entry the import would refuse is shown as unreadable, never a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from . import phones
from .clock import utcnow
from .game.i18n import _
from .matches.corrections import ACTIONS
from .models import MOST_BOMBS, NAME_MAX, NOTE_MAX, Hand, HandEvent
from .scoring import Call

# The sizes an import may have. Real play is far below them: a match to 1000 takes 10 to 20
# hands and logs a line or two per hand; a table plays a few matches an evening.
MAX_IMPORT_MATCHES = 2000  # matches per file: years of play at one table
MAX_IMPORT_HANDS = 2000  # hands per match: 100 times a long match
MAX_IMPORT_EVENTS = 10_000  # log entries per match: five per hand at the limit of hands
# A file of many matches full of log entries: five per hand again, over the whole file.
MAX_IMPORT_TOTAL_EVENTS = 50_000
# The largest id, hand number, version or log position: PostgreSQL's `integer` (int4).
DB_INT_MAX = 2**31 - 1
SUMMARY_MAX = HandEvent.__table__.c.summary.type.length
POINTS_MAX = 1000  # card points of a hand as entered or counted (a hand has 100)
CALLS = frozenset(c.value for c in Call)


class ImportError_(ValueError):
    """An import that cannot be stored; the message names the match, hand and rule."""


@dataclass(frozen=True)
class Spot:
    """Where in the file a problem is: a match, and a hand or log entry in it. Put in
    words (translated) only when a problem is reported."""

    match: int
    hand: object = None
    entry: int | None = None

    def __str__(self) -> str:
        text = _("match {n}").format(n=self.match)
        if self.hand is not None:
            return _("{match}, hand {n}").format(match=text, n=self.hand)
        if self.entry is not None:
            return _("{match}, log entry {n}").format(match=text, n=self.entry)
        return text


def refuse(where: Spot, message: str) -> ImportError_:
    return ImportError_(_("{where}: {message}").format(where=where, message=message))


def parse_time(value: object, where: Spot) -> datetime | None:
    """An ISO date and time; one with a time zone is stored as UTC, as the app stores."""
    if value in (None, ""):
        return None
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise refuse(where, _("{value} is not a date and time.").format(
            value=repr(value)[:40]))
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
    return parsed


def whole(value: object, low: int = 1, high: int = DB_INT_MAX) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seat(value: object, seats: int) -> bool:
    return whole(value, 0, seats - 1)


def _hand_problem(part: Mapping[str, Any], seats: int) -> tuple[str, str] | None:
    """The first field of a hand as a log entry keeps it that the log page could not say
    in words, with the rule it breaks."""
    seat_range = f"0–{seats - 1}"
    order = part.get("out_order", [])
    if (not isinstance(order, list) or len(order) > seats or len(set(map(repr, order)))
            < len(order) or not all(_seat(s, seats) for s in order)):
        return "out_order", _("must be a list of different seats {seats}.").format(
            seats=seat_range)
    calls = part.get("calls") or {}
    if not isinstance(calls, Mapping) or not all(
            isinstance(k, str) and k.isascii() and k.isdigit() and int(k) < seats
            and isinstance(v, str) and v in CALLS
            for k, v in calls.items()):
        return "calls", _("must map seats {seats} to \"tichu\" or \"grand\".").format(
            seats=seat_range)
    for key in ("card_points", "counted_points"):
        points = part.get(key) or []
        if not isinstance(points, list) or len(points) > 2 or not all(
                p is None or whole(p, -POINTS_MAX, POINTS_MAX) for p in points):
            return key, _("must be a list of two numbers from {low} to {high} or "
                          "null.").format(low=-POINTS_MAX, high=POINTS_MAX)
    bombs = part.get("bombs") or []
    if not isinstance(bombs, list) or len(bombs) > seats or not all(
            whole(n, 0, MOST_BOMBS) for n in bombs):
        return "bombs", _("must be a list of at most {seats} counts from 0 to {most}.").format(
            seats=seats, most=MOST_BOMBS)
    note = part.get("note")
    if note is not None and not (isinstance(note, str) and len(note) <= NOTE_MAX):
        return "note", _("must be text of at most {n} characters.").format(n=NOTE_MAX)
    wish = part.get("wish_penalty")
    if wish is not None and not (isinstance(wish, Mapping) and (
            wish.get("offender") is None or _seat(wish.get("offender"), seats))):
        return "wish_penalty", _("must be null or {{\"offender\": seat}} with a seat "
                                 "{seats}.").format(seats=seat_range)
    return None


def _settings_problem(part: Mapping[str, Any], seats: int) -> tuple[str, str] | None:
    target = part.get("target")
    if target is not None and not whole(target, 0):
        return "target", _("must be a whole number or null.")
    names = part.get("names") or []
    if not isinstance(names, list) or len(names) > seats or not all(
            isinstance(n, str) and len(n) <= NAME_MAX for n in names):
        return "names", _("must be a list of at most {seats} names of at most {most} "
                          "characters.").format(seats=seats, most=NAME_MAX)
    return None


def entry_problem(action: object, before: object, after: object,
                  seats: int) -> tuple[str, str] | None:
    """The first field of a log entry's `before` or `after` that the log cannot read, for
    a match of `seats` seats: (field, what it must be); None when the entry is sound.

    >>> entry_problem("edited", {"out_order": [0, 9]}, {"out_order": [0, 1]}, 4)
    ('before.out_order', 'must be a list of different seats 0–3.')
    >>> entry_problem("settings", {"target": 500, "names": ["Ann"]}, None, 4) is None
    True
    """
    for name, part in (("before", before), ("after", after)):
        if part is None:
            continue
        if not isinstance(part, Mapping):
            return name, _("must be an object or null.")
        found = (_settings_problem if action == "settings" else _hand_problem)(part, seats)
        if found is not None:
            return f"{name}.{found[0]}", found[1]
    return None


def check_log(events: object, hands: Mapping[int, Hand], where: Spot, seats: int
              ) -> list[tuple[Hand | None, dict[str, Any]]]:
    """The log as the app writes it: known actions, the hand each names, plain text, and
    before and after as the log page reads them (seats of this match)."""
    if events is None:
        return []
    if not isinstance(events, list) or len(events) > MAX_IMPORT_EVENTS:
        raise refuse(where, _("log must be a list of at most {n} entries ({given} "
                              "given).").format(
            n=MAX_IMPORT_EVENTS, given=len(events) if isinstance(events, list) else 0))
    checked = []
    for index, raw in enumerate(events, start=1):
        spot = Spot(where.match, entry=index)
        if not isinstance(raw, Mapping):
            raise refuse(spot, _("a log entry must be an object."))
        action, summary = raw.get("action"), raw.get("summary", "")
        if action not in ACTIONS:
            raise refuse(spot, _("unknown action {action}; the log knows {known}.").format(
                action=repr(action)[:30], known=", ".join(ACTIONS)))
        if not isinstance(summary, str) or len(summary) > SUMMARY_MAX:
            raise refuse(spot, _("summary must be text of at most {n} characters.").format(
                n=SUMMARY_MAX))
        number, position = raw.get("hand_number"), raw.get("position", 0)
        if number is not None and number not in hands:
            raise refuse(spot, _("hand_number {n} is not a hand of this match.").format(
                n=repr(number)[:20]))
        if not whole(position, 0):
            raise refuse(spot, _("position must be a whole number."))
        if any(raw.get(k) is not None and not isinstance(raw.get(k), Mapping)
               for k in ("before", "after")):
            raise refuse(spot, _("before and after must be objects or null."))
        if problem := entry_problem(action, raw.get("before"), raw.get("after"), seats):
            raise refuse(spot, f"{problem[0]} {problem[1]}")
        phone = raw.get("phone")
        if phone is not None and not isinstance(phone, str):
            raise refuse(spot, _("phone must be text (the name of the phone that made the "
                                 "change)."))
        checked.append((hands.get(number) if number is not None else None, {
            "position": position, "action": action, "summary": summary,
            "before": raw.get("before"), "after": raw.get("after"),
            "at": parse_time(raw.get("at"), spot) or utcnow(), "phone": phones.clean(phone)}))
    return checked
