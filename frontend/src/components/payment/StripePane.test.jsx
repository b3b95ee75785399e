/* Stripe's Payment Element pane, with Stripe.js and its React bindings replaced by stand-ins: what it loads and when,
   the options the Payment Element gets, confirmPayment / confirmSetup and what each outcome shows. */
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const fake = vi.hoisted(() => ({
  stripe: { confirmPayment: null, confirmSetup: null },
  elements: { kind: "elements" },
  elementsProps: [],
  paymentOptions: [],
}));

vi.mock("@stripe/stripe-js", () => ({
  loadStripe: vi.fn((key) => Promise.resolve(key === "pk_unreachable" ? null : fake.stripe)),
}));
vi.mock("@stripe/react-stripe-js", () => ({
  Elements: ({ stripe, options, children }) => {
    fake.elementsProps.push({ stripe, options });
    return children;
  },
  PaymentElement: ({ options }) => {
    fake.paymentOptions.push(options);
    return <div data-testid="payment-element" />;
  },
  useStripe: () => fake.stripe,
  useElements: () => fake.elements,
}));

import { loadStripe } from "@stripe/stripe-js";
import * as M from "./stripe-messages.js";
import StripePane, { PAYMENT_ELEMENT_OPTIONS, StripePane as NamedStripePane } from "./StripePane.jsx";

beforeEach(() => {
  fake.stripe.confirmPayment = vi.fn(() => Promise.resolve({ paymentIntent: { id: "pi_1", status: "succeeded" } }));
  fake.stripe.confirmSetup = vi.fn(() => Promise.resolve({ setupIntent: { id: "seti_1", status: "succeeded" } }));
  fake.elementsProps.length = 0;
  fake.paymentOptions.length = 0;
});
afterEach(cleanup);

describe("StripePane", () => {
  it("loads Stripe only once mounted, in French, and renders the Payment Element for a 390 px phone, card first", async () => {
    expect(loadStripe).not.toHaveBeenCalled(); // importing the pane loads nothing
    render(<StripePane publishableKey="pk_test_1" clientSecret="pi_1_secret_a" returnUrl="https://studio.test/tarifs" />);
    expect(screen.getByRole("status").textContent).toBe("Chargement du module de paiement sécurisé…");
    await screen.findByTestId("payment-element");
    expect(loadStripe).toHaveBeenCalledWith("pk_test_1", { locale: "fr" });
    expect(fake.elementsProps.at(-1)).toEqual({ stripe: fake.stripe, options: { clientSecret: "pi_1_secret_a", locale: "fr" } });
    expect(fake.paymentOptions.at(-1)).toEqual(PAYMENT_ELEMENT_OPTIONS);
    expect(PAYMENT_ELEMENT_OPTIONS.layout).toMatchObject({ type: "accordion", defaultCollapsed: false });
    expect(PAYMENT_ELEMENT_OPTIONS.paymentMethodOrder[0]).toBe("card");
  });

  it("mode payment: confirmPayment (redirect only if required, back to the page), then onConfirmed with the PaymentIntent", async () => {
    let resolve;
    fake.stripe.confirmPayment = vi.fn(() => new Promise((r) => (resolve = r)));
    const onConfirmed = vi.fn();
    render(<StripePane publishableKey="pk_test_1" clientSecret="pi_1_secret_a" returnUrl="https://studio.test/tarifs" onConfirmed={onConfirmed} />);
    fireEvent.click(await screen.findByRole("button", { name: "Payer" }));
    expect(fake.stripe.confirmPayment).toHaveBeenCalledWith({
      elements: fake.elements,
      redirect: "if_required",
      confirmParams: { return_url: "https://studio.test/tarifs" },
    });
    const busy = screen.getByRole("button", { name: "Paiement en cours…" });
    expect(busy.disabled).toBe(true);
    await act(async () => resolve({ paymentIntent: { id: "pi_1", status: "processing" } }));
    expect(onConfirmed).toHaveBeenCalledWith({ paymentIntentId: "pi_1", status: "processing" });
    expect(fake.stripe.confirmSetup).not.toHaveBeenCalled();
  });

  it("mode setup: confirmSetup, a save button, then onConfirmed with the SetupIntent", async () => {
    let resolve;
    fake.stripe.confirmSetup = vi.fn(() => new Promise((r) => (resolve = r)));
    const onConfirmed = vi.fn();
    render(<StripePane publishableKey="pk_test_1" clientSecret="seti_1_secret_b" mode="setup" returnUrl="https://studio.test/profil" onConfirmed={onConfirmed} />);
    fireEvent.click(await screen.findByRole("button", { name: "Enregistrer ce moyen de paiement" }));
    expect(fake.stripe.confirmSetup).toHaveBeenCalledWith({
      elements: fake.elements,
      redirect: "if_required",
      confirmParams: { return_url: "https://studio.test/profil" },
    });
    expect(screen.getByRole("button", { name: "Enregistrement en cours…" }).disabled).toBe(true);
    await act(async () => resolve({ setupIntent: { id: "seti_1", status: "succeeded" } }));
    expect(onConfirmed).toHaveBeenCalledWith({ setupIntentId: "seti_1", status: "succeeded" });
    expect(fake.stripe.confirmPayment).not.toHaveBeenCalled();
  });

  it.each([
    [{ type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." }, "Fonds insuffisants."],
    [{ type: "card_error", code: "card_declined", decline_code: "generic_decline" }, "Votre banque a refusé le paiement."],
    [{ type: "card_error", code: "expired_card" }, "Cette carte a expiré."],
    [{ type: "card_error", code: "incorrect_cvc" }, "Le cryptogramme visuel (CVC) est incorrect."],
    [{ type: "card_error", code: "incorrect_number" }, "Le numéro de carte est incorrect."],
    [{ type: "invalid_request_error", code: "payment_intent_authentication_failure" }, "La vérification demandée par votre banque (3-D Secure) n'a pas abouti."],
    [{ type: "validation_error", code: "incomplete_number" }, "Vérifiez les informations de paiement saisies."],
    [{ type: "api_error" }, "Le paiement n'a pas pu aboutir. Réessayez ou choisissez un autre moyen de paiement."],
  ])("shows Stripe's error %o in French, in a live region, and lets the member try again", async (error, french) => {
    fake.stripe.confirmPayment = vi
      .fn()
      .mockResolvedValueOnce({ error })
      .mockResolvedValueOnce({ paymentIntent: { id: "pi_2", status: "succeeded" } });
    const onConfirmed = vi.fn();
    const onError = vi.fn();
    render(<StripePane publishableKey="pk_test_1" clientSecret="pi_2_secret" onConfirmed={onConfirmed} onError={onError} />);
    fireEvent.click(await screen.findByRole("button", { name: "Payer" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(french);
    expect(alert.parentElement.getAttribute("aria-live")).toBe("polite");
    expect(onError).toHaveBeenCalledWith(french);
    expect(onConfirmed).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Payer" }));
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledWith({ paymentIntentId: "pi_2", status: "succeeded" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a confirmation that throws (no network) says the payment did not go through", async () => {
    fake.stripe.confirmPayment = vi.fn(() => Promise.reject(new Error("offline")));
    render(<StripePane publishableKey="pk_test_1" clientSecret="pi_3_secret" />);
    fireEvent.click(await screen.findByRole("button", { name: "Payer" }));
    expect((await screen.findByRole("alert")).textContent).toBe(M.MSG_STRIPE_FAILED);
  });

  it("says so when Stripe cannot be loaded", async () => {
    const onError = vi.fn();
    render(<StripePane publishableKey="pk_unreachable" clientSecret="pi_4_secret" onError={onError} />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Le module de paiement sécurisé n'a pas pu être chargé. Vérifiez votre connexion puis réessayez.",
    );
    expect(onError).toHaveBeenCalledWith(M.MSG_STRIPE_REJECTED);
    expect(screen.queryByTestId("payment-element")).toBeNull();
  });

  it("is exported by name as well as by default", () => {
    expect(NamedStripePane).toBe(StripePane);
  });

  it("takes the given submit label", async () => {
    render(<StripePane publishableKey="pk_test_1" clientSecret="pi_5_secret" submitLabel="Payer 50,00 €" />);
    expect(await screen.findByRole("button", { name: "Payer 50,00 €" })).toBeTruthy();
  });
});
