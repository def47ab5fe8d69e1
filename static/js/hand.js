// Hand entry: tap players in out-order, quick card points, a live preview of the score.
// The rules live on the server: the preview asks POST /api/v1/score and shows its problems.
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const seats = Array.from(form.querySelectorAll(".out-btn")).map((b) => Number(b.dataset.seat));
  const selects = Array.from(form.querySelectorAll(".out-selects select"));
  const buttons = form.querySelector(".out-buttons");
  const sweepNote = form.querySelector(".sweep-note");
  const cardFieldset = form.querySelector(".card-points");
  const inputs = [form.querySelector("#card_a"), form.querySelector("#card_b")];
  const preview = form.querySelector(".preview");
  const teams = JSON.parse(form.dataset.teams || "[0, 1, 0, 1]");
  const teamSize = Number(form.dataset.teamSize || 2);
  const sideLabels = JSON.parse(form.dataset.sides || "[]");
  const sideCss = JSON.parse(form.dataset.sideCss || "[]");
  const rulesUrl = form.dataset.rulesUrl;
  const ordinal = JSON.parse(form.dataset.places || '["1st","2nd","3rd","4th","5th","6th"]');
  const teamOf = (seat) => teams[seat];
  let order = selects.map((s) => s.value).filter((v) => v !== "").map(Number);
  let active = 0; // the team the quick buttons set

  buttons.hidden = false;
  form.querySelector(".quick").hidden = false;
  form.classList.add("enhanced");

  function renderOrder() {
    selects.forEach((s, i) => { s.value = i < order.length ? String(order[i]) : ""; });
    const derived = order.length === seats.length - 1 ? seats.find((s) => !order.includes(s)) : null;
    form.querySelectorAll(".out-btn").forEach((btn) => {
      const seat = Number(btn.dataset.seat);
      const i = order.indexOf(seat);
      const place = btn.querySelector(".place");
      btn.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      btn.classList.toggle("derived", seat === derived);
      place.textContent = i >= 0 ? ordinal[i] : seat === derived ? ordinal[seats.length - 1] : "";
    });
    const first = order.slice(0, teamSize);
    const sweep = first.length === teamSize && first.every((s) => teamOf(s) === teamOf(first[0]));
    sweepNote.hidden = !sweep;
    sweepNote.textContent = sweep ? form.dataset.teamWord + " " + "AB"[teamOf(first[0])] + ": " + form.dataset.sweep : "";
    cardFieldset.classList.toggle("faded", sweep);
  }

  function setPoints(team, value) {
    inputs[team].value = String(value);
    inputs[1 - team].value = String(100 - value);
  }

  function markActive(team) {
    active = team;
    form.querySelectorAll(".cp-row label").forEach((l) => {
      l.classList.toggle("active", Number(l.dataset.team) === team);
    });
  }

  buttons.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    if (btn.classList.contains("clear-order")) {
      order = [];
    } else {
      const seat = Number(btn.dataset.seat);
      const i = order.indexOf(seat);
      if (i >= 0) order = order.slice(0, i); // tap again: take back this place and later ones
      else if (order.length < seats.length) order.push(seat);
    }
    renderOrder();
    schedule();
  });

  form.querySelector(".quick").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    const current = Number(inputs[active].value || 0);
    const value = btn.dataset.set !== undefined ? Number(btn.dataset.set) : current + Number(btn.dataset.add);
    setPoints(active, value);
    schedule();
  });

  inputs.forEach((input, team) => {
    input.addEventListener("focus", () => markActive(team));
    input.addEventListener("input", () => {
      markActive(team);
      const v = input.value.trim();
      if (/^-?\d+$/.test(v)) inputs[1 - team].value = String(100 - Number(v));
      else if (v === "") inputs[1 - team].value = "";
      schedule();
    });
  });
  form.addEventListener("change", schedule);

  function body() {
    const calls = {};
    form.querySelectorAll(".calls input[type=radio]:checked").forEach((r) => {
      if (r.value) calls[r.name.replace("call_", "")] = r.value;
    });
    const num = (i) => (/^-?\d+$/.test(i.value.trim()) ? Number(i.value.trim()) : null);
    const wish = form.querySelector("#wish_offender").value;
    return {
      out_order: order,
      calls: calls,
      card_points: [num(inputs[0]), inputs[0].value.trim() === "" ? num(inputs[1]) : null],
      wish_penalty: wish === "" ? null : { offender: Number(wish) },
    };
  }

  function groupOf(field) {
    if (field.startsWith("calls.")) return "call_" + field.slice(6);
    if (field.startsWith("card_points")) return "card_points";
    if (field.startsWith("wish_penalty")) return "wish";
    if (field === "out_order") return "out_order";
    return "match";
  }

  function showProblems(errors) {
    form.querySelectorAll(".problems").forEach((box) => { box.replaceChildren(); });
    errors.forEach((e) => {
      const box = form.querySelector('.problems[data-group="' + groupOf(e.field) + '"]');
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
    if (!b.out_order.length && !b.wish_penalty) {
      preview.textContent = form.dataset.noOrder;
      return;
    }
    try {
      const r = await fetch(form.dataset.scoreUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b),
      });
      const res = await r.json();
      if (mine !== seq) return;
      if (r.ok) { showProblems([]); showScore(res); }
      else {
        delete form.dataset.previewScores;
        showProblems(res.errors || []);
        preview.textContent = form.dataset.fix;
      }
    } catch (err) {
      if (mine === seq) preview.textContent = form.dataset.offlinePreview;
    }
  }

  markActive(0);
  renderOrder();
  if (order.length || inputs[0].value) schedule();
})();
