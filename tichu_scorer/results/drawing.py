"""A result drawn as a PNG image to share (a phone's share sheet shows it as a picture in a
chat): light, 1080 pixels wide, as tall as its rows need. Drawn with Pillow and the DejaVu
fonts vendored beside this module (fonts/LICENSE), which have the glyphs of every language
the app speaks; a name too long for its column is cut with an ellipsis (the text has it
whole)."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .sheet import APP, STAR, Result

FONTS = Path(__file__).parent / "fonts"
WIDTH, MARGIN, GAP = 1080, 64, 40
ROW = 76  # a row's height
MOST_ROWS = 24  # rows drawn; the rest are counted in a last row
PAPER, INK, MUTED = "#f6f6f3", "#16181d", "#5b6070"
BAND, GOLD, RULE = "#fff1c2", "#e0a800", "#d9d9d2"


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def _width(text: str, face: ImageFont.FreeTypeFont) -> float:
    return face.getlength(text)


def fitted(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, cut with an ellipsis where it is wider than `width`."""
    if _width(text, face) <= width:
        return text
    while text and _width(text + "…", face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def png(result: Result) -> bytes:
    """The result as a PNG image."""
    rows = list(result.rows[:MOST_ROWS])
    more = len(result.rows) - len(rows)
    title, meta, cell, bold = font(56, True), font(32), font(40), font(40, True)
    small = font(28)
    height = MARGIN + 72 + 48 + 40 + 48 + ROW * (len(rows) + (1 if more else 0)) + 40 + 60 \
        + 56 + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    draw.text((MARGIN, y), fitted(result.title, title, inner), font=title, fill=INK)
    y += 72
    draw.text((MARGIN, y), fitted(result.meta, meta, inner), font=meta, fill=MUTED)
    y += 48 + 40
    # the number columns, right-aligned from the right margin; the names take the rest
    columns = len(result.head)
    widths = [max([_width(result.head[i], small)] + [_width(r[i], bold) for r in rows])
              for i in range(1, columns)]
    rights: list[float] = []
    right: float = WIDTH - MARGIN - 8
    for w in reversed(widths):
        rights.insert(0, right)
        right -= w + GAP
    name_width = right + GAP - MARGIN - 24 - _width(f" {STAR}", bold)
    for i, heading in enumerate(result.head):
        x = MARGIN + 24 if i == 0 else rights[i - 1] - _width(heading, small)
        draw.text((x, y), fitted(heading, small, name_width) if i == 0 else heading,
                  font=small, fill=MUTED)
    y += 48
    for index, row in enumerate(rows):
        won = index in result.marked
        if won:
            draw.rounded_rectangle((MARGIN, y + 4, WIDTH - MARGIN, y + ROW - 4), 14, fill=BAND)
            draw.rounded_rectangle((MARGIN, y + 4, MARGIN + 10, y + ROW - 4), 5, fill=GOLD)
        else:
            draw.line((MARGIN, y + ROW - 1, WIDTH - MARGIN, y + ROW - 1), fill=RULE, width=2)
        face = bold if won else cell
        name = fitted(row[0], face, name_width) + (f" {STAR}" if won else "")
        middle = y + ROW / 2
        draw.text((MARGIN + 24, middle), name, font=face, fill=INK, anchor="lm")
        for value, right in zip(row[1:], rights, strict=True):
            draw.text((right, middle), value, font=face, fill=INK, anchor="rm")
        y += ROW
    if more:
        draw.text((MARGIN + 24, y + ROW / 2), f"+ {more} …", font=cell, fill=MUTED,
                  anchor="lm")
        y += ROW
    y += 40
    draw.text((MARGIN, y), fitted(result.verdict, bold, inner), font=bold, fill=INK)
    y += 60 + 24
    draw.text((WIDTH - MARGIN, y), APP, font=small, fill=MUTED, anchor="ra")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
