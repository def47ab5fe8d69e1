"""A player's page (`/players/<key>`): what they played and won over a period, with each
partner and against each opponent, their calls and their rating's line (the reads:
`players.page`). Seen, as everything of a table, only by the devices that joined the
player's table; others get a 404.

Every name the app shows links here through the template global `player_url(name, group)`:
the player of that name at `group` (a table's pages), or, without a group, at the tables
this device joined, the most recently created first (the statistics and ratings add a name
up across tables; its link opens the player of the newest table)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..clock import utcnow
from ..core.progression import relative_path
from ..extensions import db
from ..game.variants import Variant
from ..limits import limit_reads
from ..models import NAME_MAX, Group, Player
from ..players import page as reads
from ..ratings import START, PlayerRating, shown
from ..tables import access
from ..tables.evening_reads import TONIGHT
from .ratings import rated

bp = Blueprint("player_page", __name__)
PERIODS = ("tonight", "month", "year", "all")
LINE_W, LINE_H, LINE_PAD = 320, 96, 4  # the rating's line (viewBox units)


def since(period: str) -> datetime | None:
    """Where a period starts (UTC): the last 12 hours (as /stats), the first of this month,
    the first of this year, or None (all)."""
    now = utcnow()
    if period == "tonight":
        return now - TONIGHT
    start = now.replace(hour=0, minute=0, second=0, microsecond=0, day=1)
    if period == "month":
        return start
    if period == "year":
        return start.replace(month=1)
    return None


@dataclass(frozen=True)
class RatingLine:
    """A player's rating in one variant and its line: the path, the lowest and the highest
    value drawn."""

    variant: Variant
    rating: PlayerRating
    path: str
    low: float
    high: float


def rating_lines(group: Group, player: Player) -> list[RatingLine]:
    """The player's rating and its history per variant, from the table's ratings (kept
    per app process until a match of the table changes: `views.ratings.rated`)."""
    out = []
    for found in rated([group])[0]:
        rating = next((p for p in found.players if p.name == player.name), None)
        if rating is None:
            continue
        values = [shown(START), *(shown(v) for _n, v in rating.history)]
        low, high = min(values), max(values)
        out.append(RatingLine(found.variant, rating, line(values, low, high), low, high))
    return out


def line(values: Sequence[float], low: float, high: float) -> str:
    """The values, in order, as an SVG path across the chart: at most one point per two
    units of its width (a player of 5,000 matches: 160 points, evenly spaced, the first and
    the last among them)."""
    most = LINE_W // 2
    if len(values) > most:
        values = [values[round(i * (len(values) - 1) / (most - 1))] for i in range(most)]
    span = max(high - low, 1.0)
    steps = max(len(values) - 1, 1)
    points = [(LINE_PAD + (LINE_W - 2 * LINE_PAD) * i / steps,
               LINE_H - LINE_PAD - (LINE_H - 2 * LINE_PAD) * (v - low) / span)
              for i, v in enumerate(values)]
    return relative_path(points)


@bp.get("/players/<key>")
@limit_reads
def show(key: str) -> str:
    """The player's page over a period (?period=tonight, month, year; all by default; an
    unknown one is all)."""
    player = db.session.execute(
        db.select(Player).filter_by(key=key[:32])).scalar_one_or_none()
    if player is None:
        abort(404)
    group = access.require_group(db.session.get(Group, player.group_id))
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    return render_template(
        "players/page.html", player=player, group=group, period=period,
        figures=reads.figures(player, since(period)), ratings=rating_lines(group, player),
        latest=reads.latest(player, since(period)),
        width=LINE_W, height=LINE_H)


@bp.get("/tables/<key>/players/<path:name>")
@limit_reads
def named(key: str, name: str) -> Response:
    """The page of the table's player of that name (the match page links its players so,
    its table's key and the names being on the page already: the links cost it a few
    bytes, where a player's own key would cost each one its random characters)."""
    group = access.require_group(db.session.execute(
        db.select(Group).filter_by(key=key[:24])).scalar_one_or_none())
    player_key = _keys(group).get(Player.key_of(name[:NAME_MAX]))
    if player_key is None:
        abort(404)
    return redirect(url_for("player_page.show", key=player_key), 303)


def _keys(group: Group | None) -> dict[str, str]:
    """Name key -> player key, of `group` or of the device's tables (the newest first),
    read once per request."""
    kept: dict[int | None, dict[str, str]] = g.setdefault("player_keys", {})
    wanted = None if group is None else group.id
    if wanted not in kept:
        groups = [group] if group is not None else access.groups()
        found: dict[str, str] = {}
        if groups:
            order = {gr.id: i for i, gr in enumerate(groups)}
            rows = db.session.execute(db.select(Player.group_id, Player.name_key, Player.key)
                                      .where(Player.group_id.in_(list(order)))).all()
            for _group, name_key, player_key in sorted(rows, key=lambda r: order[r[0]]):
                found.setdefault(name_key, player_key)
        kept[wanted] = found
    return kept[wanted]


@bp.app_template_global()
def player_url(name: str, group: Group | None = None) -> str | None:
    """The page of the player of that name (at `group`, or at this device's tables); None
    when there is none (the Threechu dummy, a name of a table not joined)."""
    key = _keys(group).get(Player.key_of(name))
    return url_for("player_page.show", key=key) if key else None
