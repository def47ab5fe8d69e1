"""Extensions, created unbound; `create_app` binds them."""

from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask_babel import Babel, gettext
from flask_compress import Compress
from flask_limiter import Limiter, RouteLimit
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from limits import parse_many
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from .budgets import (
    at_scored_table,
    client_address,
    join_code,
    let_in,
    missed,
    no_join_code,
    not_at_scored_table,
    table_key,
)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()
compress = Compress()
# Limits count per client address (`budgets.client_address`: an IPv6 client by its /64);
# the traffic of a table's own phones also per table (`budgets`), so that a room of phones
# behind one address works. Nothing is limited by default.
limiter = Limiter(key_func=client_address, default_limits=[])
View = TypeVar("View", bound=Callable[..., Any])


def _config(name: str) -> str:
    from flask import current_app
    return str(current_app.config[name])


def _room(name: str) -> str:
    """The ceiling for one address on the traffic of tables its phones joined: ROOM_FACTOR
    times the limit `name` for one phone (30 per hour: 300 per hour)."""
    from flask import current_app
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
    """The POSTs of a table's scorers (`budgets.scored_table`): counted against the
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
    from flask import current_app
    return str(current_app.config["REFEREE_RATE_LIMIT"])


# one budget shared by every route that judges a question: the API, the page, its verdicts
limit_referee = limiter.shared_limit(referee_limit, scope="referee")


# tournament draws per client address (DRAW_RATE_LIMIT): each one costs CPU
limit_draw = limiter.shared_limit(lambda: _config("DRAW_RATE_LIMIT"), scope="draw")
