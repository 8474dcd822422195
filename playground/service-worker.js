/**
 * The playground's service worker (built into sw.js by vite.config.ts, which fills in the list of
 * files and a version). On install it caches the whole site, wasm grammars included, so once the
 * page has loaded it also opens, indexes and answers offline. Requests are served from the cache
 * first; a new build has a new version, which replaces the old cache on activation.
 */
const PRECACHE = __PRECACHE__;
const VERSION = __VERSION__;
const CACHE = `codeslice-playground-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("codeslice-playground-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // The page itself is cached under "./" whatever its query string (?store=memory …).
      const hit = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
      if (hit) return hit;
      return fetch(request);
    }),
  );
});
