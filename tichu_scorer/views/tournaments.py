"""Tournaments ([TN1]–[TN5]): a director starts one, draws each round, handles late
arrivals and drop-outs, reopens a table of a closed round; each round's tables are matches
scored on their own phones; the standing is shown on a live board and exported
(`tournaments.director`, `drawing`, `stored`); what differs between formats, the pages ask
the tournament's format (`tournaments.formats`)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import public
from ..engine.budget import Budget, OutOfTime
from ..extensions import db
from ..limits import limit_creation, limit_exports, limit_reads, limit_writes
from ..live import poll
from ..matches import closing, writes
from ..models import NAME_MAX, Tournament, TournamentRound
from ..tables import access
from ..tournaments import director, drawing, formats, standings, stored
from ..tournaments.forms import ARRIVAL_MAX, ArrivalForm, ReopenForm, TournamentForm
from . import fair
from .downloads import ranking_file
from .sharing import qr_svg

bp = Blueprint("tournaments", __name__)


def _tournament(key: str, role: str = "member") -> Tournament:
    tournament = director.by_key(key)
    if tournament is None:
        abort(404)
    access.require_group(tournament.group, role)
    return tournament


@bp.route("/tournaments/new", methods=["GET", "POST"])
@limit_writes
@limit_creation
def new() -> str | Response | tuple[str, int]:
    """A new tournament: its format, rounds and hands, and its players or pairs."""
    form = TournamentForm()
    refused: director.Refused | None = None
    if form.validate_on_submit():
        fmt = formats.named(form.kind.data, form.pairing.data)
        try:
            tournament = director.create(
                form.name.data, fmt, fmt.read_entries(form.entries.data), form.rounds.data,
                form.hands.data, seed=secrets.randbelow(1_000_000),
                knockout=int(form.knockout.data or 0))
        except director.Refused as exc:
            refused = exc
        else:
            access.join(tournament.group, "scorer")
            return redirect(url_for("tournaments.show", key=tournament.key), code=303)
    status = 422 if form.is_submitted() else 200
    return render_template("tournaments/new.html", form=form, refused=refused), status


@dataclass
class ShownTable:
    """A round's table on the page: as stored, as the standing reads it, and (the
    director's page, asked for) its score code's QR."""

    match: stored.Seated
    table: standings.Table
    qr: Markup | None = None


def _rounds(tournament: Tournament, latest: bool = False
            ) -> tuple[list[dict[str, Any]], list[standings.Round]]:
    """Each round drawn, newest first (`latest`: only the newest), with its stage and its
    tables as the page shows them; and the rounds as the standing reads them."""
    found = stored.drawn(tournament)
    shown = [{"round": d.row, "stage": d.stage,
              "tables": [ShownTable(seated, table) for seated, table in d.tables],
              "playing": [table.board for _seated, table in d.tables if not table.over]}
             for d in reversed(found)]
    return (shown[:1] if latest else shown), [d.counted for d in found]


def _closing(tournament: Tournament, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """[TN5] on the page: the rounds drawn before a correction of a closed round
    (`drawn_before`: by round, the corrected tables), those corrections (`late`), the tables
    reopened now (`reopened`) and those the director may reopen (`closed`), from the
    rounds as `_rounds` shows them (newest first)."""
    found = closing.reopenings(tournament.id)
    latest = rounds[0]["round"].number if rounds else 0
    reopened = {r.match_key: r for r in found if r.latest == latest}
    closed = [(t.match.key, r["round"].number, t.table.board) for r in reversed(rounds)
              if r["round"].number < latest for t in r["tables"]
              if t.match.key not in reopened]
    return {"drawn_before": closing.drawn_before(found),
            "late": [r for r in found if r.changed], "reopened": reopened,
            "closed": closed, "reason_max": closing.REASON_MAX}


@bp.get("/tournaments/<key>")
@limit_reads
def show(key: str) -> str:
    """The director's page: the round being played with its tables (seats, progress, the
    code and QR of each table), the next draw, the entries, and the standing."""
    tournament = _tournament(key)
    fmt = formats.of(tournament)
    scorer = access.role_in(tournament.group) == "scorer"
    rounds, counted = _rounds(tournament)
    number = len(tournament.played) + 1
    last = fmt.rounds_in(tournament.rounds, tournament.knockout)
    ready = number <= last and not (rounds and rounds[0]["playing"])
    qr = request.args.get("qr")
    for rnd in rounds[:1]:
        for table in rnd["tables"]:
            link = public.link("matches.join", code=table.match.code)
            table.qr = qr_svg(link) if scorer and qr else None
    return render_template(
        "tournaments/show.html", tournament=tournament, fmt=fmt, scorer=scorer, rounds=rounds,
        number=number, next_stage=fmt.draws(number, tournament.rounds), ready=ready,
        last=last, lines=stored.table_standing(tournament, rounds=counted),
        arrival=ArrivalForm(), arrival_max=ARRIVAL_MAX, live=poll.tables([tournament.group.key]),
        corrections=stored.corrections(tournament),
        knockout_changed=formats.knockout_changed(counted),
        shown=standings.shown, show_qr=bool(qr), **_closing(tournament, rounds))


@bp.post("/tournaments/<key>/draw")
@limit_writes
def draw(key: str) -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Draw the next round ([TN1]–[TN4]); the number asked guards against a second tap."""
    tournament = _tournament(key, "scorer")
    number = request.form.get("round", type=int) or 0
    rated = fair.asked(tournament)  # the partners drawn fair, when the director asks
    try:
        rnd = drawing.draw_round(tournament, number,
                                 Budget(current_app.config["DRAW_CPU_BUDGET"]).check, rated)
    except director.Refused as exc:
        return _refused(tournament, exc)
    except OutOfTime as exc:  # as the API's draw: a second line of defence, nothing stored
        current_app.logger.warning("Draw over its %g s CPU budget", exc.seconds)
        page, status = _refused(tournament, director.Refused("round", "", gettext(
            "Drawing took too long and stopped. Try again in a moment.")), 503)
        return page, status, {"Retry-After": "5"}
    for unmet in rnd.unmet:
        flash(f"{unmet['message']} ({unmet['rule']})")
    if rated is not None:
        flash(fair.told(rnd, rated))
    return redirect(url_for("tournaments.show", key=tournament.key), code=303)


@bp.post("/tournaments/<key>/reopen")
@limit_writes
def reopen(key: str) -> Response | tuple[str, int]:
    """[TN5]: reopen one table of a closed round, giving a reason (logged at the table)."""
    tournament = _tournament(key, "scorer")
    form = ReopenForm()
    if not form.validate_on_submit():
        return _refused(tournament, director.Refused("table", "TN5", gettext(
            "Choose the table to reopen, and give the reason.")))
    try:
        number, board = director.reopen(tournament, form.table.data, form.reason.data or "")
    except director.Refused as exc:
        return _refused(tournament, exc)
    flash(gettext("Table %(board)d of round %(number)d is reopened: its hands may be "
                  "corrected until the next round is drawn.", board=board, number=number))
    return redirect(url_for("tournaments.show", key=tournament.key), code=303)


def _refused(tournament: Tournament, exc: director.Refused,
             status: int = 422) -> tuple[str, int]:
    return render_template("tournaments/refused.html", tournament=tournament,
                           refused=exc), status


@bp.post("/tournaments/<key>/entries")
@limit_writes
def arrive(key: str) -> Response | tuple[str, int]:
    """A late arrival: plays from the next round drawn."""
    tournament = _tournament(key, "scorer")
    form = ArrivalForm()
    if not form.validate_on_submit():
        exc = director.Refused("name", "TN1", gettext("Enter the name of who arrives."))
        if form.name.data and form.name.data.strip():  # a line too long
            exc = director.Refused("name", "TN1", gettext(
                "Each name has 1 to %(most)d characters.", most=NAME_MAX))
        return _refused(tournament, exc)
    try:
        row = director.arrive(tournament, formats.of(tournament).read_entry(form.name.data))
    except director.Refused as exc:
        return _refused(tournament, exc)
    flash(gettext("%(name)s plays from round %(number)d.", name=row.name, number=row.joined))
    return redirect(url_for("tournaments.show", key=tournament.key), code=303)


@bp.post("/tournaments/<key>/entries/<int:entry_id>/<any(leave, back):what>")
@limit_writes
def entry(key: str, entry_id: int, what: str) -> Response | tuple[str, int]:
    """A drop-out (plays no round drawn from now on), or one who comes back."""
    tournament = _tournament(key, "scorer")
    try:
        row = director.leave(tournament, entry_id, leaving=what == "leave")
    except director.Refused as exc:
        return _refused(tournament, exc)
    if what == "leave":
        flash(gettext("%(name)s plays no more rounds.", name=row.name))
    return redirect(url_for("tournaments.show", key=tournament.key), code=303)


@bp.get("/matches/<match_id>/tournament")
def of_match(match_id: str) -> Response:
    """From a table's match to its tournament, at its round."""
    match = access.require_view(writes.match_by_key(match_id))
    tournament = director.match_tournament(match)
    if tournament is None:
        abort(404)
    rnd = db.session.get(TournamentRound, match.tournament_round_id)
    return redirect(url_for("tournaments.show", key=tournament.key,
                            _anchor=f"round-{rnd.number if rnd else ''}"), code=303)


@bp.get("/tournaments/<key>/board")
@limit_reads
def board(key: str) -> str:
    """The standing for a big screen, live: it changes as the tables save their hands."""
    return board_page(_tournament(key))


def board_page(tournament: Tournament, watching: bool = False) -> str:
    """The board of `tournament`; `watching`: on a screen opened by the table's watch code
    (`views.watch`), which links to nothing it may not open."""
    rounds, counted = _rounds(tournament, latest=True)
    return render_template("tournaments/board.html", tournament=tournament,
                           fmt=formats.of(tournament),
                           lines=stored.table_standing(tournament, rounds=counted),
                           rounds=rounds, watching=watching,
                           live=poll.tables([tournament.group.key]), shown=standings.shown,
                           **_closing(tournament, rounds))


@bp.get("/tournaments/<key>/standing.<any(csv, json):kind>")
@limit_exports
def export(key: str, kind: str) -> Response:
    """The ranking (and each round's tables, in JSON), to keep or publish."""
    tournament = _tournament(key)
    fmt = formats.of(tournament)
    rows = [line.as_dict() for line in stored.table_standing(tournament)]
    return ranking_file(kind, f"tournament-{tournament.key}", fmt.columns, rows, lambda: {
        "tournament": {"name": tournament.name, "format": fmt.kind,
                       "rounds": tournament.rounds, "hands": tournament.hands},
        "standing": rows,
        "rounds": [{"number": r.number, "byes": list(r.byes), "tables": [
            {"board": t.board, "sides": [list(s) for s in t.sides],
             "victory_points": list(t.victory), "points": list(t.points),
             "hands": t.hands, "over": t.over} for t in r.tables]}
            for r in stored.rounds_of(tournament)]})
