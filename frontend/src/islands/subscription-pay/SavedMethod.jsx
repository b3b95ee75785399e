/* The card or SEPA mandate the later periods of a subscription are charged to: shown as the member knows it
   ("Carte •••• 4242, expire 12/28", "Prélèvement SEPA FR76 •••• 1234, mandat du 29/11/2026"), and saved or replaced
   here. With the simulator (demonstration) a card is picked from Stripe's test cards, a SEPA mandate is signed with
   an IBAN, the account holder and the mandate's text; with Stripe the Payment Element (StripePane, mode "setup")
   confirms a SetupIntent, then the server reads it back. Used on the profile and in the tariff order modal. */
import { Suspense, useCallback, useEffect, useId, useState } from "react";
import { api, errorMessage } from "../../components/api.js";
import { useApi } from "../../components/useApi.js";
import { StripePane } from "./stripePane.js";

export const METHOD_URLS = {
  state: "/api/subscriptions/method",
  card: "/api/subscriptions/method/simulator/card",
  sepa: "/api/subscriptions/method/simulator/sepa",
  setup: "/api/subscriptions/method/stripe/setup",
  complete: "/api/subscriptions/method/stripe/complete",
};
export const MSG_SAVE_FAILED = "Le moyen de paiement n'a pas pu être enregistré. Veuillez réessayer.";
export const MSG_SAVED = "✅ Moyen de paiement enregistré : il paiera les prochaines échéances.";
export const MSG_NO_METHOD = "Aucun moyen de paiement enregistré pour les prochaines échéances.";

function returnedSetupIntent() {
  return new URLSearchParams(window.location.search).get("setup_intent") || "";
}

export default function SavedMethod({ label = "", title = "Moyen de paiement des échéances", onSaved }) {
  const id = useId();
  const { data: state, setData } = useApi(METHOD_URLS.state, { fresh: true });
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState("card");
  const [scenario, setScenario] = useState("success");
  const [iban, setIban] = useState("");
  const [holder, setHolder] = useState("");
  const [accepted, setAccepted] = useState(false);
  const [setup, setSetup] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);

  const method = state ? state.method : null;
  const shown = method?.label || (state ? "" : label);

  useEffect(() => {
    if (state) onSaved?.(state.method);
  }, [state, onSaved]);

  const saved = useCallback(
    (next) => {
      setData((current) => ({ ...(current || {}), method: next }));
      setOpen(false);
      setSetup(null);
      setDone(true);
    },
    [setData],
  );

  const complete = useCallback(
    async (setupIntentId) => {
      setBusy(true);
      setError("");
      try {
        saved(await api(METHOD_URLS.complete, { method: "POST", body: { setupIntentId }, timeout: 30000 }));
      } catch (failure) {
        setError(errorMessage(failure, MSG_SAVE_FAILED));
      } finally {
        setBusy(false);
      }
    },
    [saved],
  );

  // Back from a bank's page (3-D Secure, a redirect of the Payment Element): Stripe put the SetupIntent in the URL.
  useEffect(() => {
    const returned = returnedSetupIntent();
    if (returned) complete(returned);
  }, [complete]);

  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    setDone(false);
    try {
      if (state?.provider === "stripe") {
        setSetup(await api(METHOD_URLS.setup, { method: "POST", body: { kind }, timeout: 30000 }));
      } else if (kind === "card") {
        saved(await api(METHOD_URLS.card, { method: "POST", body: { scenario } }));
      } else {
        saved(await api(METHOD_URLS.sepa, { method: "POST", body: { iban, holder, accepted } }));
      }
    } catch (failure) {
      setError(errorMessage(failure, MSG_SAVE_FAILED));
    } finally {
      setBusy(false);
    }
  }

  const simulator = state?.provider !== "stripe";
  return (
    <section className="saved-method" aria-label={title}>
      <p data-saved-method>{shown ? `Payé par : ${shown}` : MSG_NO_METHOD}</p>
      {done && <p role="status">{MSG_SAVED}</p>}
      {!open && (
        <button type="button" className="button button-secondary" onClick={() => setOpen(true)} disabled={!state}>
          {shown ? "Remplacer le moyen de paiement" : "Enregistrer un moyen de paiement"}
        </button>
      )}
      {open && !setup && (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>{title}</legend>
            <label>
              <input type="radio" name={`${id}-kind`} checked={kind === "card"} onChange={() => setKind("card")} /> Carte bancaire
            </label>{" "}
            <label>
              <input type="radio" name={`${id}-kind`} checked={kind === "sepa_debit"} onChange={() => setKind("sepa_debit")} /> Prélèvement SEPA
            </label>
          </fieldset>
          {simulator && kind === "card" && (
            <div className="field">
              <label htmlFor={`${id}-scenario`}>Carte simulée (démonstration)</label>
              <select id={`${id}-scenario`} value={scenario} onChange={(event) => setScenario(event.target.value)}>
                <option value="success">Visa •••• 4242 (fonctionne)</option>
                <option value="declines">Visa •••• 0002 (refusée à chaque échéance)</option>
              </select>
            </div>
          )}
          {simulator && kind === "sepa_debit" && (
            <>
              <div className="field">
                <label htmlFor={`${id}-iban`}>IBAN</label>
                <input id={`${id}-iban`} value={iban} autoComplete="off" onChange={(event) => setIban(event.target.value)} />
                <p className="help">Démonstration : FR1420041010050500013M02606 est payé, FR8420041010050500013M02607 est rejeté.</p>
              </div>
              <div className="field">
                <label htmlFor={`${id}-holder`}>Titulaire du compte</label>
                <input id={`${id}-holder`} value={holder} autoComplete="name" onChange={(event) => setHolder(event.target.value)} />
              </div>
              <p className="help" data-mandate-text>
                {state?.mandateText}
              </p>
              <label>
                <input type="checkbox" checked={accepted} onChange={(event) => setAccepted(event.target.checked)} /> J'accepte le mandat de
                prélèvement SEPA
              </label>
            </>
          )}
          <div className="modal-actions">
            <button type="submit" className="button" disabled={busy}>
              {simulator ? (kind === "card" ? "Enregistrer la carte" : "Signer le mandat") : "Continuer"}
            </button>{" "}
            <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
              Annuler
            </button>
          </div>
        </form>
      )}
      {setup && (
        <Suspense fallback={null}>
          <StripePane
            publishableKey={setup.publishableKey || state?.publishableKey}
            clientSecret={setup.clientSecret}
            mode="setup"
            returnUrl={window.location.href}
            onConfirmed={(result) => complete(result?.setupIntentId || setup.setupIntentId)}
            onError={(message) => setError(message || MSG_SAVE_FAILED)}
          />
        </Suspense>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
