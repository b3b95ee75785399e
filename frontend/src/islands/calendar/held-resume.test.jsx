import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { heldNotice } from "./messages.js";

vi.mock("../../components/PaymentWidget.jsx", () => ({
  default: ({ order, totalAmount }) => <p data-testid="widget">{`${order.kind}:${order.reservationId}:${totalAmount}`}</p>,
}));
vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

const { default: ReservationForm } = await import("./ReservationForm.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// Ten places: eight taken by others, two held (unpaid) by this member.
const session = {
  id: 7,
  course_title: "Exotic Pole",
  date: "2031-03-10T18:30:00+01:00",
  end_date: "2031-03-10T19:45:00+01:00",
  instructor: "Léa",
  seats_left: 0,
  max_attendees: 10,
  price_per_participant: "25.00",
  my_reservation: { id: 42, status: "held", participants: 2 },
};
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

describe("the booking form resumes the member's own unpaid hold", () => {
  it("shows the hold, does not count its seats against the member, and resumes its payment", async () => {
    const resumed = { id: 42, total_amount: "50.00", hold_expires_at: "2031-03-01T10:15:00+01:00", first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine") ? new Response("[]", { status: 200 }) : new Response(JSON.stringify(resumed), { status: 201 }),
    );
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} />);
    expect(screen.getByText(heldNotice(2))).toBeTruthy();
    expect(screen.getByText(/2 place\(s\) restante\(s\)/)).toBeTruthy(); // their own two, not 0
    const participants = screen.getByLabelText("Participants");
    expect(participants.value).toBe("2");
    expect(participants.getAttribute("max")).toBe("2");
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect((await screen.findByTestId("widget")).textContent).toBe("reservation:42:50.00");
    const post = fetchMock.mock.calls.find(([url]) => String(url) === "/api/reservations-courses");
    expect(JSON.parse(post[1].body).participants).toBe(2);
  });

  it("says nothing of a hold when the member has none", () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("[]", { status: 200 }));
    render(<ReservationForm session={{ ...session, seats_left: 3, my_reservation: null }} user={user} reserveUrl="/r" loginUrl="/login" onCancel={() => {}} />);
    expect(screen.queryByText(heldNotice(2))).toBeNull();
    expect(screen.getByText(/3 place\(s\) restante\(s\)/)).toBeTruthy();
    expect(screen.getByLabelText("Participants").value).toBe("1");
  });
});
