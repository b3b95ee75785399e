/* Stripe's Payment Element for a PaymentIntent (mode "payment") or a SetupIntent (mode "setup", a saved card or SEPA
   mandate). Stripe's libraries are imported when this pane mounts, in their own async chunk, and loadStripe then
   fetches Stripe's script from Stripe: a page that never starts a Stripe payment loads none of it (docs/decisions.md
   18). Confirming asks Stripe to redirect only for the methods that need it (redirect "if_required"); otherwise the
   pane reports `{paymentIntentId}` or `{setupIntentId}` to onConfirmed. Errors are shown here, in French, and passed
   to onError. */
import { useEffect, useRef, useState } from "react";
import { MSG_STRIPE_PENDING } from "./messages.js";
import { MSG_STRIPE_REJECTED, MSG_STRIPE_SAVE, MSG_STRIPE_SAVING, MSG_STRIPE_SUBMITTING, stripeErrorMessage } from "./stripe-messages.js";

// One column that fits a 390 px phone: an accordion with a radio per method, the card open first.
export const PAYMENT_ELEMENT_OPTIONS = {
  layout: { type: "accordion", defaultCollapsed: false, radios: "always", spacedAccordionItems: false },
  paymentMethodOrder: ["card", "apple_pay", "google_pay", "sepa_debit"],
};
export const STRIPE_LOCALE = "fr";

let libraries = null;
const instances = new Map();

/** Stripe.js and its React bindings, imported once (a failed import may be tried again). */
export function loadStripeLibraries() {
  if (!libraries) {
    libraries = Promise.all([
      import(/* webpackChunkName: "stripe" */ "@stripe/stripe-js"),
      import(/* webpackChunkName: "stripe" */ "@stripe/react-stripe-js"),
    ]).then(([js, bindings]) => ({ loadStripe: js.loadStripe, ...bindings }));
    libraries.catch(() => {
      libraries = null;
    });
  }
  return libraries;
}

async function stripeFor(lib, publishableKey) {
  if (!instances.has(publishableKey)) {
    const pending = lib.loadStripe(publishableKey, { locale: STRIPE_LOCALE });
    instances.set(publishableKey, pending);
    pending.then(
      (stripe) => stripe || instances.delete(publishableKey),
      () => instances.delete(publishableKey),
    );
  }
  const stripe = await instances.get(publishableKey);
  if (!stripe) throw new Error("stripe-unavailable");
  return stripe;
}

export default function StripePane({ publishableKey, clientSecret, mode = "payment", returnUrl, submitLabel, onConfirmed, onError }) {
  const [loaded, setLoaded] = useState({ status: "pending" });
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => {
    let live = true;
    setLoaded({ status: "pending" });
    loadStripeLibraries()
      .then(async (lib) => ({ lib, stripe: await stripeFor(lib, publishableKey) }))
      .then(
        ({ lib, stripe }) => live && setLoaded({ status: "resolved", lib, stripe }),
        () => {
          if (!live) return;
          setLoaded({ status: "rejected" });
          onErrorRef.current?.(MSG_STRIPE_REJECTED);
        },
      );
    return () => {
      live = false;
    };
  }, [publishableKey]);

  if (loaded.status === "rejected") {
    return (
      <div className="payment-stripe-pane" data-state="rejected" aria-live="polite">
        <p className="payment-alert payment-alert-error" role="alert">
          {MSG_STRIPE_REJECTED}
        </p>
      </div>
    );
  }
  if (loaded.status !== "resolved") {
    return (
      <div className="payment-stripe-pane" data-state="pending">
        <p className="payment-spinner" role="status">
          <span className="spinner" aria-hidden="true" />
          {MSG_STRIPE_PENDING}
        </p>
      </div>
    );
  }
  const { Elements } = loaded.lib;
  return (
    <div className="payment-stripe-pane" data-state="resolved">
      <Elements stripe={loaded.stripe} options={{ clientSecret, locale: STRIPE_LOCALE }}>
        <StripeForm
          lib={loaded.lib}
          mode={mode}
          returnUrl={returnUrl}
          submitLabel={submitLabel || (mode === "setup" ? MSG_STRIPE_SAVE : "Payer")}
          onConfirmed={onConfirmed}
          onError={(message) => onErrorRef.current?.(message)}
        />
      </Elements>
    </div>
  );
}

function StripeForm({ lib, mode, returnUrl, submitLabel, onConfirmed, onError }) {
  const { PaymentElement, useElements, useStripe } = lib;
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const failed = (message) => {
    setError(message);
    setBusy(false);
    onError?.(message);
  };

  async function submit(event) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError("");
    const options = { elements, redirect: "if_required", confirmParams: { return_url: returnUrl || window.location.href } };
    let result;
    try {
      result = mode === "setup" ? await stripe.confirmSetup(options) : await stripe.confirmPayment(options);
    } catch {
      result = { error: { type: "api_connection_error" } };
    }
    if (result?.error) {
      failed(stripeErrorMessage(result.error));
      return;
    }
    // Confirmed: the button stays busy while the page asks our server what Stripe says (no second confirmation).
    if (mode === "setup") onConfirmed?.({ setupIntentId: result?.setupIntent?.id || "", status: result?.setupIntent?.status || "" });
    else onConfirmed?.({ paymentIntentId: result?.paymentIntent?.id || "", status: result?.paymentIntent?.status || "" });
  }

  return (
    <form className="payment-stripe-form" onSubmit={submit} noValidate>
      <PaymentElement options={PAYMENT_ELEMENT_OPTIONS} onLoadError={() => failed(MSG_STRIPE_REJECTED)} />
      <div className="payment-live" aria-live="polite">
        {error && (
          <p className="payment-alert payment-alert-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button payment-submit" disabled={!stripe || !elements || busy}>
        {busy ? (mode === "setup" ? MSG_STRIPE_SAVING : MSG_STRIPE_SUBMITTING) : submitLabel}
      </button>
    </form>
  );
}

// Also importable by name: `import { StripePane } from ".../StripePane.jsx"`.
export { StripePane };
