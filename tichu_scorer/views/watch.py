"""A table's board or evening on a screen, by the table's watch code (`tables.watching`):
read-only, live, and nothing else of the table."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, current_app, render_template
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import public
from ..limits import limit_joins
from ..live import poll
from ..matches import writes
from ..models import Group
from ..tables import access, evening_reads, watching
from ..tournaments import director
from .sharing import qr_svg
from .tournaments import board_page

bp = Blueprint("watch", __name__)


@bp.get("/w/<code>")
@limit_joins
def screen(code: str) -> Response:
    """The board (a tournament's table) or Tonight (any other table) of the table whose
    watch code this is; a 404 for any other code, as for a code that never was. The screen
    is given no right: the page is read again through this link as it changes."""
    writes.reading()
    group = watching.by_code(code)
    if group is None:
        abort(404)
    tournament = director.of_group(group)
    if tournament is not None:
        page = board_page(tournament, watching=True)
    else:
        evening = evening_reads.tonight(group)
        page = render_template("tables/watch.html", group=group, matches=evening.matches,
                               standing=evening.standing, live=poll.tables([group.key]))
    response: Response = current_app.make_response(page)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the code is in the address
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@dataclass(frozen=True)
class Screen:
    """A table's watch code as its scorers' pages show it: the code, its link and QR."""

    code: str
    link: str
    qr: Markup


@bp.app_template_global("watch_screen")
def watch_screen(group: Group) -> Screen | None:
    """The watch code of `group` with its link and QR, for a scorer of it (None for anyone
    else: only the table's scorers hand it out)."""
    if access.role_in(group) != "scorer":
        return None
    link = public.link("watch.screen", code=group.watch_code)
    return Screen(group.watch_code, link, qr_svg(link))

