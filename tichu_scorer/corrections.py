"""Fixing mistakes without losing anything: edit or delete any hand, undo the last one,
restore a deleted one. Every change is appended to the match's log with a readable summary
("hand 7 edited: team A card points 60 → 65")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import records
from .extensions import db
from .models import Hand, Match, utcnow
from .records import Conflict
from .scoring import Call, Problem
from .scoring.i18n import N_

# The log's actions, as the log page shows them (translated there).
ACTIONS = (N_("added"), N_("edited"), N_("deleted"), N_("undone"), N_("restored"))


def _call_label(value: str | None) -> str:
    return Call(value).label if value else "no call"


def describe_change(match: Match, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What an edit changed, in words a player reads: names, calls, card points, wish."""
    names = match.names
    parts = []
    team_game = match.variant in ("nanking", "tientsin", "threechu")

    def order(seats: list[int]) -> str:
        return ", ".join(names[s] for s in seats) or "nobody"

    if list(before.get("out_order", [])) != list(after.get("out_order", [])):
        label = "finishing order" if match.variant == "seigneur" else "out-order"
        parts.append(f"{label} {order(before.get('out_order', []))} → "
                     f"{order(after.get('out_order', []))}")
    calls_before, calls_after = before.get("calls") or {}, after.get("calls") or {}
    for seat in sorted({*calls_before, *calls_after}, key=int):
        if calls_before.get(seat) != calls_after.get(seat):
            parts.append(f"{names[int(seat)]}'s call {_call_label(calls_before.get(seat))} → "
                         f"{_call_label(calls_after.get(seat))}")
    if team_game:
        # compare the points as counted (an edit may enter the other team's figure)
        old_points = before.get("counted_points") or before.get("card_points") or [None, None]
        new_points = after.get("counted_points") or after.get("card_points") or [None, None]
        for team, (a, b) in enumerate(zip(old_points, new_points, strict=False)):
            if a != b:
                parts.append(f"team {'AB'[team]} card points {'—' if a is None else a} → "
                             f"{'—' if b is None else b}")
    wish_before = (before.get("wish_penalty") or {}).get("offender")
    wish_after = (after.get("wish_penalty") or {}).get("offender")
    if wish_before != wish_after:
        who = [("nobody" if w is None else names[w]) for w in (wish_before, wish_after)]
        parts.append(f"missed wish {who[0]} → {who[1]}")
    return "; ".join(parts) or "no change"


def edit_hand(match: Match, hand: Hand, data: Mapping[str, Any],
              version: int | None) -> list[Problem]:
    """Replace what was recorded for `hand`; totals and result follow (a finished match
    reopens when the edit changes its result). Conflict when another phone edited first."""
    if version is not None and version != hand.version:
        raise Conflict(str(match.id))
    preview, problems, row = records.score(match, data, editing=hand)
    if problems or preview is None:
        return problems
    before = hand.recorded() | {"counted_points": list(hand.card_points)}
    try:
        for key, value in row.items():
            setattr(hand, key, value)
        hand.version += 1
        records.recompute(match)
        after = hand.recorded() | {"counted_points": list(hand.card_points)}
        records.log(match, hand, "edited", describe_change(match, before, after), before, after)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return []


def delete_hand(match: Match, hand: Hand, action: str = "deleted") -> None:
    """Take a hand out of play; it stays in the log and can be restored."""
    if hand.deleted_at is not None:
        return
    try:
        records.log(match, hand, action, "", hand.recorded(), None)
        hand.deleted_at = utcnow()
        hand.version += 1
        records.recompute(match)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


def undo_last(match: Match) -> Hand | None:
    """Undo the latest hand in play."""
    hands = match.hands
    if not hands:
        return None
    delete_hand(match, hands[-1], action="undone")
    return hands[-1]


def restore_hand(match: Match, hand: Hand) -> None:
    """Bring a deleted hand back, in its original place."""
    if hand.deleted_at is None:
        return
    try:
        hand.deleted_at = None
        hand.version += 1
        records.recompute(match)
        db.session.flush()
        records.log(match, hand, "restored", "", None, hand.recorded())
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
