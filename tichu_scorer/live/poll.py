"""Live pages: has what this page shows changed? Pushed over a stream by the live process
where one runs (`tichu_scorer/live/stream.py`, on the same signed paths under `/live/s/`, with
the versions and notes read here); else asked every second or so by every open
match page, hand form, board, table page and history (`static/js/live.js`), so it must
cost next to nothing: it is answered in front of Flask (`Middleware`), from numbers the
database keeps anyway, and says 304 while nothing changed. A process reads the matches it
was asked about together, at most every `FRESH` seconds (`Middleware._versions`), so that
hundreds of questions a second cost it a few reads.

A page names what it watches in a signed path (`url`): `/live/m/<match key>/<sig>` for a
match (its `revision`, raised in the transaction of every change, and its hand count),
`/live/t/<table key>.<table key>…/<sig>` for tables (the checksum the statistics keep of
a table's matches: count, sum of revisions, newest id, sum of stamps;
and a keyed mark of the tables' names and generations, so that a rename shows, and new links).
The signature is an HMAC under the secret key, given only inside a page that the access
rules let the reader see; so the path is the right to ask, and no session, limiter or
template is needed to answer it. What it tells is how often a match changed and its number
of hands (a phone whose rights were taken back may still learn that much, never what
changed: the page itself is read through Flask and its access rules). No rate limit counts
it: a table's phones poll all evening behind one address and must never see a 429; a
wrong signature is refused before the database is asked.

The validator is the version itself (`ETag: "m12.11"`): a phone sends it back in
If-None-Match and gets 304 while it still holds; on a change it gets the new version,
with the latest entry of the match's log for the note ("Hand 12 saved on another phone").
Every app server reads the same database, so any number of workers and servers agree.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, current_app

from ..extensions import db

PREFIX = "/live/"
STREAM = "s/"  # /live/s/m|t/…: the same signed path, pushed (`tichu_scorer/live/stream.py`)
MAX_TABLES = 20  # a history page watches the tables this phone joined, at most these
SIG_LENGTH = 16
KEY = re.compile(r"[A-Za-z0-9_-]{1,24}")
FRESH = 0.25  # seconds an answer read from the database is given again
ASKED_LATELY = 60.0  # seconds a match stays among those read together
MAX_READ = 500  # matches read in one statement at most
CACHE_CONTROL = "no-store"  # live.js asks with its own If-None-Match; nothing is kept

StartResponse = Callable[..., Any]


def _secret(app: Flask) -> bytes:
    found: bytes | None = app.extensions.get("tichu_live_key")
    if found is None:
        secret = str(app.config["SECRET_KEY"]).encode()
        found = hmac.new(secret, b"tichu live pages", hashlib.sha256).digest()
        app.extensions["tichu_live_key"] = found
    return found


def _sign(secret: bytes, kind: str, keys: str) -> str:
    digest = hmac.new(secret, f"{kind}\0{keys}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:SIG_LENGTH]


def url(kind: str, keys: Iterable[str]) -> str:
    """The path a page polls for the match (`kind` "m", one key) or the tables ("t")."""
    joined = ".".join(list(keys)[:MAX_TABLES])
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    from flask import request
    return f"{request.script_root}{PREFIX}{kind}/{joined}/{_sign(_secret(app), kind, joined)}"


def match_tag(revision: int | None, hands: int) -> str:
    """The version of a match as live pages compare it (in the page and the ETag)."""
    return f"m{revision or 0}.{hands}"


class Middleware:
    """Answers `GET /live/…` before Flask; passes everything else on."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine: Any = None
        self.lock = threading.Lock()
        self.asked: dict[str, float] = {}  # match key -> when last asked about
        self.versions: dict[str, tuple[int, int | None, int]] = {}
        self.read_keys: set[str] = set()
        self.read_at = float("-inf")

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        path = environ.get("PATH_INFO", "")
        if not path.startswith(PREFIX):
            return self.wsgi_app(environ, start_response)
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return _answer(start_response, "405 Method Not Allowed", b"", None,
                           [("Allow", "GET, HEAD")])
        status, body, tag = self.answer(path[len(PREFIX):],
                                        environ.get("HTTP_IF_NONE_MATCH", ""))
        if environ["REQUEST_METHOD"] == "HEAD":
            body = b""
        return _answer(start_response, status, body, tag)

    def answer(self, rest: str, if_none_match: str) -> tuple[str, bytes, str | None]:
        """(status, JSON body, version) for the path after /live/."""
        if rest.startswith(STREAM):  # no live process in front (`make run`): poll instead
            return "204 No Content", b"", None
        named = parse(self.app, rest)
        if named is None:
            return "404 Not Found", b'{"error": "not found"}', None
        kind, names = named
        try:
            found = self._match(names[0], if_none_match) if kind == "m" else self._tables(names)
        except Exception:  # the database is away or stalled: the page asks again later
            logging.getLogger(__name__).warning("Live version unavailable", exc_info=True)
            return "503 Service Unavailable", b'{"error": "try again"}', None
        if found is None:
            return "404 Not Found", b'{"error": "not found"}', None
        tag, data = found
        if _matches(if_none_match, tag):
            return "304 Not Modified", b"", tag
        return "200 OK", json.dumps({"tag": tag} | data).encode(), tag

    def _read(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        if self.engine is None:
            self.engine = engine(self.app)
        return read(self.engine, sql, params)

    def _versions(self, key: str) -> tuple[int, int | None, int] | None:
        """(id, revision, hand count) of the match `key`, as read at most `FRESH` seconds
        ago: the matches this process was asked about lately are read again together, in
        one statement, when the oldest answer kept is older than that. A process answers
        its hundreds of questions a second from a few reads, each a fraction of the 2 s a
        change may take to show."""
        now = time.monotonic()
        with self.lock:
            self.asked[key] = now
            if now - self.read_at < FRESH and key in self.read_keys:
                return self.versions.get(key)
            keys = [k for k, at in self.asked.items() if now - at < ASKED_LATELY][:MAX_READ]
            if key not in keys:
                keys.append(key)
            for gone in [k for k, at in self.asked.items() if now - at >= ASKED_LATELY]:
                del self.asked[gone]
            rows = self._read(_matches_sql(len(keys)), keys)
            self.versions = {row[0]: (row[1], row[2], row[3]) for row in rows}
            self.read_keys = set(keys)
            self.read_at = now
            return self.versions.get(key)

    def _match(self, key: str, if_none_match: str) -> tuple[str, dict[str, Any]] | None:
        found = self._versions(key)
        if found is None:
            return None
        match_id, revision, hands = found
        tag = match_tag(revision, hands)
        data: dict[str, Any] = {"revision": revision or 0, "hands": hands}
        if not _matches(if_none_match, tag):  # changed: what changed, for the note
            data["last"] = self.last(match_id)
        return tag, data

    def last(self, match_id: int) -> dict[str, Any] | None:
        last = self._read("SELECT action, position, phone FROM hand_event WHERE match_id = ? "
                          "ORDER BY id DESC LIMIT 1", [match_id])
        return entry(*last[0]) if last else None

    def _tables(self, keys: list[str]) -> tuple[str, dict[str, Any]] | None:
        sums = _sums(self._read(_sums_sql(len(keys)), keys))
        tag = tables_tag(self.app, sums, keys)
        if tag is None:  # none of the tables is left
            return None
        return tag, {"matches": matches_of(sums, keys)}


def parse(app: Flask, rest: str) -> tuple[str, list[str]] | None:
    """(kind, keys) of a signed path after /live/ (or /live/s/), None for a wrong one: the
    signature is checked here, before the database is asked anything."""
    kind, _, rest = rest.partition("/")
    keys, _, sig = rest.partition("/")
    names = keys.split(".")
    if (kind not in ("m", "t") or not sig or len(names) > MAX_TABLES
            or (kind == "m" and len(names) != 1)
            or not all(KEY.fullmatch(n) for n in names)
            or not hmac.compare_digest(sig.encode(), _sign(_secret(app), kind, keys).encode())):
        return None
    return kind, names


def engine(app: Flask) -> Any:
    """The app's database engine (its pool), for reads outside a request."""
    with app.app_context():
        return db.engine


def read(engine: Any, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """Rows of one statement ("?" marks), on a pooled connection, outside a transaction.
    A connection found lost (the database's bounds gave it up, `database.py`) is discarded
    with every one pooled before it, as SQLAlchemy does for the ORM's: none is asked again."""
    dialect = engine.dialect
    if dialect.paramstyle in ("format", "pyformat"):
        sql = sql.replace("?", "%s")
    connection = engine.raw_connection()
    try:
        raw = connection.driver_connection
        postgres = dialect.name == "postgresql"
        if postgres:
            raw.autocommit = True  # no BEGIN and ROLLBACK round trips around one read
        try:
            cursor = raw.cursor()
            try:
                cursor.execute(sql, params)
                return list(cursor.fetchall())
            finally:
                cursor.close()
        finally:
            if postgres and not raw.closed:
                raw.autocommit = False
    except dialect.loaded_dbapi.Error as error:
        if dialect.is_disconnect(error, connection.dbapi_connection, None):
            engine.pool._invalidate(connection, error)  # (SQLAlchemy's `Connection` does so)
        raise
    finally:
        connection.close()


def versions(engine: Any, keys: list[str]) -> dict[str, tuple[int, int | None, int]]:
    """(id, revision, hand count) of each of these matches that exists, in one statement."""
    found: dict[str, tuple[int, int | None, int]] = {}
    for at in range(0, len(keys), MAX_READ):
        part = keys[at:at + MAX_READ]
        rows = read(engine, _matches_sql(len(part)), part)
        found |= {row[0]: (row[1], row[2], row[3]) for row in rows}
    return found


def _matches_sql(n: int) -> str:
    marks = ", ".join("?" for _ in range(n))
    return f'SELECT key, id, revision, hand_count FROM "match" WHERE key IN ({marks})'  # nosec B608


def last_entries(engine: Any, ids: list[int]) -> dict[int, dict[str, Any]]:
    """The latest entry of each of these matches' logs, for the note, in one statement."""
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = read(engine, "SELECT match_id, action, position, phone FROM hand_event WHERE id IN "
                f"(SELECT max(id) FROM hand_event WHERE match_id IN ({marks}) "
                "GROUP BY match_id)", ids)  # nosec B608: "?" only
    return {row[0]: entry(*row[1:]) for row in rows}


def entry(action: str, position: int, phone: str | None) -> dict[str, Any]:
    """A log entry as the live note reads it: what happened to which hand, and on whose
    phone (`phones.py`; absent for a phone without a name)."""
    found: dict[str, Any] = {"action": action, "hand": position}
    if phone:
        found["phone"] = phone
    return found


def _sums_sql(n: int) -> str:
    """Per table (of n named by their keys, those that exist): its name and its matches'
    count, sum of revisions, newest id and sum of stamps: the tables' version live pages
    compare."""
    marks = ", ".join("?" for _ in range(n))
    return ("SELECT g.key, g.name, count(m.id), sum(m.revision), max(m.id), sum(m.stamp), "
            'g.generation FROM tichu_group g LEFT JOIN "match" m ON m.group_id = g.id '
            f"WHERE g.key IN ({marks}) GROUP BY g.key, g.name, g.generation")  # nosec B608


def _sums(rows: Iterable[Any]) -> dict[str, tuple[Any, ...]]:
    return {row[0]: tuple(row[1:]) for row in rows}


def table_sums(engine: Any, keys: list[str]) -> dict[str, tuple[Any, ...]]:
    """`_sums_sql` for any number of tables, in one statement per `MAX_READ`."""
    found: dict[str, tuple[Any, ...]] = {}
    for at in range(0, len(keys), MAX_READ):
        part = keys[at:at + MAX_READ]
        found |= _sums(read(engine, _sums_sql(len(part)), part))
    return found


def tables_tag(app: Flask, sums: dict[str, tuple[Any, ...]], keys: list[str]) -> str | None:
    """The version of several tables from their `table_sums` (None when none is left): the
    sums of their matches' checksums, and a keyed mark of their names and generations (a
    rename changes the version, and so do new links: a screen watching by the old code
    learns it, `views/watch.py`; the mark tells nothing of the name)."""
    rows = [sums[k] for k in dict.fromkeys(keys) if k in sums]
    if not rows:
        return None
    named = hmac.new(_secret(app), "\0".join(f"{r[0]}\1{r[5]}" for r in rows).encode(),
                     hashlib.sha256)
    newest = max((r[3] for r in rows if r[3] is not None), default=0)
    return (f"t{sum(r[1] for r in rows)}.{sum(r[2] or 0 for r in rows)}.{newest}."
            f"{sum(r[4] or 0 for r in rows)}.{named.hexdigest()[:6]}")


def matches_of(sums: dict[str, tuple[Any, ...]], keys: list[str]) -> int:
    """How many matches these tables hold, from their `table_sums`."""
    return sum(sums[k][1] for k in dict.fromkeys(keys) if k in sums)


def tables(keys: list[str]) -> dict[str, str] | None:
    """What a page that lists the matches of these tables polls: its path and the version
    it shows, read in the request's own session (None for no table)."""
    keys = keys[:MAX_TABLES]
    if not keys:
        return None
    connection = db.session.connection()
    sql = _sums_sql(len(keys))
    if connection.dialect.paramstyle in ("format", "pyformat"):
        sql = sql.replace("?", "%s")
    sums = _sums(connection.exec_driver_sql(sql, tuple(keys)).all())
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return {"url": url("t", keys), "tag": tables_tag(app, sums, keys) or "t"}


def _matches(if_none_match: str, tag: str) -> bool:
    return f'"{tag}"' in if_none_match or if_none_match.strip() == "*"


def _answer(start_response: StartResponse, status: str, body: bytes, tag: str | None,
            extra: list[tuple[str, str]] | None = None) -> list[bytes]:
    headers = [("Cache-Control", CACHE_CONTROL), ("X-Content-Type-Options", "nosniff")]
    if tag is not None:
        headers.append(("ETag", f'"{tag}"'))
    if body or not status.startswith("304"):
        headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    start_response(status, headers + (extra or []))
    return [body]


def init_app(app: Flask) -> None:
    """Answer live questions in front of the app; `live_url` for the templates."""
    app.wsgi_app = Middleware(app, app.wsgi_app)  # type: ignore[method-assign]
    app.jinja_env.globals.update(live_url=url, live_match_tag=match_tag)
