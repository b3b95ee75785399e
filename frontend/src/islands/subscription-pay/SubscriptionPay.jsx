/* "Payer maintenant" for an unpaid period of a subscription (docs/decisions.md 25), on the member's profile. With
   the simulator the member may pick a card that will be refused, to try the unpaid path; with PayPal, the server
   captures the outstanding balance of the member's PayPal subscription. */
import { useState } from "react";
import { api, errorMessage } from "../../components/api.js";

export const MSG_PAY_FAILED = "Le paiement n'a pas pu être effectué. Veuillez réessayer.";
export const MSG_PAID = "✅ Échéance payée : votre abonnement permet de nouveau de réserver.";
export const MSG_DEBIT_SENT = "Prélèvement SEPA envoyé : l'échéance est en cours de paiement et sera réglée sous quelques jours.";

export default function SubscriptionPay({ subscriptionId, title, simulated = true, onPaid = () => window.location.reload() }) {
  const [busy, setBusy] = useState(false);
  const [declined, setDeclined] = useState(false);
  const [error, setError] = useState("");
  const [done, setDone] = useState("");

  async function pay() {
    setBusy(true);
    setError("");
    try {
      const paid = await api(`/api/subscriptions/${subscriptionId}/pay`, { method: "POST", body: { card_declined: declined } });
      // A SEPA debit is only sent: the bank settles it days later.
      setDone((paid?.charges || []).some((charge) => charge.status === "processing") ? MSG_DEBIT_SENT : MSG_PAID);
      onPaid();
    } catch (failure) {
      setError(errorMessage(failure, MSG_PAY_FAILED));
    } finally {
      setBusy(false);
    }
  }

  if (done) return <p role="status">{done}</p>;
  return (
    <div className="subscription-pay">
      {simulated && (
        <label>
          <input type="checkbox" checked={declined} onChange={(event) => setDeclined(event.target.checked)} /> Carte
          simulée refusée (démonstration)
        </label>
      )}{" "}
      <button type="button" className="button" disabled={busy} onClick={pay} aria-label={`Payer maintenant : ${title}`}>
        Payer maintenant
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
