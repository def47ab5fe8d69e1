// Marks that scripts run, so enhanced controls replace their plain-HTML fallbacks.
document.documentElement.classList.add("js");
// A new hand gets a client id once, so a resent form (or an offline replay) counts once.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input[data-client-id]").forEach(function (input) {
    if (!input.value && window.crypto && crypto.randomUUID) input.value = crypto.randomUUID();
  });
});
