"""Statistics across all matches."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from flask_babel import get_locale, gettext
from markupsafe import Markup

from .. import access, insights, tallies
from ..cache import LRU, lru
from ..extensions import limit_reads

bp = Blueprint("stats", __name__)
PAGES_KEPT = 256  # rendered statistics an app process keeps


@bp.get("/stats")
@limit_reads
def index() -> str:
    """Per variant, per player and per partnership: matches, wins, calls, first out, double
    victories. The cards are rendered again only when one of the tables changed (their
    checksums) or for another language, and kept under the checksums of what they show
    (a change that came in between the request's checksums and the sums is in the cards:
    they must not be shown for the checksums read before it)."""
    groups = access.groups()
    marks = tallies.checksums(groups) if groups else {}
    locale = str(get_locale())
    pages: LRU[Any, Markup] = lru("tichu_stats_pages", PAGES_KEPT)
    kept = pages.get((locale, tuple(sorted(marks.items()))))
    if kept is None:
        variants, read = insights.stats_as_of(groups, marks)
        kept = Markup(render_template(  # nosec B704: our own template, autoescaped
            "stats/_cards.html", words=_words(), variants=variants))
        pages.put((locale, tuple(sorted(read.items()))), kept)
    return render_template("stats/index.html", cards=kept)


def _words() -> dict[str, str]:
    """The labels of every card, translated once per page (a page may show hundreds of
    cards); the patterns are filled in by the template."""
    return {"matches": gettext("Matches"), "played": gettext("%(n)s played, %(won)s won"),
            "tichu": gettext("Tichu"), "grand": gettext("Grand Tichu"),
            "first_out": gettext("First out"), "hands": gettext("of %(n)s hands"),
            "double": gettext("Double victories"), "average": gettext("Average hand")}
