// Service worker: the app keeps working at a table without signal, or with lie-fi.
// Pages: network first, but a page that does not arrive within a few seconds is served from
// the last good copy (the network answer still refreshes the copy when it comes). The start
// page is cached at install, so an installed app opens offline; the pages of matches this
// phone scores are cached when it opens them (offline.js asks). Static files: cached,
// refreshed in the background. Writes are never cached: hands wait in IndexedDB (offline.js).
const VERSION = "tichu-v2";
const STATIC = VERSION + "-static";
const PAGES = VERSION + "-pages";
const PAGE_TIMEOUT = 7000; // ms before a page falls back to its cached copy
const ASSETS = [
  "/static/app.css", "/static/js/app.js", "/static/js/offline.js", "/static/js/hand.js",
  "/static/js/ranking.js", "/static/js/referee.js", "/static/js/board.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
  "/manifest.webmanifest", "/offline",
];
const START = ["/"];
// Copies fetched in the background say so: the server then keeps its one-time messages
// ("Hand 3 saved.") for the page the player actually opens.
const quiet = (url) => new Request(url, { credentials: "same-origin", headers: { "X-Tichu-Prefetch": "1" } });

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(STATIC).then((cache) => cache.addAll(ASSETS.map(quiet))),
    caches.open(PAGES).then((cache) => cache.addAll(START.map(quiet))),
  ]).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => !k.startsWith(VERSION)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

// A page asks to keep copies of pages it will need without signal (its hand form).
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.cache) || [];
  event.waitUntil(caches.open(PAGES).then((cache) => Promise.all(urls.filter(Boolean).map((url) =>
    fetch(quiet(url)).then((response) => {
      if (response.ok && !response.redirected) return cache.put(url, response);
      return undefined;
    }).catch(() => undefined)))));
});

function fromNetwork(request) {
  return fetch(request).then((response) => {
    if (response.ok && !response.redirected) {
      const copy = response.clone();
      caches.open(PAGES).then((cache) => cache.put(request, copy));
    }
    return response;
  });
}

async function page(event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.searchParams.has("queued")) {
    // offline.js just queued a hand the network did not take: the copy, at once
    const copy = await caches.match(request, { ignoreSearch: true });
    if (copy) return copy;
  }
  const network = fromNetwork(request);
  const cached = await caches.match(request);
  if (!cached) {  // nothing to fall back on but the offline page, after a longer wait
    const offline = () => caches.match("/offline");
    const late = new Promise((resolve) => setTimeout(resolve, 3 * PAGE_TIMEOUT)).then(offline);
    return Promise.race([network.catch(offline), late]);
  }
  // Lie-fi: whichever comes first, a network answer or the timeout with the copy. When the
  // network answers after all, the page is told, and reloads with the fresh copy.
  let late = false;
  const timeout = new Promise((resolve) => setTimeout(() => { late = true; resolve(cached); }, PAGE_TIMEOUT));
  network.then(async (response) => {
    if (!late || !response.ok) return;
    const client = await self.clients.get(event.resultingClientId);
    if (client) client.postMessage({ fresh: url.pathname });
  }).catch(() => undefined);
  return Promise.race([network.catch(() => cached), timeout]);
}

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
    event.respondWith(page(event));
  }
});
