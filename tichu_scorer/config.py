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


def defaults(instance_path: str) -> dict[str, object]:
    secure = production()
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        # recycle rather than ping: a ping costs a round trip on every request; a request
        # waits at most POOL_TIMEOUT seconds for a connection (see database_timeouts)
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_recycle": 1800},
        "DB_CONNECT_TIMEOUT": int(os.environ.get("DB_CONNECT_TIMEOUT", "3")),  # seconds
        "DB_STATEMENT_TIMEOUT_MS": int(os.environ.get("DB_STATEMENT_TIMEOUT_MS", "10000")),
        "DB_POOL_TIMEOUT": int(os.environ.get("DB_POOL_TIMEOUT", "5")),  # seconds
        # /healthz: how long the database may take to accept its write
        "HEALTH_TIMEOUT_MS": int(os.environ.get("HEALTH_TIMEOUT_MS", "2000")),
        "MAX_CONTENT_LENGTH": 64 * 1024,  # no hand or question is anywhere near this
        "MAX_FORM_MEMORY_SIZE": 64 * 1024,
        "MAX_FORM_PARTS": 200,
        # the import alone may be larger: a long history's own export
        "IMPORT_MAX_BYTES": int(os.environ.get("IMPORT_MAX_BYTES", 4 * 1024 * 1024)),
        "WTF_CSRF_TIME_LIMIT": None,  # a match lasts all evening; the session cookie bounds it
        "WTF_CSRF_SSL_STRICT": secure,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": secure,
        "PREFERRED_URL_SCHEME": "https" if secure else "http",
        "TICHU_PRODUCTION": secure,
        # Writes per client address; reads are never limited.
        "WRITE_RATE_LIMIT": os.environ.get("WRITE_RATE_LIMIT", "120 per minute"),
        # Creating tables, matches and imports, and trying join codes, per client address.
        "CREATE_RATE_LIMIT": os.environ.get("CREATE_RATE_LIMIT", "30 per hour"),
        "JOIN_RATE_LIMIT": os.environ.get("JOIN_RATE_LIMIT", "30 per minute"),
        # Referee questions (the API, the page and its verdicts) per client address, and the
        # CPU seconds one question may take before it is answered 503 (a second line of
        # defence: the search is bounded far below it; docs/security-referee.md).
        "REFEREE_RATE_LIMIT": os.environ.get("REFEREE_RATE_LIMIT", "120 per minute"),
        "REFEREE_CPU_BUDGET": float(os.environ.get("REFEREE_CPU_BUDGET", "0.5")),
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
        # Match page bodies shared by every worker and server (`match_pages`): Redis.
        "PAGE_STORE_URI": page_store(),
    }


def database_timeouts(config: Mapping[str, Any]) -> dict[str, Any]:
    """The engine options with the bounds that keep a stalled database from stalling every
    request: a connect timeout and a statement timeout on PostgreSQL (each request's longest
    statement; lock waits included), and a bounded wait for a pooled connection. SQLite
    keeps its busy timeout (set on each connection). Options set explicitly win."""
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    uri = str(config.get("SQLALCHEMY_DATABASE_URI", ""))
    if not uri.startswith("sqlite:///:memory:") and uri != "sqlite://":
        options.setdefault("pool_timeout", config["DB_POOL_TIMEOUT"])
    if uri.startswith("postgresql"):
        connect_args = dict(options.get("connect_args") or {})
        connect_args.setdefault("connect_timeout", config["DB_CONNECT_TIMEOUT"])
        connect_args.setdefault(
            "options", f"-c statement_timeout={int(config['DB_STATEMENT_TIMEOUT_MS'])}")
        options["connect_args"] = connect_args
    return options
