"""The rows of a match page's hands table, written in Python rather than with a template
loop: a long match has hundreds of rows, and a loop in Jinja costs three times as much
(an escape and an attribute lookup per value). Every text is escaped here; the words come
translated once per page (`match_view.RowNotes`). `templates/matches/show.html` holds the
table around them."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from .match_view import HandRow, RowNotes

NO_NOTES = RowNotes()


def hand_rows(rows: Sequence[HandRow], edit: tuple[str, str] | None, dummy: bool,
              anchored: bool = False) -> Markup:
    """The table rows, latest hand first: the hand's number (a link to edit it, given the
    URL before and after the number in `edit`), what it gave each side and the running
    totals, and what happened (Threechu: in a second row under the numbers). `anchored`:
    each row can be linked to (`#hand-3`), on the page of every hand."""
    before, after = (escape(edit[0]), escape(edit[1])) if edit else ("", "")
    columns = str(len(rows[0].deltas)) if rows else "0"
    out = []
    for row in reversed(rows):
        notes = row.notes or NO_NOTES  # every scored row has its words (`match_page`)
        if edit:
            head = (f'<a class="edit-link" href="{before}{row.hand.number}{after}" aria-label='
                    f'"{escape(notes.edit)}">{row.position}<span aria-hidden="true"> ✎</span>'
                    f'</a>')
        else:
            head = str(row.position)
        anchor = f' id="hand-{row.position}"' if anchored else ""
        parts = [f'\n    <tr{anchor}><th scope="row">{head}</th>']
        for delta, total in zip(row.deltas, row.running, strict=True):
            parts.append(f'<td class="num"><span class="delta{" neg" if delta < 0 else ""}">'
                         f'{delta:+d}</span> <span class="running">{total}</span></td>')
        if dummy:
            parts.append(f'</tr>\n    <tr class="notes-row"><td></td><td colspan="{columns}" '
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
        parts.append("</td></tr>")
        out.append("".join(parts))
    return Markup("".join(out))  # nosec B704: every value above is escaped or a number
