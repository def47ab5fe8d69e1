// Service worker: the app keeps working at a table without signal, or with lie-fi.
// Pages: network first, but a page that does not arrive within a few seconds is served from
// the last good copy (the network answer still refreshes the copy when it comes). The start
// page is cached at install, so an installed app opens offline; the pages of matches this
// phone scores are cached when it opens them (offline.js asks). Static files: under URLs
// that carry their content's hash, kept from the install on and never asked for again.
// Writes are never cached: hands wait in IndexedDB (offline.js).
// BUILD is prepended by the server (views/pages.py): this deploy's version, a hash over
// every static file, and the hashed URLs to keep. A deploy changes it, so the phone installs
// this script anew, keeps the new files and drops the old ones: a page never meets an older
// CSS or script. The page copies are kept across deploys (a table may have no signal), and
// fetched again when the new version takes over.
// Page copies are bounded, as Workbox's ExpirationPlugin (maxEntries) bounds a cache: at
// most BUILD.pagesKept pages and BUILD.verdictsKept referee verdicts (the referee page with
// its cards in the query, one URL per question), the copy used longest ago going first.
// Navigations use the navigation preload: the page's request starts while this worker boots.
// The phone's copy of the core (BUILD.core: Pyodide, the core's archive, its worker; about
// 3.7 MB as sent) is not part of the install: it is fetched once in the background once this worker
// is active, and again on a later page while a file is missing (a page that needs it asks
// too, until it is whole: ready.js), kept across deploys while its URLs stay the same. The referee's page, kept at install, stands in for any of
// its addresses without signal (it reads its question from the address: referee.js).
const VERSION = BUILD.version;
const STATIC = VERSION + "-static";
const PAGES = "tichu-pages";
const VERDICTS = "tichu-verdicts";
const BOUNDS = { [PAGES]: BUILD.pagesKept, [VERDICTS]: BUILD.verdictsKept };
const PAGE_TIMEOUT = 7000; // ms before a page falls back to its cached copy
const ASSETS = BUILD.assets;
const START = ["/", "/referee"]; // the referee judges without signal on every phone
const CORE = "tichu-core";
// Copies fetched in the background say so: the server then keeps its one-time messages
// ("Hand 3 saved.") for the page the player actually opens.
const quiet = (url) => new Request(url, { credentials: "same-origin", headers: { "X-Tichu-Prefetch": "1" } });

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(STATIC).then((cache) => cache.addAll(ASSETS.map(quiet))),
    caches.open(PAGES).then((cache) => cache.addAll(START.map(quiet))),
  ]).then(() => self.skipWaiting()));
});

const cacheOf = (url) => (url.pathname.startsWith("/referee") && url.search ? VERDICTS : PAGES);

// Cache Storage lists a cache's entries in the order they were put (a put replaces the
// entry and puts it last), so the first are those used longest ago: a copy served is put
// again to mark it used, and each put trims its cache to its bound.
async function trim(name) {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - BOUNDS[name])).map((k) => cache.delete(k)));
}
async function keep(request, response) {
  const name = cacheOf(new URL(request.url || request, self.location.href));
  await (await caches.open(name)).put(request, response);
  await trim(name);
}

// The new version takes over: older static caches go; page copies, from a cache of an
// older version too, are fetched again (their HTML names this version's files) for a few
// seconds at most (activation holds every page's requests), and a copy that cannot be
// fetched by then is kept as it was.
async function takeOver() {
  const pages = await caches.open(PAGES);
  let replaced = false;
  for (const key of await caches.keys()) {
    if (key === PAGES || key === STATIC || key === VERDICTS) continue;
    if (key === CORE) {  // files of an older bundle go; the current ones stay
      const core = await caches.open(CORE);
      for (const request of await core.keys()) {
        const { pathname, search } = new URL(request.url);
        // the worker's memory snapshot (core-worker.js) goes with its worker
        const of = pathname === "/core/snapshot" ? "/core/worker.js" : pathname;
        if (!BUILD.core.includes(of + search)) await core.delete(request);
      }
      continue;
    }
    if (key.endsWith("-pages")) {
      const old = await caches.open(key);
      for (const request of await old.keys()) await pages.put(request, await old.match(request));
    }
    await caches.delete(key);
    replaced = true;
  }
  // verdicts kept among the pages by an older version move to their own cache
  for (const request of await pages.keys()) {
    if (cacheOf(new URL(request.url)) === PAGES) continue;
    await keep(request, await pages.match(request));
    await pages.delete(request);
  }
  await trim(PAGES);
  if (!replaced) return;
  const refresh = Promise.all((await pages.keys()).map((request) => fetch(quiet(request.url)).then((response) => {
    if (response.ok && !response.redirected) return pages.put(request, response);
    return undefined;
  }).catch(() => undefined)));
  await Promise.race([refresh, new Promise((resolve) => setTimeout(resolve, PAGE_TIMEOUT / 2))]);
}

self.addEventListener("activate", (event) => {
  const preload = self.registration.navigationPreload
    ? self.registration.navigationPreload.enable().catch(() => undefined) : undefined;
  const active = Promise.all([preload, takeOver().catch(() => undefined)])
    .then(() => self.clients.claim());
  event.waitUntil(active);
  // then the core, without holding the pages' requests (a page asks again: ready.js)
  const saving = self.navigator.connection && self.navigator.connection.saveData;
  active.then(() => pause(1000)).then(() => keepCore(saving)).catch(() => undefined);
});

// The core's files this phone lacks, fetched one after another (no rush: the page works).
// One fetch at a time however many pages ask; a file that does not come is tried again
// when a page next asks (offline.js asks again while it is idle, until every file is kept).
// Every navigation has it kept too, a few seconds on (the referee judges without signal on
// every phone that opened the app), unless the phone asks to save data (`saving`).
let keeping = null;
let whole = false; // every file is kept
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function fetchCore() {
  const cache = await caches.open(CORE);
  for (const url of BUILD.core) {
    if (await cache.match(url)) continue;
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return;
    await cache.put(url, response);
  }
  whole = true;
}
function keepCore(saving) {
  if (saving) return undefined;
  if (!keeping) keeping = fetchCore().catch(() => undefined).finally(() => { keeping = null; });
  return keeping;
}
// What this phone keeps of the core: how many of its files, and whether the memory
// snapshot of this bundle's worker is kept (core-worker.js keeps it beside the files)
async function coreKept() {
  const cache = await caches.open(CORE);
  const found = await Promise.all(BUILD.core.map((url) => cache.match(url)));
  const worker = BUILD.core.find((url) => url.startsWith("/core/worker.js"));
  const snapshot = worker ? Boolean(await cache.match("/core/snapshot" + new URL(worker, self.location.href).search)) : false;
  return { kept: found.filter(Boolean).length, total: BUILD.core.length, snapshot };
}

// A page asks to keep copies of pages it will need without signal (its hand form), or the
// core to score and judge without signal. Given a port, it is told what is kept at once,
// and again once the files it lacked were fetched (done).
self.addEventListener("message", (event) => {
  if (event.data && event.data.core) {
    const port = event.ports && event.ports[0];
    const tell = (kept) => { if (port) port.postMessage(kept); };
    event.waitUntil(coreKept().then(tell).then(() => keepCore()).then(coreKept)
      .then((kept) => tell(Object.assign(kept, { done: true })))
      .catch(() => tell(null)));
    return;
  }
  const urls = (event.data && event.data.cache) || [];
  event.waitUntil(Promise.all(urls.filter(Boolean).map((url) =>
    fetch(quiet(url)).then((response) => {
      if (response.ok && !response.redirected) return keep(url, response);
      return undefined;
    }).catch(() => undefined))));
});

// The navigation preload's answer when there is one (the browser asked the network as this
// worker started), else the network's.
function fromNetwork(event) {
  const request = event.request;
  return Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(request)).then((response) => {
    if (response.ok && !response.redirected) keep(request, response.clone()).catch(() => undefined);
    return response;
  });
}

// A copy served is the most recently used of its cache.
function served(request, copy) {
  keep(request, copy.clone()).catch(() => undefined);
  return copy;
}

// A network answer that came after the page was shown from its copy, kept for the reload it
// asks (offline.js): the reload is that answer, not a second request over the slow network,
// and a one-time message the server put in it ("Hand 3 saved.") is shown, not lost.
const arrived = new Map();
const ARRIVED_KEPT = 2 * PAGE_TIMEOUT; // ms: a reload comes at once, or not at all

async function page(event) {
  const request = event.request;
  const url = new URL(request.url);
  // a reload (Chrome marks it "no-cache"): another tab's visit, or a save's page, is its own
  const reload = request.cache === "no-cache" || request.cache === "reload";
  const came = reload && arrived.get(request.url);
  if (came) arrived.delete(request.url);
  if (came && Date.now() - came.at < ARRIVED_KEPT) return came.response;
  if (url.searchParams.has("queued")) {
    // offline.js just queued a hand the network did not take: the copy, at once
    const copy = await caches.match(request, { ignoreSearch: true });
    if (copy) return copy;
  }
  const network = fromNetwork(event);
  // the referee at any of its addresses (?match=…, a verdict's question): its own copy, else
  // the page kept at install, which reads the question from its address (referee.js)
  const own = await caches.match(request);
  const cached = own || (url.pathname === "/referee" && url.search ? await caches.match("/referee") : undefined);
  if (!cached) {  // nothing to fall back on but the offline page, after a longer wait
    const offline = () => caches.match("/offline");
    const late = new Promise((resolve) => setTimeout(resolve, 3 * PAGE_TIMEOUT)).then(offline);
    return Promise.race([network.catch(offline), late]);
  }
  // Lie-fi: whichever comes first, a network answer or the timeout with the copy. When the
  // network answers after all, the page is told, and reloads with that answer (arrived).
  let late = false;
  const timeout = new Promise((resolve) => setTimeout(() => { late = true; resolve(cached); }, PAGE_TIMEOUT));
  event.waitUntil(network.then(async (response) => {
    if (!late || !response.ok || response.redirected) return;
    // read whole now: the navigation it was asked for has moved on without it
    const answer = new Response(await response.blob(), {
      status: response.status, statusText: response.statusText, headers: response.headers });
    const client = await self.clients.get(event.resultingClientId);
    if (!client) return;
    for (const [key, kept] of arrived) if (Date.now() - kept.at >= ARRIVED_KEPT) arrived.delete(key);
    arrived.set(request.url, { response: answer, at: Date.now() });
    client.postMessage({ fresh: url.pathname });
  }).catch(() => undefined));
  const shown = await Promise.race([network.catch(() => cached), timeout]);
  // only a copy shown is used (the timer also ends after a network answer already came);
  // the referee's page shown for another address is not kept under that address
  if (shown !== cached) return shown;
  return own ? served(request, own) : cached;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(caches.open(STATIC).then(async (cache) => {
      const cached = await cache.match(request);
      // a hashed URL never changes: the copy is the file, no need to ask again
      if (cached && url.searchParams.has("v")) return cached;
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }).catch(() => cached || caches.match(request, { ignoreSearch: true }));
      return cached || fresh;
    }));
    return;
  }
  if (url.pathname.startsWith("/core/")) {  // under URLs named by their content: kept as they are
    event.respondWith(caches.open(CORE).then((cache) => cache.match(request)).then((kept) => kept || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    // a page answered from its copy leaves the preload unused: it may still settle
    if (event.preloadResponse) event.waitUntil(event.preloadResponse.catch(() => undefined));
    if (!whole) event.waitUntil(pause(3000).then(() => keepCore(request.headers.get("Save-Data") === "on")));
    event.respondWith(page(event));
  }
});
