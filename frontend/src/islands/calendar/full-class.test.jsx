/* A class that fills while the member fills the form (a class opening): the answer "Cette session est complète."
   with its waiting list open hands over to the waiting list's popup; with the list closed, the message stays. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";

vi.mock("../../components/PaymentWidget.jsx", () => ({ default: () => <p data-testid="widget" /> }));
vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

const { default: ReservationForm } = await import("./ReservationForm.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const session = { id: 7, course_title: "Exotic Pole", date: "2031-03-10T18:30:00+01:00", seats_left: 1, price_per_participant: "25.00" };
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
const FULL = "Cette session est complète.";

function answerFull(waitlistOpen) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
    String(url).includes("/api/passes/mine")
      ? new Response("[]", { status: 200 })
      : new Response(JSON.stringify({ error: FULL, message: FULL, code: "session_full", waitlist_open: waitlistOpen }), { status: 409 }),
  );
}

function send(onFull) {
  render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={() => {}} onFull={onFull} />);
  fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
}

describe("a class that fills meanwhile", () => {
  it("offers the waiting list when it is open", async () => {
    answerFull(true);
    const onFull = vi.fn();
    send(onFull);
    await vi.waitFor(() => expect(onFull).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says the class is full when its waiting list is closed", async () => {
    answerFull(false);
    const onFull = vi.fn();
    send(onFull);
    expect((await screen.findByRole("alert")).textContent).toBe(FULL);
    expect(onFull).not.toHaveBeenCalled();
  });
});
