import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MSG_REQUIRED, clickOutcome, formatTotal, normalizeParticipants, seatsLabel } from "./messages.js";

vi.mock("../../components/PaymentWidget.jsx", () => ({
  default: ({ order, totalAmount }) => <p data-testid="widget">{`${order.kind}:${order.reservationId}:${totalAmount}`}</p>,
}));
vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

const { default: ReservationForm } = await import("./ReservationForm.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const session = {
  id: 7,
  course_title: "Exotic Pole",
  date: "2031-03-10T18:30:00+01:00",
  end_date: "2031-03-10T19:45:00+01:00",
  instructor: "Léa",
  seats_left: 4,
  price_per_participant: "25.00",
};
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

describe("rules", () => {
  it("normalizes participants: non-numeric and below 1 become 1, capped at the seats left", () => {
    expect(normalizeParticipants("abc", 5)).toBe(1);
    expect(normalizeParticipants("", 5)).toBe(1);
    expect(normalizeParticipants("0", 5)).toBe(1);
    expect(normalizeParticipants("3", 5)).toBe(3);
    expect(normalizeParticipants("9", 5)).toBe(5);
  });

  it("computes the total with 2 decimals", () => {
    expect(formatTotal("25.00", 3)).toBe("75.00");
    expect(formatTotal("19.99", 3)).toBe("59.97");
  });

  it("labels full sessions 'Complet'", () => {
    expect(seatsLabel(0)).toBe("Complet");
    expect(seatsLabel(1)).toBe("1 place restante");
  });

  it("decides what a click opens", () => {
    const now = new Date("2031-03-01T00:00:00Z");
    expect(clickOutcome({ user: null, session, now })).toBe("login");
    expect(clickOutcome({ user, session, now: new Date("2031-04-01T00:00:00Z") })).toBe("past");
    expect(clickOutcome({ user, session: { ...session, seats_left: 0 }, now })).toBe("full");
    expect(clickOutcome({ user, session, now })).toBe("reserve");
  });
});

describe("ReservationForm", () => {
  it("prefills the member, refuses blank required fields, then holds and shows the payment widget", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(JSON.stringify({ id: 42, total_amount: "50.00", hold_expires_at: "2031-03-01T10:15:00+01:00", first_name: "Emma", last_name: "Petit", email: "emma@example.fr" }), { status: 201 }),
    );
    const onHeld = vi.fn();
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={onHeld} onPaid={() => {}} />);
    expect(screen.getByLabelText("Prénom *").value).toBe("Emma");
    fireEvent.change(screen.getByLabelText("Participants"), { target: { value: "2" } });
    expect(screen.getByText("50.00 €")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Email *"), { target: { value: " " } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_REQUIRED);
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText("Email *"), { target: { value: "emma@example.fr" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect((await screen.findByTestId("widget")).textContent).toBe("reservation:42:50.00");
    const body = JSON.parse(fetchMock.mock.calls[0][1].body);
    expect(body).toMatchObject({ session_id: 7, participants: 2, type: "cours", total_amount: "50.00" });
    expect(onHeld).toHaveBeenCalled();
  });
});
