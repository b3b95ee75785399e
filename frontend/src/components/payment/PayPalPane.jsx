/* PayPal's buttons, in their own chunk: this file (and @paypal/react-paypal-js) is fetched only when a payment
   starts, and PayPalScriptProvider then loads PayPal's SDK from PayPal. Its loading state (pending, resolved,
   rejected) is reported to the widget. */
import { useEffect } from "react";
import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from "@paypal/react-paypal-js";
import { MSG_SCRIPT_REJECTED } from "./messages.js";

function Buttons({ onScriptState, createOrder, onApprove, onCancel, onError }) {
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
      style={{ layout: "vertical", shape: "pill", label: "pay" }}
      createOrder={() => createOrder()}
      onApprove={(data) => onApprove(data.orderID)}
      onCancel={(data) => onCancel(data?.orderID)}
      onError={(error) => onError(error)}
    />
  );
}

export default function PayPalPane({ clientId, currency = "EUR", ...handlers }) {
  return (
    <PayPalScriptProvider options={{ clientId, currency, intent: "capture", locale: "fr_FR", components: "buttons" }}>
      <Buttons {...handlers} />
    </PayPalScriptProvider>
  );
}
