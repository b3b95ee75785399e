import { describe, expect, it, vi } from "vitest";

import { installPushHandlers, notificationFromPush, urlForClick } from "./push.js";

const offer = {
  kind: "waitlist_offer",
  title: "Une place s'est libérée",
  body: "Pole, 02/12 à 18:30",
  url: "/courses/calendar?date=2026-12-02&session=7",
  tag: "waitlist-offer-3",
  actions: [{ action: "accept", title: "Accepter" }],
  accept: { url: "/api/waitlist/offers/accept", token: "signed" },
};

describe("push.js", () => {
  it("shows a push as a notification with its actions and what a tap needs", () => {
    const [title, options] = notificationFromPush(offer);
    expect(title).toBe("Une place s'est libérée");
    expect(options.body).toBe("Pole, 02/12 à 18:30");
    expect(options.tag).toBe("waitlist-offer-3");
    expect(options.actions).toEqual([{ action: "accept", title: "Accepter" }]);
    expect(options.data).toEqual({ url: offer.url, accept: offer.accept });
  });

  it("accepting posts the token and opens the page the answer names", async () => {
    const fetchFn = vi.fn().mockResolvedValue({ ok: true, json: async () => ({ booked: true, url: "/my-courses" }) });
    const url = await urlForClick("accept", { url: offer.url, accept: offer.accept }, fetchFn);
    expect(url).toBe("/my-courses");
    const [path, init] = fetchFn.mock.calls[0];
    expect(path).toBe("/api/waitlist/offers/accept");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body)).toEqual({ token: "signed" });
  });

  it("a tap on the notification itself, or a refused accept, opens the offer", async () => {
    const fetchFn = vi.fn().mockResolvedValue({ ok: false, json: async () => ({ message: "plus valable" }) });
    expect(await urlForClick("", { url: offer.url, accept: offer.accept }, fetchFn)).toBe(offer.url);
    expect(fetchFn).not.toHaveBeenCalled();
    expect(await urlForClick("accept", { url: offer.url, accept: offer.accept }, fetchFn)).toBe(offer.url);
    const offline = vi.fn().mockRejectedValue(new TypeError("network"));
    expect(await urlForClick("accept", { url: offer.url, accept: offer.accept }, offline)).toBe(offer.url);
  });

  it("installs push and notificationclick handlers that show and open", async () => {
    const listeners = {};
    const scope = {
      addEventListener: (name, fn) => (listeners[name] = fn),
      registration: { showNotification: vi.fn().mockResolvedValue(undefined) },
      clients: { matchAll: vi.fn().mockResolvedValue([]), openWindow: vi.fn().mockResolvedValue(null) },
      fetch: vi.fn().mockResolvedValue({ ok: true, json: async () => ({ url: "/my-courses" }) }),
    };
    installPushHandlers(scope);
    const waits = [];
    listeners.push({ data: { json: () => offer }, waitUntil: (p) => waits.push(p) });
    await Promise.all(waits);
    expect(scope.registration.showNotification).toHaveBeenCalledWith("Une place s'est libérée", expect.any(Object));
    const close = vi.fn();
    listeners.notificationclick({
      action: "accept",
      notification: { data: { url: offer.url, accept: offer.accept }, close },
      waitUntil: (p) => waits.push(p),
    });
    await Promise.all(waits);
    expect(close).toHaveBeenCalled();
    expect(scope.clients.openWindow).toHaveBeenCalledWith(`${self.location.origin}/my-courses`);
  });
});
