import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { polyfillDialog } from "../../testing/dialog.js";
import { screenWidth } from "../../testing/screen.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
vi.mock("../../components/PaymentWidget.jsx", () => ({ default: () => <p data-testid="widget" /> }));
const { default: CalendarIsland } = await import("./CalendarIsland.jsx");
// The island fetches FullCalendar and the booking form when first shown: compiled here, before the clock of the
// assertions starts, as a browser would have them from its cache or the network.
await Promise.all([import("./FullCalendarView.jsx"), import("./ReservationForm.jsx")]);
const { notify } = await import("../../components/toast.jsx");
const { MSG_OFFLINE_READ_ONLY } = await import("./messages.js");
const { MSG_NO_CLASSES, listDays, listTitle } = await import("./SessionList.jsx");

const NOW = new Date("2031-03-12T12:00:00+01:00"); // a Wednesday, noon in Paris
const session = (id, title, date, end, extra = {}) => ({ id, course_title: title, date, end_date: end, instructor: "Inès Moreau", seats_left: 10, max_attendees: 10, price_per_participant: "25.00", ...extra });
const TONIGHT = session(4, "Cours de ce soir", "2031-03-12T19:00:00+01:00", "2031-03-12T20:15:00+01:00", { my_reservation: { id: 8, status: "confirmed" } });
const SATURDAY = session(5, "Cours de samedi", "2031-03-15T10:00:00+01:00", "2031-03-15T11:15:00+01:00");
const NEXT_WEEK = session(6, "Cours de la semaine prochaine", "2031-03-20T18:30:00+01:00", "2031-03-20T19:45:00+01:00");
const ALL = [NEXT_WEEK, SATURDAY, TONIGHT];
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

function feed() {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
    const address = new URL(String(url), "http://localhost");
    if (address.pathname.startsWith("/api/closures")) return new Response("[]", { status: 200 });
    if (address.pathname !== "/api/course-sessions") return new Response("[]", { status: 200 });
    const start = new Date(address.searchParams.get("start"));
    const end = new Date(address.searchParams.get("end"));
    return new Response(JSON.stringify(ALL.filter((s) => new Date(s.date) >= start && new Date(s.date) < end)), { status: 200 });
  });
}
const sessionRanges = (fetchMock) =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), "http://localhost"))
    .filter((url) => url.pathname === "/api/course-sessions")
    .map((url) => `${url.searchParams.get("start")} ${url.searchParams.get("end")}`);

beforeEach(() => {
  polyfillDialog();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  screenWidth(390);
});

afterEach(() => {
  cleanup();
  document.documentElement.classList.remove("is-offline");
  vi.useRealTimers();
  vi.restoreAllMocks();
  notify.mockClear();
});

describe("a phone's list of the coming days", () => {
  it("groups the classes by day under the seven days' title, in order, and marks the member's booking", async () => {
    feed();
    render(<CalendarIsland user={user} />);
    expect(screen.getByRole("heading", { level: 2, name: "12 – 18 mars 2031" })).toBeTruthy();
    const tonight = (await screen.findByText("Cours de ce soir")).closest(".session-event");
    expect(tonight.textContent).toContain("19:00 – 20:15");
    expect(tonight.textContent).toContain("Réservé");
    expect(tonight.closest(".session-mine")).toBeTruthy();
    const saturday = screen.getByText("Cours de samedi").closest(".session-event");
    expect(saturday.textContent).toContain("10 places restantes");
    expect(saturday.closest(".session-mine")).toBeNull();
    const days = [...document.querySelectorAll(".session-list-day-heading")].map((el) => el.textContent);
    expect(days).toEqual(["mercredi 12 mars 2031", "samedi 15 mars 2031"]);
    expect(screen.queryByText("Cours de la semaine prochaine")).toBeNull();
  });

  it("moves by seven days with Suivant and Précédent, asking for each range, and comes back with Aujourd'hui", async () => {
    const fetchMock = feed();
    render(<CalendarIsland user={null} />);
    await screen.findByText("Cours de ce soir");
    const today = screen.getByRole("button", { name: "Aujourd'hui" });
    expect(today.disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Suivant" }));
    expect(await screen.findByText("Cours de la semaine prochaine")).toBeTruthy();
    expect(screen.queryByText("Cours de ce soir")).toBeNull();
    expect(screen.getByRole("heading", { level: 2, name: "19 – 25 mars 2031" })).toBeTruthy();
    expect(today.disabled).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Précédent" }));
    expect(await screen.findByText("Cours de ce soir")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Suivant" }));
    await screen.findByText("Cours de la semaine prochaine");
    fireEvent.click(today);
    expect(await screen.findByText("Cours de ce soir")).toBeTruthy();
    expect(sessionRanges(fetchMock)).toEqual([
      "2031-03-12T00:00:00+01:00 2031-03-19T00:00:00+01:00",
      "2031-03-19T00:00:00+01:00 2031-03-26T00:00:00+01:00",
      "2031-03-12T00:00:00+01:00 2031-03-19T00:00:00+01:00",
      "2031-03-19T00:00:00+01:00 2031-03-26T00:00:00+01:00",
      "2031-03-12T00:00:00+01:00 2031-03-19T00:00:00+01:00",
    ]);
  });

  it("says so when the seven days hold no class", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("[]", { status: 200 }));
    render(<CalendarIsland user={null} initialDate="2031-08-04" />);
    expect(await screen.findByText(MSG_NO_CLASSES)).toBeTruthy();
    expect(MSG_NO_CLASSES).toBe("Aucun cours sur cette période.");
  });

  it("opens the booking form when a class is tapped, and only a read-only notice without a network", async () => {
    feed();
    render(<CalendarIsland user={user} />);
    fireEvent.click(await screen.findByText("Cours de samedi"));
    expect(await screen.findByRole("button", { name: "Envoyer la réservation" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Envoyer la réservation" })).toBeNull());

    document.documentElement.classList.add("is-offline");
    fireEvent.click(screen.getByText("Cours de samedi"));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(MSG_OFFLINE_READ_ONLY, "warning"));
    expect(screen.queryByRole("button", { name: "Envoyer la réservation" })).toBeNull();
  });

  it("hands the week to FullCalendar when Semaine is asked for, and takes it back with Liste", async () => {
    feed();
    render(<CalendarIsland user={user} />);
    await screen.findByText("Cours de ce soir");
    expect(screen.getByRole("tab", { name: "Liste" }).getAttribute("aria-selected")).toBe("true");
    // Each view is a real button the keyboard reaches, as FullCalendar's are.
    for (const tab of screen.getAllByRole("tab")) expect(tab.tabIndex).toBe(0);
    expect(screen.getByRole("region", { name: "12 – 18 mars 2031" }).getAttribute("aria-busy")).toBe("false");
    fireEvent.click(screen.getByRole("tab", { name: "Semaine" }));
    await waitFor(() => expect(screen.getByRole("tab", { name: "Semaine" }).getAttribute("aria-selected")).toBe("true"));
    expect(document.querySelector(".session-list")).toBeNull();
    // FullCalendar's week on a phone: the week's list from Monday, the member's booking still marked.
    const tonight = (await screen.findByText("Cours de ce soir")).closest(".session-event");
    expect(tonight.textContent).toContain("Réservé");
    fireEvent.click(screen.getByRole("tab", { name: "Liste" }));
    await waitFor(() => expect(document.querySelector(".session-list")).toBeTruthy());
    expect(await screen.findByText("Cours de samedi")).toBeTruthy();
  });
});

describe("the list's days", () => {
  it("leave out the classes over today and put a closure on each of its days in the range", () => {
    const morning = session(1, "Ce matin", "2031-03-12T09:00:00+01:00", "2031-03-12T10:00:00+01:00");
    const closure = { id: 2, label: "Travaux", starts_on: "2031-03-10", ends_on: "2031-03-13" };
    const days = listDays("2031-03-12", [SATURDAY, morning, TONIGHT], [closure], NOW);
    expect(days.map((d) => [d.day, d.closures.length, d.sessions.map((s) => s.id)])).toEqual([
      ["2031-03-12", 1, [4]],
      ["2031-03-13", 1, []],
      ["2031-03-15", 0, [5]],
    ]);
    // A range that does not hold today keeps every class.
    expect(listDays("2031-03-05", [morning], [], NOW)).toEqual([]);
    expect(listDays("2031-03-12", [morning], [], new Date("2031-03-01T00:00:00Z"))[0].sessions).toHaveLength(1);
  });

  it("are titled as FullCalendar titles its phone views, across two months too", () => {
    expect(listTitle("2026-11-29")).toBe("29 nov. – 5 déc. 2026");
    expect(listTitle("2031-03-12")).toBe("12 – 18 mars 2031");
  });
});
