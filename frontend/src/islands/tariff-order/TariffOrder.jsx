/* The tariff order modal: the 'Commander' buttons of /tarifs and the buy buttons of /tarifs-page open it in place for
   members; visitors are told to log in. Quantity starts at 1 each time; the total is unit price × quantity to 2
   decimals (display only: the server prices the order); the modal closes on cancel or after a successful payment.
   A tariff billed per period (docs/decisions.md 24; asked to the server when the modal opens) is bought once (no
   quantity), says what the member commits to, asks a reduced rate's status and confirmation (and an optional proof),
   asks first for the card or SEPA mandate the later periods are charged to (saved with the simulator or Stripe:
   SavedMethod), and with PayPal opens PayPal's subscription popup instead. */
import { Suspense, lazy, useCallback, useEffect, useId, useMemo, useState } from "react";
import Modal from "../../components/Modal.jsx";
import { notify } from "../../components/toast.jsx";
import { euros, lineTotal } from "../../components/payment/messages.js";
import { useApi } from "../../components/useApi.js";
import {
  MAX_QUANTITY,
  MIN_QUANTITY,
  MSG_LOGIN_REQUIRED,
  MSG_NOT_ORDERABLE,
  normalizeQuantity,
  periodLabel,
  reducedClaim,
  tariffFromButton,
} from "./messages.js";

// Only a tariff billed per period asks for it: its code stays out of the modal's first load (the page budget).
// The reduced-rate fields (a student's or job-seeker's proof) are fetched only for a tariff that has that rate.
// The payment widget (and the offer fields it folds) loads when a tariff is chosen: the tarifs page needs only the list.
const PaymentWidget = lazy(() => import(/* webpackChunkName: "payment-widget" */ "../../components/PaymentWidget.jsx"));
const ReducedFields = lazy(() => import(/* webpackChunkName: "reduced-fields" */ "./ReducedFields.jsx"));
// PayPal's subscription button is fetched only where PayPal is the provider: the card path never loads it.
const SubscriptionPayPal = lazy(() => import(/* webpackChunkName: "subscription-paypal" */ "./SubscriptionPayPal.jsx"));
const SavedMethod = lazy(() => import(/* webpackChunkName: "saved-method" */ "../subscription-pay/SavedMethod.jsx"));

const NO_CLAIM = { status: "", confirmed: false, proofId: null, proofName: "" };

const BUTTONS = "[data-tariff-order]";

export default function TariffOrder({ user, paymentConfig, loginUrl = "/login" }) {
  const id = useId();
  const [tariff, setTariff] = useState(null);
  const [quantity, setQuantity] = useState(String(MIN_QUANTITY));
  const [paying, setPaying] = useState(false);
  const [reduced, setReduced] = useState(NO_CLAIM);
  const [claimTried, setClaimTried] = useState(false);
  const [method, setMethod] = useState(null);

  const open = useCallback(
    (next) => {
      if (!user) {
        notify(MSG_LOGIN_REQUIRED, "warning");
        return;
      }
      if (!next.id) {
        notify(MSG_NOT_ORDERABLE, "info");
        return;
      }
      setQuantity(String(MIN_QUANTITY));
      setPaying(false);
      setReduced(NO_CLAIM);
      setClaimTried(false);
      setTariff(next);
    },
    [user],
  );

  useEffect(() => {
    const onClick = (event) => {
      const button = event.target.closest?.(BUTTONS);
      if (!button) return;
      event.preventDefault();
      open(tariffFromButton(button));
    };
    document.addEventListener("click", onClick);
    // /tarifs/commander sends members back here with ?commander=<id> (the no-JavaScript path): open that order.
    const wanted = new URLSearchParams(window.location.search).get("commander");
    if (wanted) {
      const button = document.querySelector(`${BUTTONS}[data-tariff-id="${CSS.escape(wanted)}"]`);
      if (button) open(tariffFromButton(button));
    }
    return () => document.removeEventListener("click", onClick);
  }, [open]);

  const close = useCallback(() => setTariff(null), []);
  const { data: offer, loading: offerLoading } = useApi(tariff?.id ? `/api/subscriptions/offers/${tariff.id}` : null, { fresh: true });
  const current = offer && tariff && offer.tariff_id === tariff.id ? offer : null;
  const perPeriod = Boolean(current?.per_period);
  const count = perPeriod ? 1 : normalizeQuantity(quantity);
  const total = tariff ? lineTotal(tariff.price, count) : "0.00";
  const claim = useMemo(() => reducedClaim(current?.reduced ? reduced : null), [current, reduced]);
  const claimError = claimTried ? claim.error : "";
  const paypal = paymentConfig?.provider === "paypal" && paymentConfig?.clientId;

  return (
    <Modal open={Boolean(tariff)} title={tariff ? `Commander : ${tariff.title}` : ""} onClose={close} className="tariff-order-modal">
      {tariff && (
        <div className="tariff-order">
          <p className="help">
            Prix unitaire : <strong>{euros(tariff.price)}</strong>
          </p>
          {perPeriod && (
            <p className="help" data-subscription-terms>
              Abonnement {periodLabel(current)} : la première échéance est payée maintenant, les suivantes sont prélevées
              automatiquement à chaque échéance. Pas de renouvellement automatique.
            </p>
          )}
          {current?.reduced && (
            <Suspense fallback={null}>
              <ReducedFields
                value={reduced}
                onChange={(next) => {
                  setReduced(next);
                  setClaimTried(true);
                }}
                error={claimError}
                disabled={paying}
              />
            </Suspense>
          )}
          {!perPeriod && (
            <div className="field">
              <label htmlFor={`${id}-quantity`}>Quantité</label>
              <input
                id={`${id}-quantity`}
                type="number"
                inputMode="numeric"
                min={MIN_QUANTITY}
                max={MAX_QUANTITY}
                step="1"
                value={quantity}
                disabled={paying}
                onChange={(event) => setQuantity(event.target.value)}
                onBlur={() => setQuantity(String(count))}
              />
            </div>
          )}
          <p className="tariff-order-total" aria-live="polite">
            Total : <strong data-total>{euros(total)}</strong>
          </p>
          {claim.error && current?.reduced && !claimTried && <p className="help">{claim.error}</p>}
          {perPeriod && !paypal && (
            <Suspense fallback={null}>
              <SavedMethod title="Moyen de paiement des prochaines échéances" onSaved={setMethod} />
            </Suspense>
          )}
          {offerLoading && !current ? null : perPeriod && paypal ? (
            <Suspense fallback={null}>
              <SubscriptionPayPal tariffId={tariff.id} payer={user} config={paymentConfig} claim={claim.fields || {}} disabled={Boolean(claim.error)} />
            </Suspense>
          ) : (
            <Suspense fallback={<p aria-busy="true">Chargement du paiement…</p>}>
            <PaymentWidget
              key={tariff.id}
              order={{ kind: "tariff", tariffId: tariff.id, quantity: count, reduced: claim.fields || {} }}
              context="tariff"
              config={paymentConfig}
              payer={user}
              details={{ title: tariff.title, type: "TARIF", message: "" }}
              totalAmount={total}
              disabled={Boolean(claim.error) || (perPeriod && !method)}
              subscription={perPeriod}
              onPhaseChange={(phase) => setPaying(phase === "open" || phase === "capturing")}
              onSuccess={close}
            />
            </Suspense>
          )}
          <div className="modal-actions">
            <button type="button" className="button button-secondary" onClick={close}>
              Annuler
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
