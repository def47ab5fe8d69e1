"""Export and import: one match or the whole history as JSON (lossless) or CSV (a sheet).

Import re-checks every hand with the scoring rules and stores all of it or nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import selectinload

from . import records, scoring
from .extensions import db
from .models import Group, Hand, HandEvent, Match, MatchSeat

FORMAT, VERSION = "tichu-scorer", 1
MAX_IMPORT_MATCHES, MAX_IMPORT_HANDS = 2000, 2000


class ImportError_(ValueError):
    """An import that cannot be stored; the message names the match, hand and rule."""


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_time(value: object, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise ImportError_(f"{where}: {value!r:.40} is not a date and time.") from None


def match_dict(match: Match) -> dict[str, Any]:
    """Everything about a match: players, settings, every hand (deleted ones too), the log."""
    return {
        "variant": match.variant, "target": match.target, "hand_limit": match.hand_limit,
        "started_at": _time(match.started_at), "finished_at": _time(match.finished_at),
        "players": [s.player.name if s.player else None for s in match.seats],
        "hands": [{
            "number": h.number, "out_order": h.out_order, "calls": h.calls,
            "card_points": h.card_points_entered, "wish_offender": h.wish_offender,
            "shuffler": h.shuffler, "client_id": h.client_id, "version": h.version,
            "created_at": _time(h.created_at), "deleted_at": _time(h.deleted_at),
            "team_scores": h.team_scores, "player_scores": h.player_scores,
        } for h in match.all_hands],
        "log": [{"hand_number": _number_of(match, e.hand_id), "position": e.position,
                 "action": e.action, "summary": e.summary, "before": e.before,
                 "after": e.after, "at": _time(e.at)} for e in match.events],
    }


def _number_of(match: Match, hand_id: int | None) -> int | None:
    return next((h.number for h in match.all_hands if h.id == hand_id), None)


def _load(match_ids: Iterable[int] | None = None) -> list[Match]:
    query = db.select(Match).order_by(Match.id).options(
        selectinload(Match.all_hands), selectinload(Match.events),
        selectinload(Match.seats).joinedload(MatchSeat.player))
    if match_ids is not None:
        query = query.where(Match.id.in_(list(match_ids)))
    return list(db.session.execute(query).scalars())


def export_json(match_ids: Iterable[int] | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "matches": [match_dict(m) for m in _load(match_ids)]}


CSV_HEADER = ["match", "variant", "started", "hand", "players", "out_order", "calls",
              "card_points", "wish_missed_by", "scores", "totals"]


def export_csv(match_ids: Iterable[int] | None = None) -> str:
    """One row per hand in play, names spelled out, with the running totals."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for match in _load(match_ids):
        names = match.names
        page = records.match_page(match)
        for row in page.rows:
            hand = row.hand
            writer.writerow([
                match.id, match.variant, match.started_at.strftime("%Y-%m-%d %H:%M"),
                row.position, " / ".join(names), " > ".join(names[s] for s in hand.out_order),
                "; ".join(f"{names[int(s)]}: {scoring.Call(c).label}"
                          for s, c in hand.calls.items()),
                " : ".join(str(p) for p in hand.card_points),
                "" if hand.wish_offender is None else names[hand.wish_offender],
                " : ".join(str(s) for s in row.deltas), " : ".join(str(t) for t in row.running),
            ])
    return out.getvalue()


def import_json(data: object, group: Group | None = None) -> list[Match]:
    """Store the matches of an export (as new matches) at table `group`, or at a new table
    when None; all or nothing."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ImportError_("This is not a Tichu Scorer export (format).")
    if data.get("version") != VERSION:
        raise ImportError_(f"Export version {data.get('version')!r:.10} is not supported.")
    matches = data.get("matches")
    if not isinstance(matches, list) or len(matches) > MAX_IMPORT_MATCHES:
        raise ImportError_(f"matches must be a list of at most {MAX_IMPORT_MATCHES}.")
    created = []
    records.begin_write()
    try:
        if group is None:
            group = Group(name=_l_imported())
            db.session.add(group)
            db.session.flush()
        for index, raw in enumerate(matches, start=1):
            created.append(_import_match(raw, f"match {index}", group))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return created


def _l_imported() -> str:
    from flask_babel import gettext
    return gettext("Imported matches")


def _import_match(raw: object, where: str, group: Group) -> Match:
    if not isinstance(raw, Mapping):
        raise ImportError_(f"{where} must be an object.")
    variant = raw.get("variant")
    if variant not in scoring.VARIANTS:
        raise ImportError_(f"{where}: unknown variant {variant!r:.20}.")
    players = raw.get("players")
    fewest, most = scoring.PLAYERS[variant]
    names = [p for p in players if isinstance(p, str)] if isinstance(players, list) else []
    if not fewest <= len(names) <= most or any(len(n) > 40 or not n.strip() for n in names):
        raise ImportError_(f"{where}: players must be {fewest}–{most} names.")
    target, limit = raw.get("target"), raw.get("hand_limit")
    if target is not None and scoring.target_problem(target):
        raise ImportError_(f"{where}: {scoring.target_problem(target)} (E1)")
    if limit is not None and scoring.hands_problem(limit):
        raise ImportError_(f"{where}: {scoring.hands_problem(limit)} (T3.5)")
    match = Match(group_id=group.id, variant=variant, target=target, hand_limit=limit,
                  started_at=_parse_time(raw.get("started_at"), where) or datetime.now())
    team_game = variant in ("nanking", "tientsin")
    for seat, name in enumerate(names):
        match.seats.append(MatchSeat(seat=seat, team=seat % 2 if team_game else None,
                                     player=records.player_named(name)))
    if variant == "threechu":
        match.seats.append(MatchSeat(seat=scoring.DUMMY, team=None, player=None))
    match.totals = []
    db.session.add(match)
    hands = raw.get("hands") or []
    if not isinstance(hands, list) or len(hands) > MAX_IMPORT_HANDS:
        raise ImportError_(f"{where}: hands must be a list of at most {MAX_IMPORT_HANDS}.")
    numbers = set()
    for raw_hand in hands:
        hand = _import_hand(match, raw_hand, where)
        if hand.number in numbers:
            raise ImportError_(f"{where}: hand number {hand.number} appears twice.")
        numbers.add(hand.number)
    records.recompute(match)
    if match.finished_at is not None:
        match.finished_at = _parse_time(raw.get("finished_at"), where) or match.finished_at
    db.session.flush()
    _import_log(match, raw.get("log") or [], where)
    return match


def _import_hand(match: Match, raw: object, where: str) -> Hand:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("number"), int):
        raise ImportError_(f"{where}: every hand needs its number.")
    spot = f"{where}, hand {raw['number']}"
    data = {"out_order": raw.get("out_order"), "calls": raw.get("calls") or {},
            "card_points": raw.get("card_points") or [None, None],
            "wish_penalty": None if raw.get("wish_offender") is None
            else {"offender": raw.get("wish_offender")}}
    shuffler = raw.get("shuffler")
    if match.variant == "threechu" and shuffler not in (0, 1, 2):
        raise ImportError_(f"{spot}: a Threechu hand names its shuffler (0–2). (T3.1)")
    stub = Hand(number=raw["number"], shuffler=shuffler)
    _preview, problems, row = records.score(match, data, editing=stub)
    if problems:
        first = problems[0]
        raise ImportError_(f"{spot}: {first.message} ({first.rule})")
    client_id = raw.get("client_id")
    if not isinstance(client_id, str) or not client_id or len(client_id) > 64 or \
            db.session.execute(db.select(Hand.id).filter_by(client_id=client_id)).first():
        client_id = None  # already here (an export imported twice): keep the hand, not the id
    version = raw.get("version")
    hand = Hand(number=raw["number"], version=version if isinstance(version, int) else 1,
                client_id=client_id,
                created_at=_parse_time(raw.get("created_at"), spot) or datetime.now(),
                deleted_at=_parse_time(raw.get("deleted_at"), spot), **row)
    match.all_hands.append(hand)
    match.all_hands.sort(key=lambda h: h.number)
    return hand


def _import_log(match: Match, events: object, where: str) -> None:
    if not isinstance(events, list):
        raise ImportError_(f"{where}: log must be a list.")
    by_number = {h.number: h.id for h in match.all_hands}
    for raw in events:
        if not isinstance(raw, Mapping):
            raise ImportError_(f"{where}: every log entry must be an object.")
        db.session.add(HandEvent(
            match_id=match.id, hand_id=by_number.get(raw.get("hand_number")),  # type: ignore[arg-type]
            position=int(raw.get("position") or 0), action=str(raw.get("action", ""))[:16],
            summary=str(raw.get("summary", ""))[:500], before=raw.get("before"),
            after=raw.get("after"), at=_parse_time(raw.get("at"), where) or datetime.now()))
