/* The payment widget with Stripe for one-off payments: Stripe loaded only once a Stripe payment starts, the order
   created with provider "stripe", the Payment Element confirmed, then /api/stripe/complete-payment read: paid,
   processing, refused, refunded; and the return from a redirect. Stripe.js and fetch are stand-ins. */
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const fake = vi.hoisted(() => ({
  stripe: { confirmPayment: null, confirmSetup: null },
  elements: { kind: "elements" },
  elementsProps: [],
}));

vi.mock("../toast.jsx", () => ({ notify: vi.fn() }));
vi.mock("@stripe/stripe-js", () => ({ loadStripe: vi.fn(() => Promise.resolve(fake.stripe)) }));
vi.mock("@stripe/react-stripe-js", () => ({
  Elements: ({ stripe, options, children }) => {
    fake.elementsProps.push({ stripe, options });
    return children;
  },
  PaymentElement: () => <div data-testid="payment-element" />,
  useStripe: () => fake.stripe,
  useElements: () => fake.elements,
}));

import { loadStripe } from "@stripe/stripe-js";
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

const STRIPE = { providers: ["stripe"], provider: "stripe", clientId: "", stripePublishableKey: "pk_test_1", currency: "EUR" };
const PAY = "Payer 50,00\u00a0€";
/** Ticks the terms of sale (a tariff asks for them) and presses the widget's pay button. */
function pay() {
  const terms = screen.queryByRole("checkbox", { name: /conditions générales de vente/ });
  if (terms && !terms.checked) fireEvent.click(terms);
  fireEvent.click(screen.getByRole("button", { name: PAY }));
}
const props = (extra = {}) => ({
  order: { kind: "tariff", tariffId: 3, quantity: 1 },
  context: "tariff",
  config: STRIPE,
  payer: { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  details: { title: "Carte 10 cours", type: "COURS" },
  totalAmount: "50.00",
  ...extra,
});

let createdOrders;
function stripeRoutes(complete) {
  createdOrders = 0;
  return {
    "/api/paypal/create-order": () => {
      createdOrders += 1;
      return reply(201, { id: `pi_${createdOrders}`, provider: "stripe", clientSecret: `pi_${createdOrders}_secret_x`, status: "CREATED" });
    },
    "/api/stripe/complete-payment": complete,
    "/api/paypal/cancel-order": (body) => reply(200, { id: body.orderId, status: "VOIDED" }),
  };
}

/** Starts the payment and submits the Payment Element (the pane's own "Payer 50,00 €" button). */
async function payWithStripe() {
  pay();
  await screen.findByTestId("payment-element");
  pay();
}

beforeAll(async () => {
  // The pane's chunk is compiled on first import, which takes as long as the machine is busy: compile it before the
  // clock of the assertions starts (a browser would have it from its cache or the network).
  await import("./StripePane.jsx");
});
beforeEach(() => {
  vi.mocked(notify).mockClear();
  vi.mocked(loadStripe).mockClear();
  fake.stripe.confirmPayment = vi.fn(() => Promise.resolve({ paymentIntent: { id: "pi_1", status: "succeeded" } }));
  fake.elementsProps.length = 0;
  window.history.replaceState(null, "", "/tarifs");
});
afterEach(cleanup);

describe("PaymentWidget with Stripe", () => {
  it("loads nothing from Stripe before the payment starts, then confirms in the Payment Element and completes it", async () => {
    serve(stripeRoutes(() => reply(200, { id: "pi_1", status: "COMPLETED", amount: "50.00", currency: "EUR", title: "Carte 10 cours" })));
    const onSuccess = vi.fn();
    const { container } = render(<PaymentWidget {...props({ onSuccess })} />);
    expect(container.querySelector(".payment-widget").dataset.provider).toBe("stripe");
    expect(screen.queryByRole("note")).toBeNull(); // not a demonstration
    expect(screen.queryByRole("group", { name: "Moyen de paiement" })).toBeNull(); // one provider: nothing to pick
    expect(loadStripe).not.toHaveBeenCalled();
    expect(screen.queryByTestId("payment-element")).toBeNull();

    pay();
    await screen.findByTestId("payment-element");
    expect(calls[0]).toMatchObject({ url: "/api/paypal/create-order", body: { provider: "stripe", tariff_id: 3, quantity: 1, amount: "50.00" } });
    expect(loadStripe).toHaveBeenCalledWith("pk_test_1", { locale: "fr" });
    expect(fake.elementsProps.at(-1).options).toEqual({ clientSecret: "pi_1_secret_x", locale: "fr" });

    pay();
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith({ id: "pi_1", status: "COMPLETED", amount: "50.00", currency: "EUR", title: "Carte 10 cours" }));
    expect(fake.stripe.confirmPayment).toHaveBeenCalledWith({
      elements: fake.elements,
      redirect: "if_required",
      confirmParams: { return_url: "http://localhost:3000/tarifs" },
    });
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/create-order", "/api/stripe/complete-payment"]);
    expect(calls[1].body).toEqual({ orderId: "pi_1" });
    expect(screen.getByRole("status").textContent).toBe(M.MSG_TARIFF_SUCCESS);
    expect(notify).toHaveBeenCalledWith(M.MSG_TARIFF_SUCCESS, "success");
  });

  it("a payment Stripe is still processing (202) says it is being processed and an e-mail will follow, not PayPal", async () => {
    serve(stripeRoutes(() => reply(202, { id: "pi_1", status: "PENDING" })));
    fake.stripe.confirmPayment = vi.fn(() => Promise.resolve({ paymentIntent: { id: "pi_1", status: "processing" } }));
    const onSuccess = vi.fn();
    const onPending = vi.fn();
    render(<PaymentWidget {...props({ onSuccess, onPending })} />);
    await payWithStripe();
    await waitFor(() => expect(onPending).toHaveBeenCalledWith({ id: "pi_1", status: "PENDING" }));
    const status = screen.getByRole("status");
    expect(status.textContent).toBe("Paiement en cours de traitement. Vous recevrez un e-mail dès qu'il sera confirmé.");
    expect(status.textContent).not.toMatch(/PayPal/);
    expect(notify).toHaveBeenCalledWith(M.MSG_PENDING_PROCESSING, "info");
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: PAY })).toBeNull(); // nothing to pay again
  });

  it("a SEPA debit on its way says it may take a few working days", async () => {
    serve(stripeRoutes(() => reply(202, { id: "pi_1", status: "PENDING", payment_method: "sepa_debit" })));
    render(<PaymentWidget {...props()} />);
    await payWithStripe();
    expect((await screen.findByRole("status", {}, { timeout: 3000 })).textContent).toBe(
      "Prélèvement SEPA en cours de traitement : il peut prendre quelques jours ouvrés. Vous recevrez un e-mail dès qu'il sera confirmé.",
    );
  });

  it("a payment not completed (402) shows the server's French reason and lets the member pay again", async () => {
    const refused = "Votre banque a refusé le paiement.";
    serve(stripeRoutes(() => reply(402, { code: "payment_not_completed", detail: refused })));
    const onError = vi.fn();
    render(<PaymentWidget {...props({ onError })} />);
    await payWithStripe();
    expect((await screen.findByRole("alert")).textContent).toBe(`${M.MSG_TARIFF_FAILURE} — ${refused}`);
    expect(onError).toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: PAY })); // the pane that had it is gone
    pay();
    await screen.findByTestId("payment-element");
    expect(createdOrders).toBe(2);
    expect(fake.elementsProps.at(-1).options.clientSecret).toBe("pi_2_secret_x");
  });

  it("a payment refunded because it bought nothing (409) shows the server's reason alone, with no retry", async () => {
    const refunded = "Cette offre n'est plus disponible. Votre paiement de 50,00 € vous est remboursé automatiquement.";
    serve(stripeRoutes(() => reply(409, { error: refunded, message: refunded, code: "refunded", refunded: true, status: "REFUNDED" })));
    const onSuccess = vi.fn();
    render(<PaymentWidget {...props({ onSuccess })} />);
    await payWithStripe();
    expect((await screen.findByRole("alert")).textContent).toBe(refunded);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: PAY })).toBeNull();
  });

  it("a card Stripe refuses at confirmation stays in the Payment Element, in French, and our server is not asked", async () => {
    serve(stripeRoutes(() => reply(200, { id: "pi_1", status: "COMPLETED" })));
    fake.stripe.confirmPayment = vi.fn(() => Promise.resolve({ error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } }));
    render(<PaymentWidget {...props()} />);
    await payWithStripe();
    expect((await screen.findByRole("alert")).textContent).toBe("Votre banque a refusé le paiement.");
    expect(calls.map((c) => c.url)).toEqual(["/api/paypal/create-order"]);
    expect(screen.getByTestId("payment-element")).toBeTruthy();
    expect(screen.getByRole("button", { name: PAY }).disabled).toBe(false);
  });

  it("an order answer without a client secret is a creation failure", async () => {
    serve({ "/api/paypal/create-order": () => reply(201, { id: "pi_1", provider: "stripe" }) });
    render(<PaymentWidget {...props()} />);
    pay();
    expect((await screen.findByRole("alert")).textContent).toBe("Erreur lors de la création de la commande");
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it("a provider the server does not offer is refused with its French message", async () => {
    serve({ "/api/paypal/create-order": () => reply(400, { error: "Ce moyen de paiement n'est pas proposé." }) });
    render(<PaymentWidget {...props()} />);
    pay();
    expect((await screen.findByRole("alert")).textContent).toBe("Erreur lors de la création de la commande : Ce moyen de paiement n'est pas proposé.");
  });

  it("cancelling voids the order", async () => {
    serve(stripeRoutes(() => reply(200, {})));
    const onCancel = vi.fn();
    render(<PaymentWidget {...props({ onCancel })} />);
    pay();
    await screen.findByTestId("payment-element");
    fireEvent.click(screen.getByRole("button", { name: "Annuler le paiement" }));
    await waitFor(() => expect(onCancel).toHaveBeenCalled());
    expect(calls.at(-1)).toEqual({ url: "/api/paypal/cancel-order", body: { orderId: "pi_1" } });
    expect(screen.queryByTestId("payment-element")).toBeNull();
  });

  it("back from a redirect, completes the PaymentIntent the URL names, once, and cleans the URL", async () => {
    window.history.replaceState(null, "", "/tarifs?offre=3&payment_intent=pi_77&payment_intent_client_secret=pi_77_secret&redirect_status=succeeded");
    serve({ "/api/stripe/complete-payment": () => reply(200, { id: "pi_77", status: "COMPLETED" }) });
    const onSuccess = vi.fn();
    render(<PaymentWidget {...props({ onSuccess })} />);
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith({ id: "pi_77", status: "COMPLETED" }));
    expect(calls).toEqual([{ url: "/api/stripe/complete-payment", body: { orderId: "pi_77" } }]);
    expect(window.location.pathname + window.location.search).toBe("/tarifs?offre=3");
    expect(screen.getByRole("status").textContent).toBe(M.MSG_TARIFF_SUCCESS);
    expect(loadStripe).not.toHaveBeenCalled();
    cleanup();
    // Another widget on the same page (or a second render) does not complete it again.
    window.history.replaceState(null, "", "/tarifs?payment_intent=pi_77&redirect_status=succeeded");
    render(<PaymentWidget {...props()} />);
    await act(async () => {});
    expect(calls.length).toBe(1);
  });

  it("back from a failed redirect, shows the server's French reason and lets the member pay again", async () => {
    window.history.replaceState(null, "", "/tarifs?payment_intent=pi_78&payment_intent_client_secret=s&redirect_status=failed");
    const reason = "Le paiement n'a pas pu aboutir. Réessayez ou choisissez un autre moyen de paiement.";
    serve({ "/api/stripe/complete-payment": () => reply(402, { code: "payment_not_completed", detail: reason }) });
    render(<PaymentWidget {...props()} />);
    expect((await screen.findByRole("alert")).textContent).toBe(`${M.MSG_TARIFF_FAILURE} — ${reason}`);
    expect(screen.getByRole("button", { name: PAY })).toBeTruthy();
  });
});

describe("PaymentWidget with Stripe and PayPal offered", () => {
  it("Stripe, the first, is the default; PayPal picked does not load Stripe", async () => {
    serve({ "/api/paypal/create-order": () => reply(201, { id: "pi_1", provider: "stripe", clientSecret: "pi_1_secret_x" }) });
    render(<PaymentWidget {...props({ config: { ...STRIPE, providers: ["stripe", "paypal"], clientId: "abc" } })} />);
    expect(screen.getByRole("radio", { name: "Carte bancaire, Apple Pay / Google Pay" }).checked).toBe(true);
    expect(screen.getByRole("radio", { name: "PayPal" }).checked).toBe(false);
    pay();
    await screen.findByTestId("payment-element");
    expect(calls[0].body.provider).toBe("stripe");
  });
});
