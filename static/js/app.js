// Marks that scripts run, so enhanced controls replace their plain-HTML fallbacks.
document.documentElement.classList.add("js");
// A random id (crypto.randomUUID needs https; getRandomValues works everywhere).
window.tichuId = function () {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};
// A form that creates or changes something is sent once: a double tap on a slow network
// must not start two matches (hand forms are guarded by the outbox, offline.js).
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (event.defaultPrevented || form.method !== "post" || form.matches(".hand-form")) return;
  if (form.dataset.sent) { event.preventDefault(); return; }
  form.dataset.sent = "1";
  setTimeout(function () { delete form.dataset.sent; }, 8000); // the page did not go: allow again
});
// A new hand gets a client id once, so a resent form (or an offline replay) counts once.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input[data-client-id]").forEach(function (input) {
    if (!input.value) input.value = window.tichuId();
  });
});
// Share buttons: the phone's share sheet, or the link copied where there is none.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-share]").forEach(function (button) {
    if (!navigator.share && !(navigator.clipboard && navigator.clipboard.writeText)) return;
    button.hidden = false;
    button.addEventListener("click", async function () {
      const url = button.dataset.share;
      try {
        if (navigator.share) { await navigator.share({ title: button.dataset.shareTitle, url: url }); return; }
        await navigator.clipboard.writeText(url);
        button.textContent = button.dataset.copied;
      } catch (err) { /* the player closed the share sheet: nothing to do */ }
    });
  });
});
// A live page that loads live.js after itself (the match page): a second after the page,
// so that what the page needs to show comes first (the service worker keeps the file).
window.addEventListener("load", function () {
  const live = document.querySelector("[data-live-js]");
  if (!live) return;
  setTimeout(function () {
    const script = document.createElement("script");
    script.src = live.dataset.liveJs;
    document.head.append(script);
  }, 1000);
});
// Where the page is not a secure context (plain http:// to a LAN address), the Share page
// says what that costs without signal.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-insecure]").forEach(function (note) {
    note.hidden = window.isSecureContext !== false;
  });
});
// The hand in play's taps (follow.js), on a scorer's match page that offers them.
document.addEventListener("DOMContentLoaded", function () {
  const form = document.querySelector("form[data-follow-script]");
  if (!form) return;
  const script = document.createElement("script");
  script.src = form.dataset.followScript;
  document.head.append(script);
});
