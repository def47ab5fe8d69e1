"""The three results to share, read from the database in the reader's language: a match's
final sheet (its totals, victory points and winner), an evening at a table (tonight's
players, as the Tonight page adds them up) and a tournament's standing."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flask_babel import format_date, gettext, ngettext

from ..clock import utcnow
from ..matches.match_view import match_page
from ..models import Group, Match, Tournament
from ..tables import evening_reads
from ..tournaments import formats, standings, stored
from .sheet import Result


def of_match(match: Match) -> Result:
    """A match's sheet: a row per side (team and partners, or player) with its total and
    victory points; Grand Seigneur: a row per player with the hands as Great Lord."""
    page = match_page(match)
    meta = [gettext(match.game.variant.title), format_date(match.started_at, "medium")]
    if match.target:
        meta.append(gettext("to %(target)s", target=match.target))
    meta.append(ngettext("%(num)d hand", "%(num)d hands", match.hand_count))
    rows: list[tuple[str, ...]] = []
    marked: list[int] = []
    victory = list(match.victory or ())
    if page.sides:
        head: tuple[str, ...] = ("", gettext("Points"))
        if victory:
            head += (gettext("VP"),)
        for total in page.sides:
            side = total.side
            if side.is_team:
                name = f"{gettext('Team %(team)s', team=side.label)}: {' & '.join(side.names)}"
            elif side.is_dummy:
                name = gettext("Dummy")
            else:
                name = side.label
            row: tuple[str, ...] = (name, str(total.total))
            if victory:
                row += (str(victory[side.index]) if side.index < len(victory) else "",)
            if total.won:
                marked.append(len(rows))
            rows.append(row)
        won = next((t for t in page.sides if t.won), None)
        winner = rows[page.sides.index(won)][0] if won is not None else None
    else:  # Grand Seigneur: no totals, the players' records
        head = (gettext("Player"), gettext("Great Lord"))
        rows = [(name, str(record.great_lord)) for name, record in page.records]
        winner = rows[0][0] if rows and match.finished else None
        marked = [0] if winner else []
    if not match.finished:
        verdict = gettext("Still being played.")
    elif winner is None:
        verdict = gettext("A tie.")
    else:
        verdict = gettext("Won: %(name)s", name=winner)
    return Result(match.group.name, " · ".join(meta), head, tuple(rows), tuple(marked),
                  verdict, f"tichu-match-{match.key}")


def of_evening(group: Group) -> Result:
    """Tonight at a table: each player's matches, wins and points of the last 12 hours, best
    first, as the Tonight page ranks them."""
    evening = evening_reads.tonight(group)
    ranked = evening.standing.ranked_players()
    rows = tuple((name, str(line.matches), str(line.won), str(line.points))
                 for name, line in ranked)
    top = ranked[0][1] if ranked and ranked[0][1].won else None
    marked = tuple(i for i, (_name, line) in enumerate(ranked)  # the best, and their equals
                   if top and (line.won, line.points) == (top.won, top.points))
    verdict = ngettext("%(num)d match tonight.", "%(num)d matches tonight.", len(evening.matches))
    if marked:
        best = ", ".join(ranked[i][0] for i in marked)
        verdict = gettext("Best tonight: %(names)s.", names=best) + " " + verdict
    return Result(gettext("Tonight at %(table)s", table=group.name),
                  format_date(utcnow(), "full"),
                  (gettext("Player"), gettext("Played"), gettext("Won"), gettext("Points")),
                  rows, marked, verdict, f"tichu-tonight-{group.key}")


def of_tournament(tournament: Tournament) -> Result:
    """A tournament's standing: place, entry, (match points,) victory points, points,
    tables played; its winner once every round is over."""
    fmt = formats.of(tournament)
    rounds = stored.rounds_of(tournament)
    lines = stored.table_standing(tournament, rounds=rounds)
    head: tuple[str, ...] = (gettext(fmt.entry_label),)  # the names' column, with places
    if fmt.match_points:
        head += (gettext("MP"),)
    head += (gettext("VP"), gettext("Points"), gettext("Played"))
    rows = []
    for line in lines:
        row: tuple[str, ...] = (f"{line.place}. {line.name}",)
        if fmt.match_points:
            row += (str(line.match_points),)
        rows.append(row + (_number(line.victory), _number(line.points), str(line.played)))
    last = fmt.rounds_in(tournament.rounds, tournament.knockout)
    over = bool(rounds) and len(rounds) >= last and all(r.complete for r in rounds)
    winners = [line.name for line in lines if line.place == 1]
    if over and winners:
        verdict = gettext("Won: %(name)s", name=", ".join(winners))
    else:
        verdict = _where(rounds, last)
    marked = tuple(i for i, line in enumerate(lines) if over and line.place == 1)
    return Result(tournament.name, gettext(fmt.title) + " · "
                  + format_date(tournament.created_at, "medium"), head, tuple(rows), marked,
                  verdict, f"tichu-tournament-{tournament.key}")


def _where(rounds: Sequence[standings.Round], last: int) -> str:
    """How far a tournament not yet over is: no round drawn; the first drawn, no hand in;
    a round in play (its hands are in the standing already); or a round complete
    (`[TN4]`), the next not begun."""
    if not rounds:
        return str(gettext("No round drawn yet."))
    current = rounds[-1]
    if current.complete:
        return str(gettext("Standing after round %(number)d of %(rounds)d.",
                           number=len(rounds), rounds=last))
    if not any(t.hands for t in current.tables):
        if len(rounds) == 1:
            return str(gettext("Standing before the first round."))
        if rounds[-2].complete:
            return str(gettext("Standing after round %(number)d of %(rounds)d.",
                               number=len(rounds) - 1, rounds=last))
    return str(gettext("Round %(number)d of %(rounds)d in play.", number=len(rounds),
                       rounds=last))


def _number(value: Fraction) -> str:
    """A standing's number as the page shows it (one decimal where a bye's average)."""
    return str(standings.shown(value))
