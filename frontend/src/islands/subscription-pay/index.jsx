import { Suspense, lazy } from "react";
import { mountIsland } from "../../components/mount.jsx";
import SubscriptionPay from "./SubscriptionPay.jsx";

// The saved card or mandate's pane, fetched only on a profile that shows one (the page budget).
const SavedMethod = lazy(() => import(/* webpackChunkName: "saved-method" */ "./SavedMethod.jsx"));

// One bundle for the profile's subscriptions: "Payer maintenant", and (mode "method") the saved card or mandate.
function SubscriptionIsland({ mode, ...props }) {
  if (mode !== "method") return <SubscriptionPay {...props} />;
  return (
    <Suspense fallback={props.label ? <p data-saved-method>{`Payé par : ${props.label}`}</p> : null}>
      <SavedMethod {...props} />
    </Suspense>
  );
}

mountIsland("subscription-pay", SubscriptionIsland);
