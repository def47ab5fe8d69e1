// Hand entry: tap players in out-order, quick card points, a live preview of the score.
// No rule lives here: the server's preview says what follows from the hand (the last place,
// the sweep, the other team's card points), and each problem with the group it belongs to;
// without signal the phone's copy of the server's core says it (core-client.js).
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const seats = Array.from(form.querySelectorAll(".out-btn")).map((b) => Number(b.dataset.seat));
  const selects = Array.from(form.querySelectorAll(".out-selects select"));
  const buttons = form.querySelector(".out-buttons");
  const clear = form.querySelector(".clear-order");
  const sweepNote = form.querySelector(".sweep-note");
  const cardFieldset = form.querySelector(".card-points");
  const inputs = [form.querySelector("#card_a"), form.querySelector("#card_b")];
  const preview = form.querySelector(".preview");
  const limits = JSON.parse(form.dataset.points || "{}");
  const sideLabels = JSON.parse(form.dataset.sides || "[]");
  const sideCss = JSON.parse(form.dataset.sideCss || "[]");
  const rulesUrl = form.dataset.rulesUrl;
  const ordinal = JSON.parse(form.dataset.places || '["1st","2nd","3rd","4th","5th","6th"]');
  let order = selects.map((s) => s.value).filter((v) => v !== "").map(Number);
  const hinted = /^#first=(\d+)$/.exec(window.location.hash); // tapped on the match page
  if (hinted && !order.length && seats.includes(Number(hinted[1]))) order = [Number(hinted[1])];
  let active = 0; // the team the quick buttons set

  form.querySelectorAll(".out-btn").forEach((b) => { b.hidden = false; });
  form.querySelector(".quick").hidden = false;
  form.classList.add("enhanced");
  // the pad sets the points: no phone keyboard (a hardware keyboard still types)
  inputs.forEach((input) => input.setAttribute("inputmode", "none"));

  let derived = null; // the server's last word on what follows from the hand
  // A problem shows once the player has worked on its field, or after a refused Save (the
  // page then comes with its problems, and the first one is brought into view).
  const touched = new Set(["match"]);
  const refused = form.querySelector(".problems .problem");
  let showAll = Boolean(refused);
  if (refused) {
    refused.setAttribute("tabindex", "-1");
    refused.scrollIntoView({ block: "center" });
    refused.focus({ preventScroll: true });
  }

  function renderOrder() {
    selects.forEach((s, i) => { s.value = i < order.length ? String(order[i]) : ""; });
    const full = derived && derived.out_order.length > order.length &&
      order.every((s, i) => derived.out_order[i] === s) ? derived.out_order : order;
    form.querySelectorAll(".out-btn").forEach((btn) => {
      const seat = Number(btn.dataset.seat);
      const i = full.indexOf(seat);
      btn.setAttribute("aria-pressed", order.includes(seat) ? "true" : "false");
      btn.classList.toggle("derived", i >= order.length);
      btn.querySelector(".place").textContent = i >= 0 ? ordinal[i] : "";
    });
    clear.hidden = !order.length;
  }

  function renderDerived(d) {
    derived = d || null;
    renderOrder();
    const note = derived && derived.note;
    sweepNote.hidden = !note;
    sweepNote.textContent = note || "";
    cardFieldset.classList.toggle("faded", Boolean(note)); // card points do not count: hidden
    if (derived && !note) { // the other team's figure, as the server counts it
      const other = 1 - active;
      const value = derived.card_points[other];
      if (inputs[active].value.trim() !== "" && value !== null && document.activeElement !== inputs[other]) {
        inputs[other].value = String(value);
      }
    }
  }

  function setPoints(team, value) {
    const low = limits.min ?? -Infinity;
    const high = limits.max ?? Infinity;
    inputs[team].value = String(Math.min(high, Math.max(low, value)));
    inputs[1 - team].value = "";
  }

  function markActive(team) {
    active = team;
    form.querySelectorAll(".cp-row label").forEach((l) => {
      l.classList.toggle("active", Number(l.dataset.team) === team);
    });
  }

  buttons.addEventListener("click", (ev) => {
    const btn = ev.target.closest(".out-btn, .clear-order");
    if (!btn) return;
    if (btn === clear) {
      order = [];
    } else {
      const seat = Number(btn.dataset.seat);
      const i = order.indexOf(seat);
      if (i >= 0) order = order.slice(0, i); // tap again: take back this place and later ones
      else if (order.length < seats.length) order.push(seat);
    }
    derived = null;
    touched.add("out_order");
    renderOrder();
    schedule();
  });

  form.querySelector(".quick").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    setPoints(active, Number(btn.dataset.set));
    touched.add("card_points");
    schedule();
  });

  inputs.forEach((input, team) => {
    input.addEventListener("focus", () => markActive(team));
    input.addEventListener("input", () => {
      markActive(team);
      inputs[1 - team].value = ""; // the preview fills in the other team's figure
      touched.add("card_points");
      schedule();
    });
  });
  form.addEventListener("change", (ev) => {
    const name = ev.target.name || "";
    if (name.startsWith("call_")) touched.add(name);
    if (name === "wish_offender") touched.add("wish");
    schedule();
  });

  function body() {
    const calls = {};
    form.querySelectorAll(".call-row input[type=radio]:checked").forEach((r) => {
      if (r.value) calls[r.name.replace("call_", "")] = r.value;
    });
    const num = (i) => (/^-?\d+$/.test(i.value.trim()) ? Number(i.value.trim()) : null);
    const picked = form.querySelector("input[name=wish_offender]:checked");
    const wish = picked ? picked.value : "";
    const points = [null, null];
    points[active] = num(inputs[active]); // the figure the player entered, not the derived one
    if (points[active] === null) points[1 - active] = num(inputs[1 - active]);
    return {
      out_order: order,
      calls: calls,
      card_points: points,
      wish_penalty: wish === "" ? null : { offender: Number(wish) },
    };
  }

  // offline.js saves the hand as it stands at Save, also when Save came before any preview
  form.tichuBody = body;

  // Show the problems of the fields worked on; returns how many show.
  function showProblems(errors) {
    form.querySelectorAll(".problems").forEach((box) => { box.replaceChildren(); });
    const shown = errors.filter((e) => showAll || touched.has(e.group || "match"));
    shown.forEach((e) => {
      const box = form.querySelector('.problems[data-group="' + (e.group || "match") + '"]');
      if (!box) return;
      const p = document.createElement("p");
      p.className = "problem";
      p.textContent = e.message + " ";
      const a = document.createElement("a");
      a.className = "rule";
      a.href = rulesUrl + "#" + e.rule;
      a.textContent = e.rule;
      p.appendChild(a);
      box.appendChild(p);
    });
    return shown.length;
  }

  function showScore(res) {
    form.dataset.previewScores = JSON.stringify(res.scores); // for provisional totals offline
    const sign = (n) => (n > 0 ? "+" + n : String(n));
    preview.replaceChildren();
    res.scores.forEach((score, i) => {
      const span = document.createElement("span");
      const label = sideLabels[i] || "";
      const team = (sideCss[i] || "").startsWith("team-");
      span.className = team ? sideCss[i] : "player";
      span.textContent = (team ? sideCss[i].slice(-1).toUpperCase() : label) + " " + sign(score) + " → " + res.totals[i];
      if (res.victory_hand && form.dataset.victory) { // [R4]: the victory points the hand gives
        span.textContent += " · " + form.dataset.victory.replace("{n}", sign(res.victory_hand[i])).replace("{total}", String(res.victory[i]));
      }
      preview.appendChild(span);
    });
    if (res.finished) {
      const end = document.createElement("strong");
      end.textContent = res.winner === null ? form.dataset.tied
        : form.dataset.wins.replace("{who}", sideLabels[res.winner] || "");
      preview.appendChild(end);
    }
  }

  let timer = null;
  let seq = 0;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, 120);
  }
  async function update() {
    const mine = ++seq;
    const b = body();
    const early = !b.out_order.length && !b.wish_penalty; // nothing to judge yet
    if (early && b.card_points.every((p) => p === null)) {
      preview.textContent = form.dataset.noOrder;
      return;
    }
    let res;
    let ok;
    let here = false;
    try {
      if (navigator.onLine === false) throw new Error("offline");
      const r = await fetch(form.dataset.scoreUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b),
      });
      res = await r.json();
      ok = r.ok;
    } catch (err) {
      // no signal, or no answer: the phone's copy of the core answers as the server would,
      // after the hands still waiting to be sent (offline.js)
      try {
        if (!form.hasAttribute("data-offline") || !window.tichuOutbox) throw err;
        const core = await window.tichuOutbox.coreClient();
        const facts = core.factsOf();
        if (!facts) throw err;
        const waiting = await core.waitingBodies(form.dataset.matchUrl);
        [res, ok] = await core.ask({ op: "preview", facts: facts, waiting: waiting, body: b });
        ok = ok === 200;
        here = true;
      } catch (err2) {
        if (mine === seq) preview.textContent = form.dataset.offlinePreview;
        return;
      }
    }
    if (mine !== seq) return;
    renderDerived(res.derived);
    if (early) { preview.textContent = form.dataset.noOrder; return; }
    if (ok) {
      showProblems([]);
      showScore(res);
      form.dataset.previewBody = JSON.stringify(b);
      if (here) {
        const note = document.createElement("small");
        note.className = "scored-here";
        note.textContent = form.dataset.scoredHere;
        preview.appendChild(note);
      }
    } else {
      delete form.dataset.previewScores;
      delete form.dataset.previewBody;
      const marked = showProblems(res.errors || []);
      preview.textContent = marked ? form.dataset.fix : form.dataset.incomplete;
    }
  }

  // Opened, the wish's choices come into view whole, above the sticky Save bar
  // bombs: one tap adds one, up to the field's most ([B1], from the server), then none
  form.querySelectorAll(".bomb-add").forEach((b) => {
    b.hidden = false;
    b.addEventListener("click", () => {
      const count = document.getElementById(b.dataset.bomb);
      const n = Number(count.value || 0);
      count.value = n >= Number(count.max) ? "" : String(n + 1);
    });
  });
  const wishBox = form.querySelector("details.wish");
  if (wishBox) {
    wishBox.addEventListener("toggle", () => {
      if (wishBox.open) wishBox.querySelector(".wish-offender").scrollIntoView({ block: "nearest" });
    });
  }

  markActive(0);
  renderOrder();
  if (order.length || inputs[0].value) schedule();
})();
