"""Configuration defaults; secrets and the database URL come from the environment or instance/."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

DEV_SECRET_KEY = "dev-only-not-secret"


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


def defaults(instance_path: str) -> dict[str, object]:
    sqlite_path = Path(instance_path) / "tichu.sqlite3"
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL", f"sqlite:///{sqlite_path}"),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "MAX_CONTENT_LENGTH": 64 * 1024,  # no hand or question is anywhere near this
        "MAX_FORM_MEMORY_SIZE": 64 * 1024,
        "WTF_CSRF_TIME_LIMIT": None,  # a match lasts all evening; the session cookie bounds it
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
    }
