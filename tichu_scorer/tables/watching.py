"""Watch codes: a table's board on a screen that never joined the table (a club's TV, a
projector), read-only. A table made for a tournament shows its standing board; any other
table its evening (Tonight: tonight's matches added up per player and partnership).

A watch code (`codes.WATCH_LENGTH` characters) opens that one page and nothing else: the
screen is given no right in its session (the page is read afresh through its link each time
it changes, `static/js/live.js`), so the table's matches, log, exports and statistics stay
closed to it. Rotating the table's links makes a new code (`Group.rotate`): the old one is
a 404 from then on, as a code that never was."""

from __future__ import annotations

from ..extensions import db
from ..models import Group
from . import codes


def by_code(typed: str) -> Group | None:
    """The table whose watch code `typed` is (any case, spacing or dashes), or None."""
    code = codes.read(typed)
    if code is None or len(code) != codes.WATCH_LENGTH:
        return None
    found: Group | None = db.session.execute(
        db.select(Group).filter_by(watch_code=code)).scalar_one_or_none()
    return found

