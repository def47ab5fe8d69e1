// The phone's standard library compiled once at set-up (tools/fetch_pyodide.py), by the
// pinned Pyodide's own Python under Node: each module of the cut archive becomes its
// bytecode (`name.pyc` beside where `name.py` was, hash-based and unchecked, no source),
// so that a phone's start from nothing does not compile ~150 modules from source
// (docs/OFFLINE_CORE.md). Only Pyodide's interpreter writes bytecode its interpreter reads:
// the project's Python is another version.
//
// Usage: node compile_stdlib.mjs RUNTIME_DIR SOURCES_ZIP OUT_ZIP
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, sources, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(runtime) + "/" });
pyodide.FS.writeFile("/tmp/sources.zip", fs.readFileSync(sources));
// Entries in the archive's order with its dates, stored (brotli packs them as one), each
// code object named by the path a module has on the phone (the archive as mounted)
pyodide.runPython(`
import importlib.util
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

mounted = next(p for p in sys.path if p.endswith(".zip"))
with zipfile.ZipFile("/tmp/sources.zip") as src, \\
        zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_STORED) as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, f"{mounted}/{info.filename}", "exec", dont_inherit=True)
            data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            info = zipfile.ZipInfo(info.filename + "c", info.date_time)
        dst.writestr(zipfile.ZipInfo(info.filename, info.date_time), data)
`);
fs.writeFileSync(out, pyodide.FS.readFile("/tmp/compiled.zip"));
