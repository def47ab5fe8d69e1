"""The match log page, a page of entries at a time: what it reads, and each entry in words.

A page costs the same with 10 entries as with 10,000: a count, the page's entries and the
hands they name. Entries are numbered 1, 2, … from the oldest (the log only grows, so an
entry keeps its number), and a page is named by the entry next to it (`older`, `newer`),
as the match lists are (`listing.history_page`). An entry whose stored fields the log
cannot read (an old or hand-made import) is shown as unreadable, never a 500.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func

from ..extensions import db
from ..game.house import HouseRules
from ..models import Hand, HandEvent, Match
from ..scoring import read_call
from ..transfer.checks import entry_problem, log_rules
from . import corrections

PAGE_SIZE = 100  # entries a page shows: a match to 1000 logs 10 to 40


@dataclass(frozen=True)
class Entry:
    """One line of the log: the entry, its number, its words (None: the stored summary)
    and whether it could be read."""

    event: HandEvent
    number: int
    said: str | None
    readable: bool


@dataclass(frozen=True)
class LogPage:
    entries: list[Entry]  # newest first
    hands: dict[int, Hand]  # the hands these entries name, by id
    total: int
    older: int | None = None  # the oldest entry shown, when older ones exist
    newer: int | None = None  # the newest entry shown, when newer ones exist


def _cursor(value: str | None, total: int) -> int | None:
    if value is None or not (value.isascii() and value.isdigit()) or len(value) > 9:
        return None
    return min(int(value), total + 1)


def log_page(match: Match, older: str | None = None, newer: str | None = None,
             size: int = PAGE_SIZE) -> LogPage:
    """The entries older than entry `older`, or newer than entry `newer`, or (neither, or
    one that is no number) the newest: `size` of them, newest first."""
    total = db.session.scalar(db.select(func.count(HandEvent.id)).where(
        HandEvent.match_id == match.id)) or 0
    top = total
    if (before := _cursor(older, total)) is not None:
        top = before - 1
    elif (after := _cursor(newer, total)) is not None:
        top = min(after + size, total)
    low = max(top - size + 1, 1)
    events = list(db.session.execute(
        db.select(HandEvent).where(HandEvent.match_id == match.id).order_by(HandEvent.id)
        .offset(low - 1).limit(max(top - low + 1, 0))).scalars())
    ids = {e.hand_id for e in events if e.hand_id is not None}
    hands = {h.id: h for h in db.session.execute(
        db.select(Hand).where(Hand.id.in_(ids))).scalars()} if ids else {}
    rules = _rules(match, events)
    entries = [_entry(match, event, low + i, rules) for i, event in enumerate(events)]
    return LogPage(entries[::-1], hands, total, older=low if low > 1 and events else None,
                   newer=top if top < total else None)


def _rules(match: Match, events: Sequence[HandEvent]) -> HouseRules:
    """The house rules these entries' calls are read by (`transfer.checks.log_rules`): the
    match's own, unless an entry names a call word they do not define, a call the match
    may have dropped since; then also those its logged changes of settings name (asked
    only then: a page of a match whose calls never changed costs no more)."""
    rules = match.house
    words = [word for event in events if event.action != "settings"
             for part in (event.before, event.after) if isinstance(part, Mapping)
             and isinstance(part.get("calls"), Mapping)
             for word in part["calls"].values() if isinstance(word, str)]
    if all(read_call(word, rules) is not None for word in words):
        return rules
    settings = db.session.execute(db.select(HandEvent.before, HandEvent.after).where(
        HandEvent.match_id == match.id, HandEvent.action == "settings")).all()
    return log_rules(rules, [part for row in settings for part in row])


def _entry(match: Match, event: HandEvent, number: int, rules: HouseRules) -> Entry:
    """An entry in the reader's language: an edit or a change of settings said anew from
    what it changed; one whose fields the log cannot read, as unreadable."""
    seats = len(match.seats)
    if entry_problem(event.action, event.before, event.after, seats, rules) is not None:
        return Entry(event, number, None, readable=False)
    say: Any = {"edited": lambda b, a: corrections.describe_change(match, b, a),
                "settings": corrections.describe_settings}.get(event.action)
    if say is None or not event.before or not event.after:
        return Entry(event, number, None, readable=isinstance(event.summary, str))
    try:
        return Entry(event, number, say(event.before, event.after), readable=True)
    except (LookupError, TypeError, ValueError, AttributeError):  # a shape no check foresaw
        return Entry(event, number, None, readable=False)


def words(match: Match, event: HandEvent) -> str:
    """An entry in the reader's language, as its line on the log page says it after the
    hand's number (a tournament's page lists its tables' corrections so)."""
    entry = _entry(match, event, 0, _rules(match, [event]))
    return (entry.said if entry.said is not None else event.summary) if entry.readable else ""
