"""Tables: a group's private space, its invite and scorer links, renaming and rotation, and
the evening at a table."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import public
from ..extensions import db
from ..game import variants
from ..game.house import FLAGS, preset_of
from ..limits import limit_creation, limit_reads, limit_writes
from ..live import poll
from ..matches import listing, roster, writes
from ..models import NAME_MAX, Group, Match, Player
from ..tables import access, evening_reads, evenings, fair_evening
from ..tournaments import director
from .errors import form_value
from .ratings import strengths
from .sharing import qr_svg

bp = Blueprint("tables", __name__)
MOST_HERE = 12  # players an evening's rotation takes (Grand Seigneur's most)


def _group(key: str, role: str = "member") -> Group:
    group = db.session.execute(db.select(Group).filter_by(key=key[:24])).scalar_one_or_none()
    return access.require_group(group, role)


def _held(group_id: int) -> Group:
    """The table, held for a write of the whole table (`writes.lock_table`, the write's
    first statement) and read afresh, if this phone still scores it."""
    return access.require_group(writes.lock_table(group_id), "scorer")


@bp.get("/tables/<key>")
def show(key: str) -> str:
    """The table's matches, and how to let other phones in."""
    group = _group(key)
    scorer = access.role_in(group) == "scorer"
    invite = public.link("matches.join", code=group.invite_code)
    link = public.link("matches.join", key=group.scorer_key) if scorer else None
    page = listing.history_page([group], request.args.get("older"), request.args.get("newer"))
    return render_template("tables/show.html", group=group, scorer=scorer,
                           matches=page.matches, page=page, live=poll.tables([group.key]),
                           tournament=director.of_group(group),
                           invite=invite, invite_qr=qr_svg(invite),
                           scorer_link=link, scorer_qr=qr_svg(link) if link else None)


@bp.get("/tables/<key>/tonight")
@limit_reads
def tonight(key: str) -> str:
    """The evening at this table (`evenings`): tonight's matches added up per player and
    partnership, and, for the scorers, who plays the next four-player match and who sits
    out, started with one tap. Who is here: `here` (checked on the page), else everyone who
    played tonight."""
    group = _group(key)
    scorer = access.role_in(group) == "scorer"
    evening = evening_reads.tonight(group)
    matches, fours = evening.matches, evening.fours
    tonight_names = list(dict.fromkeys(n for m in matches for n in m.player_names))
    candidates = list(dict.fromkeys(tonight_names + roster.known_names([group], limit=40)))
    # who is here: ticked on the page, or added by name (a player new to the table)
    asked = _one_each(" ".join(n.split()) for n in request.args.getlist("here")[:MOST_HERE])
    asked = [n for n in asked if n and len(n) <= NAME_MAX]
    here = asked or tonight_names
    candidates = _one_each([*candidates, *asked])
    last = next((m for m in reversed(matches) if m.game.variant == variants.DEFAULT), None)
    return render_template(
        "tables/tonight.html", group=group, scorer=scorer, matches=matches,
        standing=evening.standing, candidates=candidates, here=here,
        following=evenings.next_match(here, fours) if scorer else None,
        start=_start_fields(group, last), fair=_fair(group, here, fours) if scorer else [])


def _fair(group: Group, here: list[str],
          fours: list[evenings.Evening.Match]) -> list[fair_evening.Suggestion]:
    """The fairest tables for the players here, by this table's ratings (`fair_evening`)."""
    here = _one_each(here)  # "Ann" and "ann" tonight: one player, one seat
    if len(here) < evenings.SEATS:
        return []
    return fair_evening.suggest(here, fours, strengths([group], variants.NANKING),
                                strengths([group], variants.TIENTSIN))


def _one_each(names: Iterable[str]) -> list[str]:
    """The names with each player once: "Ann" and "ann" are one player ([H1])."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(Player.key_of(name), name)
    return list(seen.values())


def _start_fields(group: Group, last: Match | None) -> dict[str, str]:
    """The new-match form's fields for the evening's next match: as the last four-player
    match of the evening was set (target or number of hands, its house rules: a preset, or
    its own set with a lead), at this table."""
    fields = {"variant": variants.DEFAULT.key, "table": group.key, "house": "book",
              "target": "1000"}
    if last is None:
        return fields
    if last.target in (500, 1000):
        fields["target"] = str(last.target)
    elif last.target:
        fields |= {"target": "custom", "custom_target": str(last.target)}
    preset = preset_of(last.house, last.hand_limit)
    if preset is not None:
        return fields | {"house": preset}
    rules = last.house
    fields["house"] = "own"
    fields |= {flag.box: "y" for flag in FLAGS if flag.ticked(rules)}
    if last.lead_by:
        fields["lead_by"] = str(last.lead_by)
    if last.hand_limit:
        fields["fixed_hands"] = str(last.hand_limit)
    if rules.custom_calls:  # [R9]
        fields["custom_calls"] = ", ".join(f"{n} = {v}" for n, v in rules.custom_calls)
    return fields


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
    group_id = _group(key, "scorer").id  # (a write begins by ending the read: kept first)
    name = " ".join(form_value("name").split())
    if not name or len(name) > NAME_MAX or "\x00" in name:
        flash(gettext("A table's name is 1 to %(n)s characters.", n=NAME_MAX), "error")
    else:
        with writes.writing():
            _held(group_id).name = name
    return redirect(url_for("tables.show", key=key), code=303)


@bp.post("/tables/<key>/rotate")
@limit_writes
def rotate(key: str) -> Response:
    """New invite code, scorer link and watch code: phones that joined with the old ones
    must join again, screens need the new code (this one stays a scorer)."""
    group_id = _group(key, "scorer").id
    with writes.writing():
        group = _held(group_id)
        # every match held before the table's row changes (`writes.hold_matches`)
        group.rotate(writes.hold_matches(group.id), access.device())
    access.join(group, "scorer")
    flash(gettext("New links made. The old invite code, scorer link, watch code and codes "
                  "of its matches no longer work; phones that joined with them must join "
                  "again, and screens need the new watch code."))
    return redirect(url_for("tables.show", key=key), code=303)
