"""Ratings: each player's OpenSkill rating per variant over the finished matches of the
tables this phone joined (the statistics' scope), recomputed from the whole history whenever
one of those tables' rated matches changed; shown on the page's own scale (`ratings.shown`),
and read by the fair partnerships (`strengths`, `chances`; docs/FAIR_PARTNERSHIPS.md).

The recompute reads every rated match (about 2 s of CPU per 10,000 matches, reading and
rating; docs/PERFORMANCE.md), so its result is kept per app process under a
checksum of the tables' rated matches (count, sum of revisions, highest id, sum of stamps:
every new, changed, corrected or deleted rated match changes it), read in one query."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal
from flask import Blueprint, render_template, request
from flask_babel import get_locale
from sqlalchemy import func

from .. import fairness, ratings
from ..cache import LRU, lru
from ..extensions import db
from ..game.variants import VARIANTS, Variant
from ..limits import limit_reads
from ..matches.chart import relative_path
from ..models import Group, Hand, Match, MatchSeat, Player
from ..scoring.hand import HandInput
from ..scoring.state import MatchState, Settings
from ..tables import access

bp = Blueprint("ratings", __name__)
SPARK_W, SPARK_H, SPARK_PAD = 120, 32, 3  # a player's history: a small line, no axes
KEPT = 64  # rated scopes an app process keeps
CHANCES_MOST = 2000  # rated matches a new match's page rates afresh (~0.4 s) for its chances


@dataclass(frozen=True)
class VariantRatings:
    variant: Variant
    matches: int  # rated
    players: list[ratings.PlayerRating]


def outcomes(groups: Sequence[Group]) -> dict[str, list[ratings.Outcome | None]]:
    """Per variant, the rated outcome of each match of these tables, oldest first: a points
    match once it is over (won, or played out), a Grand Seigneur match (which has no end)
    with the hands played so far. Read as columns in three queries (the matches, their
    seats' names, Grand Seigneur's finishing orders), not as objects: loading 10,000
    matches through the match list's read (`listing.history`, each with its seats and
    players) took 6 s of CPU, this a fraction of it (docs/PERFORMANCE.md)."""
    ids = [g.id for g in groups]
    if not ids:
        return {}
    ranked = [v.key for v in VARIANTS.values() if v.ranked]
    mine = Match.group_id.in_(ids)
    rated = _rated(ids)
    rows = db.session.execute(db.select(
        Match.id, Match.key, Match.variant, Match.target, Match.hand_limit, Match.totals,
        Match.winner_team).where(rated).order_by(Match.started_at, Match.id)).all()
    names: dict[int, list[str]] = {}
    for match_id, name in db.session.execute(db.select(MatchSeat.match_id, Player.name)
            .join(Match, Match.id == MatchSeat.match_id)
            .outerjoin(Player, Player.id == MatchSeat.player_id)
            .where(rated).order_by(MatchSeat.match_id, MatchSeat.seat)):
        names.setdefault(match_id, []).append(name if name is not None else "Dummy")
    orders: dict[int, list[tuple[int, ...]]] = {}
    for match_id, order in db.session.execute(db.select(Hand.match_id, Hand.out_order)
            .join(Match, Match.id == Hand.match_id)
            .where(mine, Match.variant.in_(ranked), Hand.deleted_at.is_(None))
            .order_by(Hand.match_id, Hand.number)):
        orders.setdefault(match_id, []).append(tuple(order))
    out: dict[str, list[ratings.Outcome | None]] = {}
    for match_id, key, variant_key, target, hand_limit, totals, winner in rows:
        variant = VARIANTS.get(variant_key)
        if variant is None or match_id not in names:
            continue
        settings = Settings(variant, tuple(names[match_id]), target, hand_limit)
        if variant.ranked:
            # each hand's whole ranking, as the match state completes it ([GS1])
            found = orders.get(match_id)
            if not found:
                continue
            state = MatchState.of(settings, [HandInput(o, {}, (None, None)) for o in found])
            outcome = ratings.outcome_of_state(state, key)
        else:
            outcome = ratings.outcome_of(settings, totals or (), winner, (), key)
        out.setdefault(variant_key, []).append(outcome)
    return out


def _rated(ids: Sequence[int]) -> Any:
    """The matches of these tables that are rated: finished, or of Grand Seigneur."""
    ranked = [v.key for v in VARIANTS.values() if v.ranked]
    return Match.group_id.in_(ids) & (Match.finished_at.is_not(None)
                                      | Match.variant.in_(ranked))


def spark(history: Sequence[tuple[int, float]], low: float, high: float) -> str:
    """A player's ordinal after each of their matches as an SVG path, on a shared scale
    (`low`..`high`) so that two players' lines compare."""
    if not history:
        return ""
    span = max(high - low, 1.0)
    steps = max(len(history) - 1, 1)
    points = [(SPARK_PAD + (SPARK_W - 2 * SPARK_PAD) * i / steps,
               SPARK_H - SPARK_PAD - (SPARK_H - 2 * SPARK_PAD) * (v - low) / span)
              for i, (_n, v) in enumerate(history)]
    if len(points) == 1:
        points.append((SPARK_W - SPARK_PAD, points[0][1]))
    return relative_path(points)


Rated = tuple[list[VariantRatings], dict[str, dict[str, str]]]  # per variant; their charts


def checksum(groups: Sequence[Group]) -> tuple[Any, ...]:
    """A value that changes whenever a rated match of these tables (`_rated`) is added,
    changed (every change raises its revision and gives it a new stamp), deleted, or stops
    being rated (a correction that reopens it). A match begun, or its hands before it ends,
    leave it as it is: the ratings kept still answer the new match's page (`chances`)."""
    ids = sorted(g.id for g in groups)
    row = db.session.execute(db.select(
        func.count(Match.id), func.coalesce(func.sum(Match.revision), 0),
        func.coalesce(func.max(Match.id), 0), func.coalesce(func.sum(Match.stamp), 0))
        .where(_rated(ids))).one()
    return (tuple(ids), *row)


def rated(groups: Sequence[Group]) -> Rated:
    """Per variant, the players rated over these tables' history, and each one's history
    chart: recomputed when the tables' checksum changed (read before the matches, so a
    change that comes in meanwhile is in a result kept under the older checksum, which
    never comes back)."""
    kept: LRU[tuple[Any, ...], Rated] = lru("tichu_ratings", KEPT)
    key = checksum(groups) if groups else ()
    found = kept.get(key)
    if found is not None:
        return found
    read = outcomes(groups)
    variants = []
    for variant_key, variant in VARIANTS.items():
        players = ratings.rate(read.get(variant_key, []))
        if players:
            variants.append(VariantRatings(variant, sum(1 for o in read[variant_key] if o),
                                           players))
    charts = {}
    for v in variants:
        values = [value for p in v.players for _n, value in p.history] + [0.0]
        low, high = min(values), max(values)
        # each line starts where every player starts (an ordinal of 0)
        charts[v.variant.key] = {p.name: spark([(0, ratings.START), *p.history], low, high)
                                 for p in v.players}
    kept.put(key, (variants, charts))
    return variants, charts


def strengths(groups: Sequence[Group], variant: Variant) -> dict[str, tuple[float, float]]:
    """The players' mu and sigma in one variant over these tables (`fairness` reads them);
    empty when nobody is rated."""
    found = next((v for v in rated(groups)[0] if v.variant == variant), None)
    return ratings.strengths(found.players) if found is not None else {}


def chances(match: Match) -> list[tuple[Any, int]] | None:
    """A new match's two sides with each one's chance to win in percent, by its table's
    ratings in its variant (`fairness.chances`), while it has no hand; None for a game of
    more than two sides, once a hand is in, when no player of the match is rated yet, or
    when the table's ratings are not kept and rating them afresh would hold the page (more
    than `CHANCES_MOST` rated matches: the line is quiet, the page never waits for it). A
    match begun leaves the ratings' checksum as it was, so the ratings Tonight or the last
    match's end computed answer it."""
    variant = match.game.variant
    sides = [s for s in variant.sides(match.names) if not s.is_dummy]
    if match.hand_count or variant.ranked or len(sides) != 2 or match.group is None:
        return None
    groups = [match.group]
    key = checksum(groups)
    kept: LRU[tuple[Any, ...], Rated] = lru("tichu_ratings", KEPT)
    if key[1] > CHANCES_MOST and kept.get(key) is None:
        return None
    rated = strengths(groups, variant)
    if not any(fairness.key_of(n) in rated for s in sides for n in s.names):
        return None  # nobody here is rated: an even chance would be a guess, not a rating
    found = fairness.table([s.names for s in sides], rated)
    return list(zip(sides, found.percents, strict=True))


def number(value: float, signed: bool = False) -> str:
    """A rating's number as the page shows it: whole, grouped as the language writes
    numbers (1,000; 1.000), with one minus sign (U+2212) whatever the locale's, and a plus
    sign when `signed` (a change; ±0 for none)."""
    whole = round(value)
    if signed and whole == 0:
        return "±0"
    text = format_decimal(abs(whole), format="#,##0", locale=str(get_locale() or "en"))
    return ("\u2212" if whole < 0 else "+" if signed else "") + text


@bp.app_template_filter("rating_number")
def rating_number(value: float, signed: bool = False) -> str:
    return number(value, signed)


@bp.get("/stats/ratings")
@limit_reads
def index() -> str:
    """The ranked list per variant: rating (ordinal), mu ± sigma, matches, the change in
    the player's last match and a small chart of its history; over every table this phone
    joined (a name is one player across them), or over one (`?table=<key>`)."""
    tables = access.groups()
    chosen = next((g for g in tables if g.key == request.args.get("table")), None)
    variants, charts = rated([chosen] if chosen is not None else tables)
    return render_template("ratings/index.html", variants=variants, charts=charts,
                           width=SPARK_W, height=SPARK_H, tables=tables, chosen=chosen,
                           provisional=ratings.PROVISIONAL, start=ratings.SHOWN_START,
                           newcomer=ratings.PlayerRating("", ratings.model().mu,
                                                         ratings.model().sigma))
