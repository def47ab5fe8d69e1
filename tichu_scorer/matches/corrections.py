"""Fixing mistakes without losing anything: edit or delete any hand, undo the last one,
restore a deleted one. Every change is appended to the match's log with a readable summary
("hand 7 edited: team A card points 60 → 65")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import force_locale, gettext
from sqlalchemy import func
from sqlalchemy.orm.exc import StaleDataError

from ..clock import utcnow
from ..extensions import db
from ..game.house import HouseRules, HouseRulesError, named_rules, read_house_rules
from ..game.i18n import N_
from ..game.layouts import TEAM_LETTERS
from ..models import Hand, HandEvent, Match
from ..scoring import Call, Problem, call_made, call_name, read_call
from . import closing, settings
from .ending import after_the_end, recompute
from .hand_entry import extras_of, score
from .match_view import side_labels
from .writes import Conflict, log

# The log's actions, as the log page shows them (translated there).
ACTIONS = (N_("added"), N_("edited"), N_("deleted"), N_("undone"), N_("restored"),
           N_("settings"), N_("reopened"))


def call_label(word: object, rules: HouseRules) -> str:
    """A stored call word in the reader's language (`scoring.read_call`): Tichu or Grand
    Tichu translated, one of the match's own calls by its name ([R9]), "no call" for none;
    a word these rules no longer define (a call the match has dropped since) as it is."""
    if not word:
        return str(gettext("no call"))
    call = read_call(word, rules)
    return str(gettext(call.label)) if isinstance(call, Call) else call_name(word, rules)


def describe_change(match: Match, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What an edit changed, in words a player reads, in the reader's language: names,
    calls, card points, wish. The log stores what changed (before and after) and says it
    in words when it is read."""
    names, game, rules = match.names, match.game, match.house
    parts = []

    def order(seats: list[int]) -> str:
        return ", ".join(names[s] for s in seats) or gettext("nobody")

    old_order, new_order = before.get("out_order", []), after.get("out_order", [])
    if list(old_order) != list(new_order):
        parts.append(gettext(game.order_change, before=order(old_order),
                             after=order(new_order)))
    calls_before, calls_after = before.get("calls") or {}, after.get("calls") or {}
    for seat in sorted({*calls_before, *calls_after}, key=int):
        if calls_before.get(seat) != calls_after.get(seat):
            parts.append(gettext("%(name)s's call %(before)s → %(after)s", name=names[int(seat)],
                                 before=call_label(calls_before.get(seat), rules),
                                 after=call_label(calls_after.get(seat), rules)))
    if "card_points" in game.asks:
        # compare the points as counted (an edit may enter the other team's figure)
        old_points = before.get("counted_points") or before.get("card_points") or [None, None]
        new_points = after.get("counted_points") or after.get("card_points") or [None, None]
        for team, (a, b) in enumerate(zip(old_points, new_points, strict=False)):
            if a != b:
                parts.append(gettext("team %(team)s card points %(before)s → %(after)s",
                                     team=TEAM_LETTERS[team], before="—" if a is None else a,
                                     after="—" if b is None else b))
    wish_before = (before.get("wish_penalty") or {}).get("offender")
    wish_after = (after.get("wish_penalty") or {}).get("offender")
    if wish_before != wish_after:
        who = [(gettext("nobody") if w is None else names[w]) for w in (wish_before, wish_after)]
        parts.append(gettext("missed wish %(before)s → %(after)s", before=who[0], after=who[1]))
    bombs_before, bombs_after = before.get("bombs") or [], after.get("bombs") or []
    for seat in range(min(max(len(bombs_before), len(bombs_after)), len(names))):
        was = bombs_before[seat] if seat < len(bombs_before) else 0
        now = bombs_after[seat] if seat < len(bombs_after) else 0
        if was != now:
            parts.append(gettext("%(name)s's bombs %(before)s → %(after)s", name=names[seat],
                                 before=was, after=now))
    if (before.get("note") or "") != (after.get("note") or ""):
        parts.append(gettext("note “%(before)s” → “%(after)s”", before=before.get("note") or "",
                             after=after.get("note") or ""))
    return "; ".join(parts) or gettext("no change")


def describe_settings(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What a change of the match's settings changed, in the reader's language: the target
    and each renamed player ("target 1000 → 500; Bob → Robert")."""
    parts = []
    if before.get("target") != after.get("target"):
        parts.append(gettext("target %(before)s → %(after)s", before=before.get("target"),
                             after=after.get("target")))
    old_names, new_names = before.get("names") or [], after.get("names") or []
    for old, new in zip(old_names, new_names, strict=False):
        if old != new:
            parts.append(f"{old} → {new}")
    rules = [_named(before), _named(after)]
    if rules[0] != rules[1]:  # [R1]
        parts.append(gettext("house rules %(before)s → %(after)s", before=rules[0],
                             after=rules[1]))
    return "; ".join(parts) or gettext("no change")


def _named(setting: Mapping[str, Any]) -> str:
    """The house rules a logged setting names, in words ("rule book" for none)."""
    try:
        rules = read_house_rules(setting.get("house") or None)
    except HouseRulesError:  # an imported entry of a shape no check foresaw
        return "?"
    lead = setting.get("lead_by")
    said = [gettext(message, **values) for _rule, message, values in named_rules(
        rules, lead if isinstance(lead, int) else None)]
    return ", ".join(said) or gettext("rule book")


def change_settings(match: Match, target: int | None, names: list[str],
                    house: HouseRules | None = None, lead_by: int | None = None) -> bool:
    """Change the target, names and house rules (`settings.change_settings`), logged with
    English words for exports; the log page says them anew in the reader's language."""
    def english(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
        with force_locale("en"):
            return describe_settings(before, after)
    return settings.change_settings(match, target, names, english, house, lead_by)


def _check(hand: Hand, version: int) -> None:
    """The change was made on `version` of the hand: refuse it when another phone changed or
    deleted the hand since (checked while the match is held, `writes.lock_match`)."""
    if hand.deleted_at is not None:
        raise Conflict(None, None)
    if version != hand.version:
        raise Conflict(hand, hand.version)


def _commit() -> None:
    """Commit the change; a concurrent change of the same hand row (the version check of
    SQLAlchemy's version_id_col) is a conflict, never an overwrite."""
    try:
        db.session.commit()
    except StaleDataError as exc:
        db.session.rollback()
        raise Conflict() from exc
    except Exception:
        db.session.rollback()
        raise


def edit_hand(match: Match, hand: Hand, data: Mapping[str, Any],
              version: int, extras: Mapping[str, Any] | None = None) -> list[Problem]:
    """Replace what was recorded for `hand`; totals and result follow (a finished match
    reopens when the edit changes its result). `match` must be held. Conflict when another
    phone edited or deleted the hand after `version` was read; the problem of a table
    whose tournament round is closed ([TN5])."""
    if (closed := closing.closed(match)) is not None:
        return [closed]
    _check(hand, version)
    preview, problems, row = score(match, data, editing=hand, correction=True)
    if problems or preview is None:
        return problems
    before = hand.recorded() | {"counted_points": list(hand.card_points)}
    for key, value in (row | extras_of(extras)).items():
        setattr(hand, key, value)
    hand.version += 1
    recompute(match)  # `hand_entry.score` refused an edit that ends the match earlier
    after = hand.recorded() | {"counted_points": list(hand.card_points)}
    with force_locale("en"):  # the stored words are for exports; the log page says it anew
        summary = describe_change(match, before, after)
    log(match, hand, "edited", summary, before, after)
    _commit()
    return []


def delete_hand(match: Match, hand: Hand, version: int, action: str = "deleted") -> None:
    """Take a hand out of play; it stays in the log and can be restored. `match` must be
    held; Conflict when the hand changed or went since `version` was read; `closing.Closed`
    when the table's tournament round is closed ([TN5])."""
    closing.check(match)
    _check(hand, version)
    was_after_the_end = after_the_end(match)
    log(match, hand, action, "", hand.recorded(), None)
    hand.deleted_at = utcnow()
    hand.version += 1
    recompute(match, was_after_the_end)
    _commit()


def undo_last(match: Match, number: int) -> Hand:
    """Undo the latest hand in play, which the phone saw as entry `number`: Conflict when
    that is no longer the latest (already undone, or another hand came after it)."""
    hands = match.hands
    if not hands or hands[-1].number != number:
        raise Conflict(hands[-1] if hands else None, hands[-1].number if hands else None)
    delete_hand(match, hands[-1], hands[-1].version, action="undone")
    return hands[-1]


def restore_hand(match: Match, hand: Hand, moved_on_ok: bool = True,
                 revision: int | None = None) -> bool:
    """Bring a deleted hand back, in its original place; False when it is already back.

    The log's Restore names the match's `revision` its page showed: Conflict when the match
    changed since (another phone may have entered the hand again meanwhile; bringing the
    old one back beside it would count the hand twice). With `moved_on_ok` False (the
    "Restore" offered right after an undo or a delete) the match must not have changed
    since the hand went. `match` must be held; on Conflict (or `closing.Closed`, [TN5])
    nothing changes."""
    closing.check(match)
    if hand.deleted_at is None:
        return False
    if revision is not None:
        if revision != match.revision:
            raise Conflict(hand)
    elif not moved_on_ok:
        went = db.session.scalar(db.select(func.max(HandEvent.id)).where(
            HandEvent.match_id == match.id, HandEvent.hand_id == hand.id,
            HandEvent.action.in_(("deleted", "undone"))))
        since = db.session.scalar(db.select(func.count(HandEvent.id)).where(
            HandEvent.match_id == match.id, HandEvent.id > (went or 0)))
        if since:
            raise Conflict(hand)
    was_after_the_end = after_the_end(match)
    hand.deleted_at = None
    hand.version += 1
    recompute(match, was_after_the_end)
    db.session.flush()
    log(match, hand, "restored", "", None, hand.recorded())
    _commit()
    return True


def conflict_versions(match: Match, entered: Mapping[str, Any], hand: Hand | None,
                      conflict: Conflict) -> tuple[str, str | None, list[tuple[int, str]]]:
    """For a conflict's page: the other phone's version, this phone's (`entered`, scored as
    an edit of `hand` or a new hand; None where the rules refuse it), and one line per hand
    saved meanwhile, with its place."""
    _preview, problems, row = score(match, entered, editing=hand)
    yours = None if problems else summarize(match, row)
    theirs = summarize(match, conflict.hand) if conflict.hand is not None else ""
    saved = [(place, summarize(match, h)) for place, h in getattr(conflict, "saved", [])]
    return theirs, yours, saved


def summarize(match: Match, row: Hand | Mapping[str, Any]) -> str:
    """One hand in a line, for choosing between two phones' versions of it: who went out,
    the calls and how they went, the card points and what each side scored."""
    get = row.get if isinstance(row, Mapping) else lambda key: getattr(row, key)
    names, rules = match.names, match.house
    order = list(get("out_order") or [])
    parts = [gettext("out: %(order)s", order=", ".join(names[s] for s in order) or "—")]
    for seat, call in sorted((get("calls") or {}).items(), key=lambda item: int(item[0])):
        made = gettext("made") if call_made(int(seat), order) else gettext("failed")
        parts.append(f"{names[int(seat)]} {call_label(call, rules)} {made}")
    points = get("card_points") or []
    if len(points) == 2:
        parts.append(gettext("card points %(a)s : %(b)s", a=points[0], b=points[1]))
    offender = get("wish_offender")
    if isinstance(offender, int):
        parts.append(gettext("missed wish: %(name)s", name=names[offender]))
    scores = match.game.variant.side_scores(get("team_scores") or [], get("player_scores"),
                                    len(names))
    if scores:
        labels = side_labels(match)
        parts.append(" / ".join(f"{label} {n:+d}" for label, n in zip(labels, scores,
                                                                        strict=False)))
    return " · ".join(parts)
