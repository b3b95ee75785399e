/* "Mes cours" and the free-cancellation window (docs/decisions.md 44): each booking says until when cancelling is
   free; after it, cancelling is still offered, and the confirmation says the credit is kept unless the seat is taken
   again. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { LABEL_LATE_CANCEL, MSG_CANCELLATION_RULE, cancelConsequence, lateCancelConsequence } from "./messages.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: MyCoursesIsland } = await import("./MyCoursesIsland.jsx");
const { notify } = await import("../../components/toast.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const card = { id: 5, title: "Carte 10 cours", kind: "card" };
const page = (results) => ({ count: results.length, next: null, previous: null, results });
const inTime = {
  reservation_id: 11,
  course_id: 1,
  title: "Pole Exotic",
  date: "2031-03-10T18:30:00+01:00",
  level: "Débutant",
  instructor: "Léa",
  participants: 1,
  status: "confirmed",
  status_label: "Confirmée",
  is_past: false,
  can_cancel: true,
  cancel_is_late: false,
  free_cancellation_text: "Annulation gratuite jusqu'au 9 mars 2031 à 18:30.",
  paid_with_pass: card,
  credits_spent: 1,
  total_amount: "25.00",
};
const late = { ...inTime, reservation_id: 12, title: "Pole Flow", cancel_is_late: true };
const LATE_MESSAGE =
  "Annulation tardive enregistrée : votre place est remise en vente. Le studio conserve le(s) 1 crédit(s) utilisé(s), sauf si la place est reprise avant le cours : le crédit vous sera alors rendu automatiquement.";

describe("what a late cancellation keeps, in French", () => {
  it("names the credits, the payment or the freed place", () => {
    expect(lateCancelConsequence(late)).toBe(
      "Annulation tardive : le délai d'annulation gratuite est passé. Le studio conserve votre crédit, sauf si votre place est reprise avant le cours : il vous sera alors rendu automatiquement.",
    );
    expect(lateCancelConsequence({ ...late, credits_spent: 2 })).toBe(
      "Annulation tardive : le délai d'annulation gratuite est passé. Le studio conserve vos 2 crédits, sauf si votre place est reprise avant le cours : ils vous seront alors rendus automatiquement.",
    );
    expect(lateCancelConsequence({ ...late, paid_with_pass: null, credits_spent: 0 })).toBe(
      "Annulation tardive : le délai d'annulation gratuite est passé. Le studio conserve votre paiement, sauf si votre place est reprise avant le cours : il vous sera alors rendu automatiquement sous forme d'avoir.",
    );
    expect(lateCancelConsequence({ ...late, paid_with_pass: { title: "Abonnement", kind: "subscription" }, credits_spent: 0 })).toBe(
      "Annulation tardive : le délai d'annulation gratuite est passé. Votre place sera libérée.",
    );
    expect(MSG_CANCELLATION_RULE).toBe(
      "Chaque cours a son délai d'annulation gratuite. Après, vous pouvez encore annuler (annulation tardive) : le studio conserve votre crédit ou votre paiement, sauf si votre place est reprise avant le cours.",
    );
  });
});

describe("my courses", () => {
  it("shows each booking's window, and confirms a late cancellation saying what is kept", async () => {
    let cancelled = false;
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      if (String(url).includes("/cancel")) {
        cancelled = true;
        return new Response(JSON.stringify({ message: LATE_MESSAGE, late: true, reservation_id: 12, status: "cancelled", credit_pass: null }), { status: 200 });
      }
      return new Response(JSON.stringify(page(cancelled ? [inTime] : [inTime, late])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    expect(await screen.findByText(/Annulation gratuite jusqu'au 9 mars 2031 à 18:30\./)).toBeTruthy();
    expect(screen.getByText(`${LABEL_LATE_CANCEL} : délai dépassé.`, { exact: false })).toBeTruthy();
    expect(screen.getByText(MSG_CANCELLATION_RULE)).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: /Annuler la réservation Pole Flow/ }));
    expect(screen.getByText(lateCancelConsequence(late))).toBeTruthy();
    expect(screen.queryByText(cancelConsequence(late))).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation tardive" }));
    await vi.waitFor(() => expect(notify).toHaveBeenCalledWith(LATE_MESSAGE, "success"));
    expect(await screen.findByText("Pole Exotic")).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText("Pole Flow")).toBeNull());
    const post = fetchMock.mock.calls.find(([url]) => String(url).includes("/cancel"));
    expect(post[0]).toBe("/api/reservations-courses/12/cancel");
  });

  it("an in-time cancellation keeps its own confirmation", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify(page([inTime])), { status: 200 }));
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    fireEvent.click(await screen.findByRole("button", { name: /Annuler la réservation Pole Exotic/ }));
    expect(screen.getByText(cancelConsequence(inTime))).toBeTruthy();
    expect(screen.getByRole("button", { name: "Confirmer l'annulation" })).toBeTruthy();
  });
});
