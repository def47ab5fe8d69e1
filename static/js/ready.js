// Ready for no signal, from the first visit on (docs/OFFLINE_CORE.md), on a page that names
// the core (a scorer's match page and hand form, the referee page), loaded by offline.js.
// Once a service worker is active (on a first visit as soon as it has installed, whether or
// not it controls this page yet) it is asked to keep the core's files: it fetches those it
// lacks, one after another, and answers what it keeps. Asked again while the page is idle
// until every file is kept; then, with signal, the core is started once so that it keeps
// its memory snapshot (core-client.js, warm). The scorer's match page says quietly whether
// this phone is ready (#ready-note, templates/_chrome/top.html).
// The start waits until the player has left the page alone for QUIET ms (no tap, no key): a
// page left within seconds (the match page → the hand form → saved) never starts the core
// only to drop it half-started, and a start never competes with the player's taps for the
// phone's CPU.
(function () {
  "use strict";
  const sw = navigator.serviceWorker;
  const QUIET = 3000;
  let touched = performance.now();
  ["pointerdown", "keydown", "input"].forEach((e) => document.addEventListener(e, () => { touched = performance.now(); }, true));
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function quiet() {
    for (let left = QUIET; left > 0; left = touched + QUIET - performance.now()) await pause(left);
    await new Promise((resolve) => (self.requestIdleCallback || setTimeout)(() => resolve()));
  }

  // The service worker's answers, each { kept, total, snapshot }: at once, and again (done)
  // once it has fetched what it lacked; undefined when it gave no final answer in time
  // (stopped meanwhile: asked again)
  let kept = null;
  const askCore = (worker) => new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    const timer = setTimeout(resolve, 60000);
    port1.onmessage = (event) => {
      kept = event.data;
      // once the page shows what the worker answered, it says so (tichu:kept: tests wait on it)
      showReady().finally(() => document.dispatchEvent(new CustomEvent("tichu:kept", { detail: kept })));
      if (!kept || kept.done) { clearTimeout(timer); resolve(kept); }
    };
    worker.postMessage({ core: true }, [port2]);
  });

  let readying = false;
  async function getReady() {
    if (readying) return;
    readying = true;
    const registration = await sw.ready;
    const warm = () => window.tichuOutbox.coreClient().then((c) => c.warm()).catch(() => "no");
    let warms = 0;
    for (let n = 1; ; n += 1) {
      const status = await askCore(sw.controller || registration.active);
      if (status && (!status.total || status.kept === status.total && status.snapshot)) break;
      // every file kept, with signal, the page idle: the core keeps its snapshot (a worker
      // this page runs already, without signal or for a preview, keeps it by itself)
      if (status && status.kept === status.total && navigator.onLine && warms < 3) {
        await quiet();
        warms += 1;
        if (["kept", "warmed"].includes(await warm())) continue;
      }
      await pause(Math.min(30000, 2000 * n));
      await quiet();
    }
    readying = false;
  }

  // The scorer's match page: ready once this phone keeps the core's files and snapshot and
  // the match's pages (its hand form too), and this page is under the service worker (so
  // that it scores here); until then, getting ready. Nothing where no core can be kept.
  let again = 0;
  async function showReady() {
    const note = document.getElementById("ready-note");
    const live = document.querySelector("[data-live-match][data-scorer]");
    if (!live || kept && !kept.total) return;
    const match = window.location.pathname.replace(/\/every-hand$/, "");
    const pages = await Promise.all([match, live.dataset.handUrl].map((url) => caches.match(url)));
    const core = kept && kept.kept === kept.total && kept.snapshot;
    const ready = core && pages.every(Boolean) && sw.controller;
    note.textContent = note.dataset[ready ? "ready" : "getting"];
    note.hidden = false;
    clearTimeout(again);
    if (core && !ready) again = setTimeout(showReady, 1000); // the page's copies still to come
  }

  // the service worker took this page over (a first visit), or a new version did (a deploy:
  // asked again what it keeps)
  sw.addEventListener("controllerchange", () => { showReady(); getReady(); });
  if (!sw.controller) showReady(); // a first visit: getting ready
  getReady();
})();
