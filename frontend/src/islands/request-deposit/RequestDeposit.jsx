/* "Payer l'acompte" on a member's request page (docs/decisions.md 17): the shared payment widget, for the deposit
   the studio quoted (the server prices it again from the quote). Once paid, the widget's success stays on screen
   with a link that reloads the page's status and history. */
import { useState } from "react";
import PaymentWidget from "../../components/PaymentWidget.jsx";
import { euros } from "../../components/format.js";

export const MSG_DEPOSIT_INTRO = "Payez l'acompte en ligne : le studio confirme votre réservation dès sa réception.";

export const MSG_REFRESH = "Actualiser le suivi de la demande";

export default function RequestDeposit({ kind, requestId, amount, title, payer, paymentConfig, onPaid = () => {} }) {
  const [paid, setPaid] = useState(false);
  return (
    <div className="request-deposit">
      <p>
        {MSG_DEPOSIT_INTRO} Acompte : <strong>{euros(amount)}</strong>
      </p>
      <PaymentWidget
        order={{ kind: "deposit", requestKind: kind, requestId }}
        context="deposit"
        config={paymentConfig}
        payer={payer}
        details={{ title, type: "ACOMPTE", message: "" }}
        totalAmount={amount}
        onSuccess={(result) => {
          setPaid(true);
          onPaid(result);
        }}
      />
      {paid && (
        <p>
          <a href={window.location.pathname}>{MSG_REFRESH}</a>
        </p>
      )}
    </div>
  );
}
