"""Tables: a group's private space, its invite and scorer links, renaming and rotation."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import access, live, public
from ..extensions import db, limit_creation, limit_writes
from ..matches import listing, roster, writes
from ..models import NAME_MAX, Group
from .errors import form_value
from .sharing import qr_svg

bp = Blueprint("tables", __name__)


def _group(key: str, role: str = "member") -> Group:
    group = db.session.execute(db.select(Group).filter_by(key=key[:24])).scalar_one_or_none()
    return access.require_group(group, role)


@bp.get("/tables/<key>")
def show(key: str) -> str:
    """The table's matches, and how to let other phones in."""
    group = _group(key)
    scorer = access.role_in(group) == "scorer"
    invite = public.link("matches.join", code=group.invite_code)
    link = public.link("matches.join", key=group.scorer_key) if scorer else None
    page = listing.history_page([group], request.args.get("older"), request.args.get("newer"))
    return render_template("tables/show.html", group=group, scorer=scorer,
                           matches=page.matches, page=page, live=live.tables([group.key]),
                           invite=invite, invite_qr=qr_svg(invite),
                           scorer_link=link, scorer_qr=qr_svg(link) if link else None)


@bp.post("/tables/new")
@limit_writes
@limit_creation
def new() -> Response:
    """A new, empty table; this device is its scorer."""
    name = " ".join(form_value("name").split())[:NAME_MAX]
    group = roster.create_group(name or gettext("Our table"))
    access.join(group, "scorer")
    return redirect(url_for("tables.show", key=group.key), code=303)


@bp.post("/tables/<key>/rename")
@limit_writes
def rename(key: str) -> Response:
    _group(key, "scorer")
    name = " ".join(form_value("name").split())
    if not name or len(name) > NAME_MAX or "\x00" in name:
        flash(gettext("A table's name is 1 to %(n)s characters.", n=NAME_MAX), "error")
    else:
        with writes.writing():
            _group(key, "scorer").name = name
    return redirect(url_for("tables.show", key=key), code=303)


@bp.post("/tables/<key>/rotate")
@limit_writes
def rotate(key: str) -> Response:
    """New invite code and scorer link: phones that joined with the old ones must join
    again (this one stays a scorer)."""
    _group(key, "scorer")
    with writes.writing():
        group = _group(key, "scorer")
        group.rotate(listing.history([group], limit=None), access.device())
    access.join(group, "scorer")
    flash(gettext("New links made. The old invite code, scorer link and codes of its "
                  "matches no longer work; phones that joined with them must join again."))
    return redirect(url_for("tables.show", key=key), code=303)
