"""Sharing a match: its Share page (watch or score, each one code, one link, one QR code),
the viewer link, and joining by code or link. Routes of the matches blueprint."""

from __future__ import annotations

import functools
import io

import segno
from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import public
from ..extensions import db
from ..limits import limit_joins
from ..matches import writes
from ..models import Group, Match
from ..tables import access, codes
from .matches import _show, bp, visible

WATCH, SCORE = "watch", "score"


@bp.get("/v/<code>")
@limit_joins
def view(code: str) -> Response:
    """The viewer link: the match, read-only, without joining its table."""
    writes.reading()
    read = codes.read(code)
    if read is None or len(read) == codes.SCORE_LENGTH:  # a score code only through /join
        abort(404)
    match = writes.match_by_code(read)
    if match is None:
        abort(404)
    access.view_match(match)
    return _show(match, viewer=True)


@bp.get("/join")
@limit_joins
def join() -> Response | tuple[str, int]:
    """Join by a code, typed (any spacing, dashes or case) or in a link: a table's invite
    code (see its matches), a match's viewer code (watch it), its score code (score its
    table, then the match opens) or a table's watch code (its board on a screen). The
    table's scorer link (?key=…) still works."""
    key = (request.args.get("key") or "").strip()
    if key:
        return _scorer_link(key)
    typed = request.args.get("code") or ""
    code = codes.read(typed)
    if not typed.strip():
        return render_template("matches/join.html", error=None, code=""), 200
    if code is not None and len(code) == codes.SCORE_LENGTH:
        match = db.session.execute(db.select(Match).filter_by(
            scorer_key=code)).scalar_one_or_none()
        if match is not None:
            if match.tournament_round_id is not None:
                access.score_match(match)  # a tournament's table scores itself, no other
            else:
                access.join(match.group, "scorer")
            flash(gettext("This phone can now enter hands at %(table)s.",
                          table=match.group.name))
            return redirect(url_for("matches.show", match_id=match.key), code=303)
    elif code is not None and len(code) == codes.WATCH_LENGTH:
        return redirect(url_for("watch.screen", code=code), code=303)  # 404s there if unknown
    elif code is not None:
        group = db.session.execute(db.select(Group).filter_by(
            invite_code=code)).scalar_one_or_none()
        if group is not None:
            access.join(group, "member")
            flash(gettext("You joined %(table)s.", table=group.name))
            return redirect(url_for("tables.show", key=group.key), code=303)
        if db.session.execute(db.select(Match.id).filter_by(code=code)).first() is not None:
            return redirect(url_for("matches.view", code=code), code=303)
    quoted = codes.shown(codes.cleaned(typed))
    return render_template("matches/join.html", code=quoted, error=gettext(
        "No table or match has the code %(code)s. Check the letters and try again.",
        code=quoted)), 404


def _scorer_link(key: str) -> Response | tuple[str, int]:
    """A table's scorer link: this phone scores every match of the table, which opens."""
    group = db.session.execute(db.select(Group).filter_by(
        scorer_key=key[:32])).scalar_one_or_none()
    if group is None:
        return render_template("matches/join.html", code="", error=gettext(
            "This scorer link is not valid (any more). Ask the table for its current "
            "link.")), 404
    access.join(group, "scorer")
    flash(gettext("This phone can now enter hands at %(table)s.", table=group.name))
    return redirect(url_for("tables.show", key=group.key), code=303)


@bp.get("/matches/<match_id>/share")
def share(match_id: str) -> str:
    """One choice: watch (the viewer code and link) or, for a scorer, score (the score code
    and link: a phone that opens it scores the table, and this match opens)."""
    match = visible(match_id)
    scorer = access.can_score(match)
    chosen = SCORE if scorer and request.args.get("to") == SCORE else WATCH
    if chosen == SCORE:
        code = match.scorer_key  # every match holds one (migration f3a9c2d18b47)
        link = public.link("matches.join", code=code)
    else:
        code = match.code
        link = public.link("matches.view", code=code)
    return render_template("matches/share.html", match=match, scorer=scorer, chosen=chosen,
                           code=code, shown_code=codes.shown(code), link=link,
                           qr=qr_svg(link))


@bp.app_template_filter("code")
def code_filter(code: str) -> str:
    """A code in groups, as a player reads it out (`codes.shown`)."""
    return codes.shown(code)


@functools.lru_cache(maxsize=256)
def qr_svg(text: str) -> Markup:
    """A QR code as inline SVG (no script, no image request): made once for each text (a
    match's or table's link is drawn on every view of its page)."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False,
                                     svgns=True, title="QR code", svgclass="qr",
                                     lineclass=None, dark="#000", light="#fff", omitsize=True)
    return Markup(buffer.getvalue().decode())  # nosec B704: generated by segno from our URL
