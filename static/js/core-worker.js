// The phone's copy of the core, in a Web Worker (docs/OFFLINE_CORE.md): Pyodide runs the
// same Python files as the server (tichu_scorer/core/answers.py, scoring/, engine/), so an
// offline preview, a waiting hand's score and a referee's verdict are the server's own.
// Started only when a page needs it; loads once, then answers each message
// { id, request } (or { id, text }: the request as JSON text, passed on as it is) with
// { id, answer } (the JSON the server's route would give) or
// { id, error }. BUNDLE is prepended by the server (views/core.py): where the runtime, the
// standard library (cut to what the core imports: tools/core_stdlib.txt) and the core's
// archive are, and the referee's allowance.
// A start from nothing (compiling the interpreter, starting Python, importing the core)
// takes seconds on a phone; so the first start keeps a memory snapshot of Pyodide right
// after the core's import (Pyodide's _makeSnapshot), and later starts begin from it
// (_loadSnapshot): no interpreter start-up, no import. The snapshot is kept in the
// service worker's cache of the core under this worker's URL (its hash names the
// runtime, its standard library's cut, the core's archive and this script), so a new
// bundle makes a new one.
let ready = null;
const SNAPSHOT = "/core/snapshot" + self.location.search;
const steps = {};  // how long each part of the start took (ms), told with the first answer

async function keptSnapshot() {
  try {
    const found = await (await caches.open("tichu-core")).match(SNAPSHOT);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (err) {
    return null;  // no Cache Storage here: start from nothing
  }
}

async function start() {
  const began = performance.now();
  const [{ loadPyodide }, kept] = await Promise.all([
    import(BUNDLE.index + "pyodide.mjs"), keptSnapshot()]);
  const load = (snapshot) => loadPyodide(Object.assign(
    { indexURL: BUNDLE.index, lockFileURL: BUNDLE.index + "pyodide-lock.json",
      stdLibURL: BUNDLE.stdlib },
    snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }));
  let snapshot = kept;
  const [pyodide, archive] = await Promise.all([
    // a snapshot that does not start (cut short, or a browser that changed) is dropped,
    // and the start goes on from nothing (which keeps a new one)
    load(snapshot).catch(async (err) => {
      if (!snapshot) throw err;
      snapshot = null;
      await caches.open("tichu-core").then((cache) => cache.delete(SNAPSHOT)).catch(() => {});
      return load(null);
    }),
    fetch(BUNDLE.core).then((r) => {
      if (!r.ok) throw new Error("core archive: " + r.status);
      return r.arrayBuffer();
    }),
  ]);
  steps.snapshot = snapshot ? snapshot.length : 0;
  steps.load = performance.now() - began;
  // the catalogs are read from the file system (a snapshot holds the heap, not the files)
  pyodide.unpackArchive(archive, "zip", { extractDir: "/core" });
  if (!snapshot) {
    pyodide.runPython("import sys; sys.path.insert(0, '/core'); import tichu_scorer.core.answers, tichu_scorer.core.waiting");
    steps.imported = performance.now() - began;
    // taken before any JavaScript object is handed to Python; kept after the first answer
    const made = pyodide.makeMemorySnapshot();
    ready.then(() => caches.open("tichu-core"))
      .then((cache) => cache.put(SNAPSHOT, new Response(made, { headers: { "Content-Type": "application/octet-stream" } })))
      .catch(() => {});
  }
  const answers = pyodide.pyimport("tichu_scorer.core.answers");
  steps.ready = performance.now() - began;
  return (text) => answers.phone(text, BUNDLE.locales, BUNDLE.seconds);
}

self.onmessage = async (event) => {
  const { id, request, text } = event.data;
  try {
    if (!ready) ready = start();
    const call = await ready;
    const started = performance.now();
    const out = JSON.parse(call(text || JSON.stringify(request)));
    self.postMessage({ id, answer: out.ok, outOfTime: Boolean(out.out_of_time),
                       ms: performance.now() - started, steps });
  } catch (err) {
    // a failed start is tried again on the next message (the bundle may arrive later)
    if (ready) ready.catch(() => { ready = null; });
    self.postMessage({ id, error: String(err && err.message || err) });
  }
};
