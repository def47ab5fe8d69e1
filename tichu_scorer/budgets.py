"""Whom a rate limit counts (the limits themselves are in `extensions`): a client by its
address, an IPv6 client by its /64 (one household or phone holds a whole /64, and could
take a fresh address for every request); the table a request changes, when this phone is
one of its scorers, so that a room of phones behind one address (a club's router) counts
per table; the code or link a join names."""

from __future__ import annotations

import hashlib
import ipaddress

from flask import g, request, session
from flask.wrappers import Response
from sqlalchemy.exc import SQLAlchemyError

from .codes import cleaned

IPV6_PREFIX = 64  # what one subscriber is given; a phone may take any address inside it
KEY_MAX = 32  # a scorer link's key


def client_address() -> str:
    """The client's address as the rate limits count it: an IPv4 address exactly (also
    when written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64. Behind
    PROXY_COUNT trusted proxies this is the address the last one saw (ProxyFix)."""
    return counted(request.remote_addr or "")


def counted(raw: str) -> str:
    """An address as the limits count it (see `client_address`); also used by the live
    process (`stream.py`), which has no Flask request."""
    try:
        address = ipaddress.ip_address(raw.partition("%")[0])  # without a zone (fe80::1%eth0)
    except ValueError:
        return raw[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def scored_table() -> int | None:
    """The id of the table this POST changes (a match of it, the table itself, or a new
    match at it) when this phone is one of its scorers; None otherwise, and for a phone
    that joined no table (no look-up then). Read once per request."""
    if "scored_table" not in g:
        g.scored_table = _scored_table()
    return g.scored_table  # type: ignore[no-any-return]


def _scored_table() -> int | None:
    from . import access
    from .extensions import db
    from .models import Group, Match

    if request.method != "POST" or not (session.get(access.TABLES) or access.single_table()):
        return None
    values = request.view_args or {}
    if "match_id" in values:
        key = str(values["match_id"])
        found = db.select(Group).join(Match, Match.group_id == Group.id).where(
            Match.key == key[:24])
    elif "key" in values:
        key = str(values["key"])
        found = db.select(Group).where(Group.key == key[:24])
    elif request.endpoint == "matches.new" and request.form.get("table", "new") != "new":
        key = request.form.get("table", "")
        found = db.select(Group).where(Group.key == key[:24])
    else:
        return None
    if "\x00" in key:  # refused with a 4xx by the views' guards; PostgreSQL cannot read it
        return None
    try:
        group = db.session.execute(found).scalar_one_or_none()
    except SQLAlchemyError:  # the view meets the database's trouble itself and says so
        db.session.rollback()
        return None
    if group is None:
        return None
    if access.role_in(group) == "scorer" or ("match_id" in values and any(
            isinstance(v, list) and v[:1] == [key] for v in session.get(access.SCORER_OF, []))):
        return int(group.id)  # a scorer of the table, or of this tournament table
    return None


def at_scored_table() -> bool:
    return scored_table() is not None


def not_at_scored_table() -> bool:
    return scored_table() is None


def table_key() -> str:
    """The budget of the table a scorer changes (`scored_table`)."""
    return f"table:{scored_table()}"


def join_code() -> str:
    """The code or scorer link a join or viewer link names, as the views read it, hashed:
    codes are secrets and are not written to the limits' store. "" when none is named."""
    key = (request.args.get("key") or "").strip()[:KEY_MAX]
    if key:
        return "key:" + _digest(key)
    code = (request.view_args or {}).get("code") or request.args.get("code") or ""
    code = cleaned(str(code))  # as the views read it: "dsm9-r6fq" is DSM9R6FQ
    return "code:" + _digest(code) if code else ""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]


def no_join_code() -> bool:
    return not join_code()


def missed(response: Response) -> bool:
    """A join whose code or link is unknown (404): what a guesser's tries end in."""
    return response.status_code == 404


def let_in(response: Response) -> bool:
    """A join or viewer link that worked (the table or match, or 304 for a page kept)."""
    return response.status_code < 400
