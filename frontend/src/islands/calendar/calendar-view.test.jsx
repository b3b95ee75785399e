import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { screenWidth } from "../../testing/screen.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: CalendarIsland, viewForWidth } = await import("./CalendarIsland.jsx");
// The island fetches FullCalendar and the booking form when first shown: compiled here, before the clock of the
// assertions starts, as a browser would have them from its cache or the network.
await Promise.all([import("./FullCalendarView.jsx"), import("./ReservationForm.jsx")]);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const session = {
  id: 7,
  course_title: "Pole Dance Tous niveaux",
  date: "2031-03-10T18:30:00+01:00",
  end_date: "2031-03-10T19:45:00+01:00",
  instructor: "Inès Moreau",
  seats_left: 10,
  price_per_participant: "25.00",
};

describe("the calendar's view follows the screen", () => {
  it("chooses the list on a phone and the month on a wider screen", () => {
    expect(viewForWidth(390)).toBe("listUpcoming");
    expect(viewForWidth(768)).toBe("dayGridMonth");
    expect(viewForWidth(1366)).toBe("dayGridMonth");
  });

  it("configures FullCalendar with known settings only (bug 9: no 'Unknown option' warning)", async () => {
    screenWidth(1366);
    const warn = vi.spyOn(console, "warn");
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("[]", { status: 200 }));
    render(<CalendarIsland user={null} />);
    await screen.findByRole("tab", { name: "Mois" });
    const unknown = warn.mock.calls.map((args) => args.join(" ")).filter((text) => /Unknown option/i.test(text));
    expect(unknown).toEqual([]);
  });

  it("shows a phone the coming days as a French list, entries in full, with Mois/Semaine/Jour kept", async () => {
    screenWidth(390);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify([session]), { status: 200 }));
    const warn = vi.spyOn(console, "warn");
    render(<CalendarIsland user={null} initialDate="2031-03-10" />);
    for (const name of ["Mois", "Semaine", "Jour"]) expect(await screen.findByRole("tab", { name })).toBeTruthy();
    const entry = await screen.findByText("Pole Dance Tous niveaux");
    const card = entry.closest(".session-event");
    expect(card.textContent).toContain("Inès Moreau");
    expect(card.textContent).toContain("10 places restantes");
    expect(screen.getByRole("tab", { name: "Liste" }).getAttribute("aria-selected")).toBe("true");
    expect(warn.mock.calls.map((args) => args.join(" ")).filter((text) => /Unknown option/i.test(text))).toEqual([]);
  });
});

describe("a phone's first frame", () => {
  it("is drawn with the sessions and closures asked for early, without asking the server for them again", async () => {
    screenWidth(390);
    const { phoneFirstRange, prefetchRange } = await import("./firstRange.js");
    const closure = { id: 4, label: "Vacances", starts_on: "2031-03-12", ends_on: "2031-03-12" };
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      new Response(JSON.stringify(String(url).startsWith("/api/closures") ? [closure] : [{ ...session, date: "2031-03-10T18:30:00+01:00" }]), { status: 200 }),
    );
    const range = phoneFirstRange(new Date("2031-03-10T08:00:00Z"));
    await Promise.all([prefetchRange("/api/course-sessions", range), prefetchRange("/api/closures/calendar", range)]);
    render(<CalendarIsland user={null} initialDate="2031-03-10" />);
    expect(await screen.findByText("Pole Dance Tous niveaux")).toBeTruthy();
    expect(await screen.findByText("Studio fermé : Vacances")).toBeTruthy();
    expect(fetch.mock.calls.map(([url]) => String(url).split("?")[0])).toEqual(["/api/course-sessions", "/api/closures/calendar"]);
  });
});
