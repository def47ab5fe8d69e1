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

  // The match page while hands of this match wait on the phone (offline.js, provisional);
  // nothing is drawn once `latest` says a newer count came while the core answered
  async function provisional(mine, live, note, latest = () => true) {
    if (!mine.length) { waitingRows([], [], ""); drawRanked(null, []); return; }
    // The totals, the list and who shuffles next as the server will have them once the
    // hands arrive: the phone's copy of the core scores them in turn. Without it (no
    // bundle, an old browser), the scores each hand's preview showed count, as before.
    const facts = factsOf();
    const chart = document.querySelector("figure.chart") ? await chartInputs() : null;
    const rankings = live && live.dataset.rankings ? JSON.parse(live.dataset.rankings) : null;
    const state = facts ? await core({ op: "waiting", facts: facts, bodies: mine.map((i) => i.body || null), chart, rankings })
      .catch(() => null) : null;
    if (!latest()) return;
    if (rankings) { drawRanked(state && state.ranked ? state : null, mine, note); return; }
    if (state) drawChart(state.chart, state.words);
    const scores = mine.map((item, k) => {
      if (!state) return item.scores || null;
      const hand = state.hands[k];
      return hand && hand.status === 200 ? hand.scores : null;
    });
    document.querySelectorAll("[data-total]").forEach((el) => {
      const side = Number(el.dataset.total);
      if (!("stored" in el.dataset)) el.dataset.stored = el.textContent.trim();
      let total = Number(el.dataset.stored);
      scores.forEach((s) => { if (s && side < s.length) total += s[side]; });
      el.textContent = String(total);
      el.classList.add("provisional");
    });
    // [R4]: the victory points with the waiting hands, in the page's words
    document.querySelectorAll("[data-victory]").forEach((el) => {
      const said = state && state.words.victory && state.words.victory[Number(el.dataset.victory)];
      if (!said) return;
      if (!("stored" in el.dataset)) el.dataset.stored = el.textContent;
      el.textContent = said;
      el.classList.add("provisional");
    });
    waitingRows(mine, scores, state ? state.words.row : "*");
    const shuffler = document.querySelector(".shuffler");
    if (shuffler) {
      shuffler.shown = shuffler.shown || Array.from(shuffler.childNodes, (n) => n.cloneNode(true));
      const name = state && state.shuffler_name;
      if (!name) shuffler.replaceChildren(...shuffler.shown.map((n) => n.cloneNode(true)));
      else {  // the sentence of the core's answer, the name in bold as the page has it
        const [before, after] = state.words.shuffles.split("%(name)s");
        const strong = document.createElement("strong");
        strong.textContent = name;
        shuffler.replaceChildren(before, strong, after || "");
      }
    }
    if (note) {
      // counted: the hands scored; the others are said apart, never as counted
      const counted = scores.filter(Boolean).length;
      const parts = [];
      if (counted) parts.push(counted === 1 ? note.dataset.textOne : note.dataset.text.replace("{n}", String(counted)));
      if (mine.length > counted) parts.push(note.dataset.unscored.replace("{n}", String(mine.length - counted)));
      if (state && state.facts.finished) parts.push(state.words.ends);
      note.hidden = false;
      note.textContent = parts.join(" ");
    }
  }

  // The stored hands the chart is drawn from (the server's chart.json, kept by the
  // service worker with the match page: offline.js), from the network or the phone's copy
  async function chartInputs() {
    const url = location.pathname.replace(/\/every-hand$/, "") + "/chart.json";
    const kept = () => caches.match(url).then((r) => (r ? r.json() : null));
    return fetch(url, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : kept()))
      .catch(kept).catch(() => null);
  }

  // The chart with the waiting hands, as the server's template (_partials/chart.html) draws
  // the geometry the core gives (progression.py); marked provisional until they are sent
  function drawChart(g, words) {
    const figure = document.querySelector("figure.chart");
    if (!figure || !g) return;
    const NS = "http://www.w3.org/2000/svg";
    const el = (name, attrs, text) => {
      const node = document.createElementNS(NS, name);
      Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
      if (text !== undefined) node.textContent = String(text);
      return node;
    };
    const right = g.width - 28;
    const svg = el("svg", { viewBox: `0 0 ${g.width} ${g.height}`, role: "img", "aria-labelledby": "chart-title chart-desc" });
    svg.append(el("title", { id: "chart-title" }, words.chart_title), el("desc", { id: "chart-desc" }, words.chart_desc));
    g.y_labels.forEach(([y, v]) => svg.append(el("line", { class: "grid", x1: g.left, x2: right, y1: y, y2: y }),
      el("text", { class: "axis", x: g.left - 4, y: y + 3, "text-anchor": "end" }, v)));
    g.x_labels.forEach(([x, i]) => svg.append(el("text", { class: "axis", x, y: g.height - 10, "text-anchor": "middle" }, i)));
    svg.append(el("line", { class: "zero", x1: g.left, x2: right, y1: g.zero_y, y2: g.zero_y }));
    if (g.target_y !== null) svg.append(el("line", { class: "target", x1: g.left, x2: right, y1: g.target_y, y2: g.target_y }));
    g.paths.forEach(([css, d], k) => svg.append(el("path", { class: `line ${css} side-${k}`, d })));
    g.markers.forEach(([x, y, made, label, corner]) => {
      const mark = made ? el("circle", { class: "call made", cx: x, cy: y, r: 5 })
        : el("path", { class: "call failed", d: `M${corner}l8 8m-8 0 8-8` });
      mark.append(el("title", {}, label));
      svg.append(mark);
    });
    const old = figure.querySelector("svg");
    if (old) old.replaceWith(svg);
    else figure.prepend(svg);
    figure.hidden = false;
    figure.classList.add("provisional");
  }

  // Grand Seigneur's page after the waiting hands (answers.ranked): the next seating and
  // pushes, the players' records, the waiting hands at the top of the list; what the page
  // showed comes back when none waits (or the core cannot answer)
  const node = (name, text, cls) => {
    const el = document.createElement(name);
    if (text !== undefined) el.textContent = text;
    if (cls) el.className = cls;
    return el;
  };
  function drawRanked(state, mine, note) {
    const parts = ["section[aria-labelledby=seating]", "#seating", "ol.seating", "ul.pushes", "p.empty",
      "table.records", "table.records tbody", "table.ranks", "[data-played]"].map((q) => document.querySelector(q));
    const [section, heading, seating, pushes, empty, records, stats, ranks, played] = parts;
    parts.forEach((el) => {
      if (el && !el.kept) el.kept = { nodes: Array.from(el.childNodes, (n) => n.cloneNode(true)), hidden: el.hidden };
    });
    if (ranks) ranks.querySelectorAll("tr.waiting").forEach((row) => row.remove());
    if (!state) { // as the server drew it
      [section, heading, seating, pushes, empty, records, stats, played].forEach((el) => {
        if (el) { el.replaceChildren(...el.kept.nodes.map((n) => n.cloneNode(true))); el.hidden = el.kept.hidden; }
      });
      if (ranks) ranks.hidden = ranks.kept.hidden;
      return;
    }
    const r = state.ranked;
    const any = r.titles.length > 0;
    if (section) section.hidden = !any;
    if (empty) empty.hidden = any;
    if (records) records.hidden = !any;
    if (heading) heading.textContent = r.seating;
    if (played) played.textContent = r.played;
    if (seating) seating.replaceChildren(...r.titles.map(([title, name]) => {
      const li = node("li");
      li.append(node("strong", title), ": " + name);
      return li;
    }));
    if (pushes) pushes.replaceChildren(...r.pushes.map((p) => {
      const li = node("li"); // the two names in bold, wherever the language puts them
      p.text.split(/(%\((?:giver|receiver)\)s)/).forEach((bit) => {
        const who = bit === "%(giver)s" ? p.giver : bit === "%(receiver)s" ? p.receiver : null;
        li.append(who === null ? bit : node("strong", who));
      });
      return li;
    }));
    const sign = (1.5).toLocaleString(document.documentElement.lang || "en").charAt(1);
    if (stats) stats.replaceChildren(...r.records.map(([name, lord, reign, average]) => {
      const tr = node("tr");
      const th = node("th", name);
      th.scope = "row";
      tr.append(th, node("td", lord, "num"), node("td", reign, "num"), node("td", average.replace(".", sign), "num"));
      return tr;
    }));
    const body = ranks && ranks.querySelector("tbody");
    if (body) {
      ranks.hidden = false;
      mine.forEach((item, k) => {
        const row = node("tr", undefined, "waiting");
        const th = node("th", String(item.number));
        th.scope = "row";
        const cell = node("td", r.rows[k] || "", "notes");
        if (r.rows[k]) cell.append(node("br"));  // the mark on a line of its own
        cell.append(node("small", state.words.row, "waiting-mark"));
        row.append(th, cell);
        body.prepend(row);
      });
    }
    if (note) { note.textContent = r.note; note.hidden = false; }
  }

  // The waiting hands at the top of the list, marked as waiting, with what each gives
  function waitingRows(mine, scores, words) {
    const body = document.querySelector("table.hands tbody");
    if (!body) return;
    body.querySelectorAll("tr.waiting").forEach((row) => row.remove());
    const table = body.closest("table");
    if (!("rows" in table.dataset)) table.dataset.rows = table.hidden ? "" : "1";
    table.hidden = !mine.length && !table.dataset.rows; // hands stored or waiting
    const columns = table.querySelectorAll("thead th").length;
    mine.forEach((item, k) => {
      const row = document.createElement("tr");
      row.className = "waiting";
      const head = document.createElement("th");
      head.scope = "row";
      head.textContent = String(item.number);
      row.append(head);
      const given = scores[k] || [];
      for (let c = 1; c < columns; c += 1) {
        const cell = document.createElement("td");
        if (c - 1 < given.length) {
          cell.className = "num";
          cell.textContent = (given[c - 1] > 0 ? "+" : "") + given[c - 1];
        } else if (c === columns - 1 || !given.length) {
          cell.className = "notes";
          if (c === columns - 1) cell.textContent = words;
        }
        row.append(cell);
      }
      body.prepend(row);
    });
  }

  window.tichuCore = { ask: core, factsOf, waitingBodies, provisional, warm, steps: () => started };
})();
