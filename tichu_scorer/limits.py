"""The rate limits (`limiter`, bound by `create_app`, and the decorators the views wear) and
whom they count: a client by its address, an IPv6 client by its /64 (one household or phone
holds a whole /64, and could take a fresh address for every request); the table a request
changes, when this phone is one of its scorers, so that a room of phones behind one address (a
club's router) counts per table; the code or link a join names. Nothing is limited by
default."""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import current_app, g, request, session
from flask.wrappers import Response
from flask_babel import gettext
from flask_limiter import Limiter, RouteLimit
from limits import parse_many  # the package Flask-Limiter counts with
from sqlalchemy.exc import SQLAlchemyError

from .extensions import db
from .models import Group, Match
from .tables import access
from .tables.codes import cleaned

IPV6_PREFIX = 64  # what one subscriber is given; a phone may take any address inside it
KEY_MAX = 32  # a scorer link's key


def client_address() -> str:
    """The client's address as the rate limits count it: an IPv4 address exactly (also
    when written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64. Behind
    PROXY_COUNT trusted proxies this is the address the last one saw (ProxyFix)."""
    return counted(request.remote_addr or "")


def counted(raw: str) -> str:
    """An address as the limits count it (see `client_address`); also used by the live
    process (`live/stream.py`), which has no Flask request."""
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
    return code_key(request.args.get("key") or "",
                    (request.view_args or {}).get("code") or request.args.get("code") or "")


def code_key(key: str, code: str) -> str:
    """`join_code` of a scorer link's `key` (a query's) or else a `code` (the path's, else
    the query's); also for a viewer link answered before Flask (`matches.early_limits`)."""
    key = key.strip()[:KEY_MAX]
    if key:
        return "key:" + _digest(key)
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

# Limits count per client address (`client_address`: an IPv6 client by its /64); the traffic
# of a table's own phones also per table (`scored_table`), so that a room of phones behind one
# address works. Nothing is limited by default.
limiter = Limiter(key_func=client_address, default_limits=[])
View = TypeVar("View", bound=Callable[..., Any])


def _config(name: str) -> str:
    return str(current_app.config[name])


def _room(name: str) -> str:
    """The ceiling for one address on the traffic of tables its phones joined: ROOM_FACTOR
    times the limit `name` for one phone (30 per hour: 300 per hour)."""
    factor = int(current_app.config["ROOM_FACTOR"])
    return "; ".join(f"{item.amount * factor} per {item.multiples} {item.GRANULARITY.name}"
                     for item in parse_many(_config(name)))


def _stacked(*decorators: RouteLimit) -> Callable[[View], View]:
    """Several limits as one decorator: a request is refused when any one is spent."""
    def apply(view: View) -> View:
        limited: Callable[..., Any] = view
        for decorate in reversed(decorators):
            limited = decorate(limited)
        return cast(View, limited)  # each limit wraps the view, keeping its signature
    return apply


def _at_table(table: str, one_phone: str, scope: str,
              message: Callable[[], str]) -> tuple[RouteLimit, RouteLimit]:
    """The POSTs of a table's scorers (`scored_table`): counted against the
    table's budget (config `table`) and their address's room ceiling (`_room(one_phone)`)."""
    return (limiter.shared_limit(lambda: _config(table), scope=f"table-{scope}",
                                 key_func=table_key, methods=["POST"],
                                 exempt_when=not_at_scored_table, error_message=message),
            limiter.shared_limit(lambda: _room(one_phone), scope=f"room-{scope}",
                                 methods=["POST"], exempt_when=not_at_scored_table,
                                 error_message=message))


def write_limit() -> str:
    """The configured limit on writes (matches, hands) per client address."""
    return _config("WRITE_RATE_LIMIT")


def _too_many_changes() -> str:
    return str(gettext("Too many changes from this network: wait a minute and try again; "
                       "nothing was saved."))


# A phone changing a table it scores counts against that table's budget and the room's
# ceiling of its address; any other write against its address's own budget.
limit_writes = _stacked(
    limiter.limit(write_limit, methods=["POST"], exempt_when=at_scored_table,
                  error_message=_too_many_changes),
    *_at_table("TABLE_WRITE_RATE_LIMIT", "WRITE_RATE_LIMIT", "writes", _too_many_changes))


def _too_many_reads() -> str:
    return str(gettext("Too many requests for this page from this network: wait a minute "
                       "and try again."))


def _too_many_exports() -> str:
    return str(gettext("Too many exports from this network: wait a while and try again."))


# Pages whose cost grows with what is stored (a match's log, every hand, the board, the
# statistics), each per client address and page; an export streams every hand it holds.
limit_reads = limiter.limit(lambda: _config("READ_RATE_LIMIT"), error_message=_too_many_reads)
limit_exports = limiter.limit(lambda: _config("EXPORT_RATE_LIMIT"),
                              error_message=_too_many_exports)
# The phone's core (views/core.py): its seven files, one budget per client address for all
# of them (a phone fetches them once per deploy; a room of phones shares an address).
limit_core = limiter.shared_limit(lambda: _config("CORE_RATE_LIMIT"), scope="core",
                                  error_message=_too_many_reads)


def join_limit() -> str:
    """Tries of unknown codes per client address: codes cannot be guessed by trying them all."""
    return _config("JOIN_RATE_LIMIT")


def _too_many_guesses() -> str:
    return str(gettext("Too many unknown codes were tried from this network: wait a minute "
                       "and try again."))


def _too_many_joins() -> str:
    return str(gettext("Too many phones joined with this code or from this network: wait a "
                       "minute and try again."))


# Every join and viewer link is refused once its address spent the budget of unknown codes
# (tested before; only a miss, a 404, counts), so that a guesser learns nothing more. One
# that works counts against its code's budget and its address's room ceiling instead.
limit_joins = _stacked(
    limiter.shared_limit(join_limit, scope="join-misses", deduct_when=missed,
                         error_message=_too_many_guesses),
    limiter.shared_limit(lambda: _config("CODE_JOIN_RATE_LIMIT"), scope="join-code",
                         key_func=join_code, exempt_when=no_join_code, deduct_when=let_in,
                         error_message=_too_many_joins),
    limiter.shared_limit(lambda: _room("JOIN_RATE_LIMIT"), scope="room-joins",
                         deduct_when=let_in, error_message=_too_many_joins))


def creation_limit() -> str:
    """New tables, matches and imports per client address: each costs rows that stay."""
    return _config("CREATE_RATE_LIMIT")


def _too_many_created() -> str:
    return str(gettext("Too many new tables, matches or imports from this network: wait a "
                       "while and try again; nothing was saved."))


# one budget shared by every route that creates (a table, a match, an import, a rematch);
# a new match or rematch at a table the phone scores counts per table and room instead
limit_creation = _stacked(
    limiter.shared_limit(creation_limit, scope="create", methods=["POST"],
                         exempt_when=at_scored_table, error_message=_too_many_created),
    *_at_table("TABLE_CREATE_RATE_LIMIT", "CREATE_RATE_LIMIT", "create", _too_many_created))


def referee_limit() -> str:
    """Referee questions per client address (REFEREE_RATE_LIMIT): each one costs CPU."""
    return _config("REFEREE_RATE_LIMIT")


# one budget shared by every route that judges a question: the API, the page, its verdicts
limit_referee = limiter.shared_limit(referee_limit, scope="referee")


# tournament draws per client address (DRAW_RATE_LIMIT): each one costs CPU
limit_draw = limiter.shared_limit(lambda: _config("DRAW_RATE_LIMIT"), scope="draw")
