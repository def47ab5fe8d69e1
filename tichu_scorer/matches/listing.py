"""History paging: a table's matches, newest first, a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, or_

from ..extensions import db
from ..models import Group, Match


def match_ids(groups: Sequence[Group]) -> list[int]:
    """Every match of these tables, oldest first (for exports)."""
    return list(db.session.execute(db.select(Match.id).where(
        Match.group_id.in_([g.id for g in groups])).order_by(Match.id)).scalars())


PAGE_SIZE = 20  # matches per page of a match list


@dataclass(frozen=True)
class HistoryPage:
    """One page of a match list, newest first, and the match keys that open the pages
    around it (None at either end)."""

    matches: list[Match]
    older: str | None = None  # ?older=key: the matches started before that one
    newer: str | None = None  # ?newer=key: the matches started after that one


def history_page(groups: Sequence[Group], older: str | None = None, newer: str | None = None,
                 size: int = PAGE_SIZE) -> HistoryPage:
    """A page of these tables' matches, newest first, after (`older`) or before (`newer`)
    the match with that key: keyset pagination on (start, id), so a page costs the same
    with 10,000 matches as with 10, and a match added meanwhile shifts nothing."""
    if not groups:
        return HistoryPage([])
    mine = Match.group_id.in_([g.id for g in groups])
    cursor_key = older or newer
    cursor = None
    if cursor_key and len(cursor_key) <= 24:
        cursor = db.session.execute(db.select(Match.started_at, Match.id).where(
            mine, Match.key == cursor_key)).one_or_none()
    order = (Match.started_at.desc(), Match.id.desc())
    query = db.select(Match).where(mine)
    if cursor is not None and newer and not older:
        after = or_(Match.started_at > cursor.started_at, and_(
            Match.started_at == cursor.started_at, Match.id > cursor.id))
        found = list(db.session.execute(query.where(after).order_by(
            Match.started_at, Match.id).limit(size + 1)).scalars())
        if len(found) > size:
            page = found[:size][::-1]
            return HistoryPage(page, older=page[-1].key, newer=page[0].key)
        cursor = None  # fewer than a page is newer: show the first page
    if cursor is not None:
        query = query.where(or_(Match.started_at < cursor.started_at, and_(
            Match.started_at == cursor.started_at, Match.id < cursor.id)))
    found = list(db.session.execute(query.order_by(*order).limit(size + 1)).scalars())
    page = found[:size]
    return HistoryPage(page, older=page[-1].key if len(found) > size else None,
                       newer=page[0].key if cursor is not None and page else None)


def history(groups: Sequence[Group], limit: int | None = 200) -> list[Match]:
    """The matches of these tables, newest first."""
    if not groups:
        return []
    return list(db.session.execute(
        db.select(Match).where(Match.group_id.in_([g.id for g in groups]))
        .order_by(Match.started_at.desc(), Match.id.desc()).limit(limit)).scalars())
