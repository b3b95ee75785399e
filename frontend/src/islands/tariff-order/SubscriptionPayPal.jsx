/* Buying a subscription with PayPal (docs/decisions.md 24): PayPal's subscription popup (createSubscription → our
   server creates it on the tariff's billing plan; onApprove → our server reads it from a task). PayPal then charges
   each period and its webhooks keep the studio's records; the member sees it on the profile. The member accepts the
   terms of sale first, and may ask to start within the withdrawal period (docs/decisions.md 47). */
import { Suspense, lazy, useCallback, useId, useRef, useState } from "react";
import { api, errorMessage } from "../../components/api.js";
import { notify } from "../../components/toast.jsx";
import { MSG_SCRIPT_PENDING, MSG_TERMS_REQUIRED } from "../../components/payment/messages.js";
import TermsChecks from "../../components/payment/TermsChecks.jsx";
import { MSG_SUBSCRIPTION_APPROVED, MSG_SUBSCRIPTION_CANCELLED, MSG_SUBSCRIPTION_FAILED } from "./messages.js";

const Pane = lazy(() => import(/* webpackChunkName: "paypal-subscription-pane" */ "./PayPalSubscriptionPane.jsx"));

export const SUBSCRIPTION_URLS = { create: "/api/subscriptions/paypal", approved: "/api/subscriptions/paypal/approved" };

export default function SubscriptionPayPal({ tariffId, payer, config, claim, disabled = false, onDone }) {
  const [open, setOpen] = useState(false);
  const [scriptState, setScriptState] = useState("initial");
  const [alert, setAlert] = useState(null);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [immediateStart, setImmediateStart] = useState(false);
  const uid = useId();
  const termsRef = useRef(null);

  const start = () => {
    if (!termsAccepted) {
      setAlert({ kind: "error", text: MSG_TERMS_REQUIRED });
      termsRef.current?.focus();
      return;
    }
    setAlert(null);
    setOpen(true);
  };

  const createSubscription = useCallback(async () => {
    setAlert(null);
    try {
      const body = {
        tariff_id: tariffId,
        email: payer?.email || "",
        first_name: payer?.first_name || "",
        last_name: payer?.last_name || "",
        accept_terms: true,
        immediate_start: immediateStart,
        ...claim,
      };
      const data = await api(SUBSCRIPTION_URLS.create, { method: "POST", body, timeout: 30000 });
      return data.id;
    } catch (failure) {
      const text = errorMessage(failure, MSG_SUBSCRIPTION_FAILED);
      setAlert({ kind: "error", text });
      notify(text, "error");
      throw failure;
    }
  }, [tariffId, payer, claim, immediateStart]);

  const onApprove = useCallback(
    async (subscriptionID) => {
      try {
        await api(SUBSCRIPTION_URLS.approved, { method: "POST", body: { subscriptionID }, timeout: 30000 });
        setAlert({ kind: "success", text: MSG_SUBSCRIPTION_APPROVED });
        notify(MSG_SUBSCRIPTION_APPROVED, "success");
        setOpen(false);
        onDone?.();
      } catch (failure) {
        setAlert({ kind: "error", text: errorMessage(failure, MSG_SUBSCRIPTION_FAILED) });
      }
    },
    [onDone],
  );

  return (
    <section className="payment-widget" aria-label="Abonnement PayPal" data-provider="paypal" data-script-state={scriptState}>
      {!open && (
        <>
          <TermsChecks
            uid={uid}
            inputRef={termsRef}
            accepted={termsAccepted}
            onAccepted={setTermsAccepted}
            withdrawal
            immediateStart={immediateStart}
            onImmediateStart={setImmediateStart}
          />
          <button type="button" className="button payment-start" disabled={disabled} onClick={start}>
            S'abonner avec PayPal
          </button>
        </>
      )}
      {open && (
        <div className="payment-paypal">
          {scriptState === "pending" && (
            <p className="payment-spinner" role="status">
              <span className="spinner" aria-hidden="true" />
              {MSG_SCRIPT_PENDING}
            </p>
          )}
          <Suspense fallback={null}>
            <Pane
              clientId={config.clientId}
              currency={config.currency || "EUR"}
              onScriptState={setScriptState}
              createSubscription={createSubscription}
              onApprove={onApprove}
              onCancel={() => setAlert({ kind: "info", text: MSG_SUBSCRIPTION_CANCELLED })}
              onError={() => setAlert({ kind: "error", text: MSG_SUBSCRIPTION_FAILED })}
            />
          </Suspense>
        </div>
      )}
      {alert && (
        <p className={`payment-alert payment-alert-${alert.kind}`} role={alert.kind === "error" ? "alert" : "status"}>
          {alert.text}
        </p>
      )}
    </section>
  );
}
