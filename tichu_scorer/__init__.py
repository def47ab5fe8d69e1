"""Tichu Scorer: a table companion that scores Tichu matches and settles disputes."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets, chrome, config, database, i18n, public
from .extensions import babel, compress, csrf, db, migrate
from .health import SQLITE_BUSY_MS
from .i18n import LANGUAGES, select_locale
from .limits import limiter
from .live import poll

ROOT = Path(__file__).resolve().parent.parent


class LoudUndefined(jinja2.StrictUndefined):
    """A misspelt name or attribute in a template fails loudly instead of printing nothing;
    `{% if optional %}` still reads a value the view did not pass as false."""

    def __bool__(self) -> bool:  # type: ignore[override]  # the point: false, not an error
        return False


def create_app(test_config: Mapping[str, Any] | None = None,
               instance_path: str | None = None) -> Flask:
    """The one wiring point: configuration, extensions, blueprints, error handlers."""
    app = Flask(__name__, template_folder="../templates", static_folder="../static",
                instance_relative_config=True,
                instance_path=instance_path or str(ROOT / "instance"))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(config.defaults(app.instance_path))
    app.config.from_mapping(assets.compression_defaults())
    if test_config:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = config.database_timeouts(app.config)
    try:
        app.config["PUBLIC_URL"] = public.check(str(app.config.get("PUBLIC_URL") or ""))
    except ValueError as problem:
        raise RuntimeError(f"Refusing to start: {problem}") from None
    if app.config["TICHU_PRODUCTION"] and app.config["SECRET_KEY"] in (
            config.DEV_SECRET_KEY, "", None, "dev", "test"):
        raise RuntimeError("Refusing to start in production with the development secret key: "
                           "set SECRET_KEY or let instance/secret_key be created.")

    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep docs/API.md field order
    app.session_interface = QuietSessionInterface()
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").addFilter(_plain_text)

    db.init_app(app)
    app.teardown_appcontext(database.end_session)  # runs before Flask-SQLAlchemy's own
    with app.app_context():
        database.per_process(db.engines.values())  # a forked worker opens its own
        if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
            app.extensions["tichu_breaker"] = database.bound(db.engine, app.config)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    limiter.init_app(app)
    compress.init_app(app)
    assets.init_app(app)
    chrome.init_app(app)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES",
                          str(Path(__file__).resolve().parent / "translations"))
    babel.init_app(app, locale_selector=select_locale)
    i18n.install(app)
    from flask_babel import get_locale

    app.jinja_env.undefined = LoudUndefined
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, get_locale=get_locale,
                                 public_link=public.link, links_unreachable=public.unreachable)
    app.jinja_env.filters["translate"] = i18n.gettext
    app.jinja_env.globals["possessive"] = i18n.possessive
    app.jinja_env.globals["house_rules_of"] = i18n.house_rules_of

    from .game.i18n import set_translator
    set_translator(i18n.gettext, i18n.plural)

    from .views import register
    register(app)
    app.after_request(_security_headers)
    from .matches import repeat_views
    repeat_views.init_app(app)  # a repeat view of an unchanged match page: 304 before Flask
    poll.init_app(app)  # in front of everything: polled all evening, it must cost little
    if app.config["PROXY_COUNT"] > 0:  # the client's address and scheme, as the proxy saw them
        # (outermost: what is answered before Flask counts the same client, `repeat_views`)
        hops = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    return app


class QuietSessionInterface(SecureCookieSessionInterface):
    """A copy the service worker fetches in the background (X-Tichu-Prefetch) never sends
    the session cookie back: it began with the cookie of its moment, and sending it (with a
    new CSRF token, say) could put back an older session over a right just given."""

    _kept: tuple[object, URLSafeTimedSerializer | None] | None = None  # (keys, serializer)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if request.headers.get("X-Tichu-Prefetch"):
            return False
        return super().should_set_cookie(app, session)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's, made once per secret key and fallbacks rather than twice a request
        (its making serialises a test value)."""
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]


ANSI_STYLE = re.compile(r"\x1b\[[0-9;]*m")
# the query of a request line ("GET /join?key=… HTTP/1.1"): it may carry a scorer key
QUERY = re.compile(r"^([A-Z]+ [^ ?]*)\?\S*")


# a path that is itself a secret: a viewer link (/v/<code>) opens its match to anyone
SECRET_PATH = re.compile(r"(/v/)[^/?\s]+")


def redact_path(path: str) -> str:
    """A path as a log may keep it: a viewer link's code is left out.

    >>> redact_path("/v/AB12CD34")
    '/v/…'
    """
    return SECRET_PATH.sub(r"\1…", path)


def _log_line(text: str) -> str:
    return redact_path(QUERY.sub(r"\1", ANSI_STYLE.sub("", text)))


def _plain_text(record: logging.LogRecord) -> bool:
    """The development server's request lines as gunicorn's (`gunicorn.conf.py`): plain
    text (it colours them with terminal codes even in a log file or a pipe) and the path
    without its query string, which may carry a scorer key (`/join?key=…`), or a viewer
    link's code (`redact_path`)."""
    record.msg = ANSI_STYLE.sub("", str(record.msg))
    if isinstance(record.args, tuple):
        record.args = tuple(_log_line(a) if isinstance(a, str) else a for a in record.args)
    return True


# Scripts, styles and connections fall back to default-src: same origin only, no inline
# script or style. Sent on every page, so no directive is written twice.
CSP = ("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; "
       "form-action 'self'")


# Never shown as a document: a document's policies mean nothing on them; they would cost
# every phone their bytes on each file.
SUBRESOURCE_TYPES = frozenset({"text/css", "text/javascript", "image/png"})
# Our SVG icon can be opened as a document: it may then load and run nothing at all. It has
# no links, forms or script, so framing it or its referrers give nothing away; the page's
# longer policies would cost its first load a fifth of a kilobyte.
STATIC_SVG_CSP = "default-src 'none'"
# What every page carries besides X-Content-Type-Options (a 304 answered before Flask too,
# `matches.repeat_views`)
PAGE_HEADERS = (("Content-Security-Policy", CSP), ("Referrer-Policy", "same-origin"),
                ("X-Frame-Options", "DENY"),
                ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"))


def _security_headers(response: Response) -> Response:
    """No inline script, no framing, no sniffing; same-origin referrers keep CSRF working."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.endpoint == "static":
        if response.mimetype == "image/svg+xml":
            response.headers.setdefault("Content-Security-Policy", STATIC_SVG_CSP)
            return response
        if response.mimetype in SUBRESOURCE_TYPES:
            return response
    for name, value in PAGE_HEADERS:
        response.headers.setdefault(name, value)
    return response


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite: enforce foreign keys and use WAL so a reader never blocks the scorer."""
    module = type(dbapi_connection).__module__
    if "sqlite" not in module:
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL survives any crash of the process (a killed server loses nothing
    # it acknowledged); only a power cut may drop the last commits.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()
    # SQLAlchemy, not the driver, begins transactions (below): reads get a consistent
    # snapshot, and a write can begin IMMEDIATE, taking the write lock before it reads.
    dbapi_connection.isolation_level = None


@event.listens_for(Engine, "begin")
def _sqlite_begin(conn: Any) -> None:
    """SQLite: BEGIN, or BEGIN IMMEDIATE for a write (`writes.begin_write`), so that two
    writers queue on the lock instead of one failing on a stale snapshot."""
    if conn.dialect.name != "sqlite":
        return
    immediate = conn.get_execution_options().get("sqlite_immediate", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
