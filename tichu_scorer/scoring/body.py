r"""The checks every JSON body passes before anything reads it, on the server
(`views/jsonbody.py`, a 400 naming the field) and in the phone's core (`answers.phone`,
the same answer): nesting deeper than MAX_DEPTH, text or a name with a NUL character
(PostgreSQL cannot store it) or a lone surrogate (UTF-8 cannot say it), and, where asked,
numbers beyond a bound. Pure: no web import, so the phone runs it as the server does.

>>> check({"calls": {"0\x00": "tichu"}})
Traceback (most recent call last):
...
tichu_scorer.scoring.body.BadBody: A name in the JSON contains a NUL character.
>>> BadBody("x", "calls").answer()
({'error': 'x', 'field': 'calls'}, 400)
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

from ..game.i18n import _

MAX_DEPTH = 32  # an export nests 8 deep, an API body 4


class BadBody(Exception):
    """A body no honest client sends: `message` says why, `field` where (a path such as
    `matches[0].hands[3].number`, or "body")."""

    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def answer(self) -> tuple[dict[str, str], int]:
        """The server's answer to it (a 400), which the phone's core gives too."""
        return {"error": self.message, "field": self.field}, 400


def too_deep() -> BadBody:
    return BadBody(_("The JSON is nested more than %(n)d levels deep.") % {"n": MAX_DEPTH})


Link = tuple[str | int, "Link"] | None  # a path into the JSON, innermost key first

KEY_SHOWN = 20  # characters of one name quoted in a path; a message never echoes a long input
PATH_SHOWN = 80  # characters of a whole path: its innermost part, where the problem is


def _shorter(text: str, width: int, keep_end: bool = False) -> str:
    if len(text) <= width:
        return text
    return "…" + text[1 - width:] if keep_end else text[:width - 1] + "…"


def _path(link: Link) -> str:
    """`("number", (3, ("hands", (0, ("matches", None)))))` -> `matches[0].hands[3].number`;
    each name cut to KEY_SHOWN characters and the whole to PATH_SHOWN, with an ellipsis."""
    parts: list[str | int] = []
    while link is not None:
        key, link = link
        parts.append(key)
    out = ""
    for part in reversed(parts):
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{_shorter(part, KEY_SHOWN)}" if out else _shorter(part, KEY_SHOWN)
    return _shorter(out, PATH_SHOWN, keep_end=True) or "body"


def _too_large(item: object, limit: int) -> bool:
    if isinstance(item, bool) or not isinstance(item, int | float):
        return False
    return not (math.isfinite(item) and abs(item) <= limit)


def _unicode(text: str) -> bool:
    """True unless `text` holds a lone surrogate (JSON's "\\ud800"), which no database
    stores and UTF-8 cannot say."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(field: str) -> NoReturn:
    raise BadBody(_("“%(field)s” contains a lone surrogate (a \\ud800 to \\udfff "
                    "escape without its pair), which is not text.") % {"field": field}, field)


def check(value: Any, max_number: int | None = None) -> None:
    """BadBody naming the first part of a parsed JSON value that is nested too deeply,
    holds text with a NUL character or a lone surrogate, or (given `max_number`) a number
    beyond it. Iterative, so linear in size."""
    stack: list[tuple[Any, int, Link]] = [(value, 0, None)]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list) and depth >= MAX_DEPTH:
            deep = too_deep()
            deep.field = _path(where)
            raise deep
        if isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in key:
                    raise BadBody(_("A name in the JSON contains a NUL character."),
                                  _path(where))
                if not _unicode(key):
                    _surrogate(_path(where))
                stack.append((child, depth + 1, (key, where)))
        elif isinstance(item, list):
            stack.extend((child, depth + 1, (i, where)) for i, child in enumerate(item))
        elif isinstance(item, str):
            if "\x00" in item:
                raise BadBody(_("“%(field)s” contains a NUL character.") % {
                    "field": _path(where)}, _path(where))
            if not _unicode(item):
                _surrogate(_path(where))
        elif max_number is not None and _too_large(item, max_number):
            raise BadBody(_("“%(field)s” is too large a number.") % {
                "field": _path(where)}, _path(where))
