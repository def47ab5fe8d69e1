"""Fetch the pinned Pyodide runtime for the phone's copy of the core (docs/OFFLINE_CORE.md).

Usage: fetch_pyodide.py VERSION INTEGRITY DEST [--required]

The npm registry's `pyodide` package, one plain download of its tarball (Node is not
needed to fetch it), checked against the pinned sha512 integrity (the registry's
`dist.integrity`), and only the files the core needs taken out of it: the loader, the
interpreter (JavaScript and WebAssembly) and the standard library archive. The lock file
is written without its package list (the core needs no package).

Then, from the files on disk (no network), what the app serves is made: the standard
library cut to the modules the core imports (`core_stdlib.zip`, the list in
tools/core_stdlib.txt, found and kept true by tests/browser/test_phone_stdlib.py), its
files stored uncompressed so that brotli packs them as one text, and each served file
stored beside its brotli (quality 10) and gzip forms, so that the app serves them
compressed ahead of time. A file is compressed again only when it, the quality or the
window changed (the WebAssembly file takes about 13 s at 10).

Where Node is installed (Debian's `nodejs`; npm brings it), the cut is served compiled:
tools/compile_stdlib.mjs runs the pinned Pyodide's own Python under Node to turn each
module into its bytecode, once for each cut (about 3 s), which makes a phone's first start
of the core about three times faster (docs/PERFORMANCE.md). Without Node the cut is served
as sources, and the phone compiles them on that first start. A compile that fails or hangs
(COMPILE_SECONDS) is said once and remembered beside the files (FAILED): later set-ups serve
the sources at once, until the cut, the compiler or the Node changes (or the file is
deleted). With --required (CI) a compile that fails is an error, remembered or not.

The tarball's address is never written in the project: it is asked of npm when npm is
installed (`npm view pyodide@VERSION dist.tarball`, which follows the user's npm
configuration and mirrors), else built from NPM_CONFIG_REGISTRY (the variable npm itself
reads), else taken whole from PYODIDE_TARBALL. Without any of them, or without network,
the app still runs: the phone then scores only with signal, and says so. With --required
(CI) that is an error."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

import brotli

# What the core needs from the package (the app serves them: tichu_scorer/views/core.py)
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK = "pyodide-lock.json"
FULL = "python_stdlib.zip"  # kept on disk to cut from, never served
CUT = "core_stdlib.zip"
SERVED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", CUT, LOCK)
DONE = ".complete"  # written once fetched: holds the integrity of what the folder came from
PACKED = ".compressed.json"  # each served file's hash and quality, as last compressed
BROTLI_QUALITY = 10  # the WebAssembly file 13 % smaller than at 6, in 13 s (11: 2 % more, 100 s)
BROTLI_WINDOW = 22  # brotli's default: on the WebAssembly file 26 KB smaller than 24
MODULES = Path(__file__).resolve().parent / "core_stdlib.txt"
COMPILE = Path(__file__).resolve().parent / "compile_stdlib.mjs"
MADE_FROM = "core_stdlib.zip made from"  # in PACKED: the cut's hash and the served zip's
# Node's start of Pyodide and the compile: about 3 s, 7 s under load, 12 s at a load average
# of 9.8 on 2 cores (the slowest measured). 60 s is five times that: room for a loaded CI
# machine (where a time-out fails the run) and a small home server; a Node still busy then is
# taken as hung. A user waits it out once, not at every `make run`: a failure is remembered
# (FAILED) for that Node and that cut. Longer would only lengthen that one wait; shorter
# would risk remembering a slow but working Node as failed.
COMPILE_SECONDS = 60
# Beside the served files when Node failed to compile the cut: the Node, the cut and the
# compiler it failed with, and what it said. Deleting it, or another Node, tries again.
FAILED = ".compile-failed.json"


def tarball_url(version: str) -> str | None:
    explicit = os.environ.get("PYODIDE_TARBALL")
    if explicit:
        return explicit
    npm = shutil.which("npm")
    if npm:
        try:
            found = subprocess.run([npm, "view", f"pyodide@{version}", "dist.tarball"],
                                   capture_output=True, text=True, timeout=60, check=True)
            if found.stdout.strip():
                return found.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    registry = os.environ.get("NPM_CONFIG_REGISTRY") or os.environ.get("npm_config_registry")
    if registry:
        return f"{registry.rstrip('/')}/pyodide/-/pyodide-{version}.tgz"
    return None


def check(data: bytes, integrity: str) -> None:
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise SystemExit(f"pyodide: the download's {algorithm} is {digest}, the pin says "
                         f"{expected}: not used")


def unpack(data: bytes, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in (*FILES, LOCK, "package.json"):
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise SystemExit(f"pyodide: {name} missing from the package")
            raw = member.read()
            if name == LOCK:  # the interpreter reads its info; the core needs no package
                lock = json.loads(raw)
                raw = json.dumps({"info": lock["info"], "packages": {}}).encode()
            (dest / name).write_bytes(raw)


def listed(text: str) -> list[str]:
    """The module names of tools/core_stdlib.txt (one a line, `#` starts a comment; `pkg.*`
    is the whole package)."""
    return [line.split("#", 1)[0].strip() for line in text.splitlines()
            if line.split("#", 1)[0].strip()]


def cut(full: bytes, modules: list[str]) -> bytes:
    """The standard library archive with only the files of `modules`, each stored (not
    deflated: brotli then packs the sources together, smaller than a zip of deflated
    files), in the archive's order and with its dates, so the same list makes the same
    bytes. A module the archive lacks is an error: the list is wrong."""
    source = zipfile.ZipFile(io.BytesIO(full))
    names = set(source.namelist())
    wanted: set[str] = set()
    for module in modules:
        path = module.removesuffix(".*").replace(".", "/")
        if module.endswith(".*"):
            found = {n for n in names if n.startswith(path + "/") and not n.endswith("/")}
        else:
            found = {f"{path}.py", f"{path}/__init__.py"} & names
        if not found:
            raise SystemExit(f"pyodide: {module} (tools/core_stdlib.txt) is not in {FULL}")
        wanted |= found
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        for info in source.infolist():
            if info.filename in wanted:
                kept = zipfile.ZipInfo(info.filename, info.date_time)
                out.writestr(kept, source.read(info))
    return buffer.getvalue()


def attempt(node: str, sources: bytes) -> dict[str, str]:
    """What a compile's outcome depends on: the Node binary (its real path and the file's
    size, times and inode: a Node installed, upgraded, switched or made runnable since is
    another), the cut and the compiler script. Nothing is run to know it."""
    real = os.path.realpath(node)
    try:
        found = os.stat(real)
        seen = (f"{real} ({found.st_size} bytes, mtime {found.st_mtime_ns}, "
                f"ctime {found.st_ctime_ns}, inode {found.st_ino})")
    except OSError:
        seen = real
    try:
        compiler = hashlib.sha256(COMPILE.read_bytes()).hexdigest()
    except OSError:
        compiler = "missing"
    return {"node": seen, "cut": hashlib.sha256(sources).hexdigest(), "compiler": compiler}


def compiled(dest: Path, sources: bytes, required: bool = False) -> bytes | None:
    """`sources` (a cut of the standard library) with each module as its bytecode, made by
    the Pyodide in `dest` under Node; None without Node or when the compile fails (said
    once, and remembered in FAILED: the same Node is not run again on the same cut; an
    error when `required`, which tries again whatever is remembered)."""
    node = shutil.which("node")
    if node is None:
        if required:
            raise SystemExit("pyodide: Node is not installed, so the phone's standard "
                             "library cannot be compiled (apt-get install nodejs)")
        return None
    failed, tried = dest / FAILED, attempt(node, sources)
    if not required and {k: v for k, v in read_record(failed).items() if k != "said"} == tried:
        return None  # failed before with this Node on this cut, and said so then
    with tempfile.TemporaryDirectory() as work:
        given, made = Path(work) / "sources.zip", Path(work) / "compiled.zip"
        given.write_bytes(sources)
        try:
            run = subprocess.run([node, str(COMPILE), str(dest), str(given), str(made)],  # noqa: S603
                                 capture_output=True, text=True, timeout=COMPILE_SECONDS,
                                 check=False)
        except subprocess.TimeoutExpired:  # a Node that hangs
            said = f"timed out after {COMPILE_SECONDS} s"
        except OSError as exc:  # a Node that will not run
            said = str(exc)
        else:
            if run.returncode == 0 and made.exists():
                failed.unlink(missing_ok=True)
                return made.read_bytes()
            said = (run.stderr.strip().splitlines() or ["no message"])[-1]
    if required:
        raise SystemExit(f"pyodide: compiling the standard library failed: {said}")
    failed.write_text(json.dumps(tried | {"said": said}, indent=1) + "\n")
    print(f"pyodide: compiling the standard library with {node} failed ({said}); the phone "
          "compiles it on its first start. Later set-ups do not try again until this Node or "
          f"tools/core_stdlib.txt changes; to try again sooner, delete {failed}",
          file=sys.stderr)
    return None


def read_record(record: Path) -> dict[str, str]:
    """PACKED as last written; empty when missing or unreadable (everything is then made
    again, as on a first set-up)."""
    try:
        found = json.loads(record.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def prepare(dest: Path, modules: list[str], required: bool = False) -> None:
    """What the app serves, from the files on disk: the cut standard library (compiled
    where Node is installed, once for each cut), and each served file's compressed forms
    where they are out of date."""
    made = cut((dest / FULL).read_bytes(), modules)
    record = dest / PACKED
    packed_as = read_record(record)
    # kept when made from this cut and unchanged since (not cut short, not put back by an
    # older set-up: the record names both hashes), and compiled exactly when Node is here
    # (where Node failed on this cut before, compiled() gives the sources at once)
    served_now = (dest / CUT).read_bytes() if (dest / CUT).exists() else None
    made_from = hashlib.sha256(made).hexdigest()
    kept = (served_now is not None
            and packed_as.get(MADE_FROM) == f"{made_from} {hashlib.sha256(served_now).hexdigest()}"
            and (served_now != made) == (shutil.which("node") is not None))
    if not kept:
        served = compiled(dest, made, required) or made
        if served_now != served:
            (dest / CUT).write_bytes(served)
        packed_as[MADE_FROM] = f"{made_from} {hashlib.sha256(served).hexdigest()}"
        record.write_text(json.dumps(packed_as, indent=1) + "\n")
    for stale in (f"{FULL}.gz", f"{FULL}.br"):  # served before the cut
        (dest / stale).unlink(missing_ok=True)
    for name in SERVED:
        raw = (dest / name).read_bytes()
        tag = f"{hashlib.sha256(raw).hexdigest()} brotli {BROTLI_QUALITY}/{BROTLI_WINDOW}"
        if packed_as.get(name) == tag and (dest / f"{name}.gz").exists():
            continue
        packed = gzip.compress(raw, 9, mtime=0)
        (dest / f"{name}.gz").write_bytes(packed)
        better = brotli.compress(raw, quality=BROTLI_QUALITY, lgwin=BROTLI_WINDOW)
        (dest / f"{name}.br").unlink(missing_ok=True)
        if len(better) < len(packed):
            (dest / f"{name}.br").write_bytes(better)
        packed_as[name] = tag
        record.write_text(json.dumps(packed_as, indent=1) + "\n")


def main(argv: list[str]) -> int:
    version, integrity, dest_root = argv[:3]
    required = "--required" in argv
    dest = Path(dest_root) / version
    done = dest / DONE
    modules = listed(MODULES.read_text())
    if done.exists() and done.read_text().strip() == integrity:
        prepare(dest, modules, required)
        return 0
    url = tarball_url(version)
    if url is None:
        print("pyodide: npm is not installed and NPM_CONFIG_REGISTRY is not set, so the "
              "phone's offline scoring is left out (docs/OFFLINE_CORE.md)", file=sys.stderr)
        return 1 if required else 0
    print(f"Fetching Pyodide {version} for the phone's offline scoring (once)")
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:  # noqa: S310 (https or a mirror)
            data = answer.read()
    except OSError as exc:
        print(f"pyodide: download failed ({exc}); the phone scores only with signal",
              file=sys.stderr)
        return 1 if required else 0
    check(data, integrity)
    if dest.exists():
        shutil.rmtree(dest)
    unpack(data, dest)
    done.write_text(integrity + "\n")
    print("Compressing it for the phones (brotli 10: about 20 s, once)")
    prepare(dest, modules, required)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
