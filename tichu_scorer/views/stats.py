"""Statistics across all matches."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_babel import gettext

from .. import access, insights

bp = Blueprint("stats", __name__)


@bp.get("/stats")
def index() -> str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories."""
    return render_template("stats/index.html", variants=insights.all_stats(access.groups()),
                           words=_words())


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "won": gettext("won %(n)s"),
            "first_out": gettext("First out"), "hands": gettext("of %(n)s hands"),
            "double": gettext("Double victories"), "average": gettext("Average hand")}
