// Service worker: the app keeps working at a table without signal.
// Pages: network first, the last good copy when offline. Static files: cached, refreshed in
// the background. Writes are never cached: offline hands wait in IndexedDB (offline.js).
const VERSION = "tichu-v1";
const STATIC = VERSION + "-static";
const PAGES = VERSION + "-pages";
const ASSETS = [
  "/static/app.css", "/static/js/app.js", "/static/js/offline.js", "/static/js/hand.js",
  "/static/js/ranking.js", "/static/js/referee.js", "/static/js/board.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
  "/manifest.webmanifest", "/offline",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => !k.startsWith(VERSION)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(caches.open(STATIC).then(async (cache) => {
      const cached = await cache.match(request);
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }).catch(() => cached);
      return cached || fresh;
    }));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(PAGES).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(async () => (await caches.match(request)) || (await caches.match("/offline"))));
  }
});
