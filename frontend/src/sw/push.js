/* Web Push in the service worker (docs/decisions.md 53), imported by the worker's entry (sw/index.js).

   A push carries JSON: {kind, title, body, url, tag?, actions?, accept?: {url, token}}. It is shown as a
   notification; a tap on it opens `url`; the "Accepter" action of a waiting-list offer posts its signed token
   (no session or CSRF needed: the token is the member's word for that one offer) and opens the page the answer
   names: "Mes cours" when a pass booked the seat, else the held seat's payment. */

export const ICON = "/static/img/icons/icon-192.png";
export const MSG_ACCEPT_FAILED = "L'offre n'a pas pu être acceptée : ouvrez-la pour réserver.";

/** The notification a push payload shows: [title, options]. */
export function notificationFromPush(payload) {
  const data = payload || {};
  return [
    data.title || "Studio",
    {
      body: data.body || "",
      icon: ICON,
      badge: ICON,
      tag: data.tag || data.kind || undefined,
      actions: Array.isArray(data.actions) ? data.actions : [],
      data: { url: data.url || "/", accept: data.accept || null },
    },
  ];
}

export function readPush(event) {
  if (!event || !event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

/** What a tap does: returns the URL to open. `fetchFn` posts the accept token for the "accept" action. */
export async function urlForClick(action, data, fetchFn) {
  const fallback = (data && data.url) || "/";
  if (action !== "accept" || !data || !data.accept) return fallback;
  try {
    const response = await fetchFn(data.accept.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ token: data.accept.token }),
      credentials: "omit",
    });
    const answer = await response.json();
    return (response.ok && answer && answer.url) || fallback;
  } catch {
    return fallback;
  }
}

/** Focus a window of the site already on `url`, else open one. */
export async function openUrl(clients, url) {
  const target = new URL(url, self.location.origin).href;
  const open = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = open.find((client) => client.url === target);
  if (same && "focus" in same) return same.focus();
  return clients.openWindow(target);
}

export function installPushHandlers(scope) {
  scope.addEventListener("push", (event) => {
    const [title, options] = notificationFromPush(readPush(event));
    event.waitUntil(scope.registration.showNotification(title, options));
  });
  scope.addEventListener("notificationclick", (event) => {
    const { data } = event.notification;
    event.notification.close();
    event.waitUntil(urlForClick(event.action, data, scope.fetch.bind(scope)).then((url) => openUrl(scope.clients, url)));
  });
}

if (typeof ServiceWorkerGlobalScope !== "undefined" && self instanceof ServiceWorkerGlobalScope) {
  installPushHandlers(self);
}
