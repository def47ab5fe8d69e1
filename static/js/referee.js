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
  const isPass = (line) => words(line).length === 1 && data.pass.includes(words(line)[0]);
  // the deck of the game chosen on the form, as "variant-decks": card -> copies
  const deck = () => own(data.decks, form.querySelector("#variant").value + "-"
    + form.querySelector("#decks").value) || {};

  // state: trick is a list of plays (arrays; [] is a pass), play and hand are arrays
  let state = null;
  let openLine = false; // a new, still empty play on the table
  // the cards "Fill in" chose (the player chose only their ranks): such a card gives way
  // when the player taps it for another slot, see giveWay
  const filled = new Set();
  function read() {
    filled.clear();
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

  const target = () => form.querySelector('input[name="_target"]:checked').value;
  function aim(slot) {
    form.querySelector("#target-" + slot).checked = true;
    offerRun();
  }

  function remove(card) {
    filled.delete(card);
    const passes = state.trick.map((p) => !p.length); // real passes stay
    state.trick = state.trick.map((p) => p.filter((c) => c !== card))
      .filter((p, i) => p.length || passes[i]);
    state.play = state.play.filter((c) => c !== card);
    state.hand = state.hand.filter((c) => c !== card);
  }
  // tapped again where it lies: taken back from there only (a second deck's copy elsewhere
  // stays)
  function takeBack(t, card) {
    const group = here(t);
    const kept = group.filter((c) => c !== card);
    group.splice(0, group.length, ...kept);
    if (t === "trick" && !kept.length) state.trick.pop();
    if (!total(card)) filled.delete(card);
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
      takeBack(t, card); // tapped again: take it back
    } else {
      if (total(card) >= copies(card) && filled.has(card) && !giveWay(card)) {
        say(form.dataset.held.replace("{card}", own(data.cards, card).name));
        return;
      }
      if (total(card) >= copies(card)) remove(card); // a card lives in one place
      add(t, card);
    }
    write();
  }

  // A run in three taps: after its two end cards, on the table or in the play, "Fill in
  // 5–7" (with the slot's tools) adds the ranks between, only ever cards still free. Ends
  // of one suit are filled in that suit when its cards are free (a straight flush, as the
  // player most likely means); otherwise each rank takes the next of the server's suits in
  // turn that is free, so that such a run is never all of one suit. No free card of a rank:
  // the button says so.
  let run = null;
  const faceOf = (rank, suit) => Object.values(data.cards)
    .find((f) => f.rank === rank && f.suit === suit);
  const free = (f) => f && total(f.card) < copies(f.card);
  // the free cards of `rank`, in the suits' turn from `from`
  const freeOfRank = (rank, from) => data.suits
    .map((_, k) => faceOf(rank, data.suits[(from + k) % data.suits.length])).filter(free);
  const oneSuit = (cards) => new Set(cards.map((c) => (own(data.cards, c) || {}).suit)).size === 1;
  function runBetween() {
    if (target() === "hand") return null; // a hand is no run: its cards are tapped one by one
    const group = here(target());
    if (group.length !== 2) return null; // the run's two ends, and nothing else yet
    const ends = group.map((c) => own(data.cards, c));
    if (!ends[0] || !ends[1] || !ends[0].rank || !ends[1].rank) return null;
    const [low, high] = ends[0].rank < ends[1].rank ? ends : [ends[1], ends[0]];
    if (high.rank - low.rank < 2) return null;
    const ranks = Array.from({ length: high.rank - low.rank - 1 }, (_, k) => low.rank + 1 + k);
    // a rank as the keys show it ("10", "J")
    const rankText = (rank) => Object.values(data.cards).find((f) => f.rank === rank).label;
    const text = rankText(ranks[0]) + (ranks.length > 1 ? "–" + rankText(ranks.at(-1)) : "");
    let cards = low.suit === high.suit ? ranks.map((r) => faceOf(r, low.suit)) : [];
    if (!cards.length || !cards.every(free)) {
      const first = data.suits.indexOf(low.suit);
      cards = ranks.map((r) => freeOfRank(r, first + r - low.rank)[0]);
    }
    const missing = ranks.find((r, i) => !cards[i]);
    return { cards: missing ? null : cards.map((f) => f.card), text: text,
             missing: missing && rankText(missing) };
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
    btn.disabled = !run.cards;
    btn.textContent = run.cards ? form.dataset.fill.replace("{run}", run.text)
      : form.dataset.nofill.replace("{rank}", run.missing);
    form.querySelector('[data-slot="' + target() + '"] .slot-tools').prepend(btn);
  }
  function fill() {
    if (!run || !run.cards) return;
    const t = target();
    const group = here(t);
    const last = group.pop();
    group.push(...run.cards, last);
    run.cards.forEach((c) => filled.add(c));
    // a run given from end to end is a whole play: on the table, the disputed play is next
    if (t === "trick") aim("play");
    write();
  }

  // A card "Fill in" chose, tapped for another slot: its place in the run takes another
  // free card of its rank, one that keeps the run as it was (a straight flush stays one,
  // a mixed run never becomes one); false if there is none, and nothing moves.
  function giveWay(card) {
    const face = own(data.cards, card);
    const groups = state.trick.concat([state.play]);
    const group = groups.find((g) => g.includes(card));
    if (!group || !face.rank) return false;
    const at = group.indexOf(card);
    const flush = oneSuit(group);
    const other = freeOfRank(face.rank, data.suits.indexOf(face.suit) + 1).find((f) => {
      const after = group.slice();
      after[at] = f.card;
      return oneSuit(after) === flush;
    });
    if (!other) return false;
    group[at] = other.card;
    filled.delete(card);
    filled.add(other.card);
    return true;
  }
  // a note in the verdict's place until the next change, which asks again (an answer
  // still on its way is dropped)
  function say(text) {
    clearTimeout(timer);
    asked++;
    const note = document.createElement("p");
    note.className = "verdict unsure";
    note.textContent = text;
    show([note]);
    delete box.dataset.answered;
    box.removeAttribute("aria-busy");
  }

  function tool(action, slot) {
    if (action === "clear") {
      (slot === "trick" ? state.trick.flat() : state[slot]).forEach((c) => filled.delete(c));
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
  // The box grows with the verdict, read whole at once. So that the keys stay under the
  // thumb, the page scrolls by what the box grew (the top bar goes out of view first), as
  // far as the verdict's top stays in view; a shorter verdict scrolls it back. Nothing
  // moves for a player who has scrolled the keys out of view.
  function show(nodes) {
    const keys = picker.getBoundingClientRect();
    box.replaceChildren(...nodes);
    if (keys.bottom < 0 || keys.top > window.innerHeight) return;
    const moved = picker.getBoundingClientRect().top - keys.top;
    const by = Math.floor(Math.min(moved, box.getBoundingClientRect().top));
    window.scrollBy(0, Math.max(-window.scrollY, by));
  }
  // The verdict of the phone's copy of the server's engine (core-client.js), drawn as
  // templates/referee/verdict.html draws the server's, word for word. `judged`: whether
  // the server would judge this question (/referee/verdict judges once the play or the
  // rest of the hand holds a card; the page /referee once its address names a play or a
  // table); if not, what to tap next, as the server says it.
  const spoken = (params) => ((params.get("play") || "").trim() || (params.get("hand") || "").trim()) !== "";
  async function offlineVerdict(params, judged = spoken(params)) {
    start();
    const words = JSON.parse(form.dataset.words);
    const el = (tag, cls, text) => {
      const node = document.createElement(tag);
      node.className = cls;
      if (text) node.textContent = text;
      return node;
    };
    if (!judged) {  // the server's prompt: nothing to judge yet
      const prompt = el("div", "verdict prompt");
      prompt.append(el("p", "js-only", (params.get("trick") || "").trim() ? words.then : words.lead), el("p", "no-js", words.nojs));
      return [prompt];
    }
    const outbox = window.tichuOutbox;
    if (!outbox || !form.dataset.core) throw new Error("no core here");
    const core = await outbox.coreClient();
    const [answer, status] = await core.ask({ op: "judge_fields", fields: Object.fromEntries(params) });
    // a sentence as the server's template writes it: each run of ranks ("4–8") kept whole
    const sentence = (cls, text) => {
      const p = el("p", cls);
      text.split(/\b((?:\d+|[JQKA])–(?:\d+|[JQKA]))\b/).forEach((piece, k) => {
        if (k % 2) p.append(el("span", "run", piece)); else if (piece) p.append(piece);
      });
      return p;
    };
    const section = el("section", "verdict " + (status !== 200 ? "unsure" : answer.legal ? "legal" : "illegal"));
    section.id = "verdict";
    const head = el("p", "verdict-head");
    head.append(el("span", "verdict-word", status !== 200 ? words.unsure : answer.legal ? words.legal : words.illegal));
    if (status === 200) {
      const link = el("a", "rule-link", words.rule.replace("{rule}", answer.rule));
      link.href = words.rules + "#" + answer.rule;
      head.append(" ", link);
    } else {
      section.setAttribute("role", "alert");
      section.dataset.field = answer.field || "";
    }
    section.append(head);
    // the server reads a pass as no reading at all
    const reading = status === 200 && answer.combination && answer.combination.kind !== "pass" ? answer.reading : "";
    if (reading && !answer.reason.includes(reading)) section.append(sentence("reading", reading));
    section.append(status === 200 ? sentence("reason", answer.reason) : el("p", "reason", answer.error));
    const gift = status === 200 && answer.dragon_gift;  // [R5], as verdict.html says it
    if (gift && words.gift) {
      const said = el("p", "gift", words.gift[gift.given_away === false ? "kept" : gift.given_away ? "given" : "either"]);
      said.dataset.gift = "";
      section.append(said);
    }
    if (status === 200 && answer.fulfilling_play && answer.fulfilling_play.length) {
      const fulfil = el("p", "fulfil", words.fulfil + " ");
      answer.fulfilling_play.forEach((card) => fulfil.append(chip(card)));
      section.append(fulfil);
    }
    section.append(el("p", "here", form.dataset.here));
    return [section];
  }
  // the slot a refusal is about, marked as the server's page marks it
  function markProblem() {
    const problem = box.querySelector("[data-field]");
    form.querySelectorAll(".slot").forEach((slot) => {
      const field = problem ? problem.dataset.field : "";
      const bad = field === slot.dataset.slot || (field === "wish" && slot.dataset.slot === "hand");
      slot.classList.toggle("problem-slot", bad);
    });
  }

  function ask() {
    clearTimeout(timer);
    box.setAttribute("aria-busy", "true");
    timer = setTimeout(() => send(), 120);
  }
  // (`judged`: the page's own address is being answered, see fromAddress: it stays as it is)
  async function send(judged) {
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
      if (err.message !== "unanswered") { // no signal: the phone's copy of the core judges
        const drawn = await offlineVerdict(params, judged).catch(() => null);
        if (mine !== asked) return;
        if (drawn) {
          show(drawn);
          box.dataset.answered = query;
          box.removeAttribute("aria-busy");
          markProblem();
          if (judged === undefined) history.replaceState(history.state, "", location.pathname + "?" + query);
          return;
        }
      }
      const note = document.createElement("p");
      note.className = "verdict unsure";
      note.textContent = err.message === "unanswered" ? form.dataset.failed : form.dataset.offline;
      show([note]);
      box.removeAttribute("aria-busy");
      return;
    }
    if (mine !== asked) return;
    // the server's own rendering of templates/referee/verdict.html
    const answer = document.createElement("template");
    answer.innerHTML = html;
    show(answer.content.childNodes);
    box.dataset.answered = query;
    box.removeAttribute("aria-busy");
    markProblem();
    if (judged === undefined) history.replaceState(history.state, "", location.pathname + "?" + query);
  }

  // The page the phone kept at install (/referee), shown without signal for another of the
  // referee's addresses (the match page's "Check a play", a shared verdict, this page
  // reloaded after taps; sw.js): the question is in the address. It is put on the form as
  // the server would have drawn it, and answered as the server answers that address.
  function fromAddress() {
    const question = new URLSearchParams(location.search);
    if (form.dataset.asked === undefined
        || new URLSearchParams(form.dataset.asked).toString() === question.toString()) return;
    const words = JSON.parse(form.dataset.words);
    const seen = new Set();
    question.forEach((value, name) => {
      if (seen.has(name) || name === "_target") return;  // the server reads a field's first value
      seen.add(name);
      let field = form.elements.namedItem(name);
      if (!field && name === "match") {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "match";
        form.prepend(field);
      }
      if (!field || field instanceof RadioNodeList) return;
      if (field.type === "checkbox") field.checked = value !== "" && value !== "false";
      else field.value = value;
    });
    start();
    openLine = false;
    const key = question.get("match");
    const options = form.querySelector(".options");
    if (key && options && self.caches && !options.querySelector("a.back")) {  // back to a match this phone keeps
      const url = words.match + encodeURIComponent(key);
      caches.match(url).then((kept) => {
        if (!kept || options.querySelector("a.back")) return;
        const back = document.createElement("a");
        back.className = "back";
        back.href = url;
        back.textContent = words.back;
        options.prepend(back);
      }).catch(() => {});
    }
    // the slot filled first, as the server chooses it
    const wanted = question.get("_target");
    aim(["trick", "play", "hand"].includes(wanted) ? wanted : state.trick.length || state.play.length ? "play" : "trick");
    render();
    box.setAttribute("aria-busy", "true");
    send(question.has("play") || question.has("trick"));
  }
  fromAddress();

  form.dataset.ready = "1";
})();
