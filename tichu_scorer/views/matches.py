"""Matches: the history, starting a match, the match page, rematch."""

from __future__ import annotations

from typing import Any

from babel.numbers import get_decimal_symbol
from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import scoring
from ..core import follow_panel, regions
from ..core.hand_rows import hand_rows, rank_rows
from ..extensions import db
from ..forms import NewMatchForm
from ..game.house import preset_of
from ..i18n import possessive
from ..limits import limit_creation, limit_reads, limit_writes
from ..live import poll
from ..matches import (
    chart,
    closing,
    creation,
    following,
    hand_entry,
    hand_reads,
    kept_pages,
    listing,
    match_view,
    prebuilt,
    repeat_views,
    roster,
    writes,
)
from ..models import Group, Match
from ..tables import access
from ..tournaments import director
from . import game_pages
from .ratings import chances

bp = Blueprint("matches", __name__)
bp.record_once(lambda state: kept_pages.remember_build(state.app))
KEY_LENGTH = Group.__table__.c.key.type.length  # a table's key, as links name it


@bp.get("/")
def history() -> str:
    """The matches of the tables this device joined, newest first, a page at a time; or how
    to start."""
    groups = access.groups()
    page = listing.history_page(groups, request.args.get("older"), request.args.get("newer"))
    return render_template("matches/history.html", matches=page.matches, page=page,
                           groups=groups, live=poll.tables([g.key for g in groups]))


@bp.route("/matches/new", methods=["GET", "POST"])
@limit_writes
@limit_creation
def new() -> str | Response | tuple[str, int]:
    """Players into seats, and how long the match lasts, at one of this device's tables."""
    form = NewMatchForm()
    tables = access.groups("scorer")
    form.table.choices = [(g.key, g.name) for g in tables] + [("new", gettext("A new table"))]
    if request.method == "GET" or not form.table.data:
        form.table.data = request.args.get("table") or (tables[0].key if tables else "new")
        if scoring.find(request.args.get("variant")):
            form.variant.data = request.args["variant"]
        _again(form, request.args.get("again", ""), tables)
    _require_table(form.table.data, tables)
    if form.validate_on_submit():
        group = next((g for g in tables if g.key == form.table.data), None)
        if group is None:
            group = roster.create_group(form.table_name.data or gettext(
                "%(owner)s table", owner=possessive(form.names[0])))
            access.join(group, "scorer")
        match = creation.create_match(group, form.names, form.target_value, form.game,
                                     form.hand_limit, house=form.house_rules,
                                     lead_by=form.lead_value)
        return redirect(url_for("matches.show", match_id=match.key), code=303)
    status = 422 if form.is_submitted() else 200
    return render_template("matches/new.html", form=form, game=form.game,
                           variants=scoring.VARIANTS.values(),
                           known_names=roster.known_names(tables)), status


def _require_table(key: object, tables: list[Group]) -> None:
    """A match starts at a new table or at one of `tables`, those this phone scores: the
    table a link (`?table=`) or the form names is refused otherwise, before the form is
    read. 404 for a table this phone has not joined (it learns nothing about it), 403
    naming the table for one it only views."""
    if not isinstance(key, str) or key == "new" or any(g.key == key for g in tables):
        return
    group = None
    if len(key) <= KEY_LENGTH and "\x00" not in key:  # no table has such a key
        group = db.session.execute(db.select(Group).filter_by(key=key)).scalar_one_or_none()
    group = access.require_group(group)
    if access.role_in(group) != "scorer":
        abort(403, gettext("This phone only views the table “%(table)s”: only its scorers "
                           "may start a match there. Open its scorer link.", table=group.name))


def _again(form: NewMatchForm, key: str, tables: list[Group]) -> None:
    """A rematch with other seats: the form filled in as the match `key` was, for the
    players to swap seats or partners before it starts; at its table when this phone
    scores it (a phone that only views it starts the match as a new one would)."""
    match = writes.match_by_key(key) if key else None
    if match is None or not access.can_view(match):
        return
    form.variant.data = match.variant
    if any(g.key == match.group.key for g in tables):
        form.table.data = match.group.key
    players = match.player_names
    for field, name in zip(form.seat_fields(), players, strict=False):
        field.data = name
    _house_again(form, match)
    if match.hand_limit:
        form.length.data, form.hands.data = "hands", match.hand_limit
    elif match.target:
        form.length.data = "target"
        known = {c.value for c in form.target.choices}
        form.target.data = str(match.target) if str(match.target) in known else "custom"
        form.custom_target.data = match.target


def _house_again(form: NewMatchForm, match: Match) -> None:
    """The house rules of the match a rematch follows: its preset, or its own set."""
    rules = match.house
    preset = preset_of(rules, match.hand_limit)
    form.house.data = preset or "own"
    if preset is None:
        form.show_rules(rules, match.lead_by)
        if not match.game.variant.lasts_hands:
            form.fixed_hands.data = match.hand_limit


def visible(match_id: str) -> Match:
    """The match, if this device may see it; 404 otherwise (a stranger learns nothing)."""
    return access.require_view(writes.match_by_key(match_id))


# Rows of the match page: the latest hands. A match to 1000 takes 10 to 20 hands; a longer
# one links to its page of every hand, so that the page a phone opens stays small however
# long the match (`benchmarks/first_load.py`).
LATEST = 50


def page_showing(match: Match, position: int) -> str:
    """The page whose table shows the hand at `position` (1 = the first hand in play): the
    match page, or for an older hand of a long match its page of every hand, at that
    hand's row. An edit, a delete or a cancelled form goes back to where the hand was."""
    if match.hand_count - position >= LATEST:
        return url_for("matches.show_every", match_id=match.key, _anchor=f"hand-{position}")
    return url_for("matches.show", match_id=match.key)


def _show(match: Match, viewer: bool, every: bool = False) -> Response:
    """The match page: 304 for a browser whose copy is still this page (`repeat_views`);
    else the page around the body kept for this revision, language and role, rendered
    when none is kept yet. `every`: a row for every hand, not only the `LATEST`."""
    scorer = not viewer and access.can_score(match)
    # [TN5]: a table of a closed round is shown as to a viewer, saying so (the draw that
    # closed it raised its revision: no page kept before says otherwise)
    found = closing.closure(match, hold=False) if match.tournament_round_id else None
    closed = found if found is not None and found.closed else None
    scorer = scorer and closed is None
    pages = game_pages.pages_of(match)
    template = pages.match_template
    key = kept_pages.page_key(match, scorer, template, every)
    # (a repeat view of an unchanged page is mostly answered before Flask: `repeat_views`)
    current = repeat_views.current_tag(match)
    unchanged = kept_pages.not_modified(current)
    if unchanged is not None:
        return unchanged
    tag: str | None = current
    kept = kept_pages.kept_body(key)  # with the names: nothing more to read
    if kept is None:
        tag = None  # (the match may be read again while its page is built)
        prebuilt.load_seats(match)  # the names, in the title and the body
        page = _page(match)  # may read the match again: the key follows what was read
        key = kept_pages.page_key(match, scorer, template, every)
        edit = numbered_url("hands.edit", match_id=match.key) if scorer else None
        shown = page.rows if every else page.rows[-LATEST:]
        hidden = len(page.rows) - len(shown)
        # The page of every hand, opened at the newest hand this page leaves out. One link
        # for a member and a viewer (one kept body serves both): a viewer link's reader may
        # see the match, and so this page, by its key.
        every_url = url_for("matches.show_every", match_id=match.key,
                            _anchor=f"hand-{hidden}") if hidden else None
        kept = kept_pages.keep_body(key, ", ".join(match.names), render_template(
            template, page=page, sides=page.sides, can_score=scorer, shown=shown, every=every,
            hidden=hidden, every_url=every_url, closed=closed,
            chart=chart.match_chart(page) if pages.hands_table else None,
            rows=_rows(page, shown, edit, every, pages.hands_table), regions=regions,
            board=page.board, decimal_sign=get_decimal_symbol(str(get_locale())),
            csrf_token=lambda: kept_pages.stand_in(current_app),
            follow=_follow(match, scorer),
            # the next hand's entry number: a hand form kept before takes it (offline.js)
            next_entry=prebuilt.next_entry(match.id) if scorer else None,
            # Threechu: the forms of the hands after the next (ready.js has them kept)
            ahead=[url_for("hands.new", match_id=match.key, number=n)
                   for n in hand_entry.numbers_ahead(match)] if scorer else [],
            # the table's ratings, for its scorers: a viewer link's reader gets this body too
            chances=None if page.rows or not scorer else chances(match)))
    response = make_response(render_template("matches/page.html", body=kept.body,
                                             title=kept.title))
    return kept_pages.validated(response, repeat_views.page_tag(match, tag))


def _follow(match: Match, scorer: bool) -> tuple[following.Followed, Markup, Any] | None:
    """The hand in play, its panel and, for a scorer, what the phone's core draws it from
    without signal; None once the match is over."""
    if match.finished:
        return None
    followed = following.in_play(match)
    facts = follow_panel.facts(followed.table, match.names, followed.events,
                               (match.hand_count or 0) + 1) if scorer else None
    return followed, panel_of(match, followed, scorer), facts


def _rows(page: match_view.MatchPage, shown: list[match_view.HandRow],
          edit: tuple[str, str] | None, every: bool, table: bool) -> Markup:
    """The hands table's rows: a points game's with its scores, or the finishing orders."""
    if table:
        return hand_rows(shown, edit, page.notes_below, anchored=every)
    return rank_rows([(row.position, row.number, row.ranking) for row in shown], edit,
                     str(gettext("Edit hand %(n)s")), anchored=every)


def _page(match: Match) -> match_view.MatchPage:
    """Everything the match page shows; 404 when the match was deleted meanwhile, 503 when
    it kept changing while it was read."""
    try:
        return match_view.match_page(match)
    except hand_reads.Gone:
        abort(404)
    except hand_reads.Moving:
        abort(503)


def panel_of(match: Match, followed: following.Followed, scorer: bool) -> Markup:
    """The hand in play's panel on the match page and the board (`core.follow_panel`)."""
    return follow_panel.panel(followed.table, followed.state, match.names, scorer,
                              (match.hand_count or 0) + 1,
                              url_for("hands.new", match_id=match.key) if scorer else None)


def numbered_url(endpoint: str, **values: Any) -> tuple[str, str]:
    """`url_for(endpoint, number=n, **values)` for every hand number n at the cost of one
    `url_for`: the URL's text before and after the number (a long match links each of its
    hundreds of hands)."""
    marker = 987654321
    before, _, after = url_for(endpoint, number=marker, **values).partition(str(marker))
    return before, after


@bp.get("/matches/<match_id>")
def show(match_id: str) -> Response:
    """Totals, hands, who shuffles next, the result (read-only without scorer rights)."""
    writes.reading()
    return _show(visible(match_id), viewer=False)


@bp.get("/matches/<match_id>/every-hand")
@limit_reads
def show_every(match_id: str) -> Response:
    """The match page with a row for every hand of a long match (read-only without scorer
    rights, as for a phone that opened the match through its viewer link)."""
    writes.reading()
    return _show(visible(match_id), viewer=False, every=True)


@bp.get("/matches/<match_id>/chart.json")
@limit_reads
def chart_data(match_id: str) -> Response:
    """The stored hands the match page's chart is drawn from (running totals and calls),
    for the phone's copy of the core to draw it again with the hands waiting on the phone
    (docs/OFFLINE_CORE.md). Kept by the service worker with the match page, never part of
    the page's first load; empty for a game without a chart."""
    writes.reading()
    match = visible(match_id)
    found = chart.chart_inputs(_page(match)) if match.game.variant.scored else {}
    response = make_response(found)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/matches/<match_id>/board")
@limit_reads
def board(match_id: str) -> str:
    """A big-screen scoreboard for a TV or laptop; it refreshes itself after every change."""
    match = visible(match_id)
    page = _page(match)
    return render_template("matches/board.html", page=page, sides=page.sides,
                           follow=_follow(match, False))


@bp.get("/matches/<match_id>/revision")
def revision(match_id: str) -> dict[str, int]:
    """How many times the match changed: live views poll this and reload when it moves."""
    match = visible(match_id)
    return {"revision": match.revision, "hands": match.hand_count}


@bp.post("/matches/<match_id>/rematch")
@limit_writes
@limit_creation
def rematch(match_id: str) -> Response:
    """Same players, same seats, same length, same table."""
    match = visible(match_id)
    access.require_scorer(match)
    try:
        director.keep_rules(match)
    except director.Refused as exc:
        abort(422, f"{exc.message} ({exc.rule})")
    try:
        new_match = creation.rematch(match)
    except writes.Conflict:
        abort(404, gettext("Another phone deleted this match meanwhile, so no rematch was "
                           "started."))
    return redirect(url_for("matches.show", match_id=new_match.key), code=303)
