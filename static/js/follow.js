// The hand in play (RULES.md §11). A tap is queued in the phone's outbox (offline.js, beside
// the hands: one sending at a time, in order, each with a client id the server counts once)
// with the number of events this phone saw (the same tap of two phones at once counts once),
// and the panel the server answers is put in place. Without signal the tap waits there and
// the phone's core, the server's own Python (core/follow_panel.py), draws the panel with the
// waiting taps; a hand form opened meanwhile is filled with them too. No rule lives here.
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
  const outbox = window.tichuOutbox;
  if (!outbox) return; // no outbox script: the form posts as a page
  const form = () => document.querySelector("form[data-follow]");
  const handForm = () => document.querySelector("form.hand-form[data-follow-facts]");
  let served = null; // the match page's panel as the server drew it: the page's, or its latest answer
  // The hand the waiting taps of this match are for, as the core takes it: the one the
  // server holds (`facts`), or, once a hand of this match waits in the outbox, the next one
  // (not followed yet on the server: no events; its taps are those made after that hand).
  // Its table stays the server's (a Threechu shuffler's seat may move: the server then
  // refuses a Grand Tichu it no longer takes, with its rule).
  function pending(items, match, facts) {
    const mine = items.filter((i) => i.match === match && !i.error && !i.conflict);
    const hands = mine.filter((i) => !outbox.isTap(i));
    const after = Math.max(0, ...hands.map((i) => i.created || 0));
    const taps = mine.filter((i) => outbox.isTap(i) && i.created > after).sort((a, b) => a.created - b.created);
    const known = JSON.parse(facts || "{}");
    if (hands.length) Object.assign(known, { events: [], number: known.number + hands.length });
    return { facts: known, taps, hands: hands.length };
  }
  const matchOf = (action) => new URL(action, location.href).pathname.replace(/\/follow$/, "");
  const tapsOf = (items) => items.map((i) => Object.fromEntries(new URLSearchParams(i.fields)));

  let told = ""; // a refusal said under the panel: said again on a page live.js put in place
  function note(text, waiting) {
    told = waiting ? told : text || "";
    const el = document.querySelector("[data-follow-note]");
    if (!el) return;
    el.hidden = !text;
    el.textContent = text || "";
    el.classList.toggle("waiting", Boolean(waiting));
  }
  function put(answer) {
    const f = form();
    if (!f || !answer || typeof answer.panel !== "string") return;
    f.querySelector("[data-follow-panel]").innerHTML = served = answer.panel;
    f.querySelector("[data-seen]").value = String(answer.seen);
    if (answer.tag) document.dispatchEvent(new CustomEvent("tichu:shown", { detail: { tag: answer.tag } }));
    const facts = answer.follow && answer.follow.events;
    if (facts && f.dataset.followFacts) { // what the core draws from, as the server has it now
      const known = JSON.parse(f.dataset.followFacts);
      known.events = facts.map((e) => ({ kind: e.kind, seat: e.seat === undefined ? null : e.seat, rank: e.rank || null }));
      f.dataset.followFacts = JSON.stringify(known);
    }
    outbox.remember(); // the hand form's copy opens filled with what the server holds now
  }
  function refused(answer) {
    const f = form();
    const errors = (answer && answer.errors) || [];
    const said = errors.map((e) => e.message + " (" + e.rule + ")").join(" ") || (answer && answer.error) || "";
    return f ? f.dataset.refused + " " + said : said;
  }

  // The core's answer for these facts and waiting taps; only the latest asked is drawn.
  let asked = 0;
  async function drawn({ facts, taps }) {
    const count = ++asked;
    const core = await outbox.coreClient().catch(() => null);
    const answer = core && await core.ask({ op: "follow", facts, taps: tapsOf(taps) }).catch(() => null);
    return count === asked && answer && typeof answer.panel === "string" ? answer : null;
  }

  // The match page: the panel with this match's waiting taps (or the next hand's, once a
  // hand waits), drawn by the phone's core; the server's again once nothing waits.
  async function drawWaiting(items) {
    const f = form();
    if (!f || !f.dataset.followFacts) return;
    const panel = f.querySelector("[data-follow-panel]");
    if (served === null) served = panel.innerHTML;
    const mine = pending(items || await outbox.all().catch(() => []), matchOf(f.action), f.dataset.followFacts);
    if (!mine.taps.length && !mine.hands) {
      if (document.querySelector("[data-follow-note].waiting")) note("");
      if (panel.innerHTML !== served) panel.innerHTML = served;
      return;
    }
    if (mine.taps.length) note(f.dataset.waiting, true);
    else if (document.querySelector("[data-follow-note].waiting")) note("");
    const answer = await drawn(mine);
    if (answer) panel.innerHTML = answer.panel;
  }

  // A hand form opened while taps wait: filled as the server will fill it once they arrive
  // ([L6], follow.recorded), unless the player began on it first.
  let touched = false;
  async function fillForm() {
    const f = handForm();
    if (!f || !f.dataset.followFacts) return;
    ["input", "click"].forEach((type) => f.addEventListener(type, () => { touched = true; }, { once: true }));
    const mine = pending(await outbox.all().catch(() => []), f.dataset.matchUrl, f.dataset.followFacts);
    const answer = mine.taps.length ? await drawn(mine) : null;
    if (!answer || !answer.form || touched) return;
    fill(f, answer.form);
    f.dispatchEvent(new CustomEvent("tichu:filled")); // hand.js, ranking.js read it again
  }
  function fill(f, recorded) {
    const set = (name, value) => f.querySelectorAll(`[name="${name}"]`).forEach((el) => {
      if (el.type === "radio") el.checked = el.value === value;
      else el.value = value;
    });
    const order = recorded.out_order || [];
    if (order.length) { // none tapped: the order the page has stays (a first player tapped on the match page)
      f.querySelectorAll(".out-selects select").forEach((s, i) => { s.value = i < order.length ? String(order[i]) : ""; });
    }
    if (!recorded.calls) return; // Grand Seigneur: the order alone
    const seats = JSON.parse(f.dataset.followFacts).names.length;
    for (let seat = 0; seat < seats; seat += 1) {
      set("call_" + seat, recorded.calls[String(seat)] || "");
      const bombs = (recorded.bombs || [])[seat];
      set("bombs_" + seat, bombs ? String(bombs) : "");
    }
    const wish = recorded.wish_penalty;
    set("wish_offender", wish ? String(wish.offender) : "");
    const box = f.querySelector("details.wish");
    if (box && wish) box.open = true;
  }

  document.addEventListener("submit", async (event) => {
    const f = event.target;
    const button = event.submitter;
    if (!f.matches || !f.matches("form[data-follow]") || !button || button.name !== "event") return;
    event.preventDefault(); // before app.js's guard: every tap is its own event
    const fields = new URLSearchParams(new FormData(f));
    const match = matchOf(f.action);
    const mine = pending(await outbox.all().catch(() => []), match, f.dataset.followFacts);
    fields.set("event", button.value);
    fields.set("client_id", window.tichuId());
    // the events this phone knows of, its own waiting taps counted (stored before this one)
    fields.set("seen", String((mine.hands ? 0 : Number(fields.get("seen") || 0)) + mine.taps.length));
    f.setAttribute("aria-busy", "true");
    await outbox.tap({ action: f.action, client_id: fields.get("client_id"), fields: fields.toString(), match })
      .catch(() => {});
    f.removeAttribute("aria-busy");
  }, true);
  // a tap the flush sent (offline.js): the hand as the server has it now, or its refusal,
  // said here with its rule; then it leaves the outbox (shown nowhere else, it stays there
  // refused, for the outbox's line). A refusal stays said until a tap made after it is taken.
  let refusedAt = 0;
  document.addEventListener("tichu:tap", (event) => {
    const { item, result } = event.detail;
    const f = form();
    if (!f || item.action !== f.action) return;
    put(result.answer);
    if (result.kind === "refused") {
      note(refused(result.answer));
      refusedAt = Date.now();
      outbox.discard(item.client_id);
    } else if (item.created > refusedAt) {
      note("");
    }
  });
  // the outbox changed (offline.js, show): the panel with what still waits
  document.addEventListener("tichu:outbox", (event) => drawWaiting(event.detail.items));
  document.addEventListener("tichu:live", () => { // another phone's change put in place
    served = null;
    if (told) note(told);
    drawWaiting();
  });

  // taps kept by this script before they shared the outbox (localStorage): moved there once
  const OLD = "tichu-follow-outbox";
  async function moveOld() {
    let old = [];
    try { old = JSON.parse(localStorage.getItem(OLD) || "[]"); } catch (err) { /* none readable */ }
    for (const item of old) await outbox.tap(Object.assign(item, { match: matchOf(item.action) }));
    if (old.length) localStorage.removeItem(OLD);
  }
  moveOld().catch(() => {}).then(() => { drawWaiting(); fillForm(); });
})();
