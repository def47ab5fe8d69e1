"""A repeat view of a match page, answered in front of Flask.

Every save makes each phone that watches the match fetch its page again with the ETag of its
copy, and a player who opens the page again does the same; most of these find the page
unchanged. `Middleware` answers them before Flask, as the live poll is answered
(`tichu_scorer/live/poll.py`): one read of the match's row and its table's (`Facts`), no ORM, no
session, no template. A copy still current is answered 304; a reader asking again without a
copy (or with another one) is given the whole response Flask gave that reader for the same
validator, kept as it was sent, compressed and with its CSRF token (`KeptResponses`).
Each of these answers counts against the rate limits of its route as Flask's would
(`early_limits`), and none is given while the database's breaker holds it off (the read is
the engine's, with its bounds). Anything else goes on to Flask, which builds the page
(`views.matches._show`) and answers a repeat view there as before.

The validator (`tag`) is an HMAC under the CSRF key over everything the page and the right to
see it follow from:

- the match as stored: its key, its `revision` (raised by every change of its page, the
  closing of a tournament's round included) and its variant (the template);
- what decides who may see it and whether it is drawn for a scorer: the table's key,
  `generation` and `kept_device`, the match's viewer code and score code (rotating the
  table's links changes them all); the route (the match page, its page of every hand, or the
  viewer link, which shows the match to whoever holds its code); `SINGLE_TABLE`;
- the reader's side, as the request carries it: the raw session cookie (the tables joined,
  the matches watched, the CSRF secret the page's forms carry, any one-time message waiting)
  and the language (the switch's cookie, else Accept-Language, as `i18n.select_locale`);
- the build of the app and of its static files, and the secret keys.

Flask gives the tag only to a page rendered for a session it did not change (a session
that changes sends a new cookie, whose copy would not be this page) and that had no message
waiting; so a cookie that carries a message, or any other cookie, never matches a tag
given before. A session cookie older than the session's lifetime, which Flask would read
as no session at all, is left to Flask. The tag binds no server-side state beyond the
database's: any worker or server computes the same one from the same row. A response kept
for a tag is, by the same token, the page as that reader would be given it now: the same
bytes the browser's copy would hold if it had kept one, for which it would get a 304.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from flask import Flask, current_app, request, session
from flask_babel import get_locale
from itsdangerous.encoding import base64_decode, bytes_to_int
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from .. import PAGE_HEADERS, clock, i18n
from ..cache import LRU
from ..live import poll
from ..models import Match
from ..tables import codes
from . import kept_pages
from .early_limits import EarlyLimits

# the routes whose repeat views are answered here, and their endpoints
KINDS = {"matches.show": "show", "matches.show_every": "every", "matches.view": "view"}
PATH = re.compile(r"/matches/([A-Za-z0-9_-]{1,24})(/every-hand)?|/v/([^/]{1,40})")
# a tag as `tag` makes it, with the encoding Flask-Compress may have added (`kept_pages`)
SENT = re.compile(r'(?:W/)?"([0-9a-f]{32})((?::br|:gzip|:deflate)?)"')
MAX_SENT = 8  # tags of one If-None-Match looked at (a browser sends one)

StartResponse = Callable[..., Any]


class Facts(NamedTuple):
    """What the database says about a match that its page and the right to see it follow
    from (`tag`); for the viewer link only the match's own columns (its code is the right)."""

    key: str
    revision: int
    variant: str
    code: str
    scorer_key: str = ""
    table: str = ""
    generation: int = 0
    kept_device: str = ""


def facts_of(match: Match, kind: str) -> Facts:
    """The facts of a match read through the ORM (Flask's side)."""
    own = (match.key, int(match.revision or 0), match.variant, match.code)
    if kind == "view":
        return Facts(*own)
    group = match.group
    return Facts(*own, match.scorer_key, group.key, int(group.generation),
                 group.kept_device or "")


def tag(app: Flask, kind: str, facts: Facts, locale: str, cookie: str) -> str:
    """The validator of the match page `kind` drawn from `facts` for a reader whose session
    cookie is `cookie` (raw, as sent), in `locale`."""
    config = app.config
    secret = str(config.get("WTF_CSRF_SECRET_KEY") or config["SECRET_KEY"])
    assets = app.extensions["tichu_assets"]
    text = "\0".join([
        "match page", app.extensions["tichu_build"], assets.version, kind, *map(str, facts),
        locale, cookie, str(bool(config.get("SINGLE_TABLE"))),
        repr(config.get("SECRET_KEY_FALLBACKS") or ())])
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:32]


def page_tag(match: Match, known: str | None = None) -> str | None:
    """The validator of the page this request renders for `match` as read (`known`: as
    `current_tag` gave it for the match unchanged since); None when the request changed the
    session (the browser's next cookie is another one) or a message waited in it
    (`kept_pages.validated`)."""
    if session.modified or kept_pages.messages_waiting():
        return None
    return known if known is not None else current_tag(match)


def current_tag(match: Match) -> str:
    """The validator of the page this request asks for, as the browser's copy would carry
    it (Flask's own 304, `kept_pages.not_modified`)."""
    kind = KINDS[str(request.endpoint)]
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cookie = request.cookies.get(app.config["SESSION_COOKIE_NAME"], "")
    return tag(app, kind, facts_of(match, kind), str(get_locale()), cookie)


def route(path: str) -> tuple[str, str] | None:
    """(kind, match key or viewer code) of a path answered here, else None."""
    found = PATH.fullmatch(path)
    if found is None:
        return None
    key, every, code = found.groups()
    if code is not None:
        read = codes.read(code)
        if read is None or len(read) == codes.SCORE_LENGTH:  # (Flask refuses it: 404)
            return None
        return "view", read
    return ("every" if every else "show"), key


_BY_KEY = ('SELECT m.key, m.revision, m.variant, m.code, m.scorer_key, g.key, g.generation, '
           'g.kept_device FROM "match" m JOIN tichu_group g ON g.id = m.group_id '
           "WHERE m.key = ?")
_BY_CODE = 'SELECT m.key, m.revision, m.variant, m.code FROM "match" m WHERE m.code = ?'


def read_facts(engine: Any, kind: str, name: str) -> Facts | None:
    """The facts of the match `name` names (its key, or for the viewer link its code), in
    one statement outside any transaction; None when there is no such match."""
    rows = poll.read(engine, _BY_CODE if kind == "view" else _BY_KEY, [name])
    if not rows:
        return None
    row = rows[0]
    own = (row[0], int(row[1] or 0), row[2], row[3])
    if kind == "view":
        return Facts(*own)
    return Facts(*own, row[4], row[5], int(row[6]), row[7] or "")


def fresh(cookie: str, lifetime: float) -> bool:
    """The session cookie is within its lifetime, as Flask would read it (its signer's
    timestamp; the signature was checked when the tag was given for this very cookie)."""
    parts = cookie.rsplit(".", 2)
    if len(parts) != 3:
        return False
    try:
        signed = bytes_to_int(base64_decode(parts[1]))
    except (ValueError, TypeError):
        return False
    return 0 <= clock.timestamp() - signed <= lifetime


def sent_tags(header: str) -> list[tuple[str, str]]:
    """(tag, encoding suffix) of each of our tags in an If-None-Match; a `*` matches none
    here (Flask answers it, after checking the reader's rights)."""
    return [(m.group(1), m.group(2)) for m in SENT.finditer(header)][:MAX_SENT]


class Middleware:
    """Answers a repeat view of a match page before Flask: 304 when the browser's copy is
    unchanged, else the whole response Flask gave for the same validator
    (`KeptResponses`); passes everything else on."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine: Any = None
        self.kept: KeptResponses = app.extensions.setdefault(
            "tichu_match_responses", KeptResponses())
        self.limits = EarlyLimits(app, list(KINDS))
        self.endpoints = {kind: endpoint for endpoint, kind in KINDS.items()}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        method = environ.get("REQUEST_METHOD")
        found = route(environ.get("PATH_INFO", "")) if method in ("GET", "HEAD") else None
        sent = sent_tags(environ.get("HTTP_IF_NONE_MATCH", "")) if found else []
        if found is None or not (sent or method == "GET"):
            return self.wsgi_app(environ, start_response)
        ours = self.tag_for(environ, found)
        if ours is None:
            return self.wsgi_app(environ, start_response)
        endpoint = self.endpoints[found[0]]
        # the viewer link's code as its path has it (`PATH`: /v/<code>), for its limits
        code = environ["PATH_INFO"][3:] if found[0] == "view" else None
        for value, suffix in sent:
            if hmac.compare_digest(value, ours):
                if not self.limits.within(environ, endpoint, 304, code):
                    return self.wsgi_app(environ, start_response)  # (Flask's 429)
                start_response("304 Not Modified", headers(value + suffix))
                return []
        if method != "GET" or "*" in environ.get("HTTP_IF_NONE_MATCH", ""):
            return self.wsgi_app(environ, start_response)  # (`*`: Flask's 304, or its 404)
        place = (ours, *asked(environ))
        kept = self.kept.get(place)
        if kept is not None and self.limits.within(environ, endpoint, 200, code):
            start_response("200 OK", list(kept[0]))
            return [kept[1]]
        if kept is not None:
            return self.wsgi_app(environ, start_response)  # a limit spent: Flask's 429
        return self.kept.through(self.wsgi_app, environ, start_response, place)

    def tag_for(self, environ: dict[str, Any], found: tuple[str, str]) -> str | None:
        """The validator of the page `found` names as this request's reader would be given
        it (`tag`), from one read of the match's row; None for Flask to answer (no such
        match, a session cookie past its lifetime, the database away)."""
        config = self.app.config
        cookies = parse_cookie(environ)
        cookie = cookies.get(config["SESSION_COOKIE_NAME"], "")
        lifetime = self.app.permanent_session_lifetime.total_seconds()
        if cookie and not fresh(cookie, lifetime):
            return None
        breaker = self.app.extensions.get("tichu_breaker")
        if breaker is not None and breaker.holding_off():
            return None  # (Flask refuses it at once, or is the one request that tries)
        if self.engine is None:
            self.engine = poll.engine(self.app)
        try:
            facts = read_facts(self.engine, *found)
        except Exception:  # the database is away or stalled: Flask answers (503) and logs it
            logging.getLogger(__name__).debug("Early answer unavailable", exc_info=True)
            return None
        if facts is None:
            return None
        accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
        locale = i18n.locale_for(cookies.get(i18n.COOKIE), accepted)
        return tag(self.app, found[0], facts, locale, cookie)


RESPONSES_KEPT = 256  # whole responses a process keeps (each a page, mostly compressed)
MAX_KEPT_BYTES = 64 * 1024  # a longer body is not kept
# request headers that no match page reads (everything else is part of a kept response's
# place: a request that differs in any other header is answered by Flask)
UNREAD = frozenset({"HTTP_USER_AGENT", "HTTP_ACCEPT", "HTTP_REFERER", "HTTP_CONNECTION",
                    "HTTP_KEEP_ALIVE", "HTTP_UPGRADE_INSECURE_REQUESTS", "HTTP_CACHE_CONTROL",
                    "HTTP_PRAGMA", "HTTP_DNT", "HTTP_PRIORITY", "HTTP_IF_NONE_MATCH",
                    "HTTP_IF_MODIFIED_SINCE", "HTTP_TE", "HTTP_X_FORWARDED_FOR",
                    "HTTP_X_REAL_IP"})


def asked(environ: dict[str, Any]) -> tuple[Any, ...]:
    """What of a request besides its validator a match page's response may follow from:
    where it was sent (path, query, host, scheme) and every header a page may read."""
    return (environ.get("PATH_INFO"), environ.get("QUERY_STRING"), environ.get("SCRIPT_NAME"),
            environ.get("wsgi.url_scheme"), environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"), tuple(sorted(
                (k, v) for k, v in environ.items()
                if k.startswith("HTTP_") and k not in UNREAD and not k.startswith("HTTP_SEC_"))))


class KeptResponses(LRU[tuple[Any, ...], tuple[tuple[tuple[str, str], ...], bytes]]):
    """Whole responses of match pages as Flask gave them (headers and body, compressed as
    sent), each under its validator and what else of the request it followed from
    (`asked`). The validator binds the revision, the rights, the language and the raw
    session cookie: a request that computes the same one from the database (one read of the
    match's row) and asks the same way is given the same bytes, CSRF token included, as it
    would be given a 304 for a copy of them. Only a response that Flask gave that very
    validator is kept (so one rendered at another revision, or for a session it changed,
    or with a one-time message, never is)."""

    def __init__(self) -> None:
        super().__init__(RESPONSES_KEPT)

    def through(self, wsgi_app: Callable[..., Any], environ: dict[str, Any],
                start_response: StartResponse, place: tuple[Any, ...]) -> Any:
        """Flask's answer, kept under `place` when it is the page `place[0]` names."""
        given: list[Any] = []

        def starting(status: str, response_headers: list[tuple[str, str]],
                     exc_info: Any = None) -> Any:
            given[:] = [status, response_headers]
            return start_response(status, response_headers, exc_info)

        body = wsgi_app(environ, starting)
        try:
            chunks = list(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        whole = b"".join(chunks)
        if given and keepable(given[0], given[1], place[0]) and len(whole) <= MAX_KEPT_BYTES:
            self.put(place, (tuple(given[1]), whole))
        return chunks


def keepable(status: str, response_headers: list[tuple[str, str]], ours: str) -> bool:
    """A 200 that Flask gave the validator `ours` (with the encoding Flask-Compress added)
    and no cookie."""
    names = {name.lower(): value for name, value in response_headers}
    found = SENT.fullmatch(names.get("etag", ""))
    return (status.startswith("200 ") and "set-cookie" not in names and found is not None
            and hmac.compare_digest(found.group(1), ours))


def headers(etag: str) -> list[tuple[str, str]]:
    """What Flask's 304 of the same page carries (`kept_pages.not_modified`, the security
    headers, Flask-Compress's and the session's Vary)."""
    return [("ETag", f'"{etag}"'), ("Cache-Control", kept_pages.CACHE_CONTROL),
            ("Vary", "Accept-Encoding, Cookie"), ("X-Content-Type-Options", "nosniff"),
            *PAGE_HEADERS]


def init_app(app: Flask) -> None:
    """Answer repeat views of unchanged match pages in front of the app."""
    app.wsgi_app = Middleware(app, app.wsgi_app)  # type: ignore[method-assign]
