"""The match page's regions that change with its hands, drawn as HTML once: by the server's
page (templates/matches/show.html, seigneur.html) and by the phone's core with hands
waiting to be sent (answers.waiting), which swaps the page's regions of the same name
(`data-region`, static/js/core-client.js). The totals, the line with the hands played and
who shuffles next, the end of the match or the next hand's buttons, the chart, and Grand
Seigneur's seating, pushes and records. Pure (tests/test_purity.py).

>>> from tichu_scorer.game.variants import NANKING
>>> from tichu_scorer.scoring.games import game_of
>>> board = Board(game_of(NANKING), ("Ann", "Bob", "Cy", "Di"), (225, 75), 2, target=1000)
>>> "2 hands played" in meta(board, next_shuffler=1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

from markupsafe import Markup, escape

from ..game.i18n import _, ngettext
from ..game.variants import Side
from ..scoring import seigneur
from ..scoring.games import Game
from .progression import Chart


@dataclass(frozen=True)
class Board:
    """Where a match stands: what its regions show (the stored match's, or the phone's
    with its waiting hands counted)."""

    game: Game
    names: tuple[str, ...]
    totals: tuple[int, ...]
    hand_count: int
    hand_limit: int | None = None
    target: int | None = None
    finished: bool = False
    winner: int | None = None
    victory: tuple[int, ...] = ()  # [R4]
    tied_at: int | None = None  # [E2]: tied at the top at or above the target, play goes on

    @property
    def sides(self) -> list[Side]:
        return list(self.game.variant.sides(self.names))

    def total(self, side: Side) -> int:
        return self.totals[side.index] if side.index < len(self.totals) else 0


def side_name(side: Side, style: str = "team") -> Markup:
    """How a side is named on a page (templates/_macros/sides.html): a team by its letter
    ("team"), its badge and players ("players"); a player by name; the dummy as such."""
    if side.is_team:
        if style == "players":
            return Markup('<span class="tag">%s</span> %s') % (side.label,
                                                                " & ".join(side.names))
        return escape(_("Team %(team)s") % {"team": side.label})
    return escape(_("Dummy") if side.is_dummy else side.label)


def _said(message: str, **values: object) -> Markup:
    """A translated sentence with its values escaped, as a template's `_()` puts it."""
    return Markup(message) % values  # nosec B704: the catalog's sentence; % escapes the values


def totals(board: Board, provisional: bool = False) -> Markup:
    """Each side's total (and [R4] victory points), the winner's marked; `provisional`:
    counted on the phone with hands waiting."""
    mark = " provisional" if provisional else ""
    out = []
    for side in board.sides:
        won = " won" if board.finished and board.winner == side.index else ""
        victory = ""
        if board.victory:
            n = board.victory[side.index]
            said = ngettext("%(num)d victory point", "%(num)d victory points", n) % {"num": n}
            victory = (f'\n    <span class="who{mark}" data-victory="{side.index}">'
                       f'{escape(said)}</span>')
        out.append(f'\n  <div class="total {side.css}{won}">\n    <span class="who">'
                   f'{side_name(side, "players")}</span>\n    <strong class="big-score{mark}" '
                   f'data-total="{side.index}">{board.total(side)}</strong>{victory}\n  </div>')
    return Markup("".join(out) + "\n")  # nosec B704: every value above is escaped


def meta(board: Board, next_shuffler: int | None) -> Markup:
    """The game, the hands played (of a fixed length's), and who shuffles next."""
    n = board.hand_count
    if board.hand_limit:
        played = ngettext("%(played)s of %(num)d hand", "%(played)s of %(num)d hands",
                          board.hand_limit) % {"played": n, "num": board.hand_limit}
    else:
        played = (_("to %(target)s") % {"target": board.target} + " · " + ngettext(
            "%(num)d hand played", "%(num)d hands played", n) % {"num": n})
    out = escape(_(board.game.variant.title)) + Markup(" · ") + escape(played)
    if board.finished:
        return out
    if next_shuffler is None:
        said = escape(_("Anyone may shuffle"))
    else:
        name = Markup("<strong>%s</strong>") % board.names[next_shuffler]
        said = _said(_("%(name)s shuffles and plays the dummy this hand")
                     if board.game.plays_dummy(next_shuffler)
                     else _("%(name)s shuffles next"), name=name)
    return out + Markup(' ·\n  <span class="shuffler">%s</span>') % said


def outcome(board: Board, hand_url: str | None, rules_url: str, action: Markup) -> Markup:
    """A tie at the target ([E2]); the end of the match with its winner, then `action`
    (the server's Rematch, the phone's note); before it, for a scorer (`hand_url`: the
    hand form's), the next hand's buttons: who went out first."""
    out = Markup("")
    if board.tied_at is not None and not board.finished:
        out += Markup('<p class="banner tie" role="status">%s <a class="rule" href="%s#E2">'
                      'E2</a></p>\n') % (_("Tied at %(total)s at the top: play goes on until "
                                           "one side leads alone at or above %(target)s.") % {
                                               "total": board.tied_at, "target": board.target},
                                         rules_url)
    if board.finished:
        return out + Markup('<section class="banner" role="status">\n  %s%s\n  %s\n'
                            '</section>\n') % (_winner(board), _ranking(board), action)
    if hand_url is None:
        return out
    return out + first_out(board, hand_url)


def back_to_tournament(url: str) -> Markup:
    """A tournament table's action at its end ([TN4]: no rematch): back to its tournament."""
    return Markup('\n  <a class="button primary big" href="%s" data-tournament>%s</a>\n  ') % (
        url, _("Back to the tournament"))


def _winner(board: Board) -> Markup:
    sides = board.sides
    if board.winner is None:
        return Markup("<h2>%s</h2>") % _("Tied at the top!")
    side = sides[board.winner]
    if not side.is_team:
        return _said("<h2>" + _("%(who)s wins!") + "</h2>", who=side_name(side))
    head = Markup("<h2>%s</h2>\n  ") % (_("Team %(team)s wins!") % {"team": side.label})
    other = 1 - board.winner
    values = {"names": " & ".join(side.names), "num": board.hand_count,
              "a": board.totals[board.winner], "b": board.totals[other]}
    if board.victory:
        said = ngettext("%(names)s won %(v)s to %(w)s victory points (%(a)s to %(b)s points) "
                        "after %(num)d hand.", "%(names)s won %(v)s to %(w)s victory points "
                        "(%(a)s to %(b)s points) after %(num)d hands.", board.hand_count) % (
                            values | {"v": board.victory[board.winner],
                                      "w": board.victory[other]})
    else:
        said = ngettext("%(names)s won %(a)s to %(b)s after %(num)d hand.",
                        "%(names)s won %(a)s to %(b)s after %(num)d hands.",
                        board.hand_count) % values
    return head + Markup("<p>%s</p>") % said


def _ranking(board: Board) -> Markup:
    """[T3.5]: players' totals ranked at the end."""
    sides = board.sides
    if not sides or sides[0].is_team:
        return Markup("")
    ranked = sorted(sides, key=lambda s: -board.total(s))
    return Markup('\n  <ol class="ranking-list">%s</ol>') % Markup("").join(
        Markup("<li>%s: %s</li>") % (side_name(s), board.total(s)) for s in ranked)


def first_out(board: Board, hand_url: str) -> Markup:
    """The match page's one main action: tap who went out first of the next hand."""
    variant, names, number = board.game.variant, board.names, board.hand_count + 1
    buttons = []
    for seat, name in enumerate(names):
        tag = variant.seat_tag(seat)
        badge = Markup('<span class="tag">%s</span> ') % tag[0] if tag else ""
        buttons.append(Markup('\n    <a class="button first-btn%s" href="%s#first=%s">%s'
                              '<span class="who">%s</span></a>') % (
            f" team-{tag[0].lower()}" if tag else "", hand_url, seat, badge,
            _("Dummy") if seat == variant.dummy_seat else name))
    return Markup(
        '<section class="first-out" aria-labelledby="first-out-title">\n  <h2 id="first-out-'
        'title" data-next-hand="%s">%s</h2>\n  <div class="first-out-buttons%s">%s\n  </div>\n'
        '  <a class="button other-hand" data-next-hand="%s" href="%s">%s</a>\n</section>\n') % (
            number, _("Hand %(n)s: who went out first?") % {"n": number},
            " many" if len(names) > 6 else "", Markup("").join(buttons), number, hand_url,
            _("Add hand %(n)s") % {"n": number})


def chart_figure(chart: Chart | None, sides: Sequence[Side], scorer: bool,
                 provisional: bool = False) -> Markup:
    """The score progression as inline SVG: one line per side, the target dashed, calls
    marked; for a scorer without hands yet, an empty figure that hands scored on the phone
    are drawn into."""
    legend = Markup("").join(
        Markup('<span class="legend-item side-%s %s">%s</span>') % (k, side.css,
                                                                      side_name(side))
        for k, side in enumerate(sides))
    markers = Markup('<span class="legend-item">%s</span>') % _("● made ✕ failed")
    if chart is None:
        if not (scorer and sides):
            return Markup("")
        return Markup('<figure class="chart" hidden><figcaption>%s%s</figcaption></figure>'
                      ) % (legend, markers)
    g, right = chart, chart.width - 28
    title = escape(_("Score progression"))
    desc = escape(_("Running totals after each hand; circles mark calls made, crosses calls "
                    "failed."))
    parts = [f'<figure class="chart{" provisional" if provisional else ""}">\n  <svg viewBox='
             f'"0 0 {g.width} {g.height}" role="img" aria-labelledby="chart-title chart-desc">'
             f'\n    <title id="chart-title">{title}</title>\n    '
             f'<desc id="chart-desc">{desc}</desc>\n    ']
    for y, v in g.y_labels:
        parts.append(f'<line class="grid" x1="{g.left}" x2="{right}" y1="{y}" y2="{y}"/><text '
                     f'class="axis" x="{g.left - 4}" y="{y + 3}" text-anchor="end">{v}</text>')
    parts.append("\n    ")
    for x, i in g.x_labels:
        parts.append(f'<text class="axis" x="{x}" y="{g.height - 10}" text-anchor="middle">'
                     f"{i}</text>")
    parts.append(f'\n    <line class="zero" x1="{g.left}" x2="{right}" y1="{g.zero_y}" '
                 f'y2="{g.zero_y}"/>\n    ')
    if g.target_y is not None:
        parts.append(f'<line class="target" x1="{g.left}" x2="{right}" y1="{g.target_y}" '
                     f'y2="{g.target_y}"/>')
    parts.append("\n    ")
    for k, (css, d) in enumerate(g.paths):
        parts.append(f'<path class="line {css} side-{k}" d="{d}"/>')
    parts.append("\n    ")
    for m in g.markers:
        label = escape(m.label)
        parts.append(f'<circle class="call made" cx="{m.x}" cy="{m.y}" r="5"><title>{label}'
                     f'</title></circle>' if m.made else
                     f'<path class="call failed" d="M{m.corner}l8 8m-8 0 8-8"><title>{label}'
                     f'</title></path>')
    parts.append(f'\n  </svg>\n  <figcaption>{legend}{markers if g.markers else ""}'
                 '</figcaption>\n</figure>')
    return Markup("".join(parts))  # nosec B704: every value above is escaped or a number


# Grand Seigneur ([GS4], [GS5], [GS7])

def played(hand_count: int) -> str:
    return ngettext("%(num)d hand played", "%(num)d hands played", hand_count) % {
        "num": hand_count}


def seating(names: Sequence[str], last: Sequence[int] | None, hand_count: int,
            scorer: bool) -> Markup:
    """The next hand's seating by title and the pushes before it, after the last hand's
    finishing order (`last`, seats); without one, what the page says instead."""
    out = Markup("")
    if last or scorer:
        titles = Markup("").join(Markup("<li><strong>%s</strong>: %s</li>") % (
            _(title), names[seat]) for title, seat in zip(
                seigneur.titles(len(last)), last, strict=True)) if last else Markup("")
        pushes = Markup("").join(Markup("\n    <li>%s</li>") % _push(names, p)
                                 for p in seigneur.pushes(last)) if last else Markup("")
        out += Markup(
            '<section class="card stack" aria-labelledby="seating"%s>\n  <h2 id="seating">%s'
            '</h2>\n  <p class="hint">%s</p>\n  <ol class="ranking-list seating">\n    %s\n  '
            '</ol>\n  <h2>%s</h2>\n  <ul class="pushes">%s\n  </ul>\n  <p class="hint">%s</p>'
            '\n</section>\n') % (
                Markup("") if last else Markup(" hidden"),
                _("Seating for hand %(n)s") % {"n": hand_count + 1},
                _("The Great Lord at the head of the table, the others to his left by rank; "
                  "the Wretch collects, shuffles and deals (GS6)."), titles,
                _("Before play: the push (GS5)"), pushes,
                _("Card strength: Dragon > Phoenix > Mah Jong > A > … > 2."))
    if not last:
        out += Markup('<p class="empty">%s</p>\n') % (
            _("The first hand is played without pushing (GS4). Record the finishing order "
              "after it.") if scorer else
            _("No hands yet: they show here as soon as the first one is entered."))
    return out


def _push(names: Sequence[str], p: seigneur.Push) -> Markup:
    """[GS5]'s sentence, the two names in bold wherever the language puts them."""
    return _said(ngettext(
        "%(giver)s (%(gt)s) pushes %(num)d best card to %(receiver)s (%(rt)s), who pushes "
        "%(num)d card of their choice back.",
        "%(giver)s (%(gt)s) pushes %(num)d best cards to %(receiver)s (%(rt)s), who "
        "pushes %(num)d cards of their choice back.", p.cards), num=p.cards,
        giver=Markup("<strong>%s</strong>") % names[p.giver], gt=_(p.giver_title),
        receiver=Markup("<strong>%s</strong>") % names[p.receiver], rt=_(p.receiver_title))


def two_places(value: float, sign: str = ".") -> str:
    """As Babel's `decimalformat('0.00')` rounds it (half to even, from the float's
    shortest text), with the reader's decimal sign."""
    return str(Decimal(str(value)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)).replace(
        ".", sign)


def records(names: Sequence[str], orders: Sequence[Sequence[int]], scorer: bool,
            sign: str = ".") -> Markup:
    """[GS7]: each player's hands as Great Lord, longest reign and average rank, most
    Great Lord first, after the hands' finishing orders (`orders`)."""
    if not orders and not scorer:
        return Markup("")
    stats = sorted(seigneur.records(orders, len(names)),
                   key=lambda r: (-r.great_lord, r.average_rank or 99))
    rows = Markup("").join(Markup(
        '\n    <tr><th scope="row">%s</th><td class="num">%s×</td><td class="num">%s</td>'
        '<td class="num">%s</td></tr>') % (names[r.seat], r.great_lord, r.longest_reign,
                                           two_places(r.average_rank, sign))
        for r in stats) if orders else Markup("")
    return Markup(
        '<table class="hands records"%s>\n  <caption>%s</caption>\n  <thead><tr><th scope='
        '"col">%s</th><th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th>'
        '</tr></thead>\n  <tbody>%s\n  </tbody>\n</table>\n') % (
            Markup("") if orders else Markup(" hidden"), _("Players"), _("Player"),
            _("Great Lord"), _("Longest reign"), _("Average rank"), rows)
