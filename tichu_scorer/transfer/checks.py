"""Checks of an import's parts that need no database: where in the file a problem is, the
sizes an import may have, and the log entries (their fields, and what an edit or a change
of settings says it changed).

`entry_problem` is also how the log page tells whether it can read a stored entry: an
entry the import would refuse is shown as unreadable, never a 500.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from ..clock import utcnow
from ..game.house import RULE_BOOK, HouseRules, HouseRulesError, read_house_rules
from ..game.i18n import _
from ..matches.corrections import ACTIONS
from ..models import MOST_BOMBS, NAME_MAX, NOTE_MAX, Hand, HandEvent
from ..scoring import read_call
from ..scoring.read import seat_key
from ..tables import phones

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


def parse_time(value: object, where: Spot, field: str) -> datetime | None:
    """An ISO date and time; one with a time zone is stored as UTC, as the app stores.
    Refused naming `field`: what is no date and time, or one that leaves the calendar
    (before the year 1 or after 9999) once in UTC."""
    if value in (None, ""):
        return None
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise refuse(where, _("{field} {value} is not a date and time.").format(
            field=field, value=repr(value)[:40]))
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
        except OverflowError:  # 0001-01-01T00:00:00+01:00 is in the year 0 in UTC
            raise refuse(where, _("{field} {value} is not a date and time of the years 1 "
                                  "to 9999 in UTC.").format(field=field,
                                                           value=repr(value)[:40])) from None
    return parsed


def whole(value: object, low: int = 1, high: int = DB_INT_MAX) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seat(value: object, seats: int) -> bool:
    return whole(value, 0, seats - 1)


def _calls_problem(calls: object, seats: int, rules: HouseRules) -> str | None:
    """[P3], [R9]: calls keyed by a seat of the match ("0", "1", …), each a call word these
    house rules read (`scoring.read_call`: Tichu, Grand Tichu or one of the match's own
    calls); what they must be, citing the rule, when they are not."""
    if isinstance(calls, Mapping) and all(
            (seat := seat_key(k)) is not None and seat < seats
            and read_call(v, rules) is not None for k, v in calls.items()):
        return None
    seat_range = f"0–{seats - 1}"
    if not rules.custom_calls:
        return _("must map seats {seats} to \"tichu\" or \"grand\".").format(
            seats=seat_range) + " (P3)"
    return _("must map seats {seats} to \"tichu\", \"grand\" or one of this match's calls "
             "({names}).").format(seats=seat_range, names=", ".join(
                 f'"{name}"' for name, _points in rules.custom_calls)) + " (R9)"


def _hand_problem(part: Mapping[str, Any], seats: int,
                  rules: HouseRules) -> tuple[str, str] | None:
    """The first field of a hand as a log entry keeps it that the log page could not say
    in words, with the rule it breaks."""
    seat_range = f"0–{seats - 1}"
    order = part.get("out_order", [])
    if (not isinstance(order, list) or len(order) > seats or len(set(map(repr, order)))
            < len(order) or not all(_seat(s, seats) for s in order)):
        return "out_order", _("must be a list of different seats {seats}.").format(
            seats=seat_range)
    if (why := _calls_problem(part.get("calls") or {}, seats, rules)) is not None:
        return "calls", why
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


def entry_problem(action: object, before: object, after: object, seats: int,
                  rules: HouseRules = RULE_BOOK) -> tuple[str, str] | None:
    """The first field of a log entry's `before` or `after` that the log cannot read, for
    a match of `seats` seats whose calls are read by `rules` (`log_rules`): (field, what it
    must be); None when the entry is sound.

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
        found = (_settings_problem(part, seats) if action == "settings"
                 else _hand_problem(part, seats, rules))
        if found is not None:
            return f"{name}.{found[0]}", found[1]
    return None


def log_rules(rules: HouseRules, settings: Iterable[object]) -> HouseRules:
    """The house rules a match's log entries are read by: the match's `rules`, with the own
    calls ([R9]) of every house rules its logged changes of settings name (the `before`
    and `after` of its "settings" entries). A call the match has dropped since stays
    readable in the entries that name it; any other word does not.

    >>> blind = HouseRules(custom_calls=(("blind", 400),))
    >>> log_rules(RULE_BOOK, [{"house": blind.as_dict()}, None]).custom_calls
    (('blind', 400),)
    >>> log_rules(blind, [{"house": {"custom_calls": "x"}}, "text"]) is blind
    True
    """
    calls = dict(rules.custom_calls)
    for part in settings:
        house = part.get("house") if isinstance(part, Mapping) else None
        try:
            named = read_house_rules(house or None)
        except HouseRulesError:  # an imported entry of a shape no check foresaw: no calls
            continue
        for name, points in named.custom_calls:
            calls.setdefault(name, points)
    if len(calls) == len(rules.custom_calls):
        return rules
    return replace(rules, custom_calls=tuple(calls.items()))


def check_log(events: object, hands: Mapping[int, Hand], where: Spot, seats: int,
              rules: HouseRules = RULE_BOOK) -> list[tuple[Hand | None, dict[str, Any]]]:
    """The log as the app writes it: known actions, the hand each names, plain text, and
    before and after as the log page reads them (seats of this match, its calls read by
    its house `rules` and those its logged changes of settings name: `log_rules`)."""
    if events is None:
        return []
    if not isinstance(events, list) or len(events) > MAX_IMPORT_EVENTS:
        raise refuse(where, _("log must be a list of at most {n} entries ({given} "
                              "given).").format(
            n=MAX_IMPORT_EVENTS, given=len(events) if isinstance(events, list) else 0))
    rules = log_rules(rules, [part for raw in events if isinstance(raw, Mapping)
                              and raw.get("action") == "settings"
                              for part in (raw.get("before"), raw.get("after"))])
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
        # (a whole number: a list or an object cannot be looked up, and True or 1.0 would
        # be taken for hand 1)
        if number is not None and not (whole(number) and number in hands):
            raise refuse(spot, _("hand_number {n} is not a hand of this match.").format(
                n=repr(number)[:20]))
        if not whole(position, 0):
            raise refuse(spot, _("position must be a whole number."))
        if any(raw.get(k) is not None and not isinstance(raw.get(k), Mapping)
               for k in ("before", "after")):
            raise refuse(spot, _("before and after must be objects or null."))
        if problem := entry_problem(action, raw.get("before"), raw.get("after"), seats,
                                    rules):
            raise refuse(spot, f"{problem[0]} {problem[1]}")
        phone = raw.get("phone")
        if phone is not None and not isinstance(phone, str):
            raise refuse(spot, _("phone must be text (the name of the phone that made the "
                                 "change)."))
        checked.append((hands.get(number) if number is not None else None, {
            "position": position, "action": action, "summary": summary,
            "before": raw.get("before"), "after": raw.get("after"),
            "at": parse_time(raw.get("at"), spot, "at") or utcnow(),
            "phone": phones.clean(phone)}))
    return checked
