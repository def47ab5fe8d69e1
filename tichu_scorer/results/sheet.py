"""A result as it is shared: a title, a line saying what and when, a small table (a row per
side, player or entry) and a verdict, already in the reader's language. Plain text from it
here; the image in `drawing`.

>>> r = Result("Our table", "Tichu · 5 Dec 2026", ("", "Points"),
...            (("Team A: Ann & Cy", "1020"), ("Team B: Bob & Dee", "480")), (0,),
...            "Team A won.", "tichu-match")
>>> print(r.text(), end="")
Our table
Tichu · 5 Dec 2026
<BLANKLINE>
                   Points
Team A: Ann & Cy     1020 ★
Team B: Bob & Dee     480
<BLANKLINE>
Team A won.
— Tichu Scorer
"""

from __future__ import annotations

from dataclasses import dataclass

APP = "Tichu Scorer"
STAR = "★"


@dataclass(frozen=True)
class Result:
    title: str
    meta: str  # what was played, when
    head: tuple[str, ...]  # the columns' headings (the first: the names' column, may be "")
    rows: tuple[tuple[str, ...], ...]  # a row per side, player or entry; names first
    marked: tuple[int, ...]  # the rows that won
    verdict: str
    filename: str  # without its extension

    def text(self) -> str:
        """The result as plain text: the names padded, the numbers right-aligned."""
        widths = [max(len(row[i]) for row in self.rows) if self.rows else 0
                  for i in range(len(self.head))]
        widths = [max(w, len(h)) if i and h else w for i, (w, h) in
                  enumerate(zip(widths, self.head, strict=True))]
        lines = [self.title, self.meta, ""]
        if any(self.head[1:]) and self.rows:
            lines.append(_line(self.head, widths))
        for index, row in enumerate(self.rows):
            lines.append(_line(row, widths) + (f" {STAR}" if index in self.marked else ""))
        if self.verdict:
            lines += ["", self.verdict]
        lines.append(f"— {APP}")
        return "\n".join(lines) + "\n"


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    first = cells[0].ljust(widths[0])
    rest = [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
    return "  ".join([first, *rest]).rstrip()
