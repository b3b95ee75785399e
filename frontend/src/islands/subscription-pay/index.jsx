import { mountIsland } from "../../components/mount.jsx";
import SavedMethod from "./SavedMethod.jsx";
import SubscriptionPay from "./SubscriptionPay.jsx";

// One bundle for the profile's subscriptions: "Payer maintenant", and (mode "method") the saved card or mandate.
function SubscriptionIsland({ mode, ...props }) {
  return mode === "method" ? <SavedMethod {...props} /> : <SubscriptionPay {...props} />;
}

mountIsland("subscription-pay", SubscriptionIsland);
