// The hand in play (RULES.md §11). A tap posts the one form's button with a client id (the
// server counts it once) and the number of events this phone saw (the same tap of two
// phones at once counts once), and puts in place the panel the server drew. Without signal
// the tap waits on this phone (localStorage, sent in order when the signal is back) and the
// phone's core, the server's own Python (core/follow_panel.py), draws the panel with it.
// No rule lives here.
(function () {
  "use strict";
  // the followed panel's styles (follow.css): the page has them once a hand is followed;
  // asked for here too, before the first tap follows one
  const css = document.querySelector("form[data-follow-css]");
  if (css && !document.querySelector('link[href="' + css.dataset.followCss + '"]')) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = css.dataset.followCss;
    document.head.append(link);
  }
  const KEY = "tichu-follow-outbox";
  const TIMEOUT = 8000; // ms
  const form = () => document.querySelector("form[data-follow]");
  const load = () => { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } };
  const keep = (items) => { try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) { /* full */ } };

  function note(text, waiting) {
    const el = document.querySelector("[data-follow-note]");
    if (!el) return;
    el.hidden = !text;
    el.textContent = text || "";
    el.classList.toggle("waiting", Boolean(waiting));
  }
  function put(answer) {
    const f = form();
    if (!f || typeof answer.panel !== "string") return;
    // an answer overtaken by a later one (answers that came out of order): the panel shown
    // already holds more events
    if (Number(answer.seen) < Number(f.querySelector("[data-seen]").value)) return;
    f.querySelector("[data-follow-panel]").innerHTML = answer.panel;
    f.querySelector("[data-seen]").value = String(answer.seen);
    if (answer.tag) {
      // the version the page now shows, in the page too: live.js, loaded a second after the
      // page, starts from it (a tap before then is not taken for another phone's change)
      const shown = document.querySelector("[data-live]");
      if (shown) shown.dataset.liveTag = answer.tag;
      document.dispatchEvent(new CustomEvent("tichu:shown", { detail: { tag: answer.tag } }));
    }
    const facts = answer.follow && answer.follow.events;
    if (facts && f.dataset.followFacts) { // what the core draws from, as the server has it now
      const known = JSON.parse(f.dataset.followFacts);
      known.events = facts.map((e) => ({ kind: e.kind, seat: e.seat === undefined ? null : e.seat, rank: e.rank || null }));
      f.dataset.followFacts = JSON.stringify(known);
    }
  }
  function refused(answer) {
    const f = form();
    const errors = (answer && answer.errors) || [];
    const said = errors.map((e) => e.message + " (" + e.rule + ")").join(" ") || (answer && answer.error) || "";
    return f ? f.dataset.refused + " " + said : said;
  }
  // Taps of this page on their way: while any is, the page says so (data-tapping), and
  // live.js takes a change it hears meanwhile for perhaps its own, not another phone's.
  let sending = 0;
  async function send(item, fresh) {
    const fields = new URLSearchParams(item.fields);
    if (fresh) fields.set("csrf_token", fresh);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), TIMEOUT);
    sending += 1;
    document.documentElement.setAttribute("data-tapping", "");
    try {
      const response = await fetch(item.action, {
        method: "POST", body: fields, credentials: "same-origin", signal: abort.signal,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" } });
      if (response.status >= 500 || response.status === 429) return null;
      return { status: response.status, answer: await response.json().catch(() => null) };
    } catch (err) {
      return null; // no signal, or no answer in time: the tap waits
    } finally {
      clearTimeout(timer);
      sending -= 1;
      if (!sending) document.documentElement.removeAttribute("data-tapping");
    }
  }
  // The taps waiting on this phone, oldest first; each leaves once the server answered it.
  let flushing = false;
  async function flush() {
    if (flushing || !load().length) return;
    flushing = true;
    try {
      // offline.js's, bounded by its timeout as the hands' sending is (never a hung flush)
      const fresh = window.tichuOutbox ? await window.tichuOutbox.freshToken() : null;
      if (!fresh) return;
      for (let items = load(); items.length; items = load()) {
        const item = items[0];
        const result = await send(item, fresh);
        if (!result) break;
        keep(load().filter((i) => i.client_id !== item.client_id));
        const f = form();
        if (f && item.action === f.action && result.answer) put(result.answer);
        if (result.status !== 200) note(refused(result.answer));
      }
    } finally {
      flushing = false;
    }
    if (!load().length) { const el = document.querySelector("[data-follow-note].waiting"); if (el) note(""); }
    else drawWaiting();
  }
  // Without signal: the core draws the panel with the waiting taps of this match.
  async function drawWaiting() {
    const f = form();
    if (!f || !f.dataset.followFacts) return;
    const mine = load().filter((i) => i.action === f.action);
    if (!mine.length) return;
    note(f.dataset.waiting, true);
    const outbox = window.tichuOutbox;
    const core = outbox && await outbox.coreClient().catch(() => null);
    if (!core) return;
    const answer = await core.ask({ op: "follow", facts: JSON.parse(f.dataset.followFacts), taps: mine.map((i) => Object.fromEntries(new URLSearchParams(i.fields))) }).catch(() => null);
    if (answer && typeof answer.panel === "string") f.querySelector("[data-follow-panel]").innerHTML = answer.panel;
  }

  document.addEventListener("submit", async (event) => {
    const f = event.target;
    const button = event.submitter;
    if (!f.matches || !f.matches("form[data-follow]") || !button || button.name !== "event") return;
    event.preventDefault(); // before app.js's guard: every tap is its own event
    const fields = new URLSearchParams(new FormData(f));
    const waiting = load().filter((i) => i.action === f.action).length;
    fields.set("event", button.value);
    fields.set("client_id", window.tichuId());
    // the events this phone knows of, its own waiting taps counted (stored before this one)
    fields.set("seen", String(Number(fields.get("seen") || 0) + waiting));
    const item = { action: f.action, client_id: fields.get("client_id"), fields: fields.toString() };
    if (waiting) { keep(load().concat([item])); drawWaiting(); flush(); return; }
    f.setAttribute("aria-busy", "true");
    const result = await send(item, null);
    f.removeAttribute("aria-busy");
    if (!result) { keep(load().concat([item])); drawWaiting(); return; }
    if (result.answer) put(result.answer);
    note(result.status === 200 ? "" : refused(result.answer));
  }, true);
  window.addEventListener("online", flush);
  setInterval(flush, 20000); // lie-fi never fires "online"
  document.addEventListener("tichu:live", drawWaiting); // another phone's change put in place
  flush();
  drawWaiting();
})();
