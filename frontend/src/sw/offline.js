/* What the service worker keeps for offline use (docs/decisions.md 53), as plain functions the tests call.

Personal answers (the planning with the member's own bookings, "Mes cours" and its data) go into one cache,
PERSONAL_CACHE, stamped with the account that fetched them (the server's `X-Studio-Account` header, an opaque
hash) and the time they were stored. A network answer for another account, or for nobody (a page after logout),
empties that cache before anything is stored, so one member never sees another's bookings; logging out also empties
it from the page. An answer served from the cache carries `X-Offline-Stored-At`, which the page shows ("Mis à jour
le …"); an HTML page gets it as a <meta> tag. */
export const PERSONAL_CACHE = "studio-personal-v1";
export const ACCOUNT_HEADER = "X-Studio-Account";
export const STORED_AT_HEADER = "X-Offline-Stored-At";
export const OFFLINE_META = "offline-stored-at";

// The pages and API reads that open offline: the timetable and the member's bookings.
export const OFFLINE_PAGES = ["/courses/calendar", "/my-courses"];
export const OFFLINE_API = [/^\/api\/course-sessions$/, /^\/api\/closures\/calendar$/, /^\/api\/course-feedback\/user\/\d+$/, /^\/api\/waitlist\/mine$/, /^\/api\/booking-preferences$/];

export function isOfflinePage(url) {
  return OFFLINE_PAGES.includes(url.pathname);
}

export function isOfflineApi(url) {
  return OFFLINE_API.some((pattern) => pattern.test(url.pathname));
}

const ACCOUNT_KEY = "/__offline/account";
// Query parameters that only defeat the HTTP cache ("Mes cours" adds `t=<now>`): left out of the stored copy's key.
const CACHE_BUSTERS = ["t"];

/** The key a read is stored under: its URL without the cache busters. */
export function cacheKey(request) {
  const url = new URL(request.url);
  for (const name of CACHE_BUSTERS) url.searchParams.delete(name);
  return url.href;
}

/** The account the personal cache belongs to ("" when it holds nothing). */
export async function cachedAccount(cache) {
  const entry = await cache.match(ACCOUNT_KEY);
  return entry ? entry.text() : "";
}

/**
 * Empties the personal cache unless it already belongs to `account`, then records `account` as its owner. For
 * nobody (`account` empty) the cache is removed and null returned: nothing is kept for a visitor.
 */
export async function claimPersonalCache(cacheStorage, account) {
  if (!account) {
    await cacheStorage.delete(PERSONAL_CACHE);
    return null;
  }
  if (await cacheStorage.has(PERSONAL_CACHE)) {
    const cache = await cacheStorage.open(PERSONAL_CACHE);
    if ((await cachedAccount(cache)) === account) return cache;
    await cacheStorage.delete(PERSONAL_CACHE);
  }
  const fresh = await cacheStorage.open(PERSONAL_CACHE);
  await fresh.put(ACCOUNT_KEY, new Response(account));
  return fresh;
}

/** A copy of `response` stamped with the time it was stored. */
export async function stamped(response, now = new Date()) {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, now.toISOString());
  return new Response(await response.clone().blob(), { status: response.status, statusText: response.statusText, headers });
}

/** The cached page with its storage time as a <meta> the shell reads (a page cannot read its own headers). */
export async function withOfflineMeta(response) {
  const storedAt = response.headers.get(STORED_AT_HEADER) || "";
  const html = await response.text();
  const meta = `<meta name="${OFFLINE_META}" content="${storedAt}">`;
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(html.replace("</head>", `${meta}</head>`), { status: response.status, headers });
}

/**
 * Network first for a personal read: a good answer is stored (after the cache is claimed for its account) and
 * returned; with no network, the stored copy, if it belongs to the account the cache was last claimed for.
 */
export async function personalNetworkFirst(request, { cacheStorage = caches, fetcher = fetch, page = false, onCached } = {}) {
  let response;
  try {
    response = await fetcher(request);
  } catch (networkError) {
    if (!(await cacheStorage.has(PERSONAL_CACHE))) throw networkError;
    const cache = await cacheStorage.open(PERSONAL_CACHE);
    const cached = await cache.match(cacheKey(request), { ignoreVary: true });
    if (!cached) throw networkError;
    onCached?.(cached.headers.get(STORED_AT_HEADER) || "");
    return page ? withOfflineMeta(cached) : cached;
  }
  // A redirect (to the login page) or an error says nothing about whose data this is: nothing stored, nothing emptied.
  if (!response.ok || response.redirected || response.type === "opaqueredirect") return response;
  const account = response.headers.get(ACCOUNT_HEADER) || "";
  const cache = await claimPersonalCache(cacheStorage, account);
  if (account) await cache.put(cacheKey(request), await stamped(response));
  return response;
}

/** Any other page answered by the network tells whose session the browser holds: nobody's or another's empties. */
export async function noticeAccount(response, cacheStorage = caches) {
  if (!response.ok || response.redirected) return;
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  await claimPersonalCache(cacheStorage, response.headers.get(ACCOUNT_HEADER) || "");
}

// The page shown for any page the phone has not kept when there is no network (the home page the installed app
// opens on, the prices…): stored when the worker installs, asked for without cookies so that it names no one.
export const OFFLINE_FALLBACK_URL = "/offline";
export const FALLBACK_CACHE = "studio-offline-v1";

/** Stores the offline page; a failed answer leaves the browser's own error page in its place. */
export async function storeFallbackPage({ cacheStorage = caches, fetcher = fetch } = {}) {
  const response = await fetcher(OFFLINE_FALLBACK_URL, { credentials: "omit" });
  if (response.ok) await (await cacheStorage.open(FALLBACK_CACHE)).put(OFFLINE_FALLBACK_URL, response);
}

/** `attempt()`'s page, or the offline page when it fails (no network, nothing kept). */
export async function orFallbackPage(attempt, { cacheStorage = caches } = {}) {
  try {
    return await attempt();
  } catch (error) {
    const page = await (await cacheStorage.open(FALLBACK_CACHE)).match(OFFLINE_FALLBACK_URL);
    if (page) return page;
    throw error;
  }
}
