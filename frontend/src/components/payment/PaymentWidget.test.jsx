import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { polyfillDialog } from "../../testing/dialog.js";

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

import PaymentWidget, { offeredProviders } from "../PaymentWidget.jsx";
import { notify } from "../toast.jsx";
import * as M from "./messages.js";
import * as S from "./simulator-messages.js";

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

beforeAll(async () => {
  // The pane's chunk is compiled on first import, which takes as long as the machine is busy: compile it before the
  // clock of the assertions starts (a browser would have it from its cache or the network).
  await import("./SimulatorPane.jsx");
  polyfillDialog();
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
    expect(calls[0].body.provider).toBeUndefined();
    expect(calls[1].body).toEqual({ orderId: "SIM-1", outcome: "approve", method: "card", scenario: "success" });
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
    const refused = "Paiement refusé par votre banque. Aucun montant n'a été débité.";
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "SIM-2" }),
      "/api/paypal/simulator/approve": () => reply(200, {}),
      "/api/paypal/capture-payment": () => reply(402, { error: refused, message: refused, code: "payment_not_completed" }),
    });
    const onError = vi.fn();
    render(<PaymentWidget {...props({ context: "tariff", onError })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("radio", { name: "Carte refusée" }));
    fireEvent.click(screen.getByRole("button", { name: "Payer (simulation)" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(`${M.MSG_TARIFF_FAILURE} — ${refused}`);
    expect(alert.parentElement.getAttribute("aria-live")).toBe("polite");
    expect(calls[1].body).toEqual({ orderId: "SIM-2", outcome: "decline", method: "card", scenario: "declined" });
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

describe("the simulator's methods and scenarios", () => {
  const REFUSED_3DS = "Authentification refusée par votre banque. Aucun montant n'a été débité.";

  function openSimulator(routes, extra = {}) {
    serve({ "/api/paypal/create-order": () => reply(201, { id: "SIM-5" }), ...routes });
    const handlers = { onSuccess: vi.fn(), onError: vi.fn(), onPending: vi.fn() };
    render(<PaymentWidget {...props({ ...handlers, ...extra })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    return handlers;
  }

  it("offers a card (the default) or Apple Pay / Google Pay, in labelled radio groups, and the card's three scenarios", async () => {
    openSimulator({});
    const methods = await screen.findByRole("group", { name: "Moyen de paiement" });
    expect(methods.tagName).toBe("FIELDSET");
    expect(methods.querySelector("legend").textContent).toBe("Moyen de paiement");
    const card = screen.getByRole("radio", { name: "Carte bancaire" });
    const wallet = screen.getByRole("radio", { name: "Apple Pay / Google Pay" });
    expect(card.checked).toBe(true);
    expect(wallet.checked).toBe(false);
    expect(card.name).toBe(wallet.name); // one group: the arrow keys move between them
    const scenarios = screen.getByRole("group", { name: "Scénario de démonstration" });
    expect([...scenarios.querySelectorAll("label")].map((l) => l.textContent)).toEqual([
      "Paiement accepté",
      "Authentification 3-D Secure",
      "Carte refusée",
    ]);
    expect(screen.getByRole("radio", { name: "Paiement accepté" }).checked).toBe(true);
    expect(screen.getByRole("group", { name: "Fenêtre de paiement simulée" })).toBeTruthy();
  });

  it("pays with a simulated wallet: accepted or refused, no 3-D Secure", async () => {
    const { onSuccess } = openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "APPROVED" }),
      "/api/paypal/capture-payment": () => reply(200, { id: "SIM-5", status: "COMPLETED" }),
    });
    fireEvent.click(await screen.findByRole("radio", { name: "Apple Pay / Google Pay" }));
    const scenarios = screen.getByRole("group", { name: "Scénario de démonstration" });
    expect([...scenarios.querySelectorAll("label")].map((l) => l.textContent)).toEqual(["Paiement accepté", "Paiement refusé"]);
    expect(screen.queryByRole("radio", { name: "Authentification 3-D Secure" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Payer (simulation)" }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(calls[1].body).toEqual({ orderId: "SIM-5", outcome: "approve", method: "wallet", scenario: "success" });
    expect(screen.getByRole("status").textContent).toBe(M.MSG_CALENDAR_SUCCESS);
  });

  it("a refused wallet is refused at capture with the server's French reason", async () => {
    const refused = "Paiement refusé par votre banque. Aucun montant n'a été débité.";
    openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "APPROVED" }),
      "/api/paypal/capture-payment": () => reply(402, { detail: refused, code: "payment_not_completed" }),
    });
    fireEvent.click(await screen.findByRole("radio", { name: "Apple Pay / Google Pay" }));
    fireEvent.click(screen.getByRole("radio", { name: "Paiement refusé" }));
    fireEvent.click(screen.getByRole("button", { name: "Payer (simulation)" }));
    expect((await screen.findByRole("alert")).textContent).toBe(`${M.MSG_CALENDAR_FAILURE} — ${refused}`);
    expect(calls[1].body).toEqual({ orderId: "SIM-5", outcome: "decline", method: "wallet", scenario: "declined" });
    expect(screen.getByRole("button", { name: "Payer 50,00\u00a0€" })).toBeTruthy();
  });

  it("3-D Secure: the simulated bank's dialog, 'Valider', the focus back on the pay button, then the capture", async () => {
    const { onSuccess } = openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "ACTION_REQUIRED", challenge: true }),
      "/api/paypal/simulator/authenticate": () => reply(200, { status: "APPROVED" }),
      "/api/paypal/capture-payment": () => reply(200, { id: "SIM-5", status: "COMPLETED" }),
    });
    fireEvent.click(await screen.findByRole("radio", { name: "Authentification 3-D Secure" }));
    const pay = screen.getByRole("button", { name: "Payer (simulation)" });
    pay.focus();
    fireEvent.click(pay);
    const dialog = await screen.findByRole("dialog", { name: "Authentification 3-D Secure (simulée)" });
    expect(dialog.hasAttribute("open")).toBe(true);
    expect(dialog.textContent).toContain(S.MSG_CHALLENGE_BODY);
    expect(S.MSG_CHALLENGE_BODY).toBe(
      "Votre banque demande de confirmer ce paiement. En vrai, cette étape a lieu dans l'application de votre banque. Ici, choisissez l'issue à simuler.",
    );
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/create-order", "/api/paypal/simulator/approve"]);
    fireEvent.click(screen.getByRole("button", { name: "Valider" }));
    expect(dialog.hasAttribute("open")).toBe(false);
    expect(document.activeElement).toBe(pay);
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(calls.map((c) => c.url)).toEqual([
      "/api/paypal/create-order",
      "/api/paypal/simulator/approve",
      "/api/paypal/simulator/authenticate",
      "/api/paypal/capture-payment",
    ]);
    expect(calls[1].body).toEqual({ orderId: "SIM-5", outcome: "approve", method: "card", scenario: "challenge" });
    expect(calls[2].body).toEqual({ orderId: "SIM-5", passed: true });
    expect(screen.getByRole("status").textContent).toBe(M.MSG_CALENDAR_SUCCESS);
  });

  it("3-D Secure refused: the bank's French reason, nothing captured, the member may try again", async () => {
    const { onSuccess } = openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "ACTION_REQUIRED", challenge: true }),
      "/api/paypal/simulator/authenticate": () => reply(402, { detail: REFUSED_3DS, code: "payment_not_completed" }),
    });
    fireEvent.click(await screen.findByRole("radio", { name: "Authentification 3-D Secure" }));
    const pay = screen.getByRole("button", { name: "Payer (simulation)" });
    pay.focus();
    fireEvent.click(pay);
    await screen.findByRole("dialog", { name: "Authentification 3-D Secure (simulée)" });
    fireEvent.click(screen.getByRole("button", { name: "Refuser" }));
    expect(document.activeElement).toBe(pay);
    expect((await screen.findByRole("alert")).textContent).toBe(`${M.MSG_CALENDAR_FAILURE} — ${REFUSED_3DS}`);
    expect(calls.at(-1)).toEqual({ url: "/api/paypal/simulator/authenticate", body: { orderId: "SIM-5", passed: false } });
    expect(calls.some((c) => c.url === "/api/paypal/capture-payment")).toBe(false);
    expect(onSuccess).not.toHaveBeenCalled();
    // The simulator's window is gone: the focus is on the button that starts again.
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
  });

  it("closing the 3-D Secure dialog (× or Escape) refuses the authentication", async () => {
    openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "ACTION_REQUIRED", challenge: true }),
      "/api/paypal/simulator/authenticate": () => reply(402, { detail: REFUSED_3DS }),
    });
    fireEvent.click(await screen.findByRole("radio", { name: "Authentification 3-D Secure" }));
    fireEvent.click(screen.getByRole("button", { name: "Payer (simulation)" }));
    await screen.findByRole("dialog", { name: "Authentification 3-D Secure (simulée)" });
    fireEvent.click(screen.getByRole("button", { name: "Fermer" }));
    expect((await screen.findByRole("alert")).textContent).toBe(`${M.MSG_CALENDAR_FAILURE} — ${REFUSED_3DS}`);
    expect(calls.at(-1).body).toEqual({ orderId: "SIM-5", passed: false });
  });

  it("a payment accepted but still processing says so without naming PayPal", async () => {
    const { onSuccess, onPending } = openSimulator({
      "/api/paypal/simulator/approve": () => reply(200, { status: "APPROVED" }),
      "/api/paypal/capture-payment": () => reply(202, { id: "SIM-5", status: "PENDING" }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Payer (simulation)" }));
    await waitFor(() => expect(onPending).toHaveBeenCalledWith({ id: "SIM-5", status: "PENDING" }));
    expect(screen.getByRole("status").textContent).toBe("Paiement en cours de traitement. Vous recevrez un e-mail dès qu'il sera confirmé.");
    expect(screen.getByRole("status").textContent).not.toMatch(/PayPal/);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "Payer 50,00\u00a0€" })).toBeNull();
  });

  it("a subscription still offers the card refused at later periods", async () => {
    openSimulator({ "/api/paypal/simulator/approve": () => reply(200, {}), "/api/paypal/capture-payment": () => reply(200, { status: "COMPLETED" }) }, { subscription: true });
    fireEvent.click(await screen.findByRole("button", { name: M.MSG_DECLINES_LATER }));
    await waitFor(() => expect(calls.length).toBe(3));
    expect(calls[1].body).toEqual({ orderId: "SIM-5", outcome: "approve_declines_later", method: "card", scenario: "success" });
  });
});

describe("choosing the provider", () => {
  const BOTH = { providers: ["stripe", "paypal"], provider: "paypal", clientId: "abc", stripePublishableKey: "pk_test_1", currency: "EUR" };

  it("keeps the providers whose public key the page has, in the studio's order", () => {
    expect(offeredProviders(BOTH)).toEqual(["stripe", "paypal"]);
    expect(offeredProviders({ ...BOTH, stripePublishableKey: "" })).toEqual(["paypal"]);
    expect(offeredProviders({ providers: ["simulator"] })).toEqual(["simulator"]);
    expect(offeredProviders({ provider: "paypal", clientId: "abc" })).toEqual(["paypal"]);
    expect(offeredProviders({ provider: "paypal", clientId: "" })).toEqual(["simulator"]);
    expect(offeredProviders(undefined)).toEqual(["simulator"]);
  });

  it("offers a labelled radio group, the first provider checked; PayPal chosen pays through PayPal's own window", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "PP-1", provider: "paypal" }),
      "/api/paypal/capture-payment": () => reply(200, { id: "PP-1", status: "COMPLETED" }),
    });
    await import("./PayPalPane.jsx");
    const onSuccess = vi.fn();
    const { container } = render(<PaymentWidget {...props({ config: BOTH, onSuccess })} />);
    const group = screen.getByRole("group", { name: "Moyen de paiement" });
    expect(group.tagName).toBe("FIELDSET");
    const stripe = screen.getByRole("radio", { name: "Carte bancaire, Apple Pay / Google Pay" });
    const paypal = screen.getByRole("radio", { name: "PayPal" });
    expect(stripe.checked).toBe(true);
    expect(container.querySelector(".payment-widget").dataset.provider).toBe("stripe");
    fireEvent.click(paypal);
    expect(paypal.checked).toBe(true);
    expect(container.querySelector(".payment-widget").dataset.provider).toBe("paypal");
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    expect(screen.queryByRole("group", { name: "Moyen de paiement" })).toBeNull();
    fireEvent.click(await screen.findByRole("button", { name: "PayPal" }, { timeout: 10000 }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled(), { timeout: 10000 });
    expect(calls[0]).toMatchObject({ url: "/api/paypal/create-order", body: { provider: "paypal", reservation_id: 7 } });
    expect(calls[1]).toMatchObject({ url: "/api/paypal/capture-payment", body: { orderId: "PP-1" } });
  }, 30000);

  it("a PayPal payment still under review keeps PayPal's own wording", async () => {
    serve({
      "/api/paypal/create-order": () => reply(201, { id: "PP-2" }),
      "/api/paypal/capture-payment": () => reply(202, { id: "PP-2", status: "PENDING" }),
    });
    await import("./PayPalPane.jsx");
    const onPending = vi.fn();
    render(<PaymentWidget {...props({ config: { provider: "paypal", clientId: "abc", currency: "EUR" }, onPending })} />);
    fireEvent.click(screen.getByRole("button", { name: "Payer 50,00\u00a0€" }));
    fireEvent.click(await screen.findByRole("button", { name: "PayPal" }, { timeout: 10000 }));
    await waitFor(() => expect(onPending).toHaveBeenCalled(), { timeout: 10000 });
    expect(screen.getByRole("status").textContent).toBe(
      "Votre paiement est en cours de vérification par PayPal. Vous recevrez un email dès sa validation.",
    );
  }, 30000);
});

describe("the payment wording", () => {
  it("names who processes a pending payment", () => {
    expect(M.pendingMessage("paypal")).toBe(M.MSG_PENDING_PAYPAL);
    expect(M.pendingMessage("stripe")).toBe("Paiement en cours de traitement. Vous recevrez un e-mail dès qu'il sera confirmé.");
    expect(M.pendingMessage("stripe", "sepa_debit")).toBe(
      "Prélèvement SEPA en cours de traitement : il peut prendre quelques jours ouvrés. Vous recevrez un e-mail dès qu'il sera confirmé.",
    );
    expect(M.pendingMessage("simulator", "card")).toBe(M.MSG_PENDING_PROCESSING);
  });

  it("keeps the simulator's and the provider choice's labels", () => {
    expect(M.PROVIDER_LABELS).toEqual({ stripe: "Carte bancaire, Apple Pay / Google Pay", paypal: "PayPal", simulator: "Carte bancaire (démonstration)" });
    expect(S.SIMULATOR_METHODS.map((m) => m.label)).toEqual(["Carte bancaire", "Apple Pay / Google Pay"]);
    expect(S.MSG_CHALLENGE_TITLE).toBe("Authentification 3-D Secure (simulée)");
    expect([S.MSG_CHALLENGE_PASS, S.MSG_CHALLENGE_FAIL]).toEqual(["Valider", "Refuser"]);
    expect(S.MSG_SIMULATE_PAY).toBe("Payer (simulation)");
  });

  it("reads the server's French reason from `error` or `detail`", () => {
    expect(M.serverMessage({ status: 402, message: "", data: { detail: "Authentification refusée par votre banque." } })).toBe(
      "Authentification refusée par votre banque.",
    );
    expect(M.serverMessage({ status: 0, message: "network" })).toBe(M.MSG_NETWORK);
  });
});
