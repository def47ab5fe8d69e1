"""Who may see and change what, without accounts.

A table (`Group`) is a private space: a device sees its matches, log, exports, statistics and
names only after joining it, through the invite link or code (member) or the scorer link
(scorer: may also enter hands). What a device joined is kept in its session cookie, signed,
permanent for a year from the last right given (`PERMANENT_SESSION_LIFETIME`; the cookie is
sent only when it changes, so a slow request never puts an older one back), so closing the
browser changes nothing,
and still valid after a key rotation (`SECRET_KEY_FALLBACKS`). Rotating a table's links ends
the rights they gave: each right remembers the table's `generation` it was given in. The
phone that rotated keeps its right whatever cookie it ends up with: a request of its own that
overlapped the rotation sends back its older cookie, so the table remembers that phone's
random `device` id (`Group.kept_device`) and the server, not the cookie, decides. The cookie
holds no internal id: tables by their public key, matches by their key and viewer code.

A single match can also be opened read-only through its viewer link or code, without
joining its table. With `SINGLE_TABLE` on, every device is a scorer of the one table (a
self-hosted instance for one group, as simple as a paper sheet). Everything is enforced here,
on the server; a refused read is a 404, so that a stranger learns nothing about a table."""

from __future__ import annotations

import secrets

from flask import abort, current_app, session
from flask_babel import gettext

from ..clock import today
from ..extensions import db
from ..matches import writes
from ..models import Group, Match

TABLES = "tables"  # group key -> [role, generation]
VIEWER_OF = "viewer_of"  # [match key, viewer code] of matches opened through their viewer link
SCORER_OF = "scorer_of"  # [match key, score code] of tournament tables joined by their code
DEVICE = "device"  # this device's random id: a rotation keeps the rotating device's right
REMEMBERED = 200  # matches a device remembers; the oldest are forgotten first
TABLES_KEPT = 60  # tables a device stays in (the cookie must stay small); the oldest go first
ROLES = ("member", "scorer")


def single_table() -> bool:
    return bool(current_app.config.get("SINGLE_TABLE"))


def _keep() -> None:
    session.permanent = True  # a year from the last right given


def join(group: Group, role: str) -> None:
    """This device is a member (sees the table) or a scorer (also enters hands) from now on;
    joining again never lowers a role."""
    tables = dict(session.get(TABLES, {}))
    if role_in(group) == "scorer":
        role = "scorer"
    tables.pop(str(group.id), None)  # an entry by internal id, from before keys
    tables.pop(group.key, None)
    tables[group.key] = [role, group.generation]  # the newest last
    session[TABLES] = dict(list(tables.items())[-TABLES_KEPT:])
    session["renewed"] = today().toordinal()
    device()
    _keep()


def device() -> str:
    """This device's random id (made once, never changed: every request of one phone carries
    the same one, whichever of its cookies the phone kept)."""
    value = session.get(DEVICE)
    if not isinstance(value, str) or not value:
        value = session[DEVICE] = secrets.token_urlsafe(12)
    return value


def role_in(group: Group) -> str | None:
    """'scorer', 'member', or None when this device has not joined `group` (or joined it
    through links rotated since)."""
    if single_table():
        return "scorer"
    tables = session.get(TABLES, {})
    entry = tables.get(group.key) or tables.get(str(group.id))
    if not isinstance(entry, list) or len(entry) != 2 or entry[0] not in ROLES:
        return None
    if entry[1] == group.generation:
        device()  # (a device that joined before devices had ids gets its id once)
        return str(entry[0])
    if entry[0] == "scorer" and group.kept_device and session.get(DEVICE) == group.kept_device:
        return "scorer"  # the phone that rotated, with an older cookie of its own
    return None


RENEW_DAYS = 30  # a device in use keeps its rights: the year starts again this often


def renew() -> None:
    """A device that comes back keeps its tables for a year from now (the cookie is only
    sent when it changes, so it is changed about once a month)."""
    now = today().toordinal()
    if session.get(TABLES) and now - int(session.get("renewed", 0)) >= RENEW_DAYS:
        session["renewed"] = now
        _keep()


def groups(role: str = "member") -> list[Group]:
    """The tables this device joined (with at least `role`), most recently created first."""
    if single_table():
        return [default_group()]
    renew()
    joined = [str(k) for k in session.get(TABLES, {})]
    if not joined:
        return []
    keys = [k for k in joined if not k.isdigit()]
    ids = [int(k) for k in joined if k.isdigit()]  # entries from before keys
    found = db.session.execute(db.select(Group).where(
        Group.key.in_(keys) | Group.id.in_(ids)).order_by(
        Group.created_at.desc(), Group.id.desc())).scalars()
    wanted = ROLES[ROLES.index(role):]
    return [g for g in found if role_in(g) in wanted]


def default_group() -> Group:
    """The one table of a single-table instance (created on first use)."""
    group = db.session.execute(db.select(Group).order_by(Group.id).limit(1)).scalar()
    if group is None:
        writes.begin_write()
        group = Group(name=gettext("Our table"))
        db.session.add(group)
        db.session.commit()
    return group


def view_match(match: Match) -> None:
    """This device may read `match` (its viewer link), without joining its table, for as
    long as the match keeps that code (rotating the table's links renews it). A device that
    holds this right already changes nothing: its session cookie is not sent again, and its
    repeat views of an unchanged page are answered 304 (`matches.repeat_views`). So the
    matches watched longest ago, by when they were first watched, are forgotten first."""
    entry = [match.key, match.code]
    if session.permanent and entry in session.get(VIEWER_OF, []):
        return
    kept = [v for v in session.get(VIEWER_OF, [])
            if isinstance(v, list) and v[0] not in (match.id, match.key)]
    session[VIEWER_OF] = (kept + [[match.key, match.code]])[-REMEMBERED:]
    _keep()


def can_view(match: Match) -> bool:
    if role_in(match.group) is not None:
        return True
    return [match.key, match.code] in session.get(VIEWER_OF, [])


def score_match(match: Match) -> None:
    """This device scores `match` only (a tournament's table, joined by its score code):
    it sees the tournament's table as a member, and does not direct it ([TN4]). Until the
    table's links are rotated."""
    kept = [v for v in session.get(SCORER_OF, [])
            if isinstance(v, list) and v[0] != match.key]
    session[SCORER_OF] = (kept + [[match.key, match.scorer_key]])[-REMEMBERED:]
    join(match.group, "member")


def can_score(match: Match) -> bool:
    if role_in(match.group) == "scorer":
        return True
    return [match.key, match.scorer_key] in session.get(SCORER_OF, [])


def require_view(match: Match | None) -> Match:
    """404 for a device that has not joined the match's table: it learns nothing."""
    if match is None or not can_view(match):
        abort(404)
    return match


def require_scorer(match: Match) -> None:
    """403 for a viewer: the change is refused whatever the page showed."""
    require_view(match)
    if not can_score(match):
        abort(403, gettext("This phone can only view this match. Ask the scorer for the scorer "
                           "link (Share on the match page) to enter hands."))


def require_group(group: Group | None, role: str = "member") -> Group:
    if group is None or role_in(group) is None:
        abort(404)
    if role == "scorer" and role_in(group) != "scorer":
        abort(403, gettext("Only the table's scorers may do this. Open its scorer link."))
    return group
