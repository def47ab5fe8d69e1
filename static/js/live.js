// Live pages: the match page, the hand form, the board, a table's page and the history ask
// the server every second or so whether what they show changed ([data-live]: a signed path
// and the version shown). The question is conditional (If-None-Match): 304 while nothing
// changed, the new version when something did (tichu_scorer/live.py). Then the parts of the
// page ([data-live-part]) are fetched once and put in place, nothing else is touched, and a
// short note says what happened. A hand form is never touched: it says so when another phone
// took its hand's number. Hidden, it asks rarely; offline or when the server does not answer
// it waits longer each time, quietly, and asks at once when the phone is back.
(function () {
  "use strict";
  const EVERY = 1500;      // ms between questions while the page is shown (a change shows within 2 s)
  const HIDDEN = 60000;    // ms while it is hidden (asked at once when shown again)
  const LONGEST = 30000;   // ms between questions after failures
  const live = () => document.querySelector("[data-live]");
  const first = live();
  if (!first || !window.fetch) return;
  const url = first.dataset.live;
  let tag = first.dataset.liveTag;
  let timer = null;
  let asking = false;
  let failures = 0;
  let stopped = false;

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
    if (!line) return;
    line.textContent = ok ? line.dataset.checked.replace("{time}", new Date().toLocaleTimeString())
      : line.dataset.offline;
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
        if (data.tag !== tag) await changed(data);
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
      later(next());
    }
  }

  async function changed(data) {
    const parts = document.querySelectorAll("[data-live-part]");
    const before = tag;
    if (parts.length) {
      const response = await fetch(window.location.pathname + window.location.search, {
        credentials: "same-origin", headers: { "X-Tichu-Prefetch": "1" } });
      if (!response.ok) throw new Error("live: page " + response.status);
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
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
    note(data, before);
    taken(data);
    document.dispatchEvent(new CustomEvent("tichu:live", { detail: data }));
  }

  // "Hand 12 saved on another phone." when the log's latest entry is that hand added and
  // the match has one hand more; any other change gets the general note.
  function note(data, before) {
    const element = live();
    if (!element || !element.dataset.liveOther) return;
    const last = data.last;
    const added = last && last.action === "added" && data.hands === Number(String(before).split(".")[1]) + 1;
    const text = added ? element.dataset.liveAdded.replace("{n}", String(last.hand)) : element.dataset.liveOther;
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

  // A hand form whose number another phone just saved: it says so before Save (the Save
  // then shows both hands and lets the player choose).
  function taken(data) {
    const element = live();
    const number = document.querySelector("form.hand-form input[data-number]");
    if (!element || !element.dataset.liveTaken || !number) return;
    let box = document.getElementById("live-taken");
    const n = Number(number.value);
    if (data.hands >= n) {
      if (!box) {
        box = document.createElement("p");
        box.id = "live-taken";
        box.className = "problem live-taken";
        box.setAttribute("role", "alert");
        const head = document.querySelector(".hand-head");
        if (head) head.after(box); else number.form.prepend(box);
      }
      box.textContent = element.dataset.liveTaken.replace("{n}", String(n));
      box.hidden = false;
    } else if (box) {
      box.hidden = true; // taken back meanwhile (undone, deleted)
    }
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) later(0); });
  window.addEventListener("online", () => { failures = 0; later(0); });
  window.addEventListener("offline", () => { clearTimeout(timer); status(false); });
  later(EVERY);
})();
