// The phone's copy of the core, in a Web Worker (docs/OFFLINE_CORE.md): Pyodide runs the
// same Python files as the server (tichu_scorer/answers.py, scoring/, engine/), so an
// offline preview, a waiting hand's score and a referee's verdict are the server's own.
// Started only when a page needs it; loads once, then answers each message
// { id, request } (or { id, text }: the request as JSON text, passed on as it is) with
// { id, answer } (the JSON the server's route would give) or
// { id, error }. BUNDLE is prepended by the server (views/core.py): where the runtime and
// the core's archive are, and the referee's allowance.
let ready = null;

async function start() {
  const { loadPyodide } = await import(BUNDLE.index + "pyodide.mjs");
  const [pyodide, archive] = await Promise.all([
    loadPyodide({ indexURL: BUNDLE.index, lockFileURL: BUNDLE.index + "pyodide-lock.json" }),
    fetch(BUNDLE.core).then((r) => {
      if (!r.ok) throw new Error("core archive: " + r.status);
      return r.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(archive, "zip", { extractDir: "/core" });
  pyodide.runPython("import sys; sys.path.insert(0, '/core'); import tichu_scorer.answers");
  const answers = pyodide.pyimport("tichu_scorer.answers");
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
                       ms: performance.now() - started });
  } catch (err) {
    // a failed start is tried again on the next message (the bundle may arrive later)
    if (ready) ready.catch(() => { ready = null; });
    self.postMessage({ id, error: String(err && err.message || err) });
  }
};
