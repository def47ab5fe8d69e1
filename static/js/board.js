// Big-screen scoreboard: poll the match's revision every few seconds; reload when it changes.
(function () {
  "use strict";
  const body = document.body;
  const url = body.dataset.revisionUrl;
  let seen = body.dataset.revision;
  const status = document.querySelector(".board-status");
  async function poll() {
    try {
      const r = await fetch(url, { cache: "no-store" });
      const data = await r.json();
      if (String(data.revision) !== String(seen)) { window.location.reload(); return; }
      status.textContent = status.dataset.checked.replace("{time}", new Date().toLocaleTimeString());
    } catch (err) {
      status.textContent = status.dataset.offline;
    }
    setTimeout(poll, 3000);
  }
  setTimeout(poll, 3000);
})();
