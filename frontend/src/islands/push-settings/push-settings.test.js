import { afterEach, describe, expect, it, vi } from "vitest";

import { LABEL_TURN_OFF, LABEL_TURN_ON, MSG_DENIED, MSG_UNSUPPORTED, keyBytes, mountPushSettings } from "./index.js";

const prefs = { enabled: true, public_key: "BAAA", devices: 0, waitlist_offer: true, class_cancelled: true, reminder: false };

function answer(body, status = 200) {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

function fakeNav(subscription = null) {
  const pushManager = {
    getSubscription: vi.fn().mockResolvedValue(subscription),
    subscribe: vi.fn().mockResolvedValue({
      endpoint: "https://push.example/1",
      toJSON: () => ({ endpoint: "https://push.example/1", keys: { p256dh: "p", auth: "a" } }),
      unsubscribe: vi.fn(),
    }),
  };
  return { serviceWorker: { getRegistration: vi.fn().mockResolvedValue({ pushManager }) }, pushManager };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe("push settings", () => {
  it("subscribes this browser with the site's key and shows the server's message", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) =>
      url === "/api/push/preferences" ? answer(prefs) : answer({ message: "Les notifications sont activées sur cet appareil." }, 201),
    );
    const nav = fakeNav();
    const root = document.createElement("div");
    await mountPushSettings(root, { nav, notification: { requestPermission: async () => "granted" } });
    const button = root.querySelector("button");
    expect(button.textContent).toBe(LABEL_TURN_ON);
    expect(root.querySelector("input[name=reminder]").checked).toBe(false);
    button.click();
    await flush();
    await flush();
    expect(nav.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes("BAAA") });
    const [url, init] = fetchMock.mock.calls[1];
    expect(url).toBe("/api/push/subscriptions");
    expect(JSON.parse(init.body)).toEqual({ endpoint: "https://push.example/1", keys: { p256dh: "p", auth: "a" } });
    expect(root.querySelector("[role=status]").textContent).toBe("Les notifications sont activées sur cet appareil.");
    expect(button.textContent).toBe(LABEL_TURN_OFF);
  });

  it("says so when the member refuses the permission, and subscribes nothing", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(prefs));
    const nav = fakeNav();
    const root = document.createElement("div");
    await mountPushSettings(root, { nav, notification: { requestPermission: async () => "denied" } });
    root.querySelector("button").click();
    await flush();
    expect(nav.pushManager.subscribe).not.toHaveBeenCalled();
    expect(root.querySelector("[role=status]").textContent).toBe(MSG_DENIED);
  });

  it("says the browser cannot receive them when there is no service worker", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(prefs));
    const root = document.createElement("div");
    await mountPushSettings(root, { nav: {} });
    expect(root.querySelector("[role=status]").textContent).toBe(MSG_UNSUPPORTED);
    expect(root.querySelector("button").hidden).toBe(true);
  });

  it("a switch saves its kind", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) =>
      init && init.method === "PUT" ? answer({ ...prefs, reminder: true, message: "Enregistré." }) : answer(prefs),
    );
    const root = document.body.appendChild(document.createElement("div"));
    await mountPushSettings(root, { nav: fakeNav() });
    const box = root.querySelector("input[name=reminder]");
    box.click();
    await flush();
    expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual({ reminder: true });
    expect(root.querySelector("[role=status]").textContent).toBe("Enregistré.");
  });
});
