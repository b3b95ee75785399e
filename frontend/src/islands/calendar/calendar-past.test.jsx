import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { screenWidth } from "../../testing/screen.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: CalendarIsland } = await import("./CalendarIsland.jsx");
// The island fetches FullCalendar and the booking form when first shown: compiled here, before the clock of the
// assertions starts, as a browser would have them from its cache or the network.
await Promise.all([import("./FullCalendarView.jsx"), import("./ReservationForm.jsx")]);
const { LABEL_ENDED, LABEL_STARTED } = await import("./messages.js");

const NOW = new Date("2031-03-12T12:00:00+01:00"); // a Wednesday, noon in Paris
const session = (id, title, date, end) => ({ id, course_title: title, date, end_date: end, instructor: "Inès Moreau", seats_left: 10, max_attendees: 10, price_per_participant: "25.00", is_past: false });
const MONDAY = session(1, "Cours de lundi", "2031-03-10T18:30:00+01:00", "2031-03-10T19:45:00+01:00");
const THIS_MORNING = session(2, "Cours de ce matin", "2031-03-12T09:00:00+01:00", "2031-03-12T10:15:00+01:00");
const NOW_ON = session(3, "Cours en cours", "2031-03-12T11:30:00+01:00", "2031-03-12T12:45:00+01:00");
const TONIGHT = session(4, "Cours de ce soir", "2031-03-12T19:00:00+01:00", "2031-03-12T20:15:00+01:00");
const NEXT_MONDAY = session(5, "Cours de lundi prochain", "2031-03-17T18:30:00+01:00", "2031-03-17T19:45:00+01:00");
const ALL = [MONDAY, THIS_MORNING, NOW_ON, TONIGHT, NEXT_MONDAY];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function feed() {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
    const params = new URL(String(url), "http://localhost").searchParams;
    const start = new Date(params.get("start"));
    const end = new Date(params.get("end"));
    const inRange = ALL.filter((s) => new Date(s.date) >= start && new Date(s.date) < end);
    return new Response(JSON.stringify(inRange), { status: 200 });
  });
}

describe("the planning starts from now, and past classes look past", () => {
  it("on a phone, lists the coming seven days from now: no finished class of the week first", async () => {
    screenWidth(390);
    feed();
    render(<CalendarIsland user={null} />);
    await screen.findByText("Cours de ce soir");
    expect(screen.getByText("Cours de lundi prochain")).toBeTruthy(); // the next days, across the week's end
    expect(screen.queryByText("Cours de lundi")).toBeNull();
    expect(screen.queryByText("Cours de ce matin")).toBeNull();
    // The class under way is still listed, but as under way: no seats count, not bookable-looking.
    const onNow = screen.getByText("Cours en cours").closest(".session-event");
    expect(onNow.textContent).toContain(LABEL_STARTED);
    expect(onNow.textContent).not.toContain("places restantes");
    const titles = [...document.querySelectorAll(".session-event-title")].map((el) => el.textContent);
    expect(titles[0]).toBe("Cours en cours");
    expect(screen.getByRole("tab", { name: "Liste" }).getAttribute("aria-selected")).toBe("true");
  });

  it("on a wider screen, shows the week's finished classes as finished, without a seats count", async () => {
    screenWidth(1366);
    feed();
    render(<CalendarIsland user={null} />);
    const monday = (await screen.findByText("Cours de lundi")).closest(".session-event");
    expect(monday.textContent).toContain(LABEL_ENDED);
    expect(monday.textContent).not.toContain("places restantes");
    expect(monday.closest(".session-past")).toBeTruthy();
    const tonight = screen.getByText("Cours de ce soir").closest(".session-event");
    expect(tonight.textContent).toContain("10 places restantes");
    expect(tonight.closest(".session-past")).toBeNull();
  });
});
