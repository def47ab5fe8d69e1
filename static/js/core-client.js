// The phone's copy of the core (docs/OFFLINE_CORE.md), loaded by offline.js only when a
// page needs it: a Web Worker running the server's own Python under Pyodide, started on
// first use. ask() answers as the server's route would, or fails (no bundle, an old
// browser, a crash, no answer in time): the caller then does what it did before, and a
// crash never touches the outbox. A page names the worker (data-core) and the facts of its
// match (data-facts). No rule lives here: the scripts pass requests and draw answers.
(function () {
  "use strict";
  const CORE_TIMEOUT = 30000; // ms: a first start on a slow phone takes seconds
  let worker = null;
  let calls = 0;
  let started = null; // how the worker's start went (core-worker.js), for benchmarks
  const pending = new Map();
  function dropWorker(reason) {
    pending.forEach((p) => p.reject(new Error(reason)));
    pending.clear();
    if (worker) worker.terminate();
    worker = null;
  }
  function core(request) {
    const el = document.querySelector("[data-core]");
    if (!el || !el.dataset.core || typeof Worker === "undefined") return Promise.reject(new Error("no core"));
    if (!worker) {
      worker = new Worker(el.dataset.core.split(" ")[0], { type: "module" });
      worker.onmessage = (event) => {
        const call = pending.get(event.data.id);
        if (!call) return;
        pending.delete(event.data.id);
        if (event.data.steps) started = event.data.steps;
        if (event.data.error || event.data.outOfTime) call.reject(new Error(event.data.error || "out of time"));
        else call.resolve(event.data.answer);
      };
      worker.onerror = () => dropWorker("the core stopped"); // the next call starts it again
    }
    calls += 1;
    const id = calls;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, text: JSON.stringify(Object.assign({ lang: document.documentElement.lang }, request)) });
      // a slow start is not a crash: this call gives up, the worker goes on starting
      setTimeout(() => { if (pending.delete(id)) reject(new Error("no answer in time")); }, CORE_TIMEOUT);
    });
  }
  // Once per bundle, with signal and while the page is idle: start the core and stop it
  // again once it kept its memory snapshot (core-worker.js), so that its first start
  // without signal begins from the snapshot (about a second, not several). Waits until the
  // service worker kept the core's files (the lock file comes last); nothing while a
  // worker already runs on this page.
  async function warm() {
    const el = document.querySelector("[data-core]");
    if (!el || !el.dataset.core || worker || !self.caches || typeof Worker === "undefined") return "no";
    const cache = await caches.open("tichu-core");
    const search = new URL(el.dataset.core.split(" ")[0], location.href).search;
    if (await cache.match("/core/snapshot" + search)) return "kept";
    if (!(await cache.keys()).some((r) => r.url.endsWith("/pyodide-lock.json"))) return "later";
    await core({ op: "batch", items: [] });
    for (let i = 0; i < 100 && !(await cache.match("/core/snapshot" + search)); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!pending.size) dropWorker("warmed"); // a call of the page keeps it running
    return "warmed";
  }
  const factsOf = () => {
    const el = document.querySelector("[data-facts]");
    return el && el.dataset.facts ? JSON.parse(el.dataset.facts) : null;
  };
  // The hands of match `url` waiting on this phone, in order, as the core takes them
  async function waitingBodies(url) {
    const items = (await window.tichuOutbox.all().catch(() => [])).filter((i) => i.match === url && !i.conflict && !i.error);
    return items.sort((a, b) => a.number - b.number).map((i) => i.body || null);
  }

  // The match page while hands of this match wait on the phone (offline.js, provisional):
  // the core scores them in turn as the server will and draws the page's regions
  // (data-region) as the server will draw them once they arrive (tichu_scorer/core/regions.py,
  // core/hand_rows.py: the same Python); this script only swaps them in, and puts the server's
  // back when none waits. Nothing is drawn once `latest` says a newer count came while the
  // core answered.
  async function provisional(mine, live, note, latest = () => true) {
    if (!mine.length) { swap(null); return true; }
    const facts = factsOf();
    const chart = document.querySelector("figure.chart") ? await chartInputs() : null;
    const rankings = live && live.dataset.rankings ? JSON.parse(live.dataset.rankings) : null;
    const seats = facts ? (facts.names || facts[1] || []).length : 0;
    const page = {
      hand_url: live && live.dataset.handUrl, rules_url: live && live.dataset.rulesUrl,
      tournament_url: live && live.dataset.tournamentUrl,
      decimal: (1.5).toLocaleString(document.documentElement.lang || "en").charAt(1),
      // each hand's bombs and note, as its form sends them (never scored)
      extras: mine.map((item) => {
        const fields = new URLSearchParams(item.fields || "");
        return { bombs: Array.from({ length: seats }, (_, s) => Number(fields.get("bombs_" + s)) || 0), note: fields.get("note") || "" };
      }),
    };
    const state = facts ? await core({ op: "waiting", facts, bodies: mine.map((i) => i.body || null), chart, rankings, page })
      .catch(() => null) : null;
    if (!latest()) return true;
    if (!state) return false; // without the core, offline.js counts the previews
    swap(state.regions);
    if (note) { note.textContent = state.note; note.hidden = !state.note; }
    return true;
  }

  // The page's regions as the core drew them, or (null) as the server drew them
  function swap(regions) {
    document.querySelectorAll("[data-region]").forEach((el) => {
      if (!("kept" in el)) el.kept = el.innerHTML; // offline.js keeps them first (keepRegions)
      const html = regions && regions[el.dataset.region];
      el.innerHTML = typeof html === "string" ? html : el.kept;
    });
    // the table shows when hands are stored or wait, and "No hands yet" only when it does not
    document.querySelectorAll("tbody[data-region=waiting]").forEach((body) => {
      const table = body.closest("table");
      if (!("shown" in table)) table.shown = !table.hidden;
      table.hidden = !table.shown && !body.children.length;
      const empty = table.parentElement.querySelector(":scope > p.empty");
      if (empty) empty.hidden = !table.hidden;
    });
  }

  // The stored hands the chart is drawn from (the server's chart.json, kept by the
  // service worker with the match page: offline.js), from the network or the phone's copy
  async function chartInputs() {
    const url = location.pathname.replace(/\/every-hand$/, "") + "/chart.json";
    const kept = () => caches.match(url).then((r) => (r ? r.json() : null));
    return fetch(url, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : kept()))
      .catch(kept).catch(() => null);
  }

  window.tichuCore = { ask: core, factsOf, waitingBodies, provisional, warm, steps: () => started };
})();
