"""Whose phone this is: a name the player gives the phone once (the `/phone` page), kept
in a cookie on that phone. The match log writes it with every change the phone makes, and
the other phones' live note says where a hand was saved ("Hand 12 saved on Bob's phone").
A phone without a name is "another phone"."""

from __future__ import annotations

import re
import unicodedata

from flask import current_app, has_request_context, request
from werkzeug.wrappers import Response

COOKIE = "phone"
NAME_MAX = 24  # characters: a first name or a nickname
KEEP = 3600 * 24 * 365 * 2  # seconds the phone keeps its name
# "Bob's phone", "Bob’s phone", "Bob's iPhone", "Handy von Bob": the owner is what is kept,
# since every sentence says "Bob's phone" itself (not "Bob's phone's phone")
_DEVICE = r"(?:smart)?phone|iphone|handy|telefon|mobile"
_OWNED = re.compile(rf"^(?P<owner>.+?)(?:['’`]s|['’`])\s+(?:{_DEVICE})$"
                    rf"|^(?:{_DEVICE})\s+(?:von|of)\s+(?P<after>.+)$", re.I)


def clean(value: str | None) -> str | None:
    """The name as stored: trimmed, inner spaces as one, no control or format characters,
    at most NAME_MAX characters; None for an empty one.

    >>> clean("  Bob \\u200b  the\\tGreat ")
    'Bob the Great'
    >>> clean("   ") is None
    True
    >>> len(clean("x" * 99))
    24

    A name that says it is a phone keeps its owner only:

    >>> [clean(n) for n in ("Bob's phone", "Ann’s iPhone", "Handy von Eva", "Phoebe")]
    ['Bob', 'Ann', 'Eva', 'Phoebe']
    """
    if not value:
        return None
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in value)
    name = " ".join(kept.split())
    owned = _OWNED.match(name)
    if owned:
        name = owned.group("owner") or owned.group("after")
    name = name[:NAME_MAX].strip()
    return name or None


def name() -> str | None:
    """This request's phone's name, if it has one."""
    if not has_request_context():
        return None
    return clean(request.cookies.get(COOKIE))


def remember(response: Response, value: str | None) -> None:
    """Keep the name on the phone (or forget it, for an empty one)."""
    chosen = clean(value)
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE"))
    if chosen is None:
        response.delete_cookie(COOKIE, samesite="Lax", secure=secure)
    else:
        response.set_cookie(COOKIE, chosen, max_age=KEEP, samesite="Lax", secure=secure,
                            httponly=True)
