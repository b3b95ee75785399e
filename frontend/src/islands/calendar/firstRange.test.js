import { afterEach, describe, expect, it, vi } from "vitest";
import { phoneFirstRange, prefetchRange, studioMidnight, takePrefetched } from "./firstRange.js";

afterEach(() => vi.restoreAllMocks());

describe("the range a phone's planning opens on", () => {
  it("runs from the studio's midnight today for seven days, written as FullCalendar writes it", () => {
    // 23:30 in Paris on 29 November is already the 29th there, though still the 29th in UTC too.
    expect(phoneFirstRange(new Date("2026-11-29T22:30:00Z"))).toEqual({
      start: "2026-11-29T00:00:00+01:00",
      end: "2026-12-06T00:00:00+01:00",
    });
    // 00:30 in Paris on 1 December is still 30 November in UTC: the studio's day counts.
    expect(phoneFirstRange(new Date("2026-11-30T23:30:00Z")).start).toBe("2026-12-01T00:00:00+01:00");
  });

  it("gives each end the offset of its own day across a change of hour", () => {
    expect(phoneFirstRange(new Date("2027-03-25T10:00:00Z"))).toEqual({
      start: "2027-03-25T00:00:00+01:00",
      end: "2027-04-01T00:00:00+02:00",
    });
    expect(studioMidnight(new Date("2027-10-30T10:00:00Z"), 1)).toBe("2027-10-31T00:00:00+02:00");
    expect(studioMidnight(new Date("2027-10-30T10:00:00Z"), 2)).toBe("2027-11-01T00:00:00+01:00");
  });
});

describe("answers asked for early", () => {
  const range = { start: "2026-11-29T00:00:00+01:00", end: "2026-12-06T00:00:00+01:00" };

  it("are handed over once, for their own range only", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response('[{"id": 1}]', { status: 200 }));
    await prefetchRange("/api/course-sessions", range);
    expect(fetch.mock.calls[0][0]).toBe(
      "/api/course-sessions?start=2026-11-29T00%3A00%3A00%2B01%3A00&end=2026-12-06T00%3A00%3A00%2B01%3A00",
    );
    expect(takePrefetched("/api/course-sessions", range.start, "2026-12-07T00:00:00+01:00")).toBeNull();
    expect(takePrefetched("/api/closures/calendar", range.start, range.end)).toBeNull();
    expect(takePrefetched("/api/course-sessions", range.start, range.end)).toEqual([{ id: 1 }]);
    expect(takePrefetched("/api/course-sessions", range.start, range.end)).toBeNull();
  });

  it("are not handed over before they arrive, nor after the request failed", async () => {
    let answer;
    vi.spyOn(globalThis, "fetch").mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const done = prefetchRange("/api/course-sessions", range);
    expect(takePrefetched("/api/course-sessions", range.start, range.end)).toBeNull();
    answer(new Response("{}", { status: 500 }));
    await done;
    expect(takePrefetched("/api/course-sessions", range.start, range.end)).toBeNull();
  });
});
