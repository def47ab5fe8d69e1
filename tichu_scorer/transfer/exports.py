"""Exports built once per revision and served from a file (docs/security-limits.md).

An export's content depends only on its kind (JSON or CSV), the app's build and, for each
match it holds, the match's id, `revision` and `stamp`: every change of a match raises its
revision in the change's transaction, a deleted match's id taken again comes with a new
stamp, and a rename gives a seat another player (a player's name never changes). So an
export is named by a hash of those (`name`) and written once to `instance/exports/`, a
folder every worker of the server shares; every later request for the same state is
answered from that file (the server's zero-copy file sending, conditional requests by its
ETag), whoever asks and however often.

What one client can make the server build is bounded by what it may change (writes and
imports have their own limits), and a build's cost by one build at a time per server
(`_building`, a lock on a file): a request whose export is not built waits up to
EXPORT_WAIT seconds for its turn, then gets a 503 that says to try again, so no number of
clients asking for new exports ties up more than one core and the workers they wait in.
The folder holds at most EXPORT_CACHE_BYTES; the files used longest ago go first.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from flask import Response, current_app, send_file
from flask_babel import gettext

from ..extensions import db
from ..matches.kept_pages import build
from ..models import Match
from . import csv_sheet, json_export

FOLDER = "exports"
LOCK = ".building"
POLL = 0.05  # seconds between tries for the build lock


class Busy(Exception):
    """Another export is being built on this server and did not finish in time."""


def versions(match_ids: Sequence[int]) -> list[tuple[int, int, int]]:
    """Each match's (id, revision, stamp), in the order of `match_ids` (one query a
    thousand ids; a match deleted since is left out, as the export would leave it)."""
    found: dict[int, tuple[int, int, int]] = {}
    ids = list(match_ids)
    for start in range(0, len(ids), 1000):
        rows = db.session.execute(
            db.select(Match.id, Match.revision, Match.stamp)
            .where(Match.id.in_(ids[start:start + 1000])))
        found.update((i, (i, r or 0, s or 0)) for i, r, s in rows)
    return [found[i] for i in ids if i in found]


def name(kind: str, states: Iterable[tuple[int, int, int]]) -> str:
    """The export's file name: its kind, the export format's version, the app's build and
    each match's state."""
    digest = hashlib.sha256(f"{kind}\0{json_export.FORMAT}\0{json_export.VERSION}\0{build()}"
                            .encode())
    for state in states:
        digest.update(b"\0%d.%d.%d" % state)
    return f"{digest.hexdigest()[:32]}.{kind}"


def folder() -> Path:
    path = Path(current_app.instance_path) / FOLDER
    path.mkdir(exist_ok=True)
    return path


def _chunks(kind: str, ids: Sequence[int]) -> Iterator[str]:
    return json_export.stream_json(ids) if kind == "json" else csv_sheet.stream_csv(ids)


@contextlib.contextmanager
def _building(where: Path, wait: float) -> Iterator[None]:
    """The server's one build at a time: a lock on a file of the folder, held while
    building, waited for at most `wait` seconds (`Busy`)."""
    with open(where / LOCK, "a+b") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy from None
                time.sleep(POLL)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built(kind: str, ids: Sequence[int]) -> tuple[Path, str]:
    """The file of this export of these matches as they are now, built if it is not
    (`Busy` when another build holds the server longer than EXPORT_WAIT); and its ETag."""
    where = folder()
    file_name = name(kind, versions(ids))
    path = where / file_name
    if not path.exists():
        with _building(where, float(current_app.config["EXPORT_WAIT"])):
            if not path.exists():  # built by another request while this one waited
                _write(path, _chunks(kind, ids))
                _prune(where, int(current_app.config["EXPORT_CACHE_BYTES"]), keep=path)
    with contextlib.suppress(OSError):
        os.utime(path)  # used now: pruned last
    return path, file_name.split(".")[0]


def _write(path: Path, chunks: Iterable[str]) -> None:
    """Write the export beside its final name and move it there whole: a reader sees
    either no file or all of it."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                out.write(chunk.encode())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _prune(where: Path, most: int, keep: Path) -> None:
    """Remove the files used longest ago until the folder holds at most `most` bytes (the
    file just built stays)."""
    files = []
    for entry in os.scandir(where):
        if entry.name.startswith(".") or not entry.is_file():
            continue
        with contextlib.suppress(OSError):
            stat = entry.stat()
            files.append((stat.st_mtime, stat.st_size, entry.path))
    total = sum(size for _t, size, _p in files)
    for _time, size, file in sorted(files):
        if total <= most:
            break
        if file != str(keep):
            with contextlib.suppress(OSError):
                os.unlink(file)
                total -= size


def download(ids: Sequence[int], kind: str, file_name: str) -> Response:
    """The export as a download, from its built file; a 503 with Retry-After while the
    server builds another."""
    try:
        path, tag = built(kind, ids)
    except Busy:
        response = Response(gettext("Another export is being prepared on this server: try "
                                    "again in a few seconds."), status=503,
                            mimetype="text/plain")
        response.headers["Retry-After"] = "5"
        return response
    response = send_file(path, mimetype="application/json" if kind == "json" else "text/csv",
                         as_attachment=True, download_name=f"{file_name}.{kind}",
                         conditional=True, etag=tag, max_age=0)
    response.headers["Cache-Control"] = "private, no-cache"
    # the file is closed with the response, also when Flask-Compress streams it compressed
    # (it puts its own iterable in place of the file's, whose close is then never called)
    opened = response.response
    if hasattr(opened, "close"):
        response.call_on_close(opened.close)
    return response
