import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../toast.jsx", () => ({ notify: vi.fn() }));
vi.mock("@paypal/react-paypal-js", () => {
  // A stand-in for PayPal's SDK: resolved at once, one button that creates then approves the order.
  return {
    PayPalScriptProvider: ({ children }) => children,
    usePayPalScriptReducer: () => [{ isPending: false, isResolved: true, isRejected: false, isInitial: false }],
    PayPalButtons: ({ createOrder, onApprove }) => (
      <button
        type="button"
        onClick={async () => {
          const orderID = await createOrder();
          await onApprove({ orderID });
        }}
      >
        PayPal
      </button>
    ),
  };
});

import PaymentWidget from "../PaymentWidget.jsx";
import { notify } from "../toast.jsx";
import * as M from "./messages.js";

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

let calls;
function serve(routes) {
  calls = [];
  global.fetch = vi.fn((url, init) => {
    calls.push({ url, body: init.body ? JSON.parse(init.body) : null });
    const handler = routes[url];
    return handler ? handler(JSON.parse(init.body || "{}")) : reply(404, { error: "?" });
  });
}

const SIM = { provider: "simulator", clientId: "", currency: "EUR" };
const props = (extra = {}) => ({
  order: { kind: "reservation", reservationId: 7 },
  context: "calendar",
  config: SIM,
  payer: { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  details: { title: "Pole Dance", type: "COURS", date: "2030-01-01", time: "18:30", message: "" },
  totalAmount: "50.00",
  ...extra,
});

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe("payment messages", () => {
  it("keeps the exact wording", () => {
    expect(M.MSG_CALENDAR_SUCCESS).toBe("✅ Paiement réussi ! Un Email avec votre recu vous a été envoyé");
    expect(M.MSG_CALENDAR_FAILURE).toBe("❌ Erreur de paiement");
    expect(M.MSG_TARIFF_SUCCESS).toBe("Paiement réussi ! Un email de confirmation avec votre reçu vous a été envoyé.");
    expect(M.MSG_TARIFF_FAILURE).toBe("Une erreur est survenue lors du paiement. Veuillez réessayer.");
    expect(M.MSG_CREATE_FAILURE).toBe("Erreur lors de la création de la commande");
  });

  it("builds the create-order payload for a reservation and for a tariff", () => {
    const reservation = M.createOrderPayload(props());
    expect(reservation).toMatchObject({ amount: "50.00", title: "Pole Dance", type: "COURS", reservation_id: 7, email: "emma@example.fr" });
    const tariff = M.createOrderPayload({ ...props(), order: { kind: "tariff", tariffId: 3, quantity: 2 }, details: { title: "Carte" } });
    expect(tariff).toMatchObject({ tariff_id: 3, quantity: 2, time: "Non spécifiée", type: "COURS" });
    expect(tariff.reservation_id).toBeUndefined();
  });

  it("computes totals in cents, to 2 decimals", () => {
    expect(M.lineTotal("190.00", 3)).toBe("570.00");
    expect(M.lineTotal("25.10", 3)).toBe("75.30");
    expect(M.lineTotal("0.1", 3)).toBe("0.30");
    expect(M.euros("190").replace(/\u00a0/g, " ")).toBe("190,00 €");
  });
});

describe("PaymentWidget with the simulator", () => {
  it("says it is a demonstration, creates, approves and captures, then reports success", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-1" }),
      "/api/paypal/simulator/approve": () => reply(200, { id: "SIM-1", status: "APPROVED" }),
      "/api/paypal/capture-payment": () => reply(200, { id: "SIM-1", status: "COMPLETED" }),
    });
    const onSuccess = vi.fn();
    render(<PaymentWidget {...props({ onSuccess })} />);
    expect(screen.getByRole("note").textContent).toMatch(/Mode démonstration/);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith({ id: "SIM-1", status: "COMPLETED" }));
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/create-order", "/api/paypal/simulator/approve", "/api/paypal/capture-payment"]);
    expect(calls[0].body).toMatchObject({ amount: "50.00", reservation_id: 7 });
    expect(calls[2].body).toMatchObject({ orderId: "SIM-1", email: "emma@example.fr" });
    expect(screen.getByRole("status").textContent).toBe(M.MSG_CALENDAR_SUCCESS);
    expect(notify).toHaveBeenCalledWith(M.MSG_CALENDAR_SUCCESS, "success");
  });

  it("shows a spinner while capturing", async () => {
    let finish;
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-1" }),
      "/api/paypal/simulator/approve": () => reply(200, {}),
      "/api/paypal/capture-payment": () => new Promise((resolve) => (finish = () => resolve(reply(200, { status: "COMPLETED" })))),
    });
    render(<PaymentWidget {...props()} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    expect((await screen.findByRole("status")).textContent).toBe(M.MSG_CAPTURING);
    await act(async () => finish());
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(M.MSG_CALENDAR_SUCCESS));
  });

  it("a declined card shows the failure with the server's reason and lets the member retry", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-2" }),
      "/api/paypal/simulator/approve": () => reply(200, {}),
      "/api/paypal/capture-payment": () => reply(402, { error: "Le paiement a été refusé." }),
    });
    const onError = vi.fn();
    render(<PaymentWidget {...props({ context: "tariff", onError })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Simuler une carte refusée" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(`${M.MSG_TARIFF_FAILURE} — Le paiement a été refusé.`);
    expect(calls[1].body).toEqual({ orderId: "SIM-2", outcome: "decline" });
    expect(onError).toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith(M.MSG_TARIFF_FAILURE, "error");
    expect(screen.getByRole("button", { name: "Payer 50,00\u00a0€" })).toBeTruthy();
  });

  it("a capture refunded by the server (seats lost) shows its French reason alone and offers no retry", async () => {
    const refunded =
      "Le délai de réservation est dépassé et la session est désormais complète. Votre paiement de 50,00 € vous est " +
      "remboursé automatiquement : le remboursement apparaîtra sous quelques jours sur votre moyen de paiement.";
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-9" }),
      "/api/paypal/simulator/approve": () => reply(200, {}),
      "/api/paypal/capture-payment": () => reply(409, { error: refunded, refunded: true, status: "REFUNDED" }),
    });
    const onSuccess = vi.fn();
    render(<PaymentWidget {...props({ onSuccess })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    expect((await screen.findByRole("alert")).textContent).toBe(refunded);
    expect(notify).toHaveBeenCalledWith(refunded, "error");
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "Payer 50,00\u00a0€" })).toBeNull();
  });

  it("a creation failure says so with the server's message", async () => {
    serve({ "/api/paypal/create-order": () => reply(400, { error: "❌ Données de paiement incomplètes. Vérifiez le titre et le type." }) });
    render(<PaymentWidget {...props()} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Erreur lors de la création de la commande : ❌ Données de paiement incomplètes. Vérifiez le titre et le type.",
    );
    expect(screen.queryByRole("button", { name: "Payer (simulation)" })).toBeNull();
  });

  it("cancel voids the order and calls onCancel", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-3" }),
      "/api/paypal/cancel-order": () => reply(200, { id: "SIM-3", status: "VOIDED" }),
    });
    const onCancel = vi.fn();
    render(<PaymentWidget {...props({ onCancel })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "Annuler le paiement" }));
    await waitFor(() => expect(onCancel).toHaveBeenCalled());
    expect(calls.at(-1)).toEqual({ url: "/api/paypal/cancel-order", body: { orderId: "SIM-3" } });
    expect(screen.getByRole("status").textContent).toBe(M.MSG_CANCELLED);
  });
});

describe("PaymentWidget with PayPal", () => {
  it("loads PayPal only when the payment starts, then creates and captures through the buttons", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "5O190127TN364715T" }),
      "/api/paypal/capture-payment": () => reply(200, { id: "5O190127TN364715T", status: "COMPLETED" }),
    });
    // The pane's chunk is compiled on first import, which takes as long as the machine is busy: compile it before
    // the clock of the assertions starts (a browser would have it from its cache or the network), so that what is
    // measured below is only the widget's own work. The bound is generous and never waited out when all goes well.
    await import("./PayPalPane.jsx");
    const patience = { timeout: 10000 };
    const onSuccess = vi.fn();
    const { container } = render(<PaymentWidget {...props({ config: { provider: "paypal", clientId: "abc", currency: "EUR" }, onSuccess })} />);
    const widget = container.querySelector(".payment-widget");
    expect(widget.dataset.scriptState).toBe("initial");
    expect(screen.queryByRole("note")).toBeNull();
    expect(screen.queryByRole("button", { name: "PayPal" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "PayPal" }, patience));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled(), patience);
    expect(widget.dataset.scriptState).toBe("resolved");
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/create-order", "/api/paypal/capture-payment"]);
  }, 30000);
});
