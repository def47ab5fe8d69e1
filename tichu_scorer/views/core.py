"""The phone's copy of the core (docs/OFFLINE_CORE.md): the Pyodide runtime fetched by the
set-up, the core's own Python files as one archive built from the source, and the Web
Worker that runs them. Every URL names its content (the Pyodide version, a hash), so a
phone keeps each file until a deploy changes it; the big files are sent compressed as
the set-up stored them (brotli, gzip), never compressed per request."""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import markupsafe
from flask import Blueprint, Flask, abort, current_app, request, send_file, url_for
from werkzeug.wrappers import Response

from ..assets import IMMUTABLE
from ..cache import files_seen, made_from
from ..limits import limit_core
from ..matches import hand_entry
from ..models import Match

bp = Blueprint("core", __name__)

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent
# What the phone runs: the pure core (tests/test_purity.py) and the compiled catalogs
CORE = ("core", "game", "scoring", "engine")
# markupsafe (pure Python; its optional C speed-ups left out): the regions' escaping
MARKUPSAFE = ("__init__.py", "_native.py")
CATALOGS = "translations"
# tools/fetch_pyodide.py keeps these, each beside its .gz and, where smaller, its .br; the
# standard library cut to the modules the core imports (tools/core_stdlib.txt), under its hash
STDLIB = "core_stdlib.zip"
RUNTIME = {"pyodide.mjs": "text/javascript", "pyodide.asm.mjs": "text/javascript",
           "pyodide.asm.wasm": "application/wasm", STDLIB: "application/zip",
           "pyodide-lock.json": "application/json"}
ENCODINGS = {"br": ".br", "gzip": ".gz"}
WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"
WORKER = "core-worker.js"  # static/js/, served here with the bundle's URLs prepended
CLIENT = "js/core-client.js"  # the page's side, a static file


@dataclass(frozen=True)
class Bundle:
    version: str  # Pyodide's
    runtime: Path  # the folder the set-up filled
    stdlib_hash: str  # of the cut standard library: its URL changes with the cut
    archive: bytes  # the core's files, zipped
    archive_hash: str
    worker: str  # the worker's script with its BUNDLE line
    worker_hash: str


def _runtime_folder(app: Flask) -> Path | None:
    """The folder of the pinned Pyodide, when the set-up could fetch it."""
    root = Path(app.config.get("PYODIDE_DIR") or os.environ.get("PYODIDE_DIR")
                or ROOT / "build" / "pyodide")
    if not root.is_absolute():
        root = ROOT / root
    wanted = os.environ.get("PYODIDE_VERSION")
    found = sorted((p for p in root.glob("*") if (p / ".complete").exists()
                    and all((p / name).exists() for name in RUNTIME)),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in p.name.split(".")])
    if wanted:
        found = [p for p in found if p.name == wanted]
    return found[-1] if found else None


def _archive_files() -> list[tuple[str, Path]]:
    """The core archive's files: each one's name in the archive and its path."""
    files = [(path.relative_to(ROOT).as_posix(), path) for name in CORE
             for path in (sorted((PACKAGE / name).rglob("*.py")) if (PACKAGE / name).is_dir()
                          else [PACKAGE / name])]
    files += [(path.relative_to(ROOT).as_posix(), path)
              for path in sorted((PACKAGE / CATALOGS).rglob("*.mo"))]
    folder = Path(markupsafe.__file__).parent
    return files + [(f"markupsafe/{name}", folder / name) for name in MARKUPSAFE]


def core_archive() -> bytes:
    """The core's Python files and compiled catalogs as one zip, built from the source (no
    copy is kept): `tichu_scorer/` with an empty `__init__.py` (the real one builds the
    web app), the same paths as on the server."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(zipfile.ZipInfo("tichu_scorer/__init__.py", (1980, 1, 1, 0, 0, 0)),
                         "")
        for name, path in _archive_files():
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def bundle() -> Bundle | None:
    """The bundle of the running app, None when the set-up could not fetch Pyodide."""
    app = current_app
    if "tichu_core" not in app.extensions:
        app.extensions["tichu_core"] = _build(app)
    found: Bundle | None = app.extensions["tichu_core"]
    return found


def _build(app: Flask) -> Bundle | None:
    runtime = _runtime_folder(app)
    if runtime is None:
        return None
    # made once per process while the files stay the same (each page names the worker)
    archive = made_from("core", files_seen(path for _name, path in _archive_files()),
                        core_archive)
    archive_hash = hashlib.sha256(archive).hexdigest()[:12]
    stdlib_hash = made_from("stdlib", files_seen([runtime / STDLIB]), lambda: hashlib.sha256(
        (runtime / STDLIB).read_bytes()).hexdigest()[:12])
    with app.test_request_context():
        urls = {"index": url_for("core.runtime", version=runtime.name, name="x")[:-1],
                "stdlib": url_for("core.runtime", version=runtime.name, name=STDLIB,
                                  v=stdlib_hash),
                "core": url_for("core.archive", v=archive_hash),
                "locales": "/core/tichu_scorer/" + CATALOGS,  # in the worker's file system
                "seconds": app.config.get("REFEREE_CPU_BUDGET")}
    script = (Path(app.static_folder or "static") / "js" / WORKER).read_text()
    worker = f"const BUNDLE = {json.dumps(urls)};\n{script}"
    return Bundle(runtime.name, runtime, stdlib_hash, archive, archive_hash, worker,
                  hashlib.sha256(worker.encode()).hexdigest()[:12])


def worker_url() -> str | None:
    """The worker's URL for a page to start it, None without a bundle."""
    found = bundle()
    return url_for("core.worker", v=found.worker_hash) if found else None


@bp.app_template_global()
def phone_core() -> str:
    """For a page's data-core: the worker's URL and its client script's (loaded by
    offline.js only when needed), empty without a bundle."""
    worker = worker_url()
    return f"{worker} {url_for('static', filename=CLIENT)}" if worker else ""


@bp.app_template_global()
def match_facts(match: Match) -> str:
    """For a page's data-facts: what the phone scores the match's next hand against."""
    return json.dumps(hand_entry.stored_state(match).as_list(), separators=(",", ":"))


def kept_urls() -> list[str]:
    """Every file a phone keeps to score without signal (the service worker's list)."""
    found = bundle()
    if found is None:
        return []
    return [url_for("core.worker", v=found.worker_hash),
            url_for("core.archive", v=found.archive_hash),
            *(url_for("core.runtime", version=found.version, name=name,
                      v=found.stdlib_hash if name == STDLIB else None)
              for name in RUNTIME)]


def _immutable(response: Response) -> Response:
    response.headers["Cache-Control"] = IMMUTABLE
    response.headers["Vary"] = "Accept-Encoding"
    return response


def _named(response: Response, asked: str | None, current: str) -> Response:
    """Kept for a year when the URL names the content served (`asked` is its hash), else
    revalidated each time: a stale or made-up `?v=` is never kept as if it were the
    file (the ETag says what was sent)."""
    if asked == current:
        return _immutable(response)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/core/pyodide/<version>/<name>")
@limit_core
def runtime(version: str, name: str) -> Response:
    """A file of the Pyodide runtime, in the best encoding the browser takes, as it lies on
    disk: sent by the server's zero-copy file sending, with an ETag and Range (a phone that
    has it asks with If-None-Match and gets a 304). The standard library's cut is the
    project's, not the version's: kept a year under its own hash only."""
    found = bundle()
    if found is None or version != found.version or name not in RUNTIME:
        abort(404)
    stored = [e for e, ext in ENCODINGS.items() if (found.runtime / (name + ext)).exists()]
    encoding = request.accept_encodings.best_match(stored)
    path = found.runtime / (name + ENCODINGS[encoding] if encoding else name)
    content = found.stdlib_hash if name == STDLIB else version
    response = send_file(path, mimetype=RUNTIME[name], conditional=True,
                         etag=f"{content}-{name}-{encoding or 'identity'}")
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if name == STDLIB:
        response.headers["Vary"] = "Accept-Encoding"
        return _named(response, request.args.get("v"), found.stdlib_hash)
    return _immutable(response)


@bp.get("/core/core.zip")
@limit_core
def archive() -> Response:
    found = bundle()
    if found is None:
        abort(404)
    response = Response(found.archive, mimetype="application/zip")
    response.set_etag(found.archive_hash)
    return _named(response.make_conditional(request), request.args.get("v"),
                  found.archive_hash)


@bp.get("/core/worker.js")
@limit_core
def worker() -> Response:
    found = bundle()
    if found is None:
        abort(404)
    response = Response(found.worker, mimetype="text/javascript")
    # the worker's own policy: the page's, and WebAssembly compiled (never JavaScript eval)
    response.headers["Content-Security-Policy"] = WORKER_CSP
    response.set_etag(found.worker_hash)
    return _named(response.make_conditional(request), request.args.get("v"),
                  found.worker_hash)
