// Offline at the table: register the service worker; when the network is gone, a saved
// hand waits in IndexedDB ("2 hands waiting") and is sent when the network returns,
// exactly once (each hand carries a client id; a fresh CSRF token is fetched first).
(function () {
  "use strict";
  const DB = "tichu-scorer";
  const STORE = "outbox";

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }

  function open() {
    return new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "client_id" });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  async function tx(mode, fn) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const result = fn(t.objectStore(STORE));
      t.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      t.onerror = () => reject(t.error);
    });
  }
  const all = () => tx("readonly", (s) => s.getAll());
  const put = (item) => tx("readwrite", (s) => s.put(item));
  const remove = (key) => tx("readwrite", (s) => s.delete(key));

  async function showCount() {
    const items = await all().catch(() => []);
    const box = document.getElementById("outbox");
    if (!box) return items;
    const refused = items.filter((i) => i.error);
    box.hidden = items.length === 0;
    box.textContent = items.length === 1 ? box.dataset.one
      : box.dataset.many.replace("{n}", String(items.length));
    if (refused.length) {
      box.textContent += " · " + refused.length + " " + box.dataset.refused + ": " + refused[0].error;
    }
    return items;
  }

  // Queue a hand form instead of posting it when the phone is offline.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form.hand-form[data-offline]") || navigator.onLine) return;
    event.preventDefault();
    const fields = new URLSearchParams(new FormData(form));
    let id = fields.get("client_id");
    if (!id) { id = window.tichuId(); fields.set("client_id", id); }
    await put({ client_id: id, action: form.action, fields: fields.toString(),
                match: form.dataset.matchUrl, created: Date.now() });
    window.location.href = form.dataset.matchUrl;
  }, true);

  let flushing = false;
  async function flush() {
    if (flushing || !navigator.onLine) return;
    flushing = true;
    let sent = 0;
    try {
      const items = (await all()).filter((i) => !i.error).sort((a, b) => a.created - b.created);
      for (const item of items) {
        const tokenResponse = await fetch("/csrf-token", { cache: "no-store", credentials: "same-origin" });
        const { csrf_token } = await tokenResponse.json();
        const fields = new URLSearchParams(item.fields);
        fields.set("csrf_token", csrf_token);
        const response = await fetch(item.action, {
          method: "POST", body: fields, credentials: "same-origin",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        });
        if (response.ok && response.redirected) {
          await remove(item.client_id);
          sent += 1;
        } else if (response.status === 409 || response.status >= 500 || response.status === 429) {
          break; // try again later
        } else {
          const text = await response.text();
          const found = /class="problem"[^>]*>([^<]+)/.exec(text);
          item.error = found ? found[1].trim() : "refused (" + response.status + ")";
          await put(item);
        }
      }
    } catch (err) {
      // the network went away again: the rest waits
    } finally {
      flushing = false;
    }
    await showCount();
    if (sent && document.querySelector("[data-live-match]")) window.location.reload();
  }

  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", () => { showCount().then(flush); });
  window.tichuOutbox = { all, flush, showCount };
})();
