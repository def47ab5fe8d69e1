"""Static files under content-hashed URLs, and compressed responses.

Every `url_for('static', filename=...)` carries `?v=<hash of the file>`, computed once when
the app starts; a response to such a URL may be kept a year without asking again
(`immutable`), any other static response is revalidated. A deploy changes the hash of
every file it changes, so a page never pairs its HTML with an older CSS or script.
`version` is one hash over every static file: it names the service worker's caches, so
that a deploy replaces them.

Stylesheets and scripts are shipped minified (rcssmin, rjsmin: comments and spaces out,
nothing renamed) under those URLs, compressed: the files in `static/` stay the readable
source, and the hash is the source's."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import brotli
import rcssmin
import rjsmin
from flask import Flask, current_app, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from .cache import LRU

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_LENGTH = 12
NOT_PRECACHED = ("js/sw.js", "js/core-worker.js", "manifest.webmanifest")  # own routes


@dataclass(frozen=True)
class Assets:
    hashes: dict[str, str]  # path below static/ ("js/app.js") -> hash of its bytes
    version: str  # hash over every file's path and hash

    def precached(self) -> list[str]:
        """The static files the service worker keeps from its install on."""
        return [name for name in self.hashes if name not in NOT_PRECACHED]


def scan(folder: Path) -> Assets:
    """Hash every file below `folder` (sorted, so that the version is stable)."""
    hashes: dict[str, str] = {}
    whole = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        hashes[name] = digest[:HASH_LENGTH]
        whole.update(f"{name}\0{digest}\n".encode())
    return Assets(hashes, whole.hexdigest()[:HASH_LENGTH])


def assets() -> Assets:
    """The hashes of the running app."""
    found: Assets = current_app.extensions["tichu_assets"]
    return found


MANIFEST = "pages.manifest"  # built from static files: versioned by all of them


def _add_hash(endpoint: str, values: dict[str, Any]) -> None:
    if "v" in values:
        return
    if endpoint == "static":
        digest = assets().hashes.get(str(values.get("filename", "")))
        if digest:
            values["v"] = digest
    elif endpoint == MANIFEST:
        values["v"] = assets().version


def cache_control(hashed: bool) -> str:
    return IMMUTABLE if hashed else REVALIDATE


def _brotli(raw: bytes) -> bytes:
    return bytes(brotli.compress(raw, quality=11))


def _gzip(raw: bytes) -> bytes:
    return gzip.compress(raw, 9, mtime=0)


STATIC_ENCODINGS: dict[str, Callable[[bytes], bytes]] = {"br": _brotli, "gzip": _gzip}
MINIFIERS: dict[str, Callable[[str], str]] = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def shipped(path: Path) -> bytes:
    """A static file's bytes as a phone gets them: minified when it is a stylesheet or a
    script (the same code without comments and spaces), else as stored."""
    raw = path.read_bytes()
    minify = MINIFIERS.get(path.suffix)
    return minify(raw.decode()).encode() if minify else raw


# A static file as sent, by its path, its content's hash and the encoding: made once per
# process, not per app (an app made again from the same files finds it: the tests make
# thousands, and each browser test's phone fetches every file; brotli 11 was a fifth of
# their server's CPU). None where compressing did not make it smaller.
_SENT: LRU[tuple[str, str, str], tuple[bytes | None]] = LRU(256)


def _sent(folder: Path, filename: str, digest: str, encoding: str) -> bytes | None:
    key = (str(folder / filename), digest, encoding)
    found = _SENT.get(key)
    if found is None:
        raw = shipped(folder / filename)
        packed = STATIC_ENCODINGS[encoding](raw) if encoding != "identity" else raw
        found = (packed if encoding == "identity" or len(packed) < len(raw) else None,)
        _SENT.put(key, found)
    return found[0]


def _precompressed(response: Response) -> Response:
    """A hashed static file never changes: it is minified and compressed once, at the
    highest level (brotli 11, gzip 9, too slow for pages made per request), and kept in
    memory (`_sent`); a browser that takes no encoding gets the same minified bytes. Runs
    before Flask-Compress, which leaves an encoded response alone."""
    if request.endpoint != "static" or response.status_code != 200:
        return response
    filename = str((request.view_args or {}).get("filename", ""))
    current = assets().hashes.get(filename)
    if not current or request.args.get("v") != current:
        return response
    encoding = request.accept_encodings.best_match(list(STATIC_ENCODINGS)) or "identity"
    if encoding == "identity" and Path(filename).suffix not in MINIFIERS:
        return response  # sent as stored
    body = _sent(Path(current_app.static_folder or "static"), filename, current, encoding)
    if body is None:
        return response
    unsent = response.response  # the file send_static_file opened: close it, not leak it
    response.direct_passthrough = False
    response.set_data(body)
    if hasattr(unsent, "close"):
        unsent.close()
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    # No validator: under its hash the file is `immutable` for a year, so no browser asks
    # whether it changed (a phone's service worker keeps it by its URL); an ETag would only
    # add its bytes to every first load.
    for name in ("Accept-Ranges", "Content-Disposition", "Last-Modified", "ETag"):
        response.headers.pop(name, None)
    return response


def _cache_control(response: Response) -> Response:
    """A year for the URL of the file's current hash; revalidation for anything else
    (a page from before a deploy asking for an old hash gets today's file, not kept)."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    filename = str((request.view_args or {}).get("filename", ""))
    current = assets().hashes.get(filename)
    response.headers["Cache-Control"] = cache_control(
        bool(current) and request.args.get("v") == current)
    return response


COMPRESSED_TYPES = ["text/html", "text/css", "text/javascript", "application/javascript",
                    "application/json", "application/manifest+json", "image/svg+xml",
                    "text/csv", "text/plain", "text/markdown"]


def compression_defaults() -> dict[str, object]:
    """Flask-Compress: brotli where the browser takes it, else gzip; bodies under 500 bytes
    are sent as they are (the headers would outweigh the saving)."""
    return {
        "COMPRESS_MIMETYPES": COMPRESSED_TYPES,
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],  # static files, streamed exports
        "COMPRESS_BR_LEVEL": 5,
        "COMPRESS_LEVEL": 6,
        "COMPRESS_MIN_SIZE": 500,
    }


ICON = "icons/icon.svg"


def data_uri(svg: bytes) -> Markup:
    """An SVG as a `data:` URL to write into a double-quoted attribute: the page's icon (the
    tab's and the top bar's) comes with the page instead of as a request of its own, which
    would cost a first load its headers (about 0.3 KiB) for a file of 0.2 KiB. The page's
    CSP allows `img-src data:`.

    Only what the attribute or the URL would misread is escaped (`"`, `&`, `#`, `%`): a
    browser's URL parser takes `<`, `>` and spaces in a data URL as they are, and the page
    stays smaller than with every character escaped.

    >>> data_uri(b'<svg a="1" fill="#fff"><text>&amp;</text></svg>')
    Markup("data:image/svg+xml,<svg a='1' fill='%23fff'><text>%26amp;</text></svg>")
    """
    text = svg.decode().strip().replace('"', "'")
    # our own static file, with no " or & left to end the attribute or start an entity
    return Markup("data:image/svg+xml," + quote(text, safe="/=:'(),.-; <>"))  # nosec B704


def init_app(app: Flask) -> None:
    """After Flask-Compress is bound: the hooks registered later run first."""
    folder = Path(app.static_folder or "static")
    app.extensions["tichu_assets"] = scan(folder)
    icon = data_uri((folder / ICON).read_bytes())
    app.jinja_env.globals["inline_icon"] = lambda: icon
    app.url_defaults(_add_hash)
    app.after_request(_cache_control)
    app.after_request(_precompressed)
