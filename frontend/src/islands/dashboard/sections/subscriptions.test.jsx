import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import Subscriptions, { MSG_FROZEN, subscriptionsUrl } from "./Subscriptions.jsx";
import { polyfillDialog } from "../../../testing/dialog.js";

polyfillDialog();

const ROW = {
  id: 7,
  title: "Abonnement annuel illimité",
  status: "unpaid",
  status_label: "Impayé",
  amount: "55.00",
  currency: "EUR",
  period_months: 1,
  periods_committed: 12,
  periods_paid: 1,
  periods_left: 11,
  starts_on: "2030-01-10",
  ends_on: "2031-01-09",
  pass_expires_on: "2030-03-09",
  next_due_on: "2030-02-10",
  next_due_amount: "55.00",
  charges: [{ period: 2, due_on: "2030-02-10", amount: "55.00", status: "failed", status_label: "Refusée", attempts: 1, next_attempt_on: "2030-02-13", paid_at: null, reference: "" }],
  member: { id: 1, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  freezes: [],
};

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Subscriptions section", () => {
  it("shows the saved method each subscription is charged to", async () => {
    const sepa = { ...ROW, id: 8, method_label: "Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026" };
    const paypal = { ...ROW, id: 9, provider: "paypal", method_label: "" };
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, [sepa, paypal]));
    render(<Subscriptions />);
    expect(await screen.findByRole("columnheader", { name: "Moyen de paiement" })).toBeTruthy();
    expect(screen.getByText("Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026")).toBeTruthy();
    expect(screen.getByText("PayPal", { selector: "td" })).toBeTruthy();
  });

  it("builds the filtered URL", () => {
    expect(subscriptionsUrl("")).toBe("/api/subscriptions");
    expect(subscriptionsUrl("unpaid")).toBe("/api/subscriptions?filter=unpaid");
  });

  it("shows Impayé, the charges, and freezes with a reason", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, options = {}) =>
      options.method === "POST" ? answer(200, { ...ROW, status: "frozen", status_label: "Gelé" }) : answer(200, [ROW]),
    );
    render(<Subscriptions />);
    expect(await screen.findByText("Impayé")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Échéances de l'abonnement 7" }));
    expect(screen.getByText("Refusée (nouvel essai le 13/02/2030)")).toBeTruthy();
    fireEvent.change(screen.getByRole("combobox"), { target: { value: "unpaid" } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/subscriptions?filter=unpaid"))).toBe(true));
    fireEvent.click(await screen.findByRole("button", { name: "Geler l'abonnement 7" }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    fireEvent.change(within(dialog).getByLabelText("Gel à partir du"), { target: { value: "2030-01-20" } });
    fireEvent.change(within(dialog).getByLabelText("Raison"), { target: { value: "Blessure" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Geler", hidden: true }));
    expect(await screen.findByText(MSG_FROZEN)).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, options]) => options && options.method === "POST");
    expect(post[0]).toBe("/api/subscriptions/7/freeze");
    expect(JSON.parse(post[1].body)).toEqual({ starts_on: "2030-01-20", weeks: 4, reason: "Blessure" });
  });
});

describe("Subscription staff actions", () => {
  const REDUCED = {
    ...ROW,
    provider: "simulator",
    reduced: { status: "student", status_label: "Étudiant(e)", confirmed_at: "2030-01-10T10:00:00+01:00", proof_url: "/reduced-proofs/7/file", ended_at: null },
    actions: [{ kind: "retry", label: "Échéance relancée", reason: "Appel", outcome: "Échéance 2 relancée : elle est payée.", by: "Camille Laurent", created_at: "2030-02-11T09:00:00+01:00" }],
  };

  function mockFetch(postAnswer) {
    return vi.spyOn(globalThis, "fetch").mockImplementation((url, options = {}) =>
      options.method === "POST" ? postAnswer(url, options) : answer(200, [REDUCED]),
    );
  }

  it("retries after a confirm dialog and shows the server's French outcome", async () => {
    const fetchMock = mockFetch(() => answer(200, { message: "Échéance 2 relancée : elle est payée.", subscription: REDUCED }));
    render(<Subscriptions />);
    fireEvent.click(await screen.findByRole("button", { name: "Relancer l'échéance de l'abonnement 7" }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    expect(within(dialog).getByText(/Relancer maintenant le paiement de l'échéance impayée/)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, options]) => options?.method === "POST")).toBe(false); // nothing before confirming
    fireEvent.click(within(dialog).getByRole("button", { name: "Relancer l'échéance", hidden: true }));
    expect(await screen.findByText("Échéance 2 relancée : elle est payée.", { selector: "[role=status]" })).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, options]) => options?.method === "POST");
    expect(post[0]).toBe("/api/subscriptions/7/retry");
  });

  it("cancels with the refund after confirming, and shows a refusal in French", async () => {
    let calls = 0;
    const fetchMock = mockFetch(() => {
      calls += 1;
      return calls === 1
        ? answer(400, { error: "Indiquez la raison : elle est gardée dans l'historique de l'abonnement.", code: "reason_required" })
        : answer(200, { message: "Abonnement annulé : la période 2 (55,00 €) est remboursée via le prestataire de paiement.", subscription: REDUCED });
    });
    render(<Subscriptions />);
    fireEvent.click(await screen.findByRole("button", { name: "Annuler l'abonnement 7" }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer l'annulation", hidden: true }));
    expect(await within(dialog).findByText("Indiquez la raison : elle est gardée dans l'historique de l'abonnement.")).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText(/Rembourser la période en cours/));
    fireEvent.change(within(dialog).getByLabelText("Raison"), { target: { value: "Blessure longue" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmer l'annulation", hidden: true }));
    expect(await screen.findByText(/la période 2 \(55,00 €\) est remboursée/, { selector: "[role=status]" })).toBeTruthy();
    const posts = fetchMock.mock.calls.filter(([, options]) => options?.method === "POST");
    expect(posts.at(-1)[0]).toBe("/api/subscriptions/7/cancel");
    expect(JSON.parse(posts.at(-1)[1].body)).toEqual({ reason: "Blessure longue", refund: true });
  });

  it("shows the reduced rate, its proof and the log, and ends the reduced plan", async () => {
    const fetchMock = mockFetch(() => answer(200, { message: "Tarif réduit terminé : plus aucune échéance ne sera prélevée sur cet abonnement.", subscription: REDUCED }));
    render(<Subscriptions />);
    fireEvent.click(await screen.findByRole("button", { name: "Échéances de l'abonnement 7" }));
    expect(screen.getByRole("link", { name: "voir le justificatif" }).getAttribute("href")).toBe("/reduced-proofs/7/file");
    expect(screen.getByText(/Échéance relancée par Camille Laurent : Appel/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Terminer le tarif réduit de l'abonnement 7" }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    fireEvent.change(within(dialog).getByLabelText("Raison"), { target: { value: "Plus étudiante" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Terminer le tarif réduit", hidden: true }));
    expect(await screen.findByText(/Tarif réduit terminé/, { selector: "[role=status]" })).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, options]) => options?.method === "POST");
    expect(post[0]).toBe("/api/subscriptions/7/end-reduced");
  });
});
