"""Which matches of an import are already stored, so that importing an export twice adds
nothing: its matches are recognised and skipped.

A match is the same match when it has the same variant, the same start (to the
microsecond, as the export writes it) and the same players in the same seats (without
regard to case). It is already here when its settings and its hands in play are also the
same (their numbers, out-orders, calls, card points as entered, wish penalty and shuffler;
deleted hands and the log do not count). The same match with other hands (it went on, or
was corrected, after one of the exports) is imported as a copy beside the one stored, and
the answer says so: nothing recorded is lost, and the table deletes the copy it does not
want. Looked for at every table the importing phone has joined (all of them count in its
statistics).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Match
from ..players.imports import Matched

CHUNK = 500  # start times per IN (…)


@dataclass
class Imported:
    """What an import did: the matches stored (new ones and copies), how many of the file's
    matches were already here (skipped), and how many were stored as copies of a match
    here with other hands."""

    matches: list[Match] = field(default_factory=list)
    already: int = 0
    copies: int = 0
    players: Matched | None = None  # the names it matched to the table's players


def identity(match: Match) -> Hashable:
    """What makes two records the same match."""
    return (match.variant, _naive(match.started_at),
            tuple(s.player.name_key if s.player else None for s in match.seats))


def content(match: Match) -> Hashable:
    """What makes two records of one match the same record."""
    return (match.target, match.hand_limit, tuple(
        (h.number, tuple(h.out_order), tuple(sorted((str(k), v) for k, v in h.calls.items())),
         tuple(h.card_points_entered or ()), h.wish_offender, h.shuffler)
        for h in sorted(match.hands, key=lambda h: h.number)))


def _naive(value: datetime) -> datetime:
    return value.replace(tzinfo=None)


def sort_out(matches: Sequence[Match], group_ids: Sequence[int]) -> tuple[list[int], int, int]:
    """Of the file's `matches`: the positions of those to store, how many are already here
    (at the tables `group_ids`, or earlier in the file) and how many of those to store are
    copies of a match here with other hands."""
    here = _stored(sorted({_naive(m.started_at) for m in matches}), group_ids)
    keep, already, copies = [], 0, 0
    for index, match in enumerate(matches):
        records = here.setdefault(identity(match), set())
        record = content(match)
        if record in records:
            already += 1
            continue
        copies += 1 if records else 0
        records.add(record)
        keep.append(index)
    return keep, already, copies


def _stored(starts: Sequence[datetime], group_ids: Sequence[int]
            ) -> dict[Hashable, set[Hashable]]:
    """The records of the matches at these tables started at one of these moments."""
    found: dict[Hashable, set[Hashable]] = {}
    if not group_ids:
        return found
    for start in range(0, len(starts), CHUNK):
        query = db.select(Match).where(
            Match.group_id.in_(list(group_ids)),
            Match.started_at.in_(starts[start:start + CHUNK])).options(
            selectinload(Match.all_hands))
        for match in db.session.execute(query).scalars():
            found.setdefault(identity(match), set()).add(content(match))
    return found

