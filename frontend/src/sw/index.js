/* The service worker (docs/decisions.md 53), built by webpack (Workbox's InjectManifest) and served at /sw.js so
   that its scope is the whole site. The shell and the planning's and "Mes cours"' bundles are precached; other
   static files are kept as they are used; the timetable and the member's bookings open offline (offline.js), and any
   other page shows the offline page. */
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, StaleWhileRevalidate } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import { PERSONAL_CACHE, isOfflineApi, isOfflinePage, noticeAccount, orFallbackPage, personalNetworkFirst, storeFallbackPage } from "./offline.js";
import "./push.js";

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(storeFallbackPage().catch(() => undefined));
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// Logout (shell/pwa.js) asks for the personal cache to go before the form is sent.
self.addEventListener("message", (event) => {
  if (event.data?.type === "logout") event.waitUntil(caches.delete(PERSONAL_CACHE));
});

const sameOrigin = (url) => url.origin === self.location.origin;

// Without a network, a page that was not kept (or a visitor's planning: nothing is kept for a visitor) is the
// offline page, with the way to the planning and "Mes cours".
registerRoute(({ request, url }) => request.mode === "navigate" && sameOrigin(url) && isOfflinePage(url), ({ request }) =>
  orFallbackPage(() => personalNetworkFirst(request, { page: true })),
);
registerRoute(({ request, url }) => request.mode === "navigate" && sameOrigin(url) && !isOfflinePage(url), ({ event, request }) =>
  orFallbackPage(async () => {
    const response = await fetch(request);
    event.waitUntil(noticeAccount(response.clone()));
    return response;
  }),
);
// Data read from the cache: the page is told, to say how fresh it is.
const tellPage = (clientId) => (storedAt) =>
  self.clients.get(clientId).then((client) => client?.postMessage({ type: "offline-data", storedAt }));
registerRoute(
  ({ url }) => sameOrigin(url) && isOfflineApi(url),
  ({ event, request }) => personalNetworkFirst(request, { onCached: tellPage(event.clientId) }),
);

// Built bundles have their content's hash in their name: kept until the cache is full.
registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith("/static/dist/"),
  new CacheFirst({ cacheName: "studio-bundles-v1", plugins: [new ExpirationPlugin({ maxEntries: 80 })] }),
);
registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith("/static/") && !url.pathname.startsWith("/static/dist/"),
  new StaleWhileRevalidate({ cacheName: "studio-static-v1", plugins: [new ExpirationPlugin({ maxEntries: 60 })] }),
);
