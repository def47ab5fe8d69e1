// Grand Seigneur: tap players in the order they went out; the last one is derived ([GS1]:
// the page says how many places are tapped, data-taps).
(function () {
  "use strict";
  const form = document.getElementById("ranking-form");
  if (!form) return;
  const buttons = form.querySelector(".out-buttons");
  const selects = Array.from(form.querySelectorAll(".out-selects select"));
  const seats = Array.from(form.querySelectorAll(".out-btn")).map((b) => Number(b.dataset.seat));
  const titles = JSON.parse(buttons.dataset.titles || "[]");
  const taps = Number(buttons.dataset.taps);
  let order = selects.map((s) => s.value).filter((v) => v !== "").map(Number);
  const hinted = /^#first=(\d+)$/.exec(window.location.hash); // tapped on the match page
  if (hinted && !order.length && seats.includes(Number(hinted[1]))) order = [Number(hinted[1])];

  // the hand as the server reads the form (forms.py, to_api): kept with it in the outbox,
  // so the phone's core scores it while it waits (offline.js)
  function keepBody() {
    form.dataset.previewBody = JSON.stringify({ out_order: selects.map((s) => s.value).filter((v) => v !== "").map(Number) });
  }

  function render() {
    const full = order.length === taps ? order.concat(seats.filter((s) => !order.includes(s))) : order;
    selects.forEach((s, i) => { s.value = i < full.length ? String(full[i]) : ""; });
    form.querySelectorAll(".out-btn").forEach((btn) => {
      const i = full.indexOf(Number(btn.dataset.seat));
      btn.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      btn.querySelector(".place").textContent = i >= 0 ? String(i + 1) + "." : "";
      btn.querySelector(".title-of").textContent = i >= 0 ? titles[i] : "";
    });
    keepBody();
  }

  buttons.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    if (btn.classList.contains("clear-order")) order = [];
    else {
      const seat = Number(btn.dataset.seat);
      const i = order.indexOf(seat);
      if (i >= 0) order = order.slice(0, i);
      else if (order.length < taps) order.push(seat);
    }
    render();
  });
  selects.forEach((s) => s.addEventListener("change", keepBody));
  buttons.hidden = false;
  form.classList.add("enhanced");
  render();
})();
