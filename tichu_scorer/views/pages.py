"""Static pages: the rule book."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/rules")
def rules() -> str:
    """The rule book with an anchor per rule id."""
    from ..rulebook import rulebook_html
    return render_template("pages/rules.html", body=rulebook_html())
