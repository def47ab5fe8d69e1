// The scoring phone stays awake while its match is open (issue 36): the match page of a
// scorer asks for a Screen Wake Lock, and again each time the page is shown (the browser
// lets it go when the page is hidden). The More menu's toggle ([data-wake], aria-pressed)
// turns it off or on, remembered on this phone (localStorage). Loaded by live.js after
// the page; without the API the toggle stays hidden and nothing happens.
(function () {
  "use strict";
  if (window.tichuWake || !("wakeLock" in navigator)) return;
  window.tichuWake = true;
  const KEY = "tichu-wake";
  let lock = null;

  function wanted() {
    try { return localStorage.getItem(KEY) !== "off"; } catch (err) { return true; }
  }
  function remember(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (err) { /* kept for now */ }
  }
  function show() {
    const on = wanted();
    document.querySelectorAll("[data-wake]").forEach(function (button) {
      if (!button.dataset.label) button.dataset.label = button.textContent.trim();
      button.textContent = (on ? "✓ " : "") + button.dataset.label;
      button.setAttribute("aria-pressed", String(on));
      button.hidden = false;
    });
  }
  async function acquire() {
    if (lock || !wanted() || document.visibilityState !== "visible") return;
    if (!document.querySelector("[data-wake]")) return;
    try {
      const held = await navigator.wakeLock.request("screen");
      lock = held;
      held.addEventListener("release", function () { if (lock === held) lock = null; });
      if (!wanted()) release(); // turned off while it was asked for
    } catch (err) {
      lock = null; // refused (battery saver, not shown): asked again when shown
    }
  }
  function release() {
    const held = lock;
    lock = null;
    if (held) held.release().catch(function () { /* already let go */ });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-wake]");
    if (!button) return;
    const on = !wanted();
    remember(on);
    show();
    if (on) acquire(); else release();
  });
  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("tichu:live", show); // the menu drawn anew by live.js
  show();
  acquire();
})();
