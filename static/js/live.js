// Live pages: the match page, the hand form, the board, a table's page and the history hear
// from the server when what they show changed ([data-live]: a signed path and the version
// shown). The server pushes it over a stream (Server-Sent Events on /live/s/…, one process
// holding every phone's stream: tichu_scorer/live/stream.py). Where the stream does not get
// through (no live process, as with `make run`; an old browser; a proxy that holds it back)
// the page asks instead every second or so, conditionally (If-None-Match: 304 while nothing
// changed, tichu_scorer/live/poll.py). On a change the parts of the page ([data-live-part]) are
// fetched once and put in place, nothing else is touched, and a short note says what
// happened. A hand form is never touched: it says so when another phone (or another tab of
// this phone) took its hand's number. Offline it stops, quietly, and starts again when the
// phone is back.
(function () {
  "use strict";
  const EVERY = 1500;      // ms between questions while the page is shown (a change shows within 2 s)
  const HIDDEN = 60000;    // ms while it is hidden (asked at once when shown again)
  const LONGEST = 30000;   // ms between questions after failures
  const HELLO = 5000;      // ms a stream has to say hello before the page asks instead
  const SPREAD = 500;      // ms over which the phones told of one change fetch the page
  // The scoring phone's screen stays on (wake.js): loaded with this file, after the page.
  const wake = document.querySelector("[data-wake]");
  if (wake && !window.tichuWake) {
    const script = document.createElement("script");
    script.src = wake.dataset.wake;
    document.head.append(script);
  }
  const live = () => document.querySelector("[data-live]");
  const first = live();
  if (!first || !window.fetch) return;
  const url = first.dataset.live;
  const streamed = url.replace(/\/live\/(?=[mt]\/[^/]+\/[^/]+$)/, "/live/s/");
  let tag = first.dataset.liveTag;
  let timer = null;
  let asking = false;
  let failures = 0;
  let stopped = false;
  let source = null;       // the open stream, if any
  let streaming = false;   // the stream said hello: no questions while it holds
  let shown = Promise.resolve();

  // A tab of this phone that saves a hand tells the phone's other tabs (they share its
  // cookies and outbox, not their pages): their note and their form of that hand say it was
  // saved on this phone, not on another.
  const tabs = window.BroadcastChannel ? new BroadcastChannel("tichu-hands") : null;
  const ours = new Set(); // this match's hands this phone's other tabs sent, by number
  if (tabs) {
    tabs.onmessage = (event) => { if (event.data && event.data.live === url) ours.add(event.data.n); };
    // the form's hand, or a conflict's choice (asked before offline.js disables the Save)
    window.addEventListener("submit", (event) => {
      const n = event.target.matches(".hand-form") && new FormData(event.target, event.submitter).get("number");
      if (n) tabs.postMessage({ live: url, n: Number(n) });
    }, true);
  }

  // A match's version as its pages carry it, "m<revision>.<hands>" (live/poll.py,
  // match_tag); its revision counts up.
  const TAG = /^m(\d+)\.(\d+)$/;
  // A change is a version newer than the page shows: an answer that comes late (asked
  // before this page's own tap was answered, or a stream's event behind a question's
  // answer) is older, and no change.
  function fresher(other) {
    const a = TAG.exec(other);
    const b = TAG.exec(tag);
    return a && b ? Number(a[1]) > Number(b[1]) : other !== tag;
  }
  function later(ms) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(ask, ms);
  }
  function next() {
    if (document.hidden) return HIDDEN;
    return failures ? Math.min(LONGEST, EVERY * 2 ** failures) : EVERY;
  }
  function status(ok) {
    const line = document.querySelector("[data-live-status]");
    if (!line || stopped) return;
    line.textContent = ok ? line.dataset.checked.replace("{time}", new Date().toLocaleTimeString(document.documentElement.lang || undefined))
      : line.dataset.offline;
  }

  // The stream: each event is what a question would have answered with 200.
  function listen() {
    if (stopped || source || !window.EventSource || navigator.onLine === false) return false;
    clearTimeout(timer);
    source = new EventSource(streamed + "?tag=" + encodeURIComponent(tag));
    const opened = source;
    const hello = setTimeout(() => { if (!streaming) quit(true); }, HELLO);
    opened.addEventListener("hello", () => {
      clearTimeout(hello);
      streaming = true;
      failures = 0;
      status(true);
    });
    opened.addEventListener("message", (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch (err) { return; }
      status(true);
      // every phone watching hears of a change at the same moment: each fetches the page a
      // little apart; one change at a time; a change that could not be shown is asked again
      setTimeout(() => {
        shown = shown.then(() => (fresher(data.tag) ? changed(data) : null)).catch(() => later(EVERY));
      }, Math.random() * SPREAD);
    });
    opened.addEventListener("gone", () => { quit(false); stopped = true; });
    opened.onerror = () => {
      // CONNECTING: the browser opens it again by itself; CLOSED: refused (no live process)
      if (opened.readyState === 2) { clearTimeout(hello); quit(true); }
    };
    return true;
  }
  function quit(poll) {
    if (source) source.close();
    source = null;
    streaming = false;
    if (poll) later(0); // ask at once: what changed meanwhile shows now
  }
  function start() {
    failures = 0;
    if (!listen()) later(0);
  }

  async function ask() {
    if (asking || stopped) return;
    if (navigator.onLine === false) { status(false); return; } // "online" asks again
    asking = true;
    try {
      const response = await fetch(url, { cache: "no-store", credentials: "same-origin",
                                          headers: { "If-None-Match": '"' + tag + '"' } });
      if (response.status === 404) { stopped = true; return; } // the match is gone
      if (response.status === 200) {
        const data = await response.json();
        if (fresher(data.tag)) await changed(data);
      } else if (response.status !== 304) {
        throw new Error("live: " + response.status);
      }
      failures = 0;
      status(true);
    } catch (err) {
      failures += 1; // offline, or the server busy: quietly, a longer wait
      status(false);
    } finally {
      asking = false;
      if (!streaming || failures) later(next()); // with the stream, one question was enough
    }
  }

  // A page that says what its refusal means ([data-gone]: a screen whose watch code was
  // replaced) says so, on top, and stops; not "offline", which would be a guess.
  function gone() {
    const line = document.querySelector("[data-live-status][data-gone]");
    if (!line) return false;
    quit(false);
    stopped = true;
    line.textContent = line.dataset.gone;
    line.className = "problem";
    line.setAttribute("role", "alert");
    document.querySelector("main").prepend(line); // on top: a TV shows no more than that
    return true;
  }

  async function changed(data) {
    const parts = document.querySelectorAll("[data-live-part]");
    const before = tag;
    // a tap of the hand in play on its way from this page (follow.js, data-tapping): the
    // change heard may be that tap, whose answer puts its panel and version in place
    const tapping = document.documentElement.hasAttribute("data-tapping");
    if (parts.length) {
      const response = await fetch(window.location.pathname + window.location.search, {
        credentials: "same-origin", headers: { "X-Tichu-Prefetch": "1" } });
      if (response.status === 404 && gone()) return;
      if (!response.ok) throw new Error("live: page " + response.status);
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      if (fresh.title) document.title = fresh.title; // a table renamed
      parts.forEach((part) => {
        const other = fresh.querySelector('[data-live-part="' + part.dataset.livePart + '"]');
        if (!other) return;
        // a menu left open stays open
        const open = Array.from(part.querySelectorAll("details[open]"), (d) => d.querySelector("summary").textContent);
        other.querySelectorAll("details").forEach((d) => {
          if (open.includes(d.querySelector("summary").textContent)) d.open = true;
        });
        part.replaceWith(document.adoptNode(other));
      });
      const now = live();
      tag = now ? now.dataset.liveTag : data.tag;
    } else {
      tag = data.tag;
    }
    note(data, before, tapping);
    taken(data);
    document.dispatchEvent(new CustomEvent("tichu:live", { detail: data }));
  }

  // The owner of a phone as the page's language says it (as i18n.possessive does on the
  // server): "Bob's"; in German "Bobs", "Hans’".
  function possessive(name) {
    if (document.documentElement.lang === "de") return name + (/[sßxz]$/i.test(name) ? "’" : "s");
    return name + "'s";
  }

  // "Hand 12 saved on Bob's phone." (or "on another phone", when the phone that saved it
  // has no name: tables/phones.py; "on this phone", when another tab of this one sent it)
  // when the log's latest entry is that hand added and the match has one hand more; any
  // other change gets the general note.
  // (The owner is put in by a function: a phone named "$`" or "$&" is said as typed, never
  // as a replacement pattern.)
  function note(data, before, tapping) {
    const element = live();
    if (!element || !element.dataset.liveOther) return;
    const last = data.last;
    const added = last && last.action === "added" && data.hands === Number(String(before).split(".")[1]) + 1;
    if (tapping && !added) return; // perhaps this page's own tap: not said to be another phone's
    const here = added && ours.has(last.hand) && element.dataset.liveAddedHere;
    const named = added && typeof last.phone === "string" && last.phone && element.dataset.liveAddedOn;
    const text = here ? here.replace("{n}", String(last.hand))
      : named ? element.dataset.liveAddedOn.replace("{n}", String(last.hand)).replace("{owner}", () => possessive(last.phone))
      : added ? element.dataset.liveAdded.replace("{n}", String(last.hand)) : element.dataset.liveOther;
    let box = document.getElementById("live-note");
    if (!box) {
      box = document.createElement("p");
      box.id = "live-note";
      box.className = "flash live-note";
      box.setAttribute("role", "status");
      document.querySelector("main").prepend(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(note.timer);
    note.timer = setTimeout(() => { box.hidden = true; }, 8000);
  }

  // A hand form whose number another phone, or another tab of this one, just saved: it says
  // so before Save (the Save then shows both hands and lets the player choose; the form's
  // data-tab field tells that page which of the two it was). While this phone's own Save is
  // on its way (offline.js disables Save until the answer, or a refusal, comes), the hand
  // heard of may be its own: the save's answer tells which (a conflict shows both hands).
  function taken(data) {
    const element = live();
    const number = document.querySelector("form.hand-form input[data-number]");
    if (!element || !element.dataset.liveTaken || !number ||
        number.form.querySelector("button[type=submit]:disabled")) return;
    let box = document.getElementById("live-taken");
    const n = Number(number.value);
    const here = data.hands >= n && ours.has(n);
    const tab = number.form.querySelector("input[data-tab]");
    if (tab) tab.value = here ? String(n) : "";
    if (data.hands >= n) {
      if (!box) {
        box = document.createElement("p");
        box.id = "live-taken";
        box.className = "problem live-taken";
        box.setAttribute("role", "alert");
        const head = document.querySelector(".hand-head");
        if (head) head.after(box); else number.form.prepend(box);
      }
      box.textContent = element.dataset[here ? "liveTakenHere" : "liveTaken"].replace("{n}", String(n));
      box.hidden = false;
    } else if (box) {
      box.hidden = true; // taken back meanwhile (undone, deleted)
    }
  }

  // A hand form served from the phone's copy (no signal, lie-fi) that was kept before the
  // match moved on: the signal went after a match page came and before the service worker
  // had kept the form anew. Numbered for a hand already stored, its Save would meet the
  // phone's own hand as another phone's. It takes the next hand's number, entry number, the
  // facts its preview scores against, and its totals so far, from the match page's copy
  // when that is newer (kept as it came); offline.js then counts the waiting hands after
  // it. Never a form drawn for its hand alone (data-this-hand-only: a followed hand's taps,
  // Threechu's seating): that one is left for the copy drawn for the hand it is to be
  // (ownCopy), else its Save meets the stored hand, and the player chooses.
  async function adopt() {
    const form = document.querySelector("form.hand-form[data-offline]");
    const drawn = form && form.querySelector("[data-live-tag]");
    const number = form && form.querySelector("input[data-number]");
    const entry = form && form.querySelector("input[data-entry]");
    if (!number || !entry || !window.caches) return;
    const drawnFor = number.value; // before offline.js numbers it after the waiting hands
    const copy = await caches.match(form.dataset.matchUrl).catch(() => null);
    const page = copy && new DOMParser().parseFromString(await copy.text(), "text/html");
    const match = page && page.querySelector("[data-live-match][data-next-entry][data-facts]");
    const newer = match && TAG.exec(match.dataset.liveTag);
    const older = TAG.exec(drawn.dataset.liveTag);
    const moved = newer && older && Number(newer[1]) > Number(older[1]) && /^\d+$/.test(match.dataset.nextEntry);
    if ("thisHandOnly" in drawn.dataset) return ownCopy(form, drawnFor, moved ? Number(newer[2]) + 1 : 0);
    if (!moved) return;
    drawn.dataset.liveTag = match.dataset.liveTag;
    if (drawn === first) tag = match.dataset.liveTag;
    number.value = String(Number(newer[2]) + 1);
    entry.value = match.dataset.nextEntry;
    form.dataset.facts = match.dataset.facts;
    form.querySelectorAll("[data-now]").forEach((now) => {
      const total = page.querySelector('[data-total="' + now.dataset.now + '"]');
      if (total) now.textContent = total.textContent;
    });
    const title = form.querySelector("h1");
    if (title) {
      const before = title.textContent;
      title.textContent = before.replace(/\d+/, number.value);
      document.title = document.title.replace(before.trim(), title.textContent.trim());
    }
    if (window.tichuOutbox) window.tichuOutbox.show();
  }
  // A form drawn for its hand alone, shown for a later hand (hands wait on the phone, or
  // the match moved on since its copy): the copy drawn for that hand when the phone keeps
  // one (Threechu's next hands, keepAhead), with that hand's seating.
  async function ownCopy(form, drawnFor, next) {
    if (window.tichuOutbox) await window.tichuOutbox.show(); // numbered after the waiting hands
    const wanted = String(Math.max(Number(form.querySelector("input[data-number]").value), next));
    const url = form.dataset.matchUrl + "/hands/new?number=" + wanted;
    const copy = wanted !== drawnFor && await caches.match(url);
    // only a copy drawn for that hand (the server answers another number with the next hand)
    if (copy && (await copy.text()).includes('name="number" value="' + wanted + '"')) window.location.replace(url);
  }

  // Threechu: the forms of the hands after the next, each with its own seating (the match
  // page names them; offline.js keeps the next one), kept anew once the match moved on,
  // so that a form without signal opens the one for its hand (ownCopy); the copies of
  // hands before them go.
  async function keepAhead() {
    const match = document.querySelector("[data-live-match][data-hand-ahead]");
    const sw = navigator.serviceWorker;
    if (!match || !sw || !window.caches) return;
    const registration = await sw.ready;
    const urls = match.dataset.handAhead.split(" ");
    const first = Number(new URL(urls[0], window.location.href).searchParams.get("number"));
    for (const name of await caches.keys()) {  // (whichever cache the worker keeps pages in)
      const kept = await caches.open(name);
      for (const request of await kept.keys()) {
        const url = new URL(request.url);
        const number = url.pathname === match.dataset.handUrl && url.searchParams.get("number");
        if (number && Number(number) < first) await kept.delete(request);
      }
    }
    const now = 'data-live-tag="' + match.dataset.liveTag + '"';
    const stale = await Promise.all(urls.map(async (url) => {
      const copy = await caches.match(url);
      return copy && (await copy.text()).includes(now) ? null : url;
    }));
    const wanted = stale.filter(Boolean);
    if (wanted.length) (sw.controller || registration.active).postMessage({ cache: wanted });
  }
  adopt();
  keepAhead().catch(() => {});
  document.addEventListener("tichu:live", () => keepAhead().catch(() => {}));

  // A hidden page (another app in front, the screen off) gives its stream back and asks
  // now and then instead; shown again, it opens the stream with the version it shows, and
  // the live process tells it at once of anything that changed meanwhile.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      if (source) { quit(false); later(HIDDEN); }
      return;
    }
    if (source) status(true); else start();
  });
  // A page that changed the match itself (a tap of the hand in play, follow.js) says the
  // version it now shows: no note of "another phone" for its own change.
  document.addEventListener("tichu:shown", (event) => {
    if (event.detail && typeof event.detail.tag === "string") {
      tag = event.detail.tag;
      const element = live();
      if (element) element.dataset.liveTag = tag;
    }
  });
  window.addEventListener("online", () => { if (!source) start(); });
  window.addEventListener("offline", () => { quit(false); clearTimeout(timer); status(false); });
  if (!listen()) later(EVERY);
})();
