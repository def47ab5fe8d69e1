"""Health: for load balancers and monitors."""

from __future__ import annotations

from flask import Blueprint

from .. import health

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[dict[str, object], int]:
    """200 when the database accepts a write; 503 with the reason when it does not."""
    healthy, report = health.check()
    return report, 200 if healthy else 503
