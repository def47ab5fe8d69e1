// Referee card picker: tap cards into the table, the disputed play or the rest of the hand;
// the verdict follows each change, judged and written by the server (/referee/verdict).
// The text fields stay the source of truth (and the no-script fallback); this fills them.
// The page arrives drawn by the server, so nothing here runs before the first tap.
(function () {
  "use strict";
  const form = document.getElementById("ref-form");
  // (a page cached before the picker had its data: the text fields alone)
  if (!form || !form.dataset.picker) return;
  const picker = form.querySelector(".picker");
  const box = document.getElementById("verdict-box");
  const fields = { trick: form.querySelector("#trick"), play: form.querySelector("#play"),
                   hand: form.querySelector("#hand") };

  // Everything about cards comes from the server (engine/cards.py, in the form's
  // data-picker attribute): each card's face and rank, every spelling the server reads,
  // the pass words, the suits and each game's deck. This script looks words up and adds
  // cards where they are tapped; a word it does not know stays as typed, for the server
  // to judge. Read at the first tap, not while the page loads.
  let data = null;
  // a typed word is only a key: never an object's inherited "constructor" and the like
  const own = (table, key) => (Object.prototype.hasOwnProperty.call(table, key)
    ? table[key] : undefined);
  // a field's words, split as the server's form splits them (commas or white space)
  const words = (text) => text.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  const norm = (word) => own(data.spellings, word) || word;
  const isPass = (line) => {
    const w = words(line);
    return w.length === 1 && data.pass.includes(w[0]);
  };
  // the deck of the game chosen on the form, as "variant-decks": card -> copies
  function deck() {
    const key = form.querySelector("#variant").value + "-" + form.querySelector("#decks").value;
    return own(data.decks, key) || {};
  }

  // state: trick is a list of plays (arrays; [] is a pass), play and hand are arrays
  let state = null;
  let openLine = false; // a new, still empty play on the table
  function read() {
    const lines = fields.trick.value.split("\n").filter((l) => l.trim() !== "");
    state = {
      trick: lines.map((l) => (isPass(l) ? [] : words(l).map(norm))),
      play: words(fields.play.value).map(norm),
      hand: words(fields.hand.value).map(norm),
    };
  }
  function start() {
    if (data) return;
    data = JSON.parse(form.dataset.picker);
    read();
  }

  function write() {
    const lines = state.trick.map((p) => (p.length ? p.join(" ") : data.pass[0]));
    fields.trick.value = lines.join("\n") + (openLine ? "\n" : "");
    fields.play.value = state.play.join(" ");
    fields.hand.value = state.hand.join(" ");
    render();
    ask();
  }

  // a card as a small face, as templates/referee/parts.html draws it
  function chip(card) {
    const span = document.createElement("span");
    const face = own(data.cards, card);
    if (!face) { // not a card the server reads: shown as typed
      span.className = "chip unknown";
      span.textContent = card;
      return span;
    }
    span.className = face.suit ? "chip suit-" + face.suit : "chip special";
    span.title = face.name;
    span.textContent = face.label;
    if (!face.suit) return span; // a special card's face is its name
    const mark = document.createElement("span");
    mark.className = "suit-mark";
    mark.setAttribute("aria-hidden", "true");
    span.appendChild(mark);
    const name = document.createElement("span");
    name.className = "sr-only";
    name.textContent = " " + face.name;
    span.appendChild(name);
    return span;
  }
  const chipsOf = (slot) => form.querySelector('[data-slot="' + slot + '"] .chips');

  function render() {
    const where = Object.create(null); // typed words are keys here too
    state.trick.forEach((p) => p.forEach((c) => { where[c] = "trick"; }));
    state.play.forEach((c) => { where[c] = "play"; });
    state.hand.forEach((c) => { where[c] = "hand"; });
    const cards = deck();
    const badges = JSON.parse(form.dataset.badges);
    picker.querySelectorAll(".pick").forEach((btn) => {
      const card = btn.dataset.card;
      const hide = !own(cards, card); // not in this game's deck (the Dog in Grand Seigneur)
      if (btn.hidden !== hide) btn.hidden = hide;
      const at = where[card];
      const n = total(card);
      const badge = at ? badges[at] + (n > 1 ? "×" + n : "") : "";
      if ((btn.dataset.at || "") !== badge) {
        btn.setAttribute("aria-pressed", at ? "true" : "false");
        if (badge) btn.dataset.at = badge; else delete btn.dataset.at;
      }
    });
    const groups = state.trick.map((p) => {
      const group = document.createElement("span");
      group.className = "play-group";
      if (!p.length) group.textContent = data.pass[0];
      p.forEach((c) => group.appendChild(chip(c)));
      return group;
    });
    if (openLine) {
      const group = document.createElement("span");
      group.className = "play-group open";
      group.textContent = "…";
      groups.push(group);
    }
    chipsOf("trick").replaceChildren(...groups);
    ["play", "hand"].forEach((name) => chipsOf(name).replaceChildren(...state[name].map(chip)));
    offerRun();
  }

  function target() {
    return form.querySelector('input[name="_target"]:checked').value;
  }
  function aim(slot) {
    form.querySelector("#target-" + slot).checked = true;
    offerRun();
  }

  function remove(card) {
    const passes = state.trick.map((p) => !p.length); // real passes stay
    state.trick = state.trick.map((p) => p.filter((c) => c !== card))
      .filter((p, i) => p.length || passes[i]);
    state.play = state.play.filter((c) => c !== card);
    state.hand = state.hand.filter((c) => c !== card);
  }
  function copies(card) { return own(deck(), card) || 0; }
  function count(list, card) { return list.filter((c) => c === card).length; }
  function total(card) {
    return state.trick.reduce((n, p) => n + count(p, card), 0) + count(state.play, card)
      + count(state.hand, card);
  }
  // the cards a tap adds to: the last play on the table, the disputed play or the hand
  function here(t) {
    if (t !== "trick") return state[t];
    if (openLine || !state.trick.length) return [];
    return state.trick[state.trick.length - 1];
  }
  function add(t, card) {
    if (t !== "trick") { state[t].push(card); return; }
    if (openLine || !state.trick.length || !state.trick[state.trick.length - 1].length) {
      state.trick.push([card]);
      openLine = false;
    } else {
      state.trick[state.trick.length - 1].push(card);
    }
  }

  function tap(card) {
    const t = target();
    const mine = count(here(t), card);
    if (copies(card) === 2 && mine === 1 && total(card) < 2) {
      add(t, card); // the second copy of a two-deck card
    } else if (mine > 0) {
      remove(card); // tapped again: take it back
    } else {
      if (total(card) >= copies(card)) remove(card); // a card lives in one place
      add(t, card);
    }
    write();
  }

  // A run in three taps: after its two end cards, on the table or in the play, "Fill in
  // 5–7" (with the slot's tools) adds the ranks between, each in the next of the server's
  // suits in turn that is still free, so that a filled run is never all of one suit.
  let run = null;
  function runBetween() {
    if (target() === "hand") return null; // a hand is no run: its cards are tapped one by one
    const group = here(target());
    if (group.length !== 2) return null; // the run's two ends, and nothing else yet
    const ends = group.map((c) => own(data.cards, c));
    if (!ends[0] || !ends[1] || !ends[0].rank || !ends[1].rank) return null;
    const [low, high] = ends[0].rank < ends[1].rank ? ends : [ends[1], ends[0]];
    if (high.rank - low.rank < 2) return null;
    const cards = [];
    const first = data.suits.indexOf(low.suit);
    for (let rank = low.rank + 1; rank < high.rank; rank++) {
      const step = rank - low.rank;
      const free = data.suits.map((_, k) => data.suits[(first + step + k) % data.suits.length])
        .map((suit) => Object.values(data.cards).find((f) => f.rank === rank && f.suit === suit))
        .find((f) => f && total(f.card) < copies(f.card));
      if (!free) return null;
      cards.push(free.card);
    }
    const label = (f) => f.label;
    const between = cards.map((c) => own(data.cards, c));
    return { cards: cards, text: label(between[0]) + (between.length > 1
      ? "–" + label(between[between.length - 1]) : "") };
  }
  function offerRun() {
    const old = form.querySelector(".fill");
    if (old) old.remove();
    run = runBetween();
    if (!run) return;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "fill";
    btn.dataset.action = "fill";
    btn.textContent = form.dataset.fill.replace("{run}", run.text);
    form.querySelector('[data-slot="' + target() + '"] .slot-tools').prepend(btn);
  }
  function fill() {
    const t = target();
    const group = here(t);
    const last = group.pop();
    group.push(...run.cards, last);
    // a run given from end to end is a whole play: on the table, the disputed play is next
    if (t === "trick") aim("play");
    write();
  }

  function tool(action, slot) {
    if (action === "clear") {
      if (slot === "trick") { state.trick = []; openLine = false; } else { state[slot] = []; }
      aim(slot);
    } else if (action === "next") {
      if (state.trick.length && state.trick[state.trick.length - 1].length) openLine = true;
      aim("trick");
    } else if (action === "pass") {
      state.trick.push([]);
      openLine = false;
      aim("trick");
    }
    write();
  }

  form.addEventListener("click", (ev) => {
    const el = ev.target.closest(".pick, [data-action], .chips");
    if (!el) return;
    start();
    if (el.matches(".pick")) {
      tap(el.dataset.card);
    } else if (el.dataset.action === "fill") {
      fill();
    } else if (el.dataset.action) {
      tool(el.dataset.action, el.closest(".slot").dataset.slot);
    } else { // a slot's cards: that slot is filled next
      aim(el.closest(".slot").dataset.slot);
    }
  });
  form.addEventListener("change", (ev) => {
    start();
    const el = ev.target;
    if (el.name === "_target") { offerRun(); return; }
    if (el.id === "wish" && el.value && !state.hand.length) aim("hand"); // the wish asks for the hand
    if (el.id === "variant" || el.id === "decks") render();
    ask();
  });
  Object.values(fields).forEach((f) => f.addEventListener("input", () => {
    start();
    read();
    openLine = false;
    render();
    ask();
  }));
  form.addEventListener("submit", () => {
    if (!data) return;
    openLine = false;
    write();
  });

  // The verdict: asked of the server a moment after the last change, the answer to an
  // older question dropped. The page's address follows, so a reload or a shared link
  // shows the same verdict.
  let timer = 0;
  let asked = 0;
  let pending = null;
  // A reason longer than the box scrolls inside it (the keys never move): the box says so
  // with a fade and an arrow at its foot until the end is in view.
  function more() {
    box.classList.toggle("more", box.scrollTop + box.clientHeight < box.scrollHeight - 2);
  }
  box.addEventListener("scroll", more, { passive: true });
  window.addEventListener("resize", more);
  more();
  function ask() {
    clearTimeout(timer);
    box.setAttribute("aria-busy", "true");
    timer = setTimeout(send, 120);
  }
  async function send() {
    const params = new URLSearchParams(new FormData(form));
    params.delete("_target");
    const query = params.toString();
    const mine = ++asked;
    if (pending) pending.abort();
    pending = new AbortController();
    let html;
    try {
      const response = await fetch(form.dataset.verdict + "?" + query,
        { signal: pending.signal, headers: { Accept: "text/html" } });
      // the verdict view's answer (a verdict, or a question it cannot judge); anything else,
      // such as an error page, is no answer
      if (!response.headers.get("X-Referee-Verdict")) throw new Error("unanswered");
      html = await response.text();
    } catch (err) {
      if (err.name === "AbortError" || mine !== asked) return;
      const note = document.createElement("p");
      note.className = "verdict unsure";
      note.textContent = err.message === "unanswered" ? form.dataset.failed : form.dataset.offline;
      box.replaceChildren(note);
      box.removeAttribute("aria-busy");
      return;
    }
    if (mine !== asked) return;
    box.innerHTML = html; // the server's own rendering of templates/referee/verdict.html
    box.dataset.answered = query;
    box.removeAttribute("aria-busy");
    box.scrollTop = 0;
    more();
    const problem = box.querySelector("[data-field]");
    form.querySelectorAll(".slot").forEach((slot) => {
      const field = problem ? problem.dataset.field : "";
      const bad = field === slot.dataset.slot || (field === "wish" && slot.dataset.slot === "hand");
      slot.classList.toggle("problem-slot", bad);
    });
    history.replaceState(history.state, "", location.pathname + "?" + query);
  }

  form.dataset.ready = "1";
})();
