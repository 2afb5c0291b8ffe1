// The service worker: keeps this release's shell (the page, its entry module with every
// module it imports, its stylesheets, icons and English texts) so the site opens offline
// and says so clearly; the server fills in the release's version and the shell's files.
// Files under this release's /static/v<version>/ never change, so they are answered from
// the cache first; pages come from the network first, the kept page when offline; the
// API and the sockets are never cached.

const VERSION = "{{version}}";
const SHELL = {{shell}};
const CACHE = `basra-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("basra-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) cache.put(request, answer.clone());
  return answer;
}

async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const cache = await caches.open(CACHE);
    // Offline: the kept page opens, and it says it cannot reach the server; a path it
    // cannot open gets the offline page.
    return (await cache.match("/")) || (await cache.match("/offline")) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(`/static/v${VERSION}/`)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});
