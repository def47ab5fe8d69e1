// Marks that scripts run, so enhanced controls replace their plain-HTML fallbacks.
document.documentElement.classList.add("js");
// A random id (crypto.randomUUID needs https; getRandomValues works everywhere).
window.tichuId = function () {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};
// A new hand gets a client id once, so a resent form (or an offline replay) counts once.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input[data-client-id]").forEach(function (input) {
    if (!input.value) input.value = window.tichuId();
  });
});
