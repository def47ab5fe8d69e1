"""Fetch the pinned Pyodide runtime for the phone's copy of the core (docs/OFFLINE_CORE.md).

Usage: fetch_pyodide.py VERSION INTEGRITY DEST [--required]

The npm registry's `pyodide` package, one plain download of its tarball (no Node on the
machine that runs the app), checked against the pinned sha512 integrity (the registry's
`dist.integrity`), and only the files the core needs taken out of it: the loader, the
interpreter (JavaScript and WebAssembly) and the standard library archive, each stored
beside its brotli and gzip forms so that the app serves them compressed ahead of time.
The lock file is written without its package list (the core needs no package).

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
import urllib.request
from pathlib import Path

import brotli

# What the core needs from the package, as the app serves it (tichu_scorer/phone_bundle.py)
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK = "pyodide-lock.json"
DONE = ".complete"  # written last: holds the integrity of what the folder came from
BROTLI_QUALITY = 6  # the WebAssembly file takes 100 s at 11, 1.5 s at 6, 4 % larger


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
            if name == "package.json":
                continue
            packed = gzip.compress(raw, 9, mtime=0)
            (dest / f"{name}.gz").write_bytes(packed)
            better = brotli.compress(raw, quality=BROTLI_QUALITY, lgwin=24)
            if len(better) < len(packed):  # not so for the standard library, a zip already
                (dest / f"{name}.br").write_bytes(better)


def main(argv: list[str]) -> int:
    version, integrity, dest_root = argv[:3]
    required = "--required" in argv
    dest = Path(dest_root) / version
    done = dest / DONE
    if done.exists() and done.read_text().strip() == integrity:
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
