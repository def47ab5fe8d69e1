"""Statistics across all matches."""

from __future__ import annotations

from flask import Blueprint, render_template

from .. import access, insights

bp = Blueprint("stats", __name__)


@bp.get("/stats")
def index() -> str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories."""
    return render_template("stats/index.html", variants=insights.all_stats(access.groups()))
