import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { MSG_LOAD_FAILED, MSG_NETWORK, errorMessage } from "./api.js";
import { useApi } from "./useApi.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const json = (status, body) => new Response(body === undefined ? "" : JSON.stringify(body), { status });

/** A fetch whose answers the test releases one by one; records each call's url and signal. */
function deferredFetch() {
  const calls = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((url, options) => {
    let release;
    const answer = new Promise((resolve) => {
      release = resolve;
    });
    calls.push({ url: String(url), signal: options.signal, release });
    return answer;
  });
  return calls;
}

describe("useApi, the islands' data hook", () => {
  it("loads on mount: loading, then the data", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(json(200, [{ id: 1 }]));
    const { result } = renderHook(() => useApi("/api/passes/mine"));
    expect(result.current.loading).toBe(true);
    expect(result.current.data).toBeNull();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.data).toEqual([{ id: 1 }]);
    expect(result.current.error).toBe("");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][1].method).toBe("GET");
  });

  it("shows the API's French {error} message", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(json(403, { error: "Vous n'avez pas la permission d'effectuer cette action.", code: "forbidden" }));
    const { result } = renderHook(() => useApi("/api/contact-messages/user/3", { fallback: "Impossible de récupérer les messages." }));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.error).toBe("Vous n'avez pas la permission d'effectuer cette action.");
    expect(result.current.failure.status).toBe(403);
    expect(result.current.data).toBeNull();
  });

  it("falls back to the island's French text, or the network message, when the server says nothing", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(json(500, {}));
    const { result } = renderHook(() => useApi("/api/x", { fallback: "Erreur lors du chargement des cours." }));
    await waitFor(() => expect(result.current.error).toBe("Erreur lors du chargement des cours."));

    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Failed to fetch"));
    const offline = renderHook(() => useApi("/api/y"));
    await waitFor(() => expect(offline.result.current.error).toBe(MSG_NETWORK));
    expect(errorMessage({ status: 503, message: "boom" }, "Erreur lors de la récupération des tarifs.")).toBe("Erreur lors de la récupération des tarifs.");
    expect(errorMessage({ status: 502, message: "PayPal ne répond pas." })).toBe("PayPal ne répond pas.");
    expect(errorMessage({ status: 409, message: "Cette session est complète." }, "Erreur lors de la réservation.")).toBe("Cette session est complète.");
    expect(errorMessage({ status: 502, message: "" })).toBe(MSG_LOAD_FAILED);
    expect(errorMessage({ status: -1, message: "timeout" })).toBe(MSG_NETWORK);
    expect(errorMessage(null)).toBe("");
  });

  it("aborts the request when the island unmounts, and applies nothing after", async () => {
    const calls = deferredFetch();
    const seen = [];
    const { unmount } = renderHook(() => {
      const state = useApi("/api/course-feedback/user/3");
      seen.push(state.data);
      return state;
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].signal.aborted).toBe(false);
    unmount();
    expect(calls[0].signal.aborted).toBe(true);
    await act(async () => calls[0].release(json(200, { late: true })));
    expect(seen.every((data) => data === null)).toBe(true);
  });

  it("drops a stale answer when the url changes before it arrives", async () => {
    const calls = deferredFetch();
    const { result, rerender } = renderHook(({ url }) => useApi(url), { initialProps: { url: "/api/a" } });
    rerender({ url: "/api/b" });
    expect(calls.map((c) => c.url)).toEqual(["/api/a", "/api/b"]);
    expect(calls[0].signal.aborted).toBe(true);
    await act(async () => calls[1].release(json(200, "b")));
    await act(async () => calls[0].release(json(200, "a")));
    expect(result.current.data).toBe("b");
  });

  it("fetches nothing without a url; reload() fetches again, `fresh` defeats the browser cache; setData updates", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async () => json(200, { n: fetchMock.mock.calls.length }));
    const idle = renderHook(() => useApi(null, { initialData: [] }));
    expect(idle.result.current).toMatchObject({ data: [], loading: false, error: "" });
    expect(fetchMock).not.toHaveBeenCalled();

    const { result } = renderHook(() => useApi("/api/list?page=1", { fresh: true }));
    await waitFor(() => expect(result.current.data).toEqual({ n: 1 }));
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.data).toEqual({ n: 2 }));
    expect(fetchMock.mock.calls.map(([url]) => url).every((url) => /^\/api\/list\?page=1&t=\d+$/.test(url))).toBe(true);
    act(() => result.current.setData((previous) => ({ ...previous, edited: true })));
    expect(result.current.data).toEqual({ n: 2, edited: true });
  });
});
