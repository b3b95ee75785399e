import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import SubscriptionPay, { MSG_DEBIT_SENT, MSG_PAID } from "./SubscriptionPay.jsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

describe("SubscriptionPay", () => {
  it("pays the unpaid period and says so", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, { id: 3, status: "active" }));
    const onPaid = vi.fn();
    render(<SubscriptionPay subscriptionId={3} title="Abonnement annuel illimité" onPaid={onPaid} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer maintenant : Abonnement annuel illimité" }));
    expect(await screen.findByText(MSG_PAID)).toBeTruthy();
    expect(onPaid).toHaveBeenCalled();
    const [url, options] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/subscriptions/3/pay");
    expect(JSON.parse(options.body)).toEqual({ card_declined: false });
  });

  it("says a SEPA debit is on its way rather than paid", async () => {
    const body = { id: 3, status: "unpaid", charges: [{ period: 2, status: "processing", status_label: "En cours" }] };
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, body));
    render(<SubscriptionPay subscriptionId={3} title="Abonnement" simulated={false} onPaid={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer maintenant : Abonnement" }));
    expect(await screen.findByText(MSG_DEBIT_SENT)).toBeTruthy();
    expect(MSG_DEBIT_SENT).toBe("Prélèvement SEPA envoyé : l'échéance est en cours de paiement et sera réglée sous quelques jours.");
  });

  it("shows the server's French refusal", async () => {
    const refusal = "Le paiement de l'échéance a été refusé : réessayez avec un autre moyen de paiement.";
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(409, { error: refusal }));
    render(<SubscriptionPay subscriptionId={3} title="Abonnement" onPaid={vi.fn()} />);
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByRole("button"));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(refusal));
  });
});

describe("SubscriptionPay with PayPal", () => {
  it("offers no simulated card when the subscription is PayPal's", () => {
    render(<SubscriptionPay subscriptionId={3} title="Abonnement" simulated={false} onPaid={vi.fn()} />);
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(screen.getByRole("button", { name: "Payer maintenant : Abonnement" })).toBeTruthy();
  });
});
