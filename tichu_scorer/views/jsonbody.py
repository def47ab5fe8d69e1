"""Reading JSON from a request; a `BadRequest` becomes a 400 naming the field.

Every JSON the app reads (API bodies, the preview, imports) goes through `loads`, which
refuses what no honest client sends and what would fail later, deep in the database:
nesting deeper than MAX_DEPTH, NaN and Infinity, and NUL characters (PostgreSQL cannot store
them in text). Imports also refuse numbers beyond ±MAX_NUMBER; API bodies leave numbers to
the scoring core, which names the field and the rule (422).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, NoReturn

from flask import request
from flask_babel import gettext

from ..scoring.read import Repeated

MAX_DEPTH = 32  # an export nests 8 deep, an API body 4
MAX_NUMBER = 2**53 - 1  # what a browser's JSON keeps exactly; no score comes near it


class BadRequest(Exception):
    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice keeps all its values as a `Repeated` list, so that
    a seat with two calls can be reported instead of silently keeping the last one."""
    obj: dict[str, Any] = {}
    repeated: set[str] = set()
    for key, value in pairs:
        if key not in obj:
            obj[key] = value
            continue
        if key not in repeated:
            obj[key] = Repeated([obj[key]])
            repeated.add(key)
        obj[key].append(value)
    return obj


def unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key appears once; BadRequest naming a key given twice
    (an import: which of the two values is meant cannot be told)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise BadRequest(gettext("The name “%(key)s” appears twice in one object; give "
                                     "each name once.", key=key[:40]), key[:40])
        obj[key] = value
    return obj


def _no_constant(name: str) -> float:
    raise ValueError(name)  # NaN, Infinity, -Infinity: not JSON, and no number of ours


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
    raise BadRequest(gettext("“%(field)s” contains a lone surrogate (a \\ud800 to \\udfff "
                             "escape without its pair), which is not text.", field=field),
                     field)


def check(value: Any, max_number: int | None = None) -> None:
    """BadRequest naming the first part of a parsed JSON value that is nested too deeply,
    holds text with a NUL character or a lone surrogate, or (given `max_number`) a number
    beyond it. Iterative, so linear in size."""
    stack: list[tuple[Any, int, Link]] = [(value, 0, None)]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list) and depth >= MAX_DEPTH:
            raise BadRequest(gettext("The JSON is nested more than %(n)d levels deep.",
                                     n=MAX_DEPTH), _path(where))
        if isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in key:
                    raise BadRequest(gettext("A name in the JSON contains a NUL character."),
                                     _path(where))
                if not _unicode(key):
                    _surrogate(_path(where))
                stack.append((child, depth + 1, (key, where)))
        elif isinstance(item, list):
            stack.extend((child, depth + 1, (i, where)) for i, child in enumerate(item))
        elif isinstance(item, str):
            if "\x00" in item:
                raise BadRequest(gettext("“%(field)s” contains a NUL character.",
                                         field=_path(where)), _path(where))
            if not _unicode(item):
                _surrogate(_path(where))
        elif max_number is not None and _too_large(item, max_number):
            raise BadRequest(gettext("“%(field)s” is too large a number.",
                                     field=_path(where)), _path(where))


def loads(raw: bytes, hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
          max_number: int | None = None) -> Any:
    """Parse JSON from UTF-8 bytes (a byte-order mark is allowed) and `check` it."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadRequest(gettext("The JSON must be UTF-8 text.")) from None
    try:
        value = json.loads(text, object_pairs_hook=hook, parse_constant=_no_constant)
    except RecursionError:  # deeper than Python's own limit (about 1000)
        raise BadRequest(gettext("The JSON is nested more than %(n)d levels deep.",
                                 n=MAX_DEPTH)) from None
    except ValueError:  # not JSON, or an integer of thousands of digits
        raise BadRequest(gettext("The body is not valid JSON.")) from None
    check(value, max_number)
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON object, or BadRequest naming what is wrong."""
    body = loads(request.get_data(cache=False), hook=_pairs)
    if not isinstance(body, dict):
        raise BadRequest(gettext("The body must be a JSON object."))
    return body
