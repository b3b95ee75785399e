/* The installable site (docs/decisions.md 53), loaded by the shell once the page has loaded (the worker never
   competes with the first paint): the service worker is registered, logging out empties what it kept of the member, and a page or data read from its
   cache says so: "Hors connexion", read-only, with the time it was last fresh. */

export const SW_URL = "/sw.js";
export const OFFLINE_META = "offline-stored-at";
export const PERSONAL_CACHE = "studio-personal-v1";
export const MSG_OFFLINE = "Hors connexion : affichage en lecture seule.";

/** "Mis à jour le dimanche 29 novembre 2026 à 14:02." (the shell stays without the islands' formatting module: it
    is on every page, and this line is for the rare page read from the cache). */
export function freshnessText(iso) {
  const date = new Date(iso);
  const zone = { timeZone: "Europe/Paris" };
  const day = date.toLocaleDateString("fr-FR", { ...zone, weekday: "long", day: "numeric", month: "long", year: "numeric" });
  const time = date.toLocaleTimeString("fr-FR", { ...zone, hour: "2-digit", minute: "2-digit", hour12: false });
  return `Mis à jour le ${day} à ${time}.`;
}

let oldest = "";

/** Shows (or updates) the banner with the oldest time among what the page shows from the cache. */
export function showOffline(storedAt, root = document) {
  if (storedAt && (!oldest || storedAt < oldest)) oldest = storedAt;
  root.documentElement.classList.add("is-offline");
  let banner = root.getElementById("offline-banner");
  if (!banner) {
    banner = root.createElement("p");
    banner.id = "offline-banner";
    banner.className = "offline-banner";
    banner.setAttribute("role", "status");
    const main = root.getElementById("contenu");
    (main || root.body).prepend(banner);
  }
  banner.textContent = oldest ? `${MSG_OFFLINE} ${freshnessText(oldest)}` : MSG_OFFLINE;
  return banner;
}

export function resetOffline() {
  oldest = "";
}

/** Logout empties the member's cached pages and data before the form goes (the worker does it too, by account). */
export function interceptLogout(root = document, cacheStorage = globalThis.caches) {
  root.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/logout" || form.dataset.cleared) return;
      if (!cacheStorage) return;
      event.preventDefault();
      navigator.serviceWorker?.controller?.postMessage({ type: "logout" });
      cacheStorage
        .delete(PERSONAL_CACHE)
        .catch(() => false)
        .then(() => {
          form.dataset.cleared = "true";
          form.submit();
        });
    },
    true,
  );
}

export function initPwa(win = window) {
  const meta = win.document.querySelector(`meta[name="${OFFLINE_META}"]`);
  if (meta) showOffline(meta.content, win.document);
  interceptLogout(win.document, win.caches);
  const container = win.navigator.serviceWorker;
  if (!container) return;
  container.addEventListener("message", (event) => {
    if (event.data?.type === "offline-data") showOffline(event.data.storedAt, win.document);
  });
  container.register(SW_URL, { scope: "/" }).catch(() => {});
}
