/* The reservation popup with the real payment widget: every amount, before and after the hold, is written the
   one French way of components/format.js ("25,00 €"), never "25.00 €" beside "50,00 €". */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { euros } from "../../components/format.js";

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
const held = { id: 44, total_amount: "25.00", hold_expires_at: "2031-03-01T10:15:00+01:00", first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

describe("the calendar's reservation and payment popup", () => {
  it("shows 25,00 € everywhere, from the price to the payment button", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine") ? new Response("[]", { status: 200 }) : new Response(JSON.stringify(held), { status: 201 }),
    );
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));

    // The payment widget's own amount and button, exactly as Intl writes them (a no-break space before €).
    expect(await screen.findByRole("button", { name: `Payer ${euros("25.00")}` })).toBeTruthy();
    expect(euros("25.00")).toMatch(/^25,00[\u00a0\u202f]€$/);
    expect(document.querySelector("[data-total]").textContent).toBe(euros("25.00"));
    expect(document.querySelector(".payment-amount").textContent).toBe(`Montant à régler : ${euros("25.00")}`);

    const text = document.body.textContent.replace(/[\u00a0\u202f]/g, " ");
    expect(text).toContain("25,00 € par participant");
    expect(text).toContain("Montant total : 25,00 €");
    expect(text).not.toMatch(/\d\.\d\d ?€/);
    // The API still receives its decimal string.
    const post = fetchMock.mock.calls.find(([, options]) => options?.method === "POST");
    expect(JSON.parse(post[1].body).total_amount).toBe("25.00");
  });
});
