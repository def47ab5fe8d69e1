// Offline at the table, and lie-fi (the phone believes it is online, the request dies).
// Every new hand goes through the outbox (IndexedDB) before it is sent: it is sent with a
// timeout; any network failure, timeout or server error leaves it waiting, and it is
// replayed later, exactly once (each hand carries a client id the server counts once).
// While hands wait, the match page shows provisional totals, marked as such, and the next
// hand gets the right number. A hand another phone saved meanwhile (409) waits for the
// player's choice. The matches this phone scores are remembered for the offline page
// (offline-list.js lists them).
(function () {
  "use strict";
  const DB = "tichu-scorer";
  const OUTBOX = "outbox";
  const MATCHES = "matches";
  const TIMEOUT = 8000; // ms: a save that takes longer is treated as lost and queued
  const loaded = Date.now(); // the hands that wait by then are before this page's hand form

  if ("serviceWorker" in navigator) {
    // a new worker is looked for after every page; the server says how long its answer lasts
    navigator.serviceWorker.register("/sw.js", { updateViaCache: "all" }).catch(() => {});
    // a page served from the phone's copy because the network was slow: the fresh one came
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.fresh === window.location.pathname) window.location.reload();
    });
  }

  // One connection per page, opened on first use. A newer page of the app (another tab, after
  // a deploy) that upgrades the database asks it to close: it does at once, so that the
  // upgrade is never blocked, and the next use opens it again, at whatever version it is
  // then. An operation that gets no answer in time fails with a note, never hangs a save.
  const IDB_TIMEOUT = 5000; // ms
  let connection = null;
  function request(version) {
    return new Promise((resolve, reject) => {
      const req = version ? indexedDB.open(DB, version) : indexedDB.open(DB);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(OUTBOX)) db.createObjectStore(OUTBOX, { keyPath: "client_id" });
        if (!db.objectStoreNames.contains(MATCHES)) db.createObjectStore(MATCHES, { keyPath: "url" });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  function open() {
    if (!connection) {
      // already upgraded by a newer page: its stores include these
      connection = request(2).catch((err) => {
        if (err && err.name === "VersionError") return request(null);
        throw err;
      }).then((db) => {
        const forget = () => { if (connection === opened) connection = null; };
        db.onversionchange = () => { db.close(); forget(); };
        db.onclose = forget; // closed by the browser (storage cleared)
        return db;
      });
      const opened = connection;
      connection.catch(() => { if (connection === opened) connection = null; });
    }
    return connection;
  }
  function stuck() {
    const box = document.getElementById("outbox");
    if (!box || !box.dataset.stuck || document.getElementById("storage-note")) return;
    const note = document.createElement("p");
    note.id = "storage-note";
    note.className = "outbox";
    note.setAttribute("role", "alert");
    note.textContent = box.dataset.stuck;
    box.after(note);
  }
  function timed(promise) {
    let timer;
    const late = new Promise((resolve, reject) => {
      timer = setTimeout(() => { stuck(); reject(new Error("IndexedDB did not answer")); }, IDB_TIMEOUT);
    });
    return Promise.race([promise, late]).then((value) => {
      const note = document.getElementById("storage-note");
      if (note) note.remove(); // it answers again
      return value;
    }).finally(() => clearTimeout(timer));
  }
  function tx(store, mode, fn) {
    return timed(open().then((db) => new Promise((resolve, reject) => {
      const t = db.transaction(store, mode);
      const result = fn(t.objectStore(store));
      t.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error);
    })));
  }
  const all = (store) => tx(store || OUTBOX, "readonly", (s) => s.getAll());
  const put = (item, store) => tx(store || OUTBOX, "readwrite", (s) => s.put(item));
  const remove = (key) => tx(OUTBOX, "readwrite", (s) => s.delete(key));

  // Send one queued hand. "saved": the server stored it (or had it already); "later": no
  // answer, a timeout or a server error, so it waits; "refused": the server answered 4xx
  // and stored nothing (conflict, a problem in the hand, no rights).
  async function send(item, token) {
    const fields = new URLSearchParams(item.fields);
    if (token) fields.set("csrf_token", token);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT);
    try {
      // A save answers 303 to the match page; not following it keeps its "saved" message
      // for the page the phone shows next.
      const response = await fetch(item.action, {
        method: "POST", body: fields, credentials: "same-origin", signal: abort.signal,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        redirect: "manual",
      });
      if (response.type === "opaqueredirect") return { kind: "saved", url: item.match };
      if (response.status >= 500 || response.status === 429 || response.ok) return { kind: "later" };
      const answer = await response.json().catch(() => null); // the server's reasons, as data
      return { kind: "refused", status: response.status, answer: answer };
    } catch (err) {
      return { kind: "later" };
    } finally {
      clearTimeout(timer);
    }
  }

  // The phone's copy of the core (docs/OFFLINE_CORE.md) is driven by core-client.js,
  // loaded only when a page needs it: data-core names the worker and that script.
  let client = null;
  const coreUrls = () => {
    const el = document.querySelector("[data-core]");
    return el ? el.dataset.core.split(" ") : [];
  };
  function coreClient() {
    if (!client && coreUrls()[1]) {
      client = new Promise((resolve, reject) => {
        const tag = document.createElement("script");
        tag.src = coreUrls()[1];
        tag.onload = () => resolve(window.tichuCore);
        tag.onerror = () => { client = null; reject(); };
        document.head.append(tag);
      });
    }
    return client || Promise.reject();
  }

  async function freshToken() {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT);
    try {
      const r = await fetch("/csrf-token", { cache: "no-store", credentials: "same-origin", signal: abort.signal });
      return r.ok ? (await r.json()).csrf_token : null;
    } catch (err) {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  function messageOf(answer, status) {
    const first = answer && answer.errors && answer.errors[0];
    if (first) return first.message + (first.rule ? " (" + first.rule + ")" : "");
    return answer && answer.error ? answer.error : "refused (" + status + ")";
  }

  // The player's own save: queued first, then sent; nothing is lost whatever the network.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form.hand-form[data-offline]")) return;
    event.preventDefault();
    const fields = new URLSearchParams(new FormData(form, event.submitter));
    let id = fields.get("client_id");
    if (!id) { id = window.tichuId(); fields.set("client_id", id); }
    const preview = form.dataset.previewScores ? JSON.parse(form.dataset.previewScores) : null;
    // the hand as it stands at Save (hand.js), also when Save came before any preview, or
    // as Grand Seigneur's ranking keeps it (ranking.js): the core scores it while it waits
    const previewed = form.dataset.previewBody ? JSON.parse(form.dataset.previewBody) : null;
    const body = typeof form.tichuBody === "function" ? form.tichuBody() : previewed;
    const item = { client_id: id, action: form.action || window.location.href, fields: fields.toString(),
                   match: form.dataset.matchUrl, number: Number(fields.get("number")) || 0,
                   scores: preview, body: body, created: Date.now() };
    form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; });
    // without signal, the phone's core refuses what the server would (the same message and
    // rule): the form keeps the hand, as the server's page of problems does
    // (asked only where a preview answered: Save never waits for the core's first start, and
    // a hand the preview already refused waits for the server's own refusal)
    const refused = navigator.onLine === false && previewed ? await refusedHere(form, item) : null;
    if (refused) {
      showRefusal(form, refused);
      form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = false; });
      return;
    }
    ownSave.add(id); // this page sends it now: a flush meanwhile leaves it alone
    await put(item);
    const result = await send(item, null); // (every answer below leaves the page)
    if (result.kind === "saved") {
      await remove(id);
      window.location.href = result.url;
    } else if (result.kind === "later") {
      window.location.href = item.match + "?queued=1"; // the phone's copy shows it waiting
    } else {
      // Nothing was stored: let the server show its answer (the problem, or the conflict
      // with the other phone's hand and the choice) as a normal page, asked with what it
      // refused (the submitter's name is among the fields). The hand stays in the outbox,
      // marked, until it is saved or discarded: if that page never comes (the network
      // went), nothing is lost.
      if (result.status === 409) item.conflict = true;
      else item.error = messageOf(result.answer, result.status);
      await put(item);
      postAsPage(item, null);
    }
  }, true);

  // Without signal: the problems the server would answer for this hand, from the phone's
  // core, after the hands of its match waiting before it; null when it would take it, or
  // when the core cannot say (the hand then waits, as before)
  async function refusedHere(form, item) {
    if (!item.body || !form.dataset.core) return null;
    try {
      const core = await coreClient();
      const before = (await all()).filter((i) => i.match === item.match && !i.conflict && !i.error && i.client_id !== item.client_id)
        .sort((a, b) => a.number - b.number).map((i) => i.body || null);
      const [answer, status] = await core.ask({ op: "preview", facts: core.factsOf(), waiting: before, body: item.body });
      return status === 422 && answer.errors && answer.errors.length ? answer.errors : null;
    } catch (err) {
      return null;
    }
  }
  function showRefusal(form, errors) {
    form.querySelectorAll(".problems").forEach((box) => { box.replaceChildren(); });
    errors.forEach((e) => {
      const box = form.querySelector('.problems[data-group="' + (e.group || "match") + '"]') ||
        form.querySelector('.problems[data-group="match"]');
      if (!box) return;
      const p = document.createElement("p");
      p.className = "problem";
      p.setAttribute("role", "alert");
      p.dataset.problem = e.group || "match";
      p.append(e.message + " ");
      const a = document.createElement("a");
      a.className = "rule";
      a.href = "/rules#" + e.rule;
      a.textContent = e.rule;
      p.append(a);
      box.append(p);
    });
    const first = form.querySelector(".problems .problem");
    if (first) first.scrollIntoView({ block: "center" });
  }

  // Undo while hands wait takes the latest waiting hand off the phone (nothing is sent);
  // without signal, an undo of a saved hand cannot reach the server: the page says so.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form[data-undo]") || (!form.dataset.waiting && navigator.onLine !== false)) return;
    event.preventDefault();
    if (form.dataset.waiting) {
      await remove(form.dataset.waiting).catch(() => {});
      await show();
      return;
    }
    const box = document.getElementById("outbox");
    box.textContent = form.dataset.noSignal;
    box.hidden = false;
  }, true);

  // "Discard mine" after a conflict: the hand leaves the outbox too.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("[data-discard]");
    if (link && link.dataset.discard) remove(link.dataset.discard).catch(() => {});
  });

  // One sending at a time; a flush asked for meanwhile (the "online" event, the player's
  // tap, the timer) runs once more after it, since the network may have come back only
  // after the first had tried. The promise answers when the outbox has been tried.
  let flushing = null;
  let again = false;
  // The hands this page's own Save is sending at this moment: the flush that a page starts
  // as it loads (its storage slow to open) must not send the same hand beside it.
  const ownSave = new Set();
  function flush() {
    if (flushing) { again = true; return flushing; }
    flushing = (async () => {
      let sent = 0;
      do { again = false; sent += await sendWaiting(); } while (again);
      await show();
      if (sent && document.querySelector("[data-live-match]")) window.location.replace(window.location.pathname);
    })().finally(() => { flushing = null; });
    return flushing;
  }
  async function sendWaiting() {
    let sent = 0;
    try {
      const items = (await all()).filter((i) => !i.error && !i.conflict).sort((a, b) => a.created - b.created);
      for (const item of items) {
        if (ownSave.has(item.client_id)) continue; // this page's Save sends it (also one begun while this flush ran)
        const token = await freshToken();
        if (!token) break; // still no network: the rest waits
        const result = await send(item, token);
        if (result.kind === "saved") {
          await remove(item.client_id);
          sent += 1;
        } else if (result.kind === "later") {
          break;
        } else if (result.status === 409) {
          item.conflict = true; // another phone saved this hand: the player chooses
          await put(item);
          sent += 1; // the match changed: show it as it is now
        } else {
          item.error = messageOf(result.answer, result.status);
          await put(item);
        }
      }
    } catch (err) {
      // the network went away again: the rest waits
    }
    return sent;
  }

  // Show a waiting hand's refusal with the server's page: the conflict with both hands and
  // the choice, or the problem in the form. The hand stays in the outbox until it is saved
  // (a save from that page replaces it) or discarded. Sent again first: a refusal that no
  // longer holds (rights given since, a hand deleted meanwhile) saves it, and it leaves.
  async function review(item) {
    const token = await freshToken();
    if (token && (await send(item, token)).kind === "saved") {
      await remove(item.client_id);
      window.location.href = item.match;
      return;
    }
    postAsPage(item, token);
  }

  // The server's page for a hand it refused: the very request it refused, its fields as they
  // were sent (the client id, the hand's number and entry number), posted as a page. Never
  // the form as it stands now: a field changed since would make another request, one the
  // server may take (a hand saved under another number, unasked). The same request again
  // stores only what the first would have stored had it come now (a refusal that no longer
  // holds), and once (its client id).
  function postAsPage(item, token) {
    const fields = new URLSearchParams(item.fields);
    if (token) fields.set("csrf_token", token);
    const form = document.createElement("form");
    form.method = "post";
    form.action = item.action;
    fields.forEach((value, name) => {
      const input = document.createElement("input");
      input.type = "hidden"; input.name = name; input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  async function show() {
    const items = await all().catch(() => []);
    const box = document.getElementById("outbox");
    const waiting = items.filter((i) => !i.conflict && !i.error);
    if (box) {
      const conflicts = items.filter((i) => i.conflict);
      const refused = items.filter((i) => i.error);
      box.hidden = items.length === 0;
      box.replaceChildren();
      if (waiting.length) {
        box.append(waiting.length === 1 ? box.dataset.one : box.dataset.many.replace("{n}", String(waiting.length)));
      }
      conflicts.concat(refused).forEach((item) => {
        const line = document.createElement("span");
        line.className = "outbox-item";
        line.textContent = item.conflict ? box.dataset.conflict.replace("{n}", String(item.number))
          : box.dataset.refused.replace("{n}", String(item.number)) + " " + item.error;
        // its Show (the server's page: review) and its Discard
        [[box.dataset.show, () => review(item)], [box.dataset.drop, () => remove(item.client_id).then(show)]]
          .forEach(([text, act]) => {
            const button = document.createElement("button");
            button.type = "button";
            button.className = "link";
            button.textContent = text;
            button.addEventListener("click", act);
            line.append(" ", button);
          });
        box.append(line);
      });
    }
    provisional(waiting);
    return items;
  }

  // The match page and the hand form while hands of this match wait. Only the latest count
  // draws: one still waiting on the core (a slow first start) never draws hands sent or
  // refused since.
  let counts = 0;
  async function provisional(waiting) {
    const count = ++counts;
    const latest = () => count === counts;
    // the match page, its page of every hand, its hand form (?queued=1 aside)
    const here = window.location.pathname.replace(/\/(hands\/new|every-hand)$/, "");
    const mine = waiting.filter((i) => i.match === here).sort((a, b) => a.number - b.number);
    const live = document.querySelector("[data-live-match]");
    const form = document.querySelector("form.hand-form[data-offline]");
    // the regions as the server drew them, before anything below changes them: the core
    // draws them again with the waiting hands, or puts these back (core-client.js)
    document.querySelectorAll("[data-region]").forEach((el) => { if (!("kept" in el)) el.kept = el.innerHTML; });
    // back to what the page says, then count what still waits (a hand may have been sent,
    // or now wait for a choice, since the last count)
    document.querySelectorAll("[data-next-hand]").forEach((el) => {
      if ("shown" in el.dataset) el.textContent = el.dataset.shown;
    });
    document.querySelectorAll("[data-total], [data-victory]").forEach((el) => {
      if ("stored" in el.dataset) el.textContent = el.dataset.stored;
      el.classList.remove("provisional");
    });
    const note = document.getElementById("provisional");
    if (note) note.hidden = true;
    if (live && !mine.length && client) client.then((c) => latest() && c.provisional([]), () => {}); // none waits
    // Undo takes back the latest hand: while hands wait, that is the latest waiting one
    const undo = document.querySelector("form[data-undo]");
    const undoButton = undo && undo.querySelector("button");
    if (undoButton) {
      const latest = mine[mine.length - 1];
      undo.dataset.shown = undo.dataset.shown || undoButton.textContent;
      undo.dataset.waiting = latest ? latest.client_id : "";
      undoButton.textContent = undo.dataset.shown.replace(/\d+/, (n) => (latest ? latest.number : n));
      if ("noneStored" in undo.dataset) undo.hidden = !latest; // only a waiting hand to take back
    }
    if (!mine.length) return;
    const next = Math.max(...mine.map((i) => i.number)) + 1;
    document.querySelectorAll("[data-next-hand]").forEach((el) => {
      if (!("shown" in el.dataset)) el.dataset.shown = el.textContent;
      if (next > Number(el.dataset.nextHand)) el.textContent = el.textContent.replace(/\d+/, String(next));
    });
    // the hand form follows the hands that waited when it opened; not its own, on its way
    // (its Save: the server's page for a refusal would be asked for the next hand), nor one
    // another tab of this phone saves meanwhile (live.js says so, and Save lets one choose)
    const before = form ? mine.filter((i) => i.created < loaded) : [];
    if (before.length) {
      const number = form.querySelector("input[data-number]");
      const after = Math.max(...before.map((i) => i.number)) + 1;
      if (number && after > Number(number.value)) {
        // the entry number moves with it: the waiting hands take the ones before
        const entry = form.querySelector("input[data-entry]");
        if (entry && entry.value) entry.value = String(Number(entry.value) + after - Number(number.value));
        number.value = String(after);
        const title = form.querySelector("h1");
        if (title) title.textContent = title.textContent.replace(/\d+/, String(after));
      }
    }
    if (!live) return;
    // the core scores them as the server will (core-client.js); without it, the scores
    // each hand's preview showed count, as before
    const core = await coreClient().catch(() => null);
    if (!latest()) return;
    if (core && await core.provisional(mine, live, note, latest)) return; // drawn by the core
    if (!latest()) return;
    document.querySelectorAll("[data-total]").forEach((el) => {
      const side = Number(el.dataset.total);
      if (!("stored" in el.dataset)) el.dataset.stored = el.textContent.trim();
      let total = Number(el.dataset.stored);
      mine.forEach((i) => { if (i.scores && side < i.scores.length) total += i.scores[side]; });
      el.textContent = String(total);
      el.classList.add("provisional");
    });
    if (note && note.dataset.text) {  // Grand Seigneur's page says nothing without the core
      const counted = mine.filter((i) => i.scores).length;
      const parts = [];
      if (counted) parts.push(counted === 1 ? note.dataset.textOne : note.dataset.text.replace("{n}", String(counted)));
      if (mine.length > counted) parts.push(note.dataset.unscored.replace("{n}", String(mine.length - counted)));
      note.hidden = false;
      note.textContent = parts.join(" ");
    }
  }

  // Remember the matches this phone scores, and keep their pages ready for no signal: the
  // match page, its hand form and, for a long match, its page of every hand. The copies are
  // fetched again only when the match moved on (another hand, other totals): a repeat view
  // of an unchanged match costs one request, the page itself.
  async function remember(worker) {
    const live = document.querySelector("[data-live-match][data-scorer]");
    if (!live) return;
    const url = window.location.pathname.replace(/\/every-hand$/, "");  // the match, once
    // with the latest hand's entry number: a hand undone and entered again leaves the page
    // as it was, but the hand form's copy must then carry the next entry number
    const state = Array.from(document.querySelectorAll("[data-next-hand], [data-total], form[data-undo] [name=number]"),
      (el) => el.dataset.nextHand || el.dataset.stored || el.value || el.textContent.trim()).join(" ");
    const known = (await all(MATCHES).catch(() => [])).find((m) => m.url === url);
    // when this phone first scored it (the offline page's lines tell matches apart by it)
    const since = known ? known.since || known.at : Date.now();
    await put({ url, title: document.title, at: Date.now(), since, state }, MATCHES).catch(() => {});
    // the worker that keeps them: this page's, or on a first visit the one just installed
    const controller = worker || navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!controller) return;
    // the page of every hand is named by the match page (opened, it is kept as it is)
    // and what its chart is drawn from with hands waiting on the phone (core-client.js)
    const urls = [url, live.dataset.handUrl, live.dataset.everyUrl, live.dataset.core && url + "/chart.json"].filter(Boolean);
    const kept = await Promise.all(urls.map((u) => caches.match(u).catch(() => undefined)));
    if (known && known.state === state && kept.every(Boolean)) return;
    controller.postMessage({ cache: urls });
  }

  window.addEventListener("online", flush);
  // another phone's change was put in place (live.js): new totals to count on, a new copy
  document.addEventListener("tichu:live", () => { remember(); show(); });
  if (new URLSearchParams(window.location.search).has("queued")) {
    // shown from the phone's copy once; a reload asks the network again
    window.history.replaceState(null, "", window.location.pathname);
  }
  // The server's page for a refused hand (its problems, or the conflict and the choice)
  // holds the hand now: it leaves the outbox, so a Cancel drops it, and a Save queues it
  // again. Until that page comes, the hand waits in the outbox (nothing is lost).
  function handedBack() {
    const id = document.querySelector("form.hand-form[data-offline] input[data-client-id]");
    if (id && id.value && document.querySelector(".problems .problem, #conflict")) {
      return remove(id.value).catch(() => {});
    }
    return Promise.resolve();
  }

  document.addEventListener("DOMContentLoaded", () => {
    // A page that may need the core (a scorer's match page and hand form, the referee):
    // without signal, it starts while the player taps, so the first preview comes sooner;
    // ready.js has the service worker keep it and its snapshot, and the match page say so
    if (navigator.onLine === false) coreClient().then((c) => c.ask({ op: "batch", items: [] })).catch(() => {});
    const sw = navigator.serviceWorker;
    const ready = document.getElementById("ready-note");
    if (sw && coreUrls()[0] && ready) document.head.append(Object.assign(document.createElement("script"), { src: ready.dataset.script }));
    // a first visit: the pages it needs without signal, as soon as they can be kept
    if (sw && !sw.controller) sw.ready.then((r) => remember(r.active));
    remember();
    handedBack().then(show).then(flush);
  });
  setInterval(flush, 20000); // lie-fi never fires "online": try again now and then
  window.tichuOutbox = { all, flush, show, remembered: () => all(MATCHES), coreClient, freshToken };
})();
