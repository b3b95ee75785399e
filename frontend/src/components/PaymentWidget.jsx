/* The payment widget shared by the reservation popup and the tariff order modal.
   Interface (owned by the payments work):
     <PaymentWidget
        order={{ kind: "reservation", reservationId } | { kind: "tariff", tariffId, quantity }
               | { kind: "deposit", requestKind: "party" | "rental", requestId }}   // a request's deposit
        context="calendar" | "tariff" | "deposit"   // picks the context's success and failure messages
        config={{ provider: "paypal" | "simulator", clientId, currency }}  // from payments.selectors
        payer={{ first_name, last_name, email }}
        details={{ title, type, date, time, message }}
        totalAmount="25.00"                // display only: the server prices the order
        disabled={false}                   // optional: keeps the start button inactive (e.g. invalid form)
        subscription={false}               // the simulator also offers a card that fails at later periods
        onPhaseChange={(phase) => ...}     // optional: "initial" | "open" | "capturing" | "done"
        onSuccess={(result) => ...} onError={(error) => ...} onCancel={() => ...} />

   Flow: create the order on the server, the buyer approves at PayPal (or in the simulator's panel),
   then the server captures it; a spinner shows while capturing. PayPal's script is fetched from PayPal only when the
   payment starts (docs/decisions.md 18), in a lazily loaded chunk, and its state is initial, pending, resolved or
   rejected. Without PayPal credentials the simulator stands in and says plainly it is a demonstration. */
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api.js";
import { notify } from "./toast.jsx";
import {
  MSG_CANCELLED,
  MSG_CAPTURING,
  MSG_DECLINES_LATER,
  MSG_DEMO_MODE,
  MSG_SCRIPT_PENDING,
  createFailureMessage,
  createOrderPayload,
  euros,
  messagesFor,
  serverMessage,
} from "./payment/messages.js";
import "./payment/payment-widget.css";

const PayPalPane = lazy(() => import(/* webpackChunkName: "paypal-pane" */ "./payment/PayPalPane.jsx"));

export const PAYMENT_URLS = {
  create: "/api/paypal/create-order",
  capture: "/api/paypal/capture-payment",
  cancel: "/api/paypal/cancel-order",
  simulate: "/api/paypal/simulator/approve",
  deposit: "/api/paypal/deposit-order",
};

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
  onPhaseChange,
}) {
  const messages = messagesFor(context);
  const provider = config?.provider === "paypal" && config?.clientId ? "paypal" : "simulator";
  // initial → open (PayPal buttons or the simulator's panel) → capturing → done; errors go back to initial.
  const [phase, setPhase] = useState("initial");
  const [scriptState, setScriptState] = useState("initial");
  const [busy, setBusy] = useState(false);
  const [orderId, setOrderId] = useState("");
  const [alert, setAlert] = useState(null);
  const orderRef = useRef("");

  useEffect(() => {
    onPhaseChange?.(phase);
  }, [phase, onPhaseChange]);

  const fail = useCallback(
    (error, text, toastText = text) => {
      setAlert({ kind: "error", text });
      notify(toastText, "error");
      onError?.(error);
    },
    [onError],
  );

  const createOrder = useCallback(async () => {
    setAlert(null);
    try {
      const data = await api(order?.kind === "deposit" ? PAYMENT_URLS.deposit : PAYMENT_URLS.create, {
        method: "POST",
        body: createOrderPayload({ order, payer, details, totalAmount }),
        timeout: 30000,
      });
      orderRef.current = data.id;
      setOrderId(data.id);
      return data.id;
    } catch (error) {
      fail(error, createFailureMessage(error));
      throw error;
    }
  }, [order, payer, details, totalAmount, fail]);

  const capture = useCallback(
    async (id) => {
      setPhase("capturing");
      try {
        const result = await api(PAYMENT_URLS.capture, {
          method: "POST",
          body: { orderId: id, email: payer?.email || "", first_name: payer?.first_name || "", last_name: payer?.last_name || "" },
          timeout: 45000,
        });
        setPhase("done");
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
        setPhase("initial");
        const detail = serverMessage(error);
        fail(error, detail ? `${messages.failure} — ${detail}` : messages.failure, messages.failure);
      } finally {
        orderRef.current = "";
        setOrderId("");
      }
    },
    [payer, messages, onSuccess, fail],
  );

  const cancel = useCallback(
    async (id = orderRef.current) => {
      setPhase("initial");
      setScriptState("initial");
      orderRef.current = "";
      setOrderId("");
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
    if (provider === "paypal") {
      setScriptState("pending");
      setPhase("open");
      return;
    }
    setBusy(true);
    try {
      await createOrder();
      setPhase("open");
    } catch {
      // the message is already shown
    } finally {
      setBusy(false);
    }
  }

  async function simulate(outcome) {
    const id = orderRef.current;
    setBusy(true);
    try {
      await api(PAYMENT_URLS.simulate, { method: "POST", body: { orderId: id, outcome } });
    } catch (error) {
      setBusy(false);
      setPhase("initial");
      const detail = serverMessage(error);
      fail(error, detail ? `${messages.failure} — ${detail}` : messages.failure, messages.failure);
      return;
    }
    setBusy(false);
    await capture(id);
  }

  return (
    <section className="payment-widget" aria-label="Paiement" data-provider={provider} data-phase={phase} data-script-state={scriptState}>
      {provider === "simulator" && (
        <p className="payment-demo" role="note">
          {MSG_DEMO_MODE}
        </p>
      )}
      <p className="payment-amount">
        Montant à régler : <strong>{euros(totalAmount)}</strong>
      </p>

      {phase === "initial" && (
        <button type="button" className="button payment-start" onClick={start} disabled={disabled || busy}>
          {busy ? "Préparation du paiement…" : `Payer ${euros(totalAmount)}`}
        </button>
      )}

      {phase === "open" && provider === "simulator" && (
        <div className="payment-simulator" role="group" aria-label="Fenêtre de paiement simulée">
          <p className="help">
            Commande <code>{orderId}</code> · {euros(totalAmount)}
          </p>
          <div className="payment-actions">
            <button type="button" className="button" onClick={() => simulate("approve")} disabled={busy}>
              Payer (simulation)
            </button>
            <button type="button" className="button button-secondary" onClick={() => simulate("decline")} disabled={busy}>
              Simuler une carte refusée
            </button>
            {subscription && (
              <button type="button" className="button button-secondary" onClick={() => simulate("approve_declines_later")} disabled={busy}>
                {MSG_DECLINES_LATER}
              </button>
            )}
            <button type="button" className="button button-secondary" onClick={() => cancel()} disabled={busy}>
              Annuler le paiement
            </button>
          </div>
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
              createOrder={createOrder}
              onApprove={(id) => capture(id)}
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

      {alert && (
        <p className={`payment-alert payment-alert-${alert.kind}`} role={alert.kind === "error" ? "alert" : "status"}>
          {alert.text}
        </p>
      )}
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
