// The score sheet's Print button: shown only where a script can print the page.
"use strict";
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
