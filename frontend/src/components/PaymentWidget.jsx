/* The payment widget shared by the reservation popup and the tariff order modal.
   Interface (owned by the payments work):
     <PaymentWidget
        order={{ kind: "reservation", reservationId } | { kind: "tariff", tariffId, quantity }
               | { kind: "deposit", requestKind: "party" | "rental", requestId }}   // a request's deposit
        context="calendar" | "tariff" | "deposit"   // picks the context's success and failure messages
        config={{ providers: ["stripe", "paypal"] | ["simulator"], provider, clientId, stripePublishableKey, currency }}
                                           // from payments.selectors; several providers: the member picks one
        payer={{ first_name, last_name, email }}
        details={{ title, type, date, time, message }}
        totalAmount="25.00"                // display only: the server prices the order
        disabled={false}                   // optional: keeps the start button inactive (e.g. invalid form)
        subscription={false}               // the simulator also offers a card that fails at later periods
        onPhaseChange={(phase) => ...}     // optional: "initial" | "open" | "capturing" | "done"
        onSuccess={(result) => ...} onError={(error) => ...} onCancel={() => ...}
        onPending={(result) => ...} />      // optional: accepted but not settled yet (a SEPA debit, a review)

   Flow: create the order on the server, the buyer approves at PayPal (or in the simulator's panel),
   then the server captures it; a spinner shows while capturing. PayPal's script is fetched from PayPal only when the
   payment starts (docs/decisions.md 18), in a lazily loaded chunk, and its state is initial, pending, resolved or
   rejected. With Stripe, the Payment Element (StripePane, its own chunk, Stripe.js fetched only then) confirms the
   PaymentIntent and our server then reads its outcome (/api/stripe/complete-payment), also when Stripe sends the member
   back from a redirect (`payment_intent` in the page's URL). Without any provider the simulator stands in and says
   plainly it is a demonstration: a card (accepted, 3-D Secure, refused) or a wallet. */
import { Suspense, lazy, useCallback, useEffect, useId, useRef, useState } from "react";
import { api } from "./api.js";
import { notify } from "./toast.jsx";
import Choices from "./payment/Choices.jsx";
import TermsChecks from "./payment/TermsChecks.jsx";
import {
  MSG_CANCELLED,
  MSG_CAPTURING,
  MSG_DEMO_MODE,
  MSG_NO_WITHDRAWAL,
  MSG_PREPARING,
  MSG_PROVIDER_LEGEND,
  MSG_SCRIPT_PENDING,
  MSG_STRIPE_PENDING,
  MSG_TERMS_REQUIRED,
  PROVIDER_LABELS,
  createFailureMessage,
  createOrderPayload,
  euros,
  isPending,
  messagesFor,
  pendingMessage,
  serverMessage,
  termsAsked,
} from "./payment/messages.js";
import { PAYMENT_URLS, createOrderUrl } from "./payment/urls.js";
import "./payment/payment-widget.css";

// Each provider's pane in its own chunk, fetched when a payment starts: a page loads only the one it uses.
const PayPalPane = lazy(() => import(/* webpackChunkName: "paypal-pane" */ "./payment/PayPalPane.jsx"));
const StripePane = lazy(() => import(/* webpackChunkName: "stripe-pane" */ "./payment/StripePane.jsx"));
const SimulatorPane = lazy(() => import(/* webpackChunkName: "simulator-pane" */ "./payment/SimulatorPane.jsx"));
// A promo code and a gift card, for a class or a tariff (docs/decisions.md 60): fetched when the widget shows.
const OfferFields = lazy(() => import(/* webpackChunkName: "offer-fields" */ "./payment/OfferFields.jsx"));
const TAKES_OFFERS = new Set(["tariff", "reservation"]);

export { PAYMENT_URLS };

// The query parameters Stripe adds to the return URL after a redirect.
const STRIPE_RETURN_PARAMS = ["payment_intent", "payment_intent_client_secret", "redirect_status"];
// PaymentIntents whose return was already handled on this page (several widgets, or React's double effects in dev).
const handledReturns = new Set();

/** The providers this page can use, in the studio's order: one whose public key is missing is left out. */
export function offeredProviders(config) {
  const listed = Array.isArray(config?.providers) && config.providers.length ? config.providers : [config?.provider || "simulator"];
  const usable = listed.filter((name) => {
    if (name === "stripe") return Boolean(config?.stripePublishableKey);
    if (name === "paypal") return Boolean(config?.clientId);
    return name === "simulator";
  });
  return usable.length ? usable : ["simulator"];
}

/** This page's URL without Stripe's return parameters: where Stripe sends the member back after a redirect. */
function stripeReturnUrl() {
  const url = new URL(window.location.href);
  for (const key of STRIPE_RETURN_PARAMS) url.searchParams.delete(key);
  return url.toString();
}

export default function PaymentWidget({
  order,
  context = "tariff",
  config = { provider: "simulator", clientId: "", currency: "EUR" },
  payer,
  details,
  totalAmount,
  disabled = false,
  subscription = false,
  onSuccess,
  onError,
  onCancel,
  onPending,
  onPhaseChange,
}) {
  const messages = messagesFor(context);
  const providers = offeredProviders(config);
  const [chosen, setChosen] = useState(providers[0]);
  const provider = providers.includes(chosen) ? chosen : providers[0];
  // initial → open (PayPal buttons, Stripe's Payment Element or the simulator's panel) → capturing → done; errors go
  // back to initial.
  const [phase, setPhase] = useState("initial");
  const [scriptState, setScriptState] = useState("initial");
  const [busy, setBusy] = useState(false);
  const [orderId, setOrderId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  const [alert, setAlert] = useState(null);
  // The terms of sale ticked, and (a card or a subscription) the start within the withdrawal period asked for.
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [immediateStart, setImmediateStart] = useState(false);
  // The promo code and gift card applied ({codes, preview}): the server prices them; the preview says what is left.
  // A preview holds for the total it was asked for: a new quantity asks again.
  const [offers, setOffers] = useState({ codes: {}, preview: null, total: "" });
  const payable = offers.preview && offers.total === totalAmount ? offers.preview.to_pay : totalAmount;
  const termsRef = useRef(null);
  const asksTerms = termsAsked(order);
  const orderRef = useRef("");
  const uid = useId();
  const sectionRef = useRef(null);
  const startRef = useRef(null);
  // Set when a failure sends the member back to the start: the pane that had the focus is gone.
  const refocus = useRef(false);

  useEffect(() => {
    onPhaseChange?.(phase);
  }, [phase, onPhaseChange]);

  // Back at the start after a failure: the focus goes to the pay button, unless the member has moved it elsewhere.
  useEffect(() => {
    if (phase !== "initial" || !refocus.current) return;
    refocus.current = false;
    const active = document.activeElement;
    if (!active || active === document.body || sectionRef.current?.contains(active)) startRef.current?.focus();
  }, [phase]);

  const fail = useCallback(
    (error, text, toastText = text) => {
      setAlert({ kind: "error", text });
      notify(toastText, "error");
      onError?.(error);
    },
    [onError],
  );

  const failWithDetail = useCallback(
    (error) => {
      const detail = serverMessage(error);
      fail(error, detail ? `${messages.failure} — ${detail}` : messages.failure, messages.failure);
    },
    [fail, messages],
  );

  const forgetOrder = () => {
    orderRef.current = "";
    setOrderId("");
    setClientSecret("");
  };

  /** Creates the order on the server (priced there); resolves with its answer ({id, provider, clientSecret}). */
  const createOrder = useCallback(async () => {
    setAlert(null);
    // The provider is named only when the studio offers a choice; the server defaults to its first.
    const named = Array.isArray(config?.providers) && provider !== "simulator" ? provider : undefined;
    try {
      const data = await api(createOrderUrl(order), {
        method: "POST",
        body: {
          ...createOrderPayload({
            order,
            payer,
            details,
            totalAmount,
            provider: named,
            terms: { accepted: termsAccepted, immediateStart: order?.kind === "tariff" && immediateStart },
          }),
          ...(offers.total === totalAmount ? offers.codes : {}),
        },
        timeout: 30000,
      });
      orderRef.current = data.id;
      setOrderId(data.id);
      return data;
    } catch (error) {
      fail(error, createFailureMessage(error));
      throw error;
    }
  }, [order, payer, details, totalAmount, fail, config, provider, termsAccepted, immediateStart, offers]);

  /** Asks the server for the payment's outcome: PayPal's and the simulator's capture, or Stripe's completion. */
  const settle = useCallback(
    async (id, { paidWith = provider, payMethod = "" } = {}) => {
      setPhase("capturing");
      const stripe = paidWith === "stripe";
      try {
        const result = await api(stripe ? PAYMENT_URLS.stripeComplete : PAYMENT_URLS.capture, {
          method: "POST",
          body: stripe
            ? { orderId: id }
            : { orderId: id, email: payer?.email || "", first_name: payer?.first_name || "", last_name: payer?.last_name || "" },
          timeout: 45000,
        });
        setPhase("done");
        if (isPending(result)) {
          // Accepted, not settled yet: the server e-mails the member once it is (nothing to retry here).
          const text = pendingMessage(paidWith, result?.payment_method || payMethod);
          setAlert({ kind: "info", text });
          notify(text, "info");
          onPending?.(result);
          return;
        }
        setAlert({ kind: "success", text: messages.success });
        notify(messages.success, "success");
        onSuccess?.(result);
      } catch (error) {
        if (error?.data?.refunded) {
          // Captured, but it bought nothing: the server refunded it and says why (docs/decisions.md 14). Nothing to
          // retry here.
          setPhase("done");
          fail(error, serverMessage(error));
          return;
        }
        refocus.current = true;
        setPhase("initial");
        failWithDetail(error);
      } finally {
        forgetOrder();
      }
    },
    [payer, messages, onSuccess, onPending, fail, failWithDetail, provider],
  );

  // Back from a Stripe redirect (a bank's page): the URL names the PaymentIntent, whose outcome our server reads.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const intent = params.get("payment_intent");
    if (!intent || handledReturns.has(intent)) return;
    handledReturns.add(intent);
    window.history.replaceState(window.history.state, "", stripeReturnUrl());
    orderRef.current = intent;
    settle(intent, { paidWith: "stripe" });
  }, []); // once, on the widget's first render

  const cancel = useCallback(
    async (id = orderRef.current) => {
      setPhase("initial");
      setScriptState("initial");
      forgetOrder();
      if (id) {
        try {
          await api(PAYMENT_URLS.cancel, { method: "POST", body: { orderId: id } });
        } catch {
          // the order simply stays open at the provider; nothing was paid
        }
      }
      setAlert({ kind: "info", text: MSG_CANCELLED });
      onCancel?.();
    },
    [onCancel],
  );

  async function start() {
    setAlert(null);
    if (asksTerms && !termsAccepted) {
      // Refused here as the server would refuse it: nothing is opened, the box to tick gets the focus.
      setAlert({ kind: "error", text: MSG_TERMS_REQUIRED });
      termsRef.current?.focus();
      return;
    }
    if (provider === "paypal") {
      setScriptState("pending");
      setPhase("open");
      return;
    }
    setBusy(true);
    try {
      const data = await createOrder();
      if (data?.status === "COMPLETED") {
        // The gift card paid it all: nothing to pay at a provider.
        forgetOrder();
        setPhase("done");
        setAlert({ kind: "success", text: messages.success });
        notify(messages.success, "success");
        onSuccess?.(data);
        return;
      }
      if (provider === "stripe") {
        if (!data?.clientSecret) {
          forgetOrder();
          fail(new Error("no client secret"), createFailureMessage(null));
          return;
        }
        setClientSecret(data.clientSecret);
      }
      setPhase("open");
    } catch {
      // the message is already shown
    } finally {
      setBusy(false);
    }
  }

  function backToStart(error) {
    refocus.current = true;
    setBusy(false);
    setPhase("initial");
    forgetOrder();
    failWithDetail(error);
  }

  return (
    <section ref={sectionRef} className="payment-widget" aria-label="Paiement" data-provider={provider} data-phase={phase} data-script-state={scriptState}>
      {provider === "simulator" && (
        <p className="payment-demo" role="note">
          {MSG_DEMO_MODE}
        </p>
      )}
      <p className="payment-amount">
        Montant à régler : <strong data-payable>{euros(payable)}</strong>
      </p>

      {/* A subscription charged period after period takes no code nor card (docs/decisions.md 60): not offered. */}
      {phase === "initial" && TAKES_OFFERS.has(order?.kind) && !subscription && (
        <Suspense fallback={null}>
          <OfferFields key={totalAmount} order={order} onChange={(next) => setOffers({ ...next, total: totalAmount })} disabled={busy} />
        </Suspense>
      )}

      {phase === "initial" && providers.length > 1 && (
        <Choices
          name={`${uid}-provider`}
          legend={MSG_PROVIDER_LEGEND}
          options={providers.map((name) => ({ value: name, label: PROVIDER_LABELS[name] || name }))}
          value={provider}
          onChange={setChosen}
          disabled={busy}
        />
      )}

      {phase === "initial" && asksTerms && (
        <TermsChecks
          uid={uid}
          inputRef={termsRef}
          accepted={termsAccepted}
          onAccepted={setTermsAccepted}
          withdrawal={order?.kind === "tariff"}
          immediateStart={immediateStart}
          onImmediateStart={setImmediateStart}
          disabled={busy}
        />
      )}

      {phase === "initial" && order?.kind === "reservation" && <p className="payment-note">{MSG_NO_WITHDRAWAL}</p>}

      {phase === "initial" && (
        <button ref={startRef} type="button" className="button payment-start" onClick={start} disabled={disabled || busy}>
          {busy ? MSG_PREPARING : `Payer ${euros(payable)}`}
        </button>
      )}

      {phase === "open" && provider === "simulator" && (
        <Suspense fallback={<Spinner text={MSG_PREPARING} />}>
          <SimulatorPane
            name={uid}
            orderId={orderId}
            totalAmount={payable}
            subscription={subscription}
            onApproved={(method) => settle(orderRef.current, { paidWith: "simulator", payMethod: method })}
            onFailed={backToStart}
            onCancel={() => cancel()}
          />
        </Suspense>
      )}

      {phase === "open" && provider === "stripe" && (
        <div className="payment-stripe">
          <Suspense fallback={<Spinner text={MSG_STRIPE_PENDING} />}>
            <StripePane
              publishableKey={config.stripePublishableKey}
              clientSecret={clientSecret}
              mode="payment"
              returnUrl={stripeReturnUrl()}
              submitLabel={`Payer ${euros(payable)}`}
              onConfirmed={() => settle(orderRef.current, { paidWith: "stripe" })}
              onError={(message) => onError?.(new Error(message))}
            />
          </Suspense>
          <button type="button" className="button button-secondary" onClick={() => cancel()}>
            Annuler le paiement
          </button>
        </div>
      )}

      {phase === "open" && provider === "paypal" && (
        <div className="payment-paypal">
          {scriptState === "pending" && <Spinner text={MSG_SCRIPT_PENDING} />}
          <Suspense fallback={null}>
            <PayPalPane
              clientId={config.clientId}
              currency={config.currency || "EUR"}
              onScriptState={setScriptState}
              createOrder={async () => (await createOrder()).id}
              onApprove={(id) => settle(id, { paidWith: "paypal" })}
              onCancel={(id) => cancel(id)}
              onError={(error) => {
                setPhase("initial");
                fail(error, messages.failure);
              }}
            />
          </Suspense>
          <button type="button" className="button button-secondary" onClick={() => cancel()}>
            Annuler le paiement
          </button>
        </div>
      )}

      {phase === "capturing" && <Spinner text={MSG_CAPTURING} />}

      <div className="payment-live" aria-live="polite">
        {alert && (
          <p className={`payment-alert payment-alert-${alert.kind}`} role={alert.kind === "error" ? "alert" : "status"}>
            {alert.text}
          </p>
        )}
      </div>
    </section>
  );
}

function Spinner({ text }) {
  return (
    <p className="payment-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
