/* The payment widget shared by the reservation popup and the tariff order modal.
   Interface (owned by the payments work):
     <PaymentWidget
        order={{ kind: "reservation", reservationId } | { kind: "tariff", tariffId, quantity }}
        context="calendar" | "tariff"      // picks SPEC.md 8's success and failure messages
        config={{ provider: "paypal" | "simulator", clientId, currency }}  // from payments.selectors
        payer={{ first_name, last_name, email }}
        details={{ title, type, date, time, message }}
        totalAmount="25.00"                // display only: the server prices the order
        onSuccess={(result) => ...} onError={(error) => ...} onCancel={() => ...} />
*/
export default function PaymentWidget({ totalAmount }) {
  return (
    <p className="payment-widget" role="status">
      Montant à régler : {totalAmount} €. Le paiement en ligne s'affiche ici.
    </p>
  );
}
