// The service worker: keeps this release's shell (the page, its entry module with every
// module it imports, its stylesheets, icons and English texts) so the site opens offline
// and says so clearly; the server fills in the release's version and the shell's files.
// Files under this release's /static/v<version>/ never change, so they are answered from
// the cache first; pages come from the network first, the kept page when offline; the
// API and the sockets are never cached.

const VERSION = "{{version}}";
const SHELL = {{shell}};
const CACHE = `basra-${VERSION}`;

/** Whether an answer may be kept: a page, or a file of this very release (in a cluster
 * being upgraded, another node may answer this release's path with its own file). */
function keepable(url, answer) {
  if (!answer.ok) return false;
  if (!new URL(url, self.location.origin).pathname.startsWith("/static/")) return true;
  return answer.headers.get("x-basra-version") === VERSION;
}

async function keepShell() {
  const cache = await caches.open(CACHE);
  await Promise.all(SHELL.map(async (url) => {
    // This release's files come from the HTTP cache when the page loaded them already.
    const answer = await fetch(url, url.startsWith("/static/") ? {} : { cache: "no-cache" });
    if (!keepable(url, answer)) throw new Error(`not this release's: ${url}`);
    await cache.put(url, answer);
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
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
  if (keepable(request.url, answer)) cache.put(request, answer.clone());
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

// Web Push (issue 28): a notification the server pushed while no page of the player's was
// open (a challenge, its answer); a click opens its page, or focuses one already open.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: event.data ? event.data.text() : "Basra" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Basra", {
    body: data.body || "", tag: data.tag || undefined, data: { url: data.url || "/" },
    icon: `/static/v${VERSION}/img/icon-192.png`,
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
    const open = pages.find((p) => p.url === url) || pages[0];
    if (open) return open.focus().then((p) => (p && p.url !== url && p.navigate ? p.navigate(url) : p));
    return self.clients.openWindow(url);
  }));
});
