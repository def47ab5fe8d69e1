"""Configuration defaults; secrets and the database URL come from the environment or instance/."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEV_SECRET_KEY = "dev-only-not-secret"  # nosec B105: a placeholder production refuses


def production() -> bool:
    """TICHU_ENV=production turns on secure cookies and refuses the development key."""
    return os.environ.get("TICHU_ENV", "").lower() == "production"


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else instance/secret_key (created once)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        return path.read_text().strip()
    except OSError:
        return DEV_SECRET_KEY


def database_url(instance_path: str) -> str:
    """DATABASE_URL (PostgreSQL through psycopg 3, or SQLite), else SQLite in instance/."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{Path(instance_path) / 'tichu.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def rate_limit_storage() -> str:
    """RATELIMIT_STORAGE_URI, else REDIS_URL (redis://host:port/db), else in memory."""
    return (os.environ.get("RATELIMIT_STORAGE_URI", "").strip()
            or os.environ.get("REDIS_URL", "").strip() or "memory://")


def page_store() -> str:
    """PAGE_STORE_URI (empty: none), else REDIS_URL: where match page bodies are shared."""
    if "PAGE_STORE_URI" in os.environ:
        return os.environ["PAGE_STORE_URI"].strip()
    return os.environ.get("REDIS_URL", "").strip()


def _number(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def defaults(instance_path: str) -> dict[str, object]:
    secure = production()
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        # recycle rather than ping: a ping costs a round trip on every request; a request
        # waits at most POOL_TIMEOUT seconds for a connection (see database_timeouts)
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_recycle": 1800},
        # The bounds on waiting for PostgreSQL (tichu_scorer/database.py,
        # docs/security-faults.md): a request that needs a database that stopped answering
        # gets a 503 within about REPLY_TIMEOUT, then for PAUSE every such request gets one at
        # once. A reply later than REPLY_TIMEOUT is waited for (up to the statement timeout
        # and 1 s) only when the server answers a new connection: a live one is busy.
        "DB_CONNECT_TIMEOUT": _number("DB_CONNECT_TIMEOUT", 2),  # seconds, 2 at least
        "DB_REPLY_TIMEOUT_MS": _number("DB_REPLY_TIMEOUT_MS", 1500),
        "DB_STATEMENT_TIMEOUT_MS": _number("DB_STATEMENT_TIMEOUT_MS", 10000),
        "DB_TCP_USER_TIMEOUT_MS": _number("DB_TCP_USER_TIMEOUT_MS", 5000),
        "DB_PAUSE_MS": _number("DB_PAUSE_MS", 2000),
        "DB_POOL_TIMEOUT": _number("DB_POOL_TIMEOUT", 1),  # seconds
        # /healthz: how long the database may take to accept its write (server-side), and
        # how long /healthz waits for the answer at most before it reports the database
        # unreachable
        "HEALTH_TIMEOUT_MS": _number("HEALTH_TIMEOUT_MS", 500),
        "HEALTH_ANSWER_MS": _number("HEALTH_ANSWER_MS", 750),
        "MAX_CONTENT_LENGTH": 64 * 1024,  # no hand or question is anywhere near this
        "MAX_FORM_MEMORY_SIZE": 64 * 1024,
        "MAX_FORM_PARTS": 200,
        # the import alone may be larger: a long history's own export
        "IMPORT_MAX_BYTES": int(os.environ.get("IMPORT_MAX_BYTES", 4 * 1024 * 1024)),
        # and a tournament draw: 20 rounds of history of 256 names
        "DRAW_MAX_BYTES": int(os.environ.get("DRAW_MAX_BYTES", 512 * 1024)),
        "WTF_CSRF_TIME_LIMIT": None,  # a match lasts all evening; the session cookie bounds it
        "WTF_CSRF_SSL_STRICT": secure,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": secure,
        "PREFERRED_URL_SCHEME": "https" if secure else "http",
        # The address other phones open, for every link and QR code the app hands out
        # (checked at start, `public.check`); unset: the address each request came to.
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", ""),
        "TICHU_PRODUCTION": secure,
        # Per client address (an IPv6 client by its /64; limits.py): writes,
        # creating tables, matches and imports, and trying codes that are unknown.
        "WRITE_RATE_LIMIT": os.environ.get("WRITE_RATE_LIMIT", "120 per minute"),
        "CREATE_RATE_LIMIT": os.environ.get("CREATE_RATE_LIMIT", "30 per hour"),
        "JOIN_RATE_LIMIT": os.environ.get("JOIN_RATE_LIMIT", "30 per minute"),
        # A room of phones behind one address (a club): a table's scorers write and start
        # matches against the table's budget, a known code lets phones in against its own,
        # and the address's ceiling for all of it is ROOM_FACTOR times one phone's budget.
        "TABLE_WRITE_RATE_LIMIT": os.environ.get("TABLE_WRITE_RATE_LIMIT", "600 per minute"),
        "TABLE_CREATE_RATE_LIMIT": os.environ.get("TABLE_CREATE_RATE_LIMIT", "120 per hour"),
        "CODE_JOIN_RATE_LIMIT": os.environ.get("CODE_JOIN_RATE_LIMIT", "300 per minute"),
        "ROOM_FACTOR": int(os.environ.get("ROOM_FACTOR", "10")),
        # Reads whose cost grows with what is stored (log, every hand, board, statistics;
        # exports), per client address and page: far above what a phone or a club asks.
        "READ_RATE_LIMIT": os.environ.get("READ_RATE_LIMIT", "120 per minute"),
        "EXPORT_RATE_LIMIT": os.environ.get("EXPORT_RATE_LIMIT", "120 per hour"),
        # Exports are built once per state of their matches, one at a time per server, and
        # kept in instance/exports (tichu_scorer/transfer/exports.py): a request waits at most
        # EXPORT_WAIT seconds for another's build (then 503, try again), and the folder holds
        # at most EXPORT_CACHE_BYTES.
        "EXPORT_WAIT": float(os.environ.get("EXPORT_WAIT", "2")),
        # The phone's core files (about 3.7 MB for a whole core) per client address: a hundred
        # phones' worth an hour, each fetching the core once per deploy.
        "CORE_RATE_LIMIT": os.environ.get("CORE_RATE_LIMIT", "700 per hour"),
        "EXPORT_CACHE_BYTES": int(os.environ.get("EXPORT_CACHE_BYTES", 256 * 1024 * 1024)),
        # Referee questions (the API, the page and its verdicts) per client address, and the
        # CPU seconds one question may take before it is answered 503 (a second line of
        # defence: the search is bounded far below it; docs/security-referee.md).
        "REFEREE_RATE_LIMIT": os.environ.get("REFEREE_RATE_LIMIT", "120 per minute"),
        "REFEREE_CPU_BUDGET": float(os.environ.get("REFEREE_CPU_BUDGET", "0.5")),
        # Tournament draws (POST /api/v1/tournaments/draw) per client address, and the CPU
        # seconds one draw may take before it is answered 503 (the draw's own work is
        # bounded well below it: tournaments/draw.py, MAX_STEPS; docs/PERFORMANCE.md).
        "DRAW_RATE_LIMIT": os.environ.get("DRAW_RATE_LIMIT", "30 per minute"),
        "DRAW_CPU_BUDGET": float(os.environ.get("DRAW_CPU_BUDGET", "5")),
        # One table for every device: a self-hosted instance for one group (see README).
        "SINGLE_TABLE": os.environ.get("SINGLE_TABLE", "").lower() in ("1", "true", "yes"),
        # Rights live in the session cookie: kept a year, valid across key rotations.
        "PERMANENT_SESSION_LIFETIME": 365 * 24 * 3600,
        # Only a changed session is sent back: a response to a request that began before
        # another one changed the session (a preview racing a save) must not put the older
        # session back, and with it lose a right just given or a "saved" message.
        "SESSION_REFRESH_EACH_REQUEST": False,
        "SECRET_KEY_FALLBACKS": [k for k in os.environ.get(
            "SECRET_KEY_FALLBACKS", "").split(",") if k.strip()],
        "RATELIMIT_ENABLED": os.environ.get("RATELIMIT_ENABLED", "true").lower() != "false",
        # Limits hold across workers and servers only in a shared store (Redis): in memory,
        # each worker counts alone (gunicorn.conf.py then runs one worker).
        "RATELIMIT_STORAGE_URI": rate_limit_storage(),
        # a Redis that does not answer within half a second is skipped: each worker counts
        # in memory meanwhile, rather than every write waiting on it (logged)
        "RATELIMIT_STORAGE_OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "RATELIMIT_SWALLOW_ERRORS": True,
        # How many proxies in front set X-Forwarded-For/-Proto: 0 trusts none (a client could
        # name any address); 1 for one TLS proxy or load balancer. See README, Production.
        "PROXY_COUNT": int(os.environ.get("PROXY_COUNT", "0")),
        # No X-RateLimit-* headers on every limited request: each costs two round trips to
        # the store; a refusal (429) still says Retry-After (views/errors.py).
        "RATELIMIT_HEADERS_ENABLED": False,
        # Match page bodies shared by every worker and server (`matches/kept_pages`): Redis.
        "PAGE_STORE_URI": page_store(),
    }


def database_timeouts(config: Mapping[str, Any]) -> dict[str, Any]:
    """The engine options with the bounds that keep a stalled database from stalling every
    request: on PostgreSQL a connect timeout, TCP's timeouts and a statement timeout (each
    request's longest statement; lock waits included; `database.client_options`), and a
    bounded wait for a pooled connection. SQLite keeps its busy timeout (set on each
    connection). Options set explicitly win. The client-side bound on each reply is added
    to the engine itself (`database.bound`)."""
    from .database import client_options
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    uri = str(config.get("SQLALCHEMY_DATABASE_URI", ""))
    pooled = options.get("poolclass") is None or options["poolclass"].__name__ != "NullPool"
    if not uri.startswith("sqlite:///:memory:") and uri != "sqlite://" and pooled:
        options.setdefault("pool_timeout", config["DB_POOL_TIMEOUT"])
    if uri.startswith("postgresql"):
        # A pooled connection is asked whether it still works before a request gets it
        # (one round trip): after a restart of the database every pooled one is dead, and
        # otherwise the first request of each worker found out, answering 503.
        options.setdefault("pool_pre_ping", pooled)
        options["connect_args"] = client_options(config) | dict(
            options.get("connect_args") or {})
    return options
