// agentblame offline cache: serves this build's own files when the network is gone.
// Network first (so a new deployment is picked up at once), falling back to the cached copy.
// Only same-origin GET requests are touched; nothing is ever fetched from another origin.
const CACHE = 'agentblame-v1';

self.addEventListener('install', (event) => {
  // Cache the entry page now; hashed assets are cached as the page loads them.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['./', './index.html'])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: request.mode === 'navigate' }).then((cached) => cached ?? Response.error())),
  );
});
