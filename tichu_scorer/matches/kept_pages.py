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

Each app process keeps the bodies it used last; with a shared store (`PAGE_STORE_URI`, by
default the deployment's `REDIS_URL`) a body built by one worker or server is used by all
the others: the first view after a save builds it, the next view on another worker reads
it. The stand-in is the same in every process of one deploy (derived from the secret key
and the build), so any of them can put its reader's token in. The store is a cache: a
body found there is used only for the revision the request read from the database, and a
store that fails or stalls is left alone for a while (the page is built, as without one).

A repeat view of an unchanged page is answered 304 when the browser's copy was made for the
same page, mostly before Flask (`repeat_views`, which makes the match page's validator):
same build of the app, same revision, language and role, the same rights and the same
session cookie, so that a copy kept by the browser never carries a token the session no
longer accepts. The same reader asking again without a copy is given, before Flask too,
the whole response Flask gave under that validator (`repeat_views.KeptResponses`). A page
that shows a one-time message ("Hand 3 saved.") gets no ETag, and while one waits in the
session the page is rendered in full, never answered 304 nor from a kept response.
`etag` is the validator of other pages kept by the browser (the statistics).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import posixpath
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from flask import Flask, current_app, request, session
from flask.sansio.app import App
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..assets import assets
from ..cache import LRU, lru, made_from
from ..models import Match

PAGES_KEPT = 128  # match page bodies an app process keeps (a body is 1–100 KB)
STORE_TTL = 6 * 3600  # seconds a body stays in the shared store after it was built
STORE_TIMEOUT = 0.25  # seconds to wait for the shared store before building the body
STORE_PAUSE = 30.0  # seconds the store is left alone after it failed
CACHE_CONTROL = "private, no-cache"  # the browser keeps a copy and asks before each use
FLASHES = "_flashes"  # where Flask keeps the one-time messages in the session
PACKAGE = Path(__file__).resolve().parent.parent  # the whole app, not only this package
SOURCES = (PACKAGE, PACKAGE.parent / "templates")


@dataclass(frozen=True)
class PageKey:
    """Everything a match page's body depends on."""

    match: str  # the match's key (never reused, unlike an id)
    revision: int
    locale: str
    scorer: bool
    template: str
    every: bool = False  # every hand's row, not only the latest (`views.matches.LATEST`)


def page_key(match: Match, scorer: bool, template: str, every: bool = False) -> PageKey:
    return PageKey(match.key, match.revision or 0, str(get_locale()), scorer, template, every)


def build() -> str:
    """A hash over the app's code, templates and translations, taken when the app starts
    (`remember_build`): with the static files' version, a deploy that changes any of them
    changes every ETag."""
    found: str = current_app.extensions["tichu_build"]
    return found


def _built_from() -> list[tuple[str, str, int, int]]:
    """Each file of the build: its path, its name within its folder, size and time."""
    found = []
    for folder in map(str, SOURCES):
        for root, folders, names in os.walk(folder):
            folders[:] = [name for name in folders if name != "__pycache__"]
            inside = os.path.relpath(root, folder)
            for name in names:
                if name.endswith((".py", ".html", ".mo")):
                    path = os.path.join(root, name)
                    stat = os.stat(path)
                    found.append((path, posixpath.normpath(posixpath.join(inside, name)),
                                  stat.st_size, stat.st_mtime_ns))
    return sorted(found)


def remember_build(app: App) -> None:
    """Hash the files the running app was started with (before a deploy may replace them):
    once per process while they stay the same (`cache.made_from`)."""
    files = _built_from()

    def hashed() -> str:
        digest = hashlib.sha256()
        for path, name, _size, _when in files:
            digest.update(f"{name}\0".encode())
            digest.update(Path(path).read_bytes())
        return digest.hexdigest()[:16]
    seen = tuple((path, size, when) for path, _name, size, when in files)
    app.extensions["tichu_build"] = made_from("build", seen, hashed)
    url = str(app.config.get("PAGE_STORE_URI") or "")
    app.extensions["tichu_page_store"] = SharedStore(url) if url else None


def messages_waiting() -> bool:
    """A one-time message waits in the session for the next page that shows messages."""
    return bool(session.get(FLASHES))


def etag(key: PageKey | tuple[Any, ...]) -> str:
    """The validator of the page `key` (a match page's, or what another page depends on,
    such as the statistics') as this session sees it. The session's raw CSRF
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


def validated(response: Response, tag: str | None) -> Response:
    """The page, kept by the browser and revalidated with `tag` (none for a page that may
    show a one-time message: `repeat_views.page_tag`)."""
    response.headers["Cache-Control"] = CACHE_CONTROL
    if tag is not None:
        response.set_etag(tag)
    return response


def stand_in(app: Flask) -> str:
    """A text that stands for the CSRF token in a kept body: the same in every process of
    one deploy (a body kept in the shared store is finished by any of them), and secret,
    so that no name a player types can equal it."""
    secret = str(app.config.get("WTF_CSRF_SECRET_KEY") or app.config["SECRET_KEY"])
    text = f"match page token stand-in\0{app.extensions['tichu_build']}"
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:32]


class SharedStore:
    """Match page bodies in Redis, shared by every worker and server of a deployment: one
    key per page (match, language, role, template, build and static files), holding the
    revision it was built at and the body."""

    def __init__(self, url: str) -> None:
        import redis
        self.client = redis.Redis.from_url(url, socket_timeout=STORE_TIMEOUT,
                                           socket_connect_timeout=STORE_TIMEOUT)
        self.paused_until = 0.0

    @staticmethod
    def name(key: PageKey) -> str:
        return (f"tichu:page:{build()}:{assets().version}:{key.match}:{key.locale}:"
                f"{int(key.scorer)}:{key.template}:{int(key.every)}:{stand_in(current_app)}")

    def get(self, key: PageKey) -> Kept | None:
        """The page built at `key.revision`, if the store holds it."""
        found = self._call(lambda: self.client.get(self.name(key)))
        if not isinstance(found, bytes):
            return None
        revision, _, rest = found.partition(b"\n")
        title, _, body = rest.partition(b"\n")
        if revision != str(key.revision).encode():
            return None
        try:  # a value that is not what `put` writes is a miss: the page is built
            name, text = json.loads(title), body.decode()
        except ValueError:  # UnicodeDecodeError included
            return None
        return Kept(name, text) if isinstance(name, str) else None

    def put(self, key: PageKey, kept: Kept) -> None:
        """Store the page as its revision, its title (a JSON string: one line) and body."""
        value = f"{key.revision}\n{json.dumps(kept.title)}\n{kept.body}".encode()
        self._call(lambda: self.client.set(self.name(key), value, ex=STORE_TTL))

    def _call(self, command: Any) -> Any:
        """Run `command`, unless the store failed lately; a failure pauses it (logged)."""
        if time.monotonic() < self.paused_until:
            return None
        import redis
        try:
            return command()
        except redis.RedisError as exc:
            self.paused_until = time.monotonic() + STORE_PAUSE
            logging.getLogger(__name__).warning(
                "Page store unreachable (%s): pages are built without it for %d s",
                type(exc).__name__, STORE_PAUSE)
            return None


def _store() -> SharedStore | None:
    found: SharedStore | None = current_app.extensions.get("tichu_page_store")
    return found


class Kept(NamedTuple):
    """A match page as kept: its title (the players' names, which the page around the body
    shows) and its body, both as of the key's revision."""

    title: str
    body: str


def kept_body(key: PageKey) -> Kept | None:
    """The page kept for `key` by this process or, failing that, by another one (the shared
    store), with this reader's CSRF token in its body. The names come with it, so a kept
    page needs nothing more from the database."""
    found = _pages().get(_here(key))
    if found is not None and found[0] == key.revision:
        return _with_token(found[1])
    store = _store()
    kept = store.get(key) if store is not None else None
    if kept is None:
        return None
    _keep_here(key, kept)
    return _with_token(kept)


# a run of white space that holds a line break: the templates' indentation and the lines
# their tags leave empty. The browser draws any such run as one space (the match page has no
# <pre>, <textarea> or white-space: pre), so one line break draws the same.
SPACE_RUN = re.compile(r"[ \t]*\n\s*")


def compact(body: str) -> str:
    """The body without its template's indentation and empty lines: drawn the same, and
    about 70 bytes less of a phone's first load (`tests/test_delivery.py`)."""
    return SPACE_RUN.sub("\n", body)


def keep_body(key: PageKey, title: str, body: str) -> Kept:
    """Keep a page whose body was rendered with the stand-in token (here and in the shared
    store), without its template's indentation (`compact`); returns it with this reader's
    token."""
    kept = Kept(title, compact(body))
    _keep_here(key, kept)
    store = _store()
    if store is not None:
        store.put(key, kept)
    return _with_token(kept)


def _pages() -> LRU[tuple[Any, ...], tuple[int, Kept]]:
    """The bodies this process keeps, each with its revision; when full, the one used
    longest ago makes room."""
    return lru("tichu_match_pages", PAGES_KEPT)


def _keep_here(key: PageKey, kept: Kept) -> None:
    _pages().put(_here(key), (key.revision, kept))


def _here(key: PageKey) -> tuple[Any, ...]:
    """A body's place among those kept by this process (its stand-in token changes with the
    secret key)."""
    return key.match, key.locale, key.scorer, key.template, key.every, stand_in(current_app)


def _with_token(kept: Kept) -> Kept:
    """The page with the reader's token where the stand-in is; the token is made (and put
    in the session) only when the body has a form, as rendering it would have."""
    marker = stand_in(current_app)
    body = kept.body
    if marker in body:
        body = body.replace(marker, generate_csrf())
    return Kept(kept.title, Markup(body))  # nosec B704: our own templates, autoescaped
