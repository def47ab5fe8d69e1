"""Reading a JSON object from a request; a `BadRequest` becomes a 400 naming the field."""

from __future__ import annotations

import json
from typing import Any

from flask import request


class BadRequest(Exception):
    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice keeps all its values as a list, so that a seat
    with two calls can be reported instead of silently keeping the last one."""
    obj: dict[str, Any] = {}
    repeated: set[str] = set()
    for key, value in pairs:
        if key not in obj:
            obj[key] = value
            continue
        if key not in repeated:
            obj[key] = [obj[key]]
            repeated.add(key)
        obj[key].append(value)
    return obj


def json_body() -> dict[str, Any]:
    """The request's JSON object, or BadRequest naming what is wrong."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"), object_pairs_hook=_pairs)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("The body must be a JSON object (UTF-8).") from None
    if not isinstance(body, dict):
        raise BadRequest("The body must be a JSON object, not a "
                         f"{type(body).__name__}.")
    return body
