// Referee card picker: tap cards into the table, the disputed play or the rest of the hand.
// The text fields stay the source of truth (and the no-script fallback); this fills them.
(function () {
  "use strict";
  const form = document.getElementById("ref-form");
  const picker = form && form.querySelector(".picker");
  // (a page cached before the picker had its data: the text fields alone)
  if (!picker || !picker.dataset.picker) return;
  const fields = { trick: form.querySelector("#trick"), play: form.querySelector("#play"),
                   hand: form.querySelector("#hand") };
  const targets = form.querySelector(".targets");
  const badge = { trick: "T", play: "P", hand: "H" };

  // Everything about cards comes from the server (engine/cards.py, in the picker's
  // data-picker attribute): each card's face, every spelling the server reads, the pass
  // words and each game's deck. This script only looks words up; a word it does not know
  // stays as typed, for the server to judge.
  const data = JSON.parse(picker.dataset.picker);
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
  const passWord = data.pass[0];
  // the deck of the game chosen on the form, as "variant-decks": card -> copies
  function deck() {
    const variant = form.querySelector("#variant");
    const decks = form.querySelector("#decks");
    return own(data.decks, variant.value + "-" + decks.value) || {};
  }

  // state: trick is a list of plays (arrays; [] is a pass), play and hand are arrays
  function read() {
    const lines = fields.trick.value.split("\n").filter((l) => l.trim() !== "");
    return {
      trick: lines.map((l) => (isPass(l) ? [] : words(l).map(norm))),
      play: words(fields.play.value).map(norm),
      hand: words(fields.hand.value).map(norm),
    };
  }
  let state = read();
  let openLine = false; // a new, still empty trick line

  function write() {
    const lines = state.trick.map((p) => (p.length ? p.join(" ") : passWord));
    fields.trick.value = lines.join("\n") + (openLine ? "\n" : "");
    fields.play.value = state.play.join(" ");
    fields.hand.value = state.hand.join(" ");
    render();
  }

  function chip(card) {
    const span = document.createElement("span");
    const face = own(data.cards, card);
    if (!face) { // not a card the server reads: shown as typed
      span.className = "chip unknown";
      span.textContent = card;
    } else if (!face.suit) {
      span.className = "chip special";
      span.textContent = face.label;
    } else {
      span.className = "chip suit-" + face.suit;
      span.textContent = face.label;
      const mark = document.createElement("span");
      mark.className = "suit-mark";
      span.appendChild(mark);
    }
    if (face) span.title = face.name;
    return span;
  }

  function render() {
    const where = Object.create(null); // typed words are keys here too
    state.trick.forEach((p) => p.forEach((c) => { where[c] = "trick"; }));
    state.play.forEach((c) => { where[c] = "play"; });
    state.hand.forEach((c) => { where[c] = "hand"; });
    const cards = deck();
    picker.querySelectorAll(".pick").forEach((btn) => {
      btn.hidden = !own(cards, btn.dataset.card); // not in this game's deck (the Dog in GS2)
      const at = where[btn.dataset.card];
      btn.setAttribute("aria-pressed", at ? "true" : "false");
      const n = total(btn.dataset.card);
      btn.dataset.at = at ? badge[at] + (n > 1 ? "×" + n : "") : "";
    });
    const trickBox = form.querySelector('[data-slot="trick"] .chips');
    trickBox.replaceChildren();
    state.trick.forEach((p) => {
      const group = document.createElement("span");
      group.className = "play-group";
      if (!p.length) group.textContent = passWord;
      p.forEach((c) => group.appendChild(chip(c)));
      trickBox.appendChild(group);
    });
    if (openLine) {
      const group = document.createElement("span");
      group.className = "play-group open";
      group.textContent = "…";
      trickBox.appendChild(group);
    }
    ["play", "hand"].forEach((name) => {
      const box = form.querySelector('[data-slot="' + name + '"] .chips');
      box.replaceChildren(...state[name].map(chip));
    });
  }

  function target() {
    return form.querySelector('input[name="_target"]:checked').value;
  }
  function markTarget() {
    form.querySelectorAll(".slot").forEach((slot) => {
      slot.classList.toggle("current", slot.dataset.slot === target());
    });
  }
  targets.addEventListener("change", markTarget);
  form.querySelectorAll(".slot .chips").forEach((box) => {
    box.addEventListener("click", () => {
      form.querySelector("#target-" + box.closest(".slot").dataset.slot).checked = true;
      markTarget();
    });
  });

  function remove(card) {
    state.trick = state.trick.map((p) => p.filter((c) => c !== card));
    state.trick = state.trick.filter((p, i) => p.length || fieldsPassAt(i));
    state.play = state.play.filter((c) => c !== card);
    state.hand = state.hand.filter((c) => c !== card);
  }
  let passes = new Set(); // indexes of trick entries that are real passes
  function fieldsPassAt(i) { return passes.has(i); }
  function syncPasses() {
    passes = new Set();
    state.trick.forEach((p, i) => { if (!p.length) passes.add(i); });
  }

  function copies(card) { return own(deck(), card) || 0; }
  function count(list, card) { return list.filter((c) => c === card).length; }
  function total(card) {
    return state.trick.reduce((n, p) => n + count(p, card), 0) + count(state.play, card)
      + count(state.hand, card);
  }
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

  picker.addEventListener("click", (ev) => {
    const btn = ev.target.closest(".pick");
    if (!btn) return;
    const card = btn.dataset.card;
    const t = target();
    syncPasses();
    const mine = count(here(t), card);
    if (copies(card) === 2 && mine === 1 && total(card) < 2) {
      add(t, card); // the second copy of a two-deck card
    } else if (mine > 0) {
      remove(card); // tapped again: take it back
      syncPasses();
    } else {
      if (total(card) >= copies(card)) { remove(card); syncPasses(); } // a card lives in one place
      add(t, card);
    }
    write();
  });

  form.querySelectorAll(".slot-tools").forEach((tools) => {
    tools.addEventListener("click", (ev) => {
      const btn = ev.target.closest("button");
      if (!btn) return;
      const slot = tools.closest(".slot").dataset.slot;
      const action = btn.dataset.action;
      if (action === "clear") {
        if (slot === "trick") { state.trick = []; openLine = false; } else { state[slot] = []; }
      } else if (action === "next") {
        if (state.trick.length && state.trick[state.trick.length - 1].length) openLine = true;
        form.querySelector("#target-trick").checked = true;
        markTarget();
      } else if (action === "pass") {
        state.trick.push([]);
        openLine = false;
      }
      write();
    });
  });

  ["#variant", "#decks"].forEach((id) => form.querySelector(id).addEventListener("change", render));
  Object.values(fields).forEach((f) => f.addEventListener("input", () => {
    state = read();
    openLine = false;
    render();
  }));
  form.addEventListener("submit", () => {
    openLine = false;
    write();
    // the radio that picks the target is not part of the question
    targets.querySelectorAll("input").forEach((i) => { i.disabled = true; });
  });

  picker.hidden = false;
  targets.hidden = false;
  form.querySelectorAll(".slot-tools").forEach((t) => { t.hidden = false; });
  form.classList.add("enhanced");
  if (!state.trick.length && !state.play.length) form.querySelector("#target-trick").checked = true;
  markTarget();
  render();
  const verdict = document.getElementById("verdict");
  if (verdict) verdict.scrollIntoView({ block: "start" });
})();
