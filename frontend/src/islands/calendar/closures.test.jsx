import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { closureEvents, closureTitle, dayAfter } from "./closures.js";
import { screenWidth } from "../../testing/screen.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: CalendarIsland } = await import("./CalendarIsland.jsx");
// The island fetches FullCalendar and the booking form when first shown: compiled here, before the clock of the
// assertions starts, as a browser would have them from its cache or the network.
await Promise.all([import("./FullCalendarView.jsx"), import("./ReservationForm.jsx")]);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const CHRISTMAS = { id: 2, label: "Vacances de Noël", starts_on: "2031-12-24", ends_on: "2032-01-01" };

function answers(urls) {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
    const path = String(url);
    const body = path.startsWith("/api/closures/calendar") ? urls.closures : urls.sessions;
    return new Response(JSON.stringify(body), { status: 200 });
  });
}

describe("calendar: the studio's closures", () => {
  it("makes each closure an all-day entry over its days, its last day included", () => {
    expect(closureTitle("Vacances de Noël")).toBe("Studio fermé : Vacances de Noël");
    expect(dayAfter("2031-12-31")).toBe("2032-01-01");
    expect(dayAfter("2032-02-28")).toBe("2032-02-29");
    expect(closureEvents([CHRISTMAS])).toEqual([
      {
        id: "closure-2",
        title: "Studio fermé : Vacances de Noël",
        start: "2031-12-24",
        end: "2032-01-02",
        allDay: true,
        className: "studio-closure",
        extendedProps: { closure: CHRISTMAS },
      },
    ]);
    expect(closureEvents([{ id: 9, date: "2031-12-24T18:00:00+01:00" }])).toEqual([]);
    expect(closureEvents(null)).toEqual([]);
  });

  it("shows the closure over its days in the month, asking for the range on screen", async () => {
    screenWidth(1366);
    const fetchMock = answers({ sessions: [], closures: [CHRISTMAS] });
    render(<CalendarIsland user={null} initialDate="2031-12-15" />);
    const entries = await screen.findAllByText("Studio fermé : Vacances de Noël");
    expect(entries.length).toBeGreaterThan(0);
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.startsWith("/api/closures/calendar?"));
    const params = new URL(asked, "http://x").searchParams;
    expect(params.get("start").slice(0, 10)).toBe("2031-12-01");
    expect(params.get("end").slice(0, 10)).toBe("2032-01-12");
  });

  it("shows the closure in a phone's list of the coming days", async () => {
    screenWidth(390);
    answers({ sessions: [], closures: [CHRISTMAS] });
    render(<CalendarIsland user={null} initialDate="2031-12-26" />);
    const entries = await screen.findAllByText("Studio fermé : Vacances de Noël");
    expect(entries.length).toBeGreaterThan(0);
  });

  it("still shows the sessions when the closures cannot be read", async () => {
    screenWidth(1366);
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).startsWith("/api/closures")
        ? new Response("{}", { status: 500 })
        : new Response(
            JSON.stringify([{ id: 7, course_title: "Pole Dance Tous niveaux", date: "2031-12-10T18:30:00+01:00", end_date: "2031-12-10T19:45:00+01:00", instructor: "Inès Moreau", seats_left: 10, price_per_participant: "25.00" }]),
            { status: 200 },
          ),
    );
    render(<CalendarIsland user={null} initialDate="2031-12-10" />);
    expect(await screen.findByText("Pole Dance Tous niveaux")).toBeTruthy();
    expect(screen.queryByText(/Studio fermé/)).toBeNull();
  });
});
