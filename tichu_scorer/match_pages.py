"""The match page's body kept per revision, and its validator (ETag) for repeat views.

What the body of a match page shows (`templates/matches/show.html`, `seigneur.html` and
their partials) follows from three things only: the match as stored, the reader's language
and whether the reader may score. The stored state is named by the match's `revision`, a
number in the database that every change of the match raises in the transaction that makes
the change (a hand added, edited, deleted, undone or restored, the settings). So a body
rendered at a revision can be kept and shown again to anyone who reads that same revision,
on any worker and any server: a change made through another process raises the number, and
every request reads it afresh. The body holds a stand-in for the CSRF token, replaced with
the reader's own token each time; the page around it (`base.html`: messages, navigation,
language switch) is rendered for each request.

A repeat view of an unchanged page is answered 304 when the browser's copy was made for the
same page: same build of the app, same revision, language and role, and the same CSRF
secret in the session, so that a copy kept by the browser never carries a token the session
no longer accepts. A page that shows a one-time message ("Hand 3 saved.") gets no ETag,
and while one waits in the session the page is rendered in full, never answered 304.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request, session
from flask.sansio.app import App
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response

from .assets import assets
from .models import Match

PAGES_KEPT = 128  # match page bodies an app process keeps (a body is 1–100 KB)
CACHE_CONTROL = "private, no-cache"  # the browser keeps a copy and asks before each use
FLASHES = "_flashes"  # where Flask keeps the one-time messages in the session
PACKAGE = Path(__file__).resolve().parent
SOURCES = (PACKAGE, PACKAGE.parent / "templates")


@dataclass(frozen=True)
class PageKey:
    """Everything a match page's body depends on."""

    match: str  # the match's key (never reused, unlike an id)
    revision: int
    locale: str
    scorer: bool
    template: str


def page_key(match: Match, scorer: bool, template: str) -> PageKey:
    return PageKey(match.key, match.revision or 0, str(get_locale()), scorer, template)


def build() -> str:
    """A hash over the app's code, templates and translations, taken when the app starts
    (`remember_build`): with the static files' version, a deploy that changes any of them
    changes every ETag."""
    found: str = current_app.extensions["tichu_build"]
    return found


def remember_build(app: App) -> None:
    """Hash the files the running app was started with (before a deploy may replace them)."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".mo"):
                digest.update(f"{path.relative_to(folder)}\0".encode())
                digest.update(path.read_bytes())
    app.extensions["tichu_build"] = digest.hexdigest()[:16]
    app.extensions["tichu_token_stand_in"] = secrets.token_hex(16)
    app.extensions["tichu_match_pages"] = {}


def messages_waiting() -> bool:
    """A one-time message waits in the session for the next page that shows messages."""
    return bool(session.get(FLASHES))


def etag(key: PageKey) -> str:
    """The validator of the page `key` as this session sees it. The session's raw CSRF
    secret is part of it (a copy with a token the session no longer accepts is never
    revalidated), and it is an HMAC under the CSRF key, so it reveals nothing and changes
    when the key does."""
    config = current_app.config
    secret = str(config.get("WTF_CSRF_SECRET_KEY") or config["SECRET_KEY"])
    token = str(session.get(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), ""))
    text = "\0".join([build(), assets().version, repr(key), request.endpoint or "", token])
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:32]


# Flask-Compress appends the encoding to a strong ETag ("…:br"); the browser sends back
# whichever it was given.
ENCODINGS = ("", ":br", ":gzip", ":deflate")


def not_modified(tag: str) -> Response | None:
    """304 when the browser's copy is the page `tag` names and no one-time message waits."""
    if messages_waiting():
        return None
    for suffix in ENCODINGS:
        if request.if_none_match.contains_weak(tag + suffix):
            response = Response(status=304)
            response.set_etag(tag + suffix)
            response.headers["Cache-Control"] = CACHE_CONTROL
            return response
    return None


def validated(response: Response, key: PageKey, messages: bool) -> Response:
    """The page with its validator, unless it may show a one-time message (`messages`:
    one waited in the session when the page was rendered)."""
    response.headers["Cache-Control"] = CACHE_CONTROL
    if not messages:
        response.set_etag(etag(key))
    return response


def stand_in(app: Flask) -> str:
    """A random text that stands for the CSRF token in a kept body (no name a player types
    can equal it)."""
    found: str = app.extensions["tichu_token_stand_in"]
    return found


def kept_body(key: PageKey) -> Markup | None:
    """The body kept for `key`, with this reader's CSRF token in it."""
    pages: dict[Any, tuple[int, str]] = current_app.extensions["tichu_match_pages"]
    found = pages.get((key.match, key.locale, key.scorer, key.template))
    if found is None or found[0] != key.revision:
        return None
    return _with_token(found[1])


def keep_body(key: PageKey, body: str) -> Markup:
    """Keep a body rendered with the stand-in token; returns it with this reader's token."""
    pages: dict[Any, tuple[int, str]] = current_app.extensions["tichu_match_pages"]
    if len(pages) >= PAGES_KEPT:
        pages.clear()
    pages[(key.match, key.locale, key.scorer, key.template)] = (key.revision, body)
    return _with_token(body)


def _with_token(body: str) -> Markup:
    """The body with the reader's token where the stand-in is; the token is made (and put
    in the session) only when the body has a form, as rendering it would have."""
    marker = stand_in(current_app)
    if marker in body:
        body = body.replace(marker, generate_csrf())
    return Markup(body)  # nosec B704: our own templates, autoescaped when rendered
