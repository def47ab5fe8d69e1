"""The rows of a match page's hands tables, drawn once for the server's page and for the
phone's core (answers.waiting: the rows of the hands waiting to be sent). Written in
Python rather than with a template loop: a long match has hundreds of rows, and a loop in
Jinja costs three times as much (an escape and an attribute lookup per value). Every text
is escaped here; the words come translated once per page (`RowWords`).
`templates/matches/show.html` and `seigneur.html` hold the tables around them.

Pure, like `scoring` (tests/test_purity.py): markupsafe is in the phone's core too.

>>> words = RowWords("Double victory")
>>> print(str(waiting_row(3, words.waiting, ())).strip().replace("<td", "\\n<td"))
<tr class="waiting"><th scope="row">3</th>
<td class="notes"><small class="waiting-mark">Waiting to be sent</small></td></tr>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from markupsafe import Markup, escape

from .. import scoring
from ..game.i18n import _, ngettext
from ..scoring.state import PlayedHand


class RowNotes(NamedTuple):
    """What the match page says about a hand, in the reader's language: built from
    patterns translated once per page, not a few lookups per row."""

    first_out: str = ""  # "Ann out first"
    wish: str = ""  # "Wish missed by Bob"
    sweep: str = ""  # "Double victory"
    shuffled: str = ""  # Threechu: "Cy shuffled and played the dummy."
    calls: tuple[tuple[str, bool], ...] = ()  # ("Ann: Tichu ✓ made", made)
    edit: str = ""  # "Edit hand 7"
    bombs: tuple[str, ...] = ()  # ("Bob: 2 bombs",)
    note: str = ""  # the hand's note, as entered


NO_NOTES = RowNotes()


class RowWords:
    """The match page's per-hand sentences, each translated once (`sweep_title`: the
    game's word for a sweep, untranslated)."""

    def __init__(self, sweep_title: str) -> None:
        self.out_first = _("%(name)s out first")
        self.wish = _("Wish missed by %(name)s")
        self.sweep = _(sweep_title)
        self.shuffled = _("%(name)s shuffled and played the dummy.")
        self.call = {call.value: _(call.label) for call in scoring.Call}
        self.made, self.failed = _("✓ made"), _("✗ failed")
        self.edit = _("Edit hand %(n)s")
        self.waiting = _("Waiting to be sent")

    def notes(self, names: Sequence[str], played: PlayedHand, shuffler: int | None,
              bombs: Sequence[int] | None, note: str | None) -> RowNotes:
        """A hand's words: `shuffler` as recorded (Threechu), its bombs and note."""
        first = played.first_out
        offender = played.hand.wish_offender
        calls = tuple((f"{names[c.seat]}: {self.call.get(c.call.value, c.call.label)} "
                       f"{self.made if c.made else self.failed}", c.made) for c in played.calls)
        return RowNotes(
            self.out_first % {"name": names[first]} if first is not None else "",
            self.wish % {"name": names[offender]} if offender is not None else "",
            self.sweep if played.sweep else "",
            self.shuffled % {"name": names[shuffler]} if shuffler is not None else "",
            calls, self.edit % {"n": played.number},
            tuple(ngettext("%(name)s: %(num)d bomb", "%(name)s: %(num)d bombs", n)
                  % {"name": names[seat], "num": n}
                  for seat, n in enumerate(bombs or ()) if n and seat < len(names)),
            note or "")


class Row(Protocol):
    """A scored hand's row: its place, entry number, scores, totals after it and words."""

    @property
    def position(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def deltas(self) -> tuple[int, ...]: ...
    @property
    def running(self) -> tuple[int, ...]: ...
    @property
    def notes(self) -> RowNotes | None: ...


def hand_rows(rows: Sequence[Row], edit: tuple[str, str] | None, dummy: bool,
              anchored: bool = False, waiting: str = "") -> Markup:
    """The table rows, latest hand first: the hand's number (a link to edit it, given the
    URL before and after the number in `edit`), what it gave each side and the running
    totals, and what happened (Threechu: in a second row under the numbers). `anchored`:
    each row can be linked to (`#hand-3`), on the page of every hand. `waiting`: the rows
    of hands waiting on the phone, marked with these words."""
    before, after = (escape(edit[0]), escape(edit[1])) if edit else ("", "")
    columns = str(len(rows[0].deltas)) if rows else "0"
    mark = f' <small class="waiting-mark">{escape(waiting)}</small>' if waiting else ""
    tr, below = ('<tr class="waiting"', '<tr class="waiting notes-row"') if waiting else (
        "<tr", '<tr class="notes-row"')
    out = []
    for row in reversed(rows):
        notes = row.notes or NO_NOTES  # every scored row has its words
        if edit:
            head = (f'<a class="edit-link" href="{before}{row.number}{after}" aria-label='
                    f'"{escape(notes.edit)}">{row.position}<span aria-hidden="true"> ✎</span>'
                    f'</a>')
        else:
            head = str(row.position)
        anchor = f' id="hand-{row.position}"' if anchored else ""
        parts = [f'\n    {tr}{anchor}><th scope="row">{head}</th>']
        for delta, total in zip(row.deltas, row.running, strict=True):
            parts.append(f'<td class="num"><span class="delta{" neg" if delta < 0 else ""}">'
                         f'{delta:+d}</span> <span class="running">{total}</span></td>')
        if dummy:
            parts.append(f'</tr>\n    {below}><td></td><td colspan="{columns}" '
                         f'class="notes">{escape(notes.shuffled)}')
        else:
            parts.append('<td class="notes">')
        if notes.wish:
            parts.append(f' <span class="pill warn">{escape(notes.wish)}</span>')
        if notes.sweep:
            parts.append(f' <span class="pill">{escape(notes.sweep)}</span>')
        if notes.first_out:
            parts.append(f" {escape(notes.first_out)}{'.' if dummy else ''}")
        for text, made in notes.calls:
            parts.append(f' <span class="pill {"ok" if made else "fail"}">{escape(text)}</span>')
        for text in notes.bombs:
            parts.append(f' <span class="pill bomb">{escape(text)}</span>')
        if notes.note:
            parts.append(f' <q class="hand-note">{escape(notes.note)}</q>')
        parts.append(f"{mark}</td></tr>")
        out.append("".join(parts))
    return Markup("".join(out))  # nosec B704: every value above is escaped or a number


def waiting_row(number: int, mark: str, order: Sequence[str]) -> Markup:
    """The row of a hand waiting on the phone that is not counted (the server would refuse
    it, or the phone kept no body of it), or Grand Seigneur's (`order`: its finishing
    order by name), marked with the words `mark`."""
    said = Markup("%s<br>") % " › ".join(order) if order else ""
    return Markup('\n    <tr class="waiting"><th scope="row">%s</th><td class="notes">'
                  '%s<small class="waiting-mark">%s</small></td></tr>') % (number, said, mark)


def rank_rows(rows: Sequence[tuple[int, int, Sequence[str]]], edit: tuple[str, str] | None,
              edit_words: str, anchored: bool = False) -> Markup:
    """Grand Seigneur's rows, latest first: (place, entry number, finishing order by name)
    each; `edit` and `anchored` as `hand_rows`, `edit_words` "Edit hand %(n)s"."""
    before, after = (escape(edit[0]), escape(edit[1])) if edit else ("", "")
    out = []
    for position, number, order in reversed(rows):
        head = (f'<a class="edit-link" href="{before}{number}{after}" aria-label="'
                f'{escape(edit_words % {"n": position})}">{position}<span aria-hidden="true">'
                f' ✎</span></a>') if edit else str(position)
        anchor = f' id="hand-{position}"' if anchored else ""
        out.append(f'\n    <tr{anchor}><th scope="row">{head}</th><td class="notes">'
                   f'{escape(" › ".join(order))}</td></tr>')
    return Markup("".join(out))  # nosec B704: every value above is escaped or a number
