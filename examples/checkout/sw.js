// Service worker of the /checkout/ reference host.
// Network first for the page shell and its assets so a deploy is picked up at
// once; the cache only answers when the network is down. The API is never
// touched: prices, orders and payment pages must always come from the server.
const CACHE = 'streamcart-host-v1';
const SCOPE = new URL(self.registration.scope).pathname; // "/checkout/"
const API = SCOPE + 'api/';
const WIDGET = '/widget/';

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(SCOPE))
      .catch(() => undefined),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith('streamcart-host-') && n !== CACHE).map((n) => caches.delete(n)));
      await self.clients.claim();
    })(),
  );
});

function cacheable(request, url) {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith(API)) return false;
  if (request.mode === 'navigate') return url.pathname.startsWith(SCOPE);
  return url.pathname.startsWith(SCOPE + 'assets/') || url.pathname.startsWith(WIDGET);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!cacheable(request, url)) return;
  event.respondWith(networkFirst(event, request));
});

async function networkFirst(event, request) {
  try {
    const response = await fetch(request);
    // Only complete, same-origin, non-redirected answers: a redirected
    // response replayed for a navigation is refused by the browser.
    if (response.ok && response.type === 'basic' && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(
        caches
          .open(CACHE)
          .then((cache) => cache.put(request, copy))
          .catch(() => undefined),
      );
    }
    return response;
  } catch (err) {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreVary: true });
    if (hit) return hit;
    if (request.mode === 'navigate') {
      const shell = await cache.match(SCOPE, { ignoreVary: true });
      if (shell) return shell;
    }
    throw err;
  }
}
