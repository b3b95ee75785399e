/* The terms-of-sale box every purchase asks for (docs/decisions.md 47) and, for a class card or a subscription, the
   withdrawal right and the immediate-start request (L221-25). */
import { MSG_IMMEDIATE_START, MSG_WITHDRAWAL_RIGHT } from "./messages.js";

export default function TermsChecks({ uid, inputRef, accepted, onAccepted, withdrawal, immediateStart, onImmediateStart, disabled }) {
  return (
    <div className="payment-terms">
      <p className="payment-check">
        <input
          ref={inputRef}
          id={`${uid}-terms`}
          type="checkbox"
          required
          aria-required="true"
          checked={accepted}
          onChange={(event) => onAccepted(event.target.checked)}
          disabled={disabled}
        />
        <label htmlFor={`${uid}-terms`}>
          J'accepte les{" "}
          <a href="/cgv" target="_blank" rel="noopener">
            conditions générales de vente<span className="visually-hidden"> (nouvel onglet)</span>
          </a>{" "}
          *
        </label>
      </p>
      {withdrawal && (
        <>
          <p className="payment-note">{MSG_WITHDRAWAL_RIGHT}</p>
          <p className="payment-check">
            <input
              id={`${uid}-immediate`}
              type="checkbox"
              checked={immediateStart}
              onChange={(event) => onImmediateStart(event.target.checked)}
              disabled={disabled}
            />
            <label htmlFor={`${uid}-immediate`}>{MSG_IMMEDIATE_START}</label>
          </p>
        </>
      )}
    </div>
  );
}
