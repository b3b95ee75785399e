/* Booking windows and the free-cancellation window in the calendar (docs/decisions.md 44-45): a session not open
   yet says from when it can be booked and offers no booking; the booking popup states until when cancelling is free. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { screenWidth } from "../../testing/screen.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
vi.mock("../../components/PaymentWidget.jsx", () => ({ default: () => <p data-testid="widget" /> }));
const { default: CalendarIsland } = await import("./CalendarIsland.jsx");
// The island fetches FullCalendar and the booking form when first shown: compiled here, before the clock of the
// assertions starts, as a browser would have them from its cache or the network.
await Promise.all([import("./FullCalendarView.jsx"), import("./ReservationForm.jsx")]);
const { default: ReservationForm } = await import("./ReservationForm.jsx");
const { LABEL_NOT_OPEN, MSG_LATE_CANCELLATION_RULE, bookingNotOpen, clickOutcome, freeCancellationText, opensLabel } = await import("./messages.js");

const NOW = new Date("2031-03-12T12:00:00+01:00");
const base = { instructor: "Inès Moreau", seats_left: 10, max_attendees: 10, price_per_participant: "25.00", is_past: false, status: "scheduled", my_reservation: null };
const LATER = {
  ...base,
  id: 8,
  course_title: "Cours dans trois semaines",
  date: "2031-04-02T18:30:00+02:00",
  end_date: "2031-04-02T19:45:00+02:00",
  booking_opens_at: "2031-03-19T00:00:00+01:00",
  free_cancellation_until: "2031-04-01T18:30:00+02:00",
};
const TONIGHT = {
  ...base,
  id: 4,
  course_title: "Cours de ce soir",
  date: "2031-03-12T19:00:00+01:00",
  end_date: "2031-03-12T20:15:00+01:00",
  booking_opens_at: "2031-02-26T00:00:00+01:00",
  free_cancellation_until: "2031-03-11T19:00:00+01:00",
};
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("rules", () => {
  it("a session before its opening is not bookable and says from when, in Paris time", () => {
    expect(bookingNotOpen(LATER, NOW)).toBe(true);
    expect(bookingNotOpen(TONIGHT, NOW)).toBe(false);
    expect(bookingNotOpen({ ...TONIGHT, booking_opens_at: undefined }, NOW)).toBe(false);
    expect(opensLabel(LATER)).toBe("Réservations à partir du 19 mars 2031 à 00:00");
    expect(clickOutcome({ user, session: LATER, now: NOW })).toBe("not_open");
    expect(clickOutcome({ user: null, session: LATER, now: NOW })).toBe("login");
    // A member who already holds seats on it (staff booked them) still sees their booking.
    expect(clickOutcome({ user, session: { ...LATER, my_reservation: { status: "confirmed" } }, now: NOW })).toBe("reserved");
    expect(LABEL_NOT_OPEN).toBe("Réservations pas encore ouvertes");
  });

  it("writes the free cancellation in words", () => {
    expect(freeCancellationText("2031-04-01T18:30:00+02:00")).toBe("Annulation gratuite jusqu'au 1 avril 2031 à 18:30.");
    expect(MSG_LATE_CANCELLATION_RULE).toBe(
      "Après, vous pouvez encore annuler (annulation tardive) : le studio conserve votre crédit ou votre paiement, sauf si votre place est reprise avant le cours.",
    );
  });
});

describe("the calendar", () => {
  it("shows 'Réservations à partir du …' on a session not open yet, and a click opens no booking form", async () => {
    screenWidth(1366);
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify([LATER, TONIGHT]), { status: 200 }));
    render(<CalendarIsland user={user} initialDate="2031-04-02" />);
    const later = (await screen.findByText("Cours dans trois semaines")).closest(".session-event");
    expect(later.textContent).toContain("Réservations à partir du 19 mars 2031 à 00:00");
    expect(later.textContent).not.toContain("places restantes");
    expect(later.closest(".session-not-open")).toBeTruthy();
    const calls = fetchMock.mock.calls.length;
    fireEvent.click(later);
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Réservations à partir du 19 mars 2031 à 00:00.");
    expect(screen.queryByRole("button", { name: "Envoyer la réservation" })).toBeNull();
    expect(fetchMock.mock.calls.length).toBe(calls); // nothing asked of the server: the feed said it
  });
});

describe("the booking popup", () => {
  it("states until when cancelling is free, and what a late cancellation keeps", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("[]", { status: 200 }));
    render(<ReservationForm session={TONIGHT} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} />);
    const line = document.querySelector(".reservation-cancellation");
    expect(line.textContent).toBe(`Annulation gratuite jusqu'au 11 mars 2031 à 19:00. ${MSG_LATE_CANCELLATION_RULE}`);
  });
});
