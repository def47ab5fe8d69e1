"""Error pages (JSON under /api, HTML elsewhere) and the input guards that run before every
view, so that bad input gets a 4xx naming the field and never a bare 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import unquote_to_bytes

from flask import Flask, abort, current_app, jsonify, render_template, request
from flask_babel import gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import (
    DataError,
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
    PendingRollbackError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import ObjectDeletedError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from ..clock import timestamp
from ..engine.budget import OutOfTime
from ..extensions import db
from ..health import state_of
from ..limits import limiter
from ..transfer.checks import DB_INT_MAX
from .jsonbody import BadRequest

View = TypeVar("View", bound=Callable[..., Any])


def body_limit(config_key: str, default: int) -> Callable[[View], View]:
    """Let one view accept a larger request body than MAX_CONTENT_LENGTH (an import of a
    long history): the limit is read from `config_key`, else `default`. Put it right under
    the route decorator."""
    def mark(view: View) -> View:
        view.body_limit = (config_key, default)  # type: ignore[attr-defined]
        return view
    return mark


def _plain_reason(code: int) -> str:
    """The reader's language for the errors whose text Werkzeug writes in English."""
    if code == 404:
        return str(gettext("This page does not exist, or this phone may not see it (a match "
                           "is seen only by the phones that joined its table)."))
    if code == 405:
        return str(gettext("That is not how this page is used."))
    if code == 413:
        return str(gettext("What was sent is too large."))
    if code == 429:
        return str(gettext("Too many requests from this phone: wait a moment and try again."))
    if code >= 500:
        return str(gettext("The server could not answer; nothing was changed. Try again."))
    return str(gettext("The request could not be read."))


def wants_json() -> bool:
    """The caller reads JSON: the API, or a page's script that asked for it (the outbox
    replaying a hand reads the refusal's reason, not a page)."""
    return (request.path.startswith("/api/")
            or request.accept_mimetypes.best == "application/json")


def _route() -> str:
    """The URL rule, not the path: a path may carry a secret (the scorer link)."""
    return request.url_rule.rule if request.url_rule is not None else "(no route)"


def _shown(name: str) -> str:
    return name.replace("\x00", "\\0")[:40]


def _route_values(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Runs first, right after routing (before CSRF reads the form): set the view's body
    limit, and answer 404 for an id beyond the database's integers (DB_INT_MAX: beyond it
    PostgreSQL fails with "out of range" and SQLite with an OverflowError) or a path with
    a NUL."""
    view = current_app.view_functions.get(endpoint or "")
    limit = getattr(view, "body_limit", None)
    if limit is not None:
        # Werkzeug's multipart parser also buffers file data under the form memory limit
        request.max_content_length = request.max_form_memory_size = int(
            current_app.config.get(limit[0], limit[1]))
    for value in (values or {}).values():
        too_large = isinstance(value, int) and value > DB_INT_MAX
        if too_large or isinstance(value, str) and "\x00" in value:
            abort(404)


def _not_utf8(body: bytes) -> str | None:
    """The name of the first field of a form body whose name or value is not UTF-8 once
    its %-escapes are read, None when every one is. The whole body is tried first."""
    try:
        if "%" not in body.decode("utf-8"):
            return None
    except UnicodeDecodeError:
        pass
    for part in body.split(b"&"):
        name, _eq, value = part.partition(b"=")
        for piece in (name, value):
            try:
                unquote_to_bytes(piece.replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                return unquote_to_bytes(name.replace(b"+", b" ")).decode("utf-8", "replace")
    return None


def _utf8_form(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """A form body must be UTF-8 (what every browser sends). Werkzeug reads raw bytes that
    are not as an empty form, so the CSRF check would fail first and blame an expired form,
    and keeps an escape that is not ("%FF") as literal text. Runs after `_route_values`
    (the view's body limit), before CSRF reads the form."""
    if request.mimetype != "application/x-www-form-urlencoded":
        return
    field = _not_utf8(request.get_data(cache=True))  # the form is parsed from this copy
    if field is not None:
        abort(400, gettext("The request's text is not valid UTF-8 (in the field "
                           "“%(field)s”), so it cannot be read; nothing was saved.",
                           field=_shown(field)))


def _no_nul() -> None:
    """PostgreSQL cannot store a NUL character in text; no form or query needs one."""
    for fields in (request.args, request.form):
        for name, value in fields.items(multi=True):
            if "\x00" in name or "\x00" in value:
                abort(400, gettext("The field “%(field)s” contains a NUL character; nothing "
                                   "was saved.", field=_shown(name)))


def form_value(name: str) -> str:
    """A form field a view reads itself (a hidden number, a table's name), "" when missing.
    Sent more than once, it is a 400 naming it: taking the first value would be a guess."""
    values = request.form.getlist(name)
    if len(values) > 1:
        abort(400, gettext("The form field “%(field)s” was sent more than once, so it cannot "
                           "be read; nothing was saved. Reload the page and try again.",
                           field=_shown(name)))
    return values[0] if values else ""


def _file_kind() -> str:
    """The format of a file the path asks for by its extension (an export: `.json`, `.csv`,
    `.txt`), "" for a page."""
    last = request.path.rpartition("/")[2]
    kind = last.rpartition(".")[2] if "." in last else ""
    return kind if kind in ("json", "csv", "txt") else ""


def answer(code: int, message: str, field: str) -> Response:
    """An error as the caller reads it: JSON under /api and for a `.json` file, plain text
    (the field, then the message) for a `.csv` or `.txt` file, the error page elsewhere."""
    response: Response
    kind = _file_kind()
    if wants_json() or kind == "json":
        response = jsonify(error=message, field=field)
    elif kind:
        response = Response(f"{field}: {message}\n", mimetype="text/plain")
    else:
        response = Response(render_template("errors/error.html", code=code, message=message),
                            mimetype="text/html")
    response.status_code = code
    return response


def _retry_after() -> str:
    """Seconds until the breached limit's window ends. Read from the limits' store only on
    a refusal: the limit headers on every write (RATELIMIT_HEADERS_ENABLED) would cost two
    more round trips to Redis per write."""
    try:
        breached = limiter.current_limit
        if breached is not None:
            return str(max(1, int(breached.reset_at - timestamp())))
    except Exception:  # noqa: BLE001  # the store went away meanwhile: a guess will do
        current_app.logger.warning("Rate limit store unreachable for Retry-After")
    return "60"


# What a transient failure says -> the state logged (first match wins).
TRANSIENT = (("deadlock", ("deadlock detected",)),
             ("serialization", ("could not serialize",)))


def _rollback() -> None:
    """End the failed transaction; on a connection that broke, that may fail too."""
    try:
        db.session.rollback()
    except Exception:  # noqa: BLE001  # the connection is gone: the pool drops it
        db.session.close()


def register(app: Flask) -> None:
    app.url_value_preprocessor(_route_values)
    app.url_value_preprocessor(_utf8_form)
    app.before_request(_no_nul)

    @app.errorhandler(BadRequest)
    def bad_request(exc: BadRequest) -> tuple[Response, int]:
        return jsonify(error=exc.message, field=exc.field), 400

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> Response:
        return answer(400, gettext("The form expired or came from elsewhere (CSRF check "
                                    "failed). Go back, reload the page and submit again; "
                                    "nothing was saved."), "csrf_token")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        message = exc.description or exc.name
        if message == type(exc).description:  # Werkzeug's own English sentence
            message = _plain_reason(exc.code or 500)
        response = answer(exc.code or 500,
                           exc.name + ": " + message if wants_json() else message, "request")
        for name, value in exc.get_headers():  # a 405's Allow (RFC 9110), say
            if name.lower() != "content-type":
                response.headers[name] = value
        if isinstance(exc, RateLimitExceeded):
            response.headers["Retry-After"] = _retry_after()
        return response

    @app.errorhandler(DataError)
    @app.errorhandler(OverflowError)
    def out_of_range(exc: Exception) -> Response:
        """The last line of defence: a value the database refused (too long, out of range),
        where no check before it named the field. Logged, so that one can be added."""
        db.session.rollback()
        app.logger.warning("Value refused by the database on %s %s: %s", request.method,
                           _route(), (str(exc).splitlines() or [""])[0][:200])
        return answer(400, gettext("A value in the request is too long or too large to be "
                                    "stored; nothing was saved."), "request")

    @app.errorhandler(OperationalError)
    def busy(exc: DBAPIError) -> Response:
        """The database could not do it now: SQLite's write lock still held after the busy
        timeout, PostgreSQL past its connect or statement timeout, a deadlock or
        serialization failure between two writers (PostgreSQL rolled this one back), or the
        connection lost (a restart). Nothing was saved, and the same request will do next
        time: 503 with Retry-After (the outbox keeps the hand and sends it again)."""
        _rollback()
        message = str(getattr(exc, "orig", None) or exc).lower()
        state = next((state for state, words in TRANSIENT if any(w in message for w in words)),
                     state_of(exc))
        app.logger.warning("Database %s on %s %s: %s", state, request.method, _route(),
                           message.splitlines()[0][:150] if message else "")
        response = answer(503, gettext("The server is busy; nothing was saved. Try again in "
                                        "a moment."), "server")
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(DBAPIError)
    def lost(exc: DBAPIError) -> Response:
        """A connection that broke under a statement (the database restarting) is an
        outage, not a fault."""
        if exc.connection_invalidated or isinstance(exc, InterfaceError):
            return busy(exc)
        return unexpected(exc)

    @app.errorhandler(PoolTimeout)
    @app.errorhandler(PendingRollbackError)
    @app.errorhandler(DisconnectionError)
    def no_connection(exc: Exception) -> Response:
        """No connection to be had now (every pooled one in use past DB_POOL_TIMEOUT), or
        one that broke in an earlier statement of this request (a restart): an outage, not
        a fault."""
        return busy(exc)  # type: ignore[arg-type]

    @app.errorhandler(ObjectDeletedError)
    def gone(exc: ObjectDeletedError) -> Response:
        """The match was deleted by another phone while this request used it."""
        _rollback()
        return answer(404, gettext("Another phone deleted this match meanwhile."), "match")

    @app.errorhandler(OutOfTime)
    def out_of_time(exc: OutOfTime) -> Response:
        """A referee question past its CPU budget (REFEREE_CPU_BUDGET): the second line of
        defence behind the bounded search, so logged. 503 with Retry-After, never a worker
        held up."""
        app.logger.warning("Referee question over its %g s CPU budget on %s %s", exc.seconds,
                           request.method, _route())
        response = answer(503, gettext("The referee took too long over this question and "
                                        "stopped. Try again in a moment."), "server")
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        app.logger.exception("Unhandled error on %s %s", request.method, _route())
        return answer(500, gettext("Something went wrong on our side; nothing was saved. "
                                    "Please try again."), "server")
