import { describe, expect, it } from "vitest";
import { ACCOUNT_HEADER, PERSONAL_CACHE, STORED_AT_HEADER, cacheKey, claimPersonalCache, isOfflineApi, isOfflinePage, OFFLINE_FALLBACK_URL, orFallbackPage, personalNetworkFirst, storeFallbackPage } from "./offline.js";

/** CacheStorage in memory, keyed by URL, as much of it as offline.js uses. */
function memoryCaches() {
  const caches = new Map();
  const keyOf = (request) => (typeof request === "string" ? request : request.url);
  const open = async (name) => {
    if (!caches.has(name)) caches.set(name, new Map());
    const entries = caches.get(name);
    return {
      match: async (request) => entries.get(keyOf(request))?.clone(),
      put: async (request, response) => void entries.set(keyOf(request), response),
    };
  };
  return { open, has: async (name) => caches.has(name), delete: async (name) => caches.delete(name), raw: caches };
}

const answer = (body, account) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json", ...(account ? { [ACCOUNT_HEADER]: account } : {}) } });
const offline = () => Promise.reject(new TypeError("Failed to fetch"));
const LIST = "https://studio.test/api/course-feedback/user/7";

describe("the offline copy of a member's bookings", () => {
  it("is served without a network, stamped with the time it was stored, whatever the cache buster", async () => {
    const cacheStorage = memoryCaches();
    await personalNetworkFirst(new Request(`${LIST}?page=1&t=1`), { cacheStorage, fetcher: async () => answer({ results: ["Cerceau"] }, "a1") });
    let told = null;
    const copy = await personalNetworkFirst(new Request(`${LIST}?page=1&t=2`), { cacheStorage, fetcher: offline, onCached: (at) => (told = at) });
    expect(await copy.json()).toEqual({ results: ["Cerceau"] });
    expect(copy.headers.get(STORED_AT_HEADER)).toBe(told);
    expect(told).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("never shows one account's bookings to another: an answer for another account empties the cache", async () => {
    const cacheStorage = memoryCaches();
    await personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: async () => answer({ who: "a" }, "a1") });
    await personalNetworkFirst(new Request("https://studio.test/api/waitlist/mine"), { cacheStorage, fetcher: async () => answer([], "b2") });
    await expect(personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: offline })).rejects.toThrow("Failed to fetch");
  });

  it("keeps nothing for a visitor and forgets the member once a page comes for nobody", async () => {
    const cacheStorage = memoryCaches();
    await personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: async () => answer({ who: "a" }, "a1") });
    await claimPersonalCache(cacheStorage, "");
    expect(cacheStorage.raw.has(PERSONAL_CACHE)).toBe(false);
    await personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: async () => answer({ who: "visitor" }) });
    expect(cacheStorage.raw.has(PERSONAL_CACHE)).toBe(false);
  });

  it("stores neither a redirect to the login page nor an error", async () => {
    const cacheStorage = memoryCaches();
    await personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: async () => answer({ who: "a" }, "a1") });
    await personalNetworkFirst(new Request(`${LIST}?page=2`), { cacheStorage, fetcher: async () => new Response("", { status: 500 }) });
    const copy = await personalNetworkFirst(new Request(LIST), { cacheStorage, fetcher: offline });
    expect(await copy.json()).toEqual({ who: "a" });
    expect(cacheKey(new Request(`${LIST}?page=2&t=9`))).toBe(`${LIST}?page=2`);
  });
});

describe("what opens offline", () => {
  it("is the planning with its classes and the studio's closures, and the member's bookings; not the staff's lists", () => {
    const url = (path) => new URL(path, "https://studio.test");
    expect(isOfflinePage(url("/courses/calendar"))).toBe(true);
    expect(isOfflinePage(url("/my-courses"))).toBe(true);
    expect(isOfflineApi(url("/api/course-sessions?start=a&end=b"))).toBe(true);
    expect(isOfflineApi(url("/api/closures/calendar?start=a&end=b"))).toBe(true);
    expect(isOfflineApi(url("/api/closures"))).toBe(false);
    expect(isOfflineApi(url("/api/users"))).toBe(false);
  });
});

describe("a page the phone has not kept, without a network", () => {
  it("is the offline page stored at install, asked for without the member's cookies", async () => {
    const cacheStorage = memoryCaches();
    const asked = [];
    await storeFallbackPage({ cacheStorage, fetcher: async (url, init) => (asked.push([url, init.credentials]), new Response("<h1>Vous êtes hors connexion</h1>")) });
    expect(asked).toEqual([[OFFLINE_FALLBACK_URL, "omit"]]);
    const page = await orFallbackPage(offline, { cacheStorage });
    expect(await page.text()).toBe("<h1>Vous êtes hors connexion</h1>");
    const online = await orFallbackPage(async () => new Response("Tarifs"), { cacheStorage });
    expect(await online.text()).toBe("Tarifs");
  });

  it("is the browser's own error when no offline page could be stored", async () => {
    const cacheStorage = memoryCaches();
    await storeFallbackPage({ cacheStorage, fetcher: async () => new Response("", { status: 500 }) });
    await expect(orFallbackPage(offline, { cacheStorage })).rejects.toThrow("Failed to fetch");
  });
});
