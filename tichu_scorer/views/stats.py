"""Statistics across all matches."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template
from flask_babel import get_locale, gettext
from markupsafe import Markup

from .. import access, insights, tallies

bp = Blueprint("stats", __name__)
PAGES_KEPT = 256  # rendered statistics an app process keeps


@bp.get("/stats")
def index() -> str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories. The cards are rendered again only when one of the tables changed (their
    checksums) or for another language."""
    groups = access.groups()
    marks = tallies.checksums(groups) if groups else {}
    key = (str(get_locale()), tuple(sorted(marks.items())))
    pages: dict[Any, Markup] = current_app.extensions.setdefault("tichu_stats_pages", {})
    if key not in pages:
        if len(pages) >= PAGES_KEPT:
            pages.clear()
        cards = render_template("stats/_cards.html", words=_words(),
                                variants=insights.all_stats(groups, marks))
        pages[key] = Markup(cards)  # nosec B704: our own template, autoescaped
    return render_template("stats/index.html", cards=pages[key])


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "won": gettext("won %(n)s"),
            "first_out": gettext("First out"), "hands": gettext("of %(n)s hands"),
            "double": gettext("Double victories"), "average": gettext("Average hand")}
