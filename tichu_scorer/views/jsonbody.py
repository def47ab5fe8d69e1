"""Reading JSON from a request; a `BadRequest` becomes a 400 naming the field.

Every JSON the app reads (API bodies, the preview, imports) goes through `loads`, which
refuses what no honest client sends and what would fail later, deep in the database:
nesting deeper than MAX_DEPTH, NaN and Infinity, and NUL characters (PostgreSQL cannot store
them in text). Imports also refuse numbers beyond ±MAX_NUMBER; API bodies leave numbers to
the scoring core, which names the field and the rule (422).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import request
from flask_babel import gettext

from ..scoring.body import KEY_SHOWN, MAX_DEPTH, PATH_SHOWN, BadBody, check, too_deep
from ..scoring.read import Repeated

__all__ = ["KEY_SHOWN", "MAX_DEPTH", "PATH_SHOWN", "BadRequest", "check", "json_body", "loads",
           "unique_pairs"]

MAX_NUMBER = 2**53 - 1  # what a browser's JSON keeps exactly; no score comes near it


BadRequest = BadBody  # the name the web layer knows it by: a 400 naming the field


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
        raise too_deep() from None
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
