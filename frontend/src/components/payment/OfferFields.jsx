/* A promo code and a gift card's code, folded under one line in the payment widget (its own chunk, fetched when the
   widget shows: the tariff order's first load stays within its budget). "Appliquer" asks the server what they take
   off (/api/promo-codes/check: a preview, the order prices them again) and hands the codes and the preview up. */
import { useId, useState } from "react";
import { api } from "../api.js";
import { euros, serverMessage } from "./messages.js";

export const MSG_OFFERS_SUMMARY = "Code promo ou carte cadeau ?";
export const MSG_OFFERS_FAILED = "Vérification impossible pour le moment. Réessayez.";

/** What the preview is asked about: the reservation, or the tariff and its quantity. */
function purchaseOf(order) {
  if (order?.kind === "reservation") return { reservation_id: order.reservationId };
  return { tariff_id: order?.tariffId, quantity: order?.quantity || 1 };
}

export default function OfferFields({ order, onChange, disabled = false }) {
  const uid = useId();
  const [promoCode, setPromoCode] = useState("");
  const [giftCardCode, setGiftCardCode] = useState("");
  const [preview, setPreview] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function apply() {
    setError("");
    const codes = { promo_code: promoCode.trim(), gift_card_code: giftCardCode.trim() };
    if (!codes.promo_code && !codes.gift_card_code) {
      setPreview(null);
      onChange?.({ codes: {}, preview: null });
      return;
    }
    setBusy(true);
    try {
      const data = await api("/api/promo-codes/check", {
        method: "POST",
        body: { code: codes.promo_code, gift_card_code: codes.gift_card_code, ...purchaseOf(order) },
      });
      setPreview(data);
      onChange?.({ codes, preview: data });
    } catch (failure) {
      setPreview(null);
      onChange?.({ codes: {}, preview: null });
      setError(serverMessage(failure) || MSG_OFFERS_FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="payment-offers">
      <summary>{MSG_OFFERS_SUMMARY}</summary>
      <div className="payment-offers-fields">
        <label htmlFor={`${uid}-promo`}>Code promo</label>
        <input id={`${uid}-promo`} autoComplete="off" maxLength={40} value={promoCode} disabled={disabled || busy} onChange={(e) => setPromoCode(e.target.value)} />
        <label htmlFor={`${uid}-gift`}>Code de carte cadeau</label>
        <input id={`${uid}-gift`} autoComplete="off" maxLength={32} value={giftCardCode} disabled={disabled || busy} onChange={(e) => setGiftCardCode(e.target.value)} />
        <button type="button" className="button button-secondary" onClick={apply} disabled={disabled || busy}>
          Appliquer
        </button>
        <div aria-live="polite">
          {error && (
            <p className="payment-alert payment-alert-error" role="alert">
              {error}
            </p>
          )}
          {preview && (
            <ul className="payment-offers-summary" data-offers-preview>
              {Number(preview.discount) > 0 && (
                <li>
                  {preview.discount_label} : −{euros(preview.discount)}
                </li>
              )}
              {Number(preview.gift_card_amount) > 0 && <li>Carte cadeau : −{euros(preview.gift_card_amount)}</li>}
              <li>
                Reste à payer : <strong>{euros(preview.to_pay)}</strong>
              </li>
            </ul>
          )}
        </div>
      </div>
    </details>
  );
}
