/* PayPal's subscription button, in its own chunk (fetched only when the member starts): the JS SDK with
   vault=true & intent=subscription, whose createSubscription asks our server for the subscription (on the tariff's
   billing plan) and whose onApprove tells our server the member approved it in PayPal's popup. */
import { useEffect } from "react";
import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from "@paypal/react-paypal-js";
import { MSG_SCRIPT_REJECTED } from "../../components/payment/messages.js";

function Buttons({ onScriptState, createSubscription, onApprove, onCancel, onError }) {
  const [{ isPending, isResolved, isRejected }] = usePayPalScriptReducer();
  const state = isRejected ? "rejected" : isResolved ? "resolved" : isPending ? "pending" : "initial";
  useEffect(() => onScriptState?.(state), [state, onScriptState]);
  if (isRejected) {
    return (
      <p className="payment-alert payment-alert-error" role="alert">
        {MSG_SCRIPT_REJECTED}
      </p>
    );
  }
  if (!isResolved) return null;
  return (
    <PayPalButtons
      style={{ layout: "vertical", shape: "pill", label: "subscribe" }}
      createSubscription={() => createSubscription()}
      onApprove={(data) => onApprove(data.subscriptionID)}
      onCancel={() => onCancel()}
      onError={(error) => onError(error)}
    />
  );
}

export default function PayPalSubscriptionPane({ clientId, currency = "EUR", ...handlers }) {
  return (
    <PayPalScriptProvider options={{ clientId, currency, vault: true, intent: "subscription", locale: "fr_FR", components: "buttons" }}>
      <Buttons {...handlers} />
    </PayPalScriptProvider>
  );
}
