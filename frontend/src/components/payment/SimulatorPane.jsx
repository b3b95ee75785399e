/* The simulator's payment window, in its own chunk (a page with a real provider never fetches it): a card (accepted,
   3-D Secure, refused) or Apple Pay / Google Pay (accepted, refused), approved at /api/paypal/simulator/approve. A card
   with 3-D Secure opens the simulated bank's dialog; its answer goes to /api/paypal/simulator/authenticate. The
   widget then captures (onApproved) or shows the server's refusal (onFailed). */
import { useState } from "react";
import { flushSync } from "react-dom";
import { api } from "../api.js";
import Modal from "../Modal.jsx";
import Choices from "./Choices.jsx";
import { MSG_DECLINES_LATER, euros } from "./messages.js";
import {
  MSG_CHALLENGE_BODY,
  MSG_CHALLENGE_FAIL,
  MSG_CHALLENGE_PASS,
  MSG_CHALLENGE_TITLE,
  MSG_METHOD_LEGEND,
  MSG_SCENARIO_LEGEND,
  MSG_SIMULATE_PAY,
  MSG_SIMULATOR_WINDOW,
  SIMULATOR_METHODS,
  SIMULATOR_SCENARIOS,
} from "./simulator-messages.js";
import { PAYMENT_URLS } from "./urls.js";


export default function SimulatorPane({ name, orderId, totalAmount, subscription = false, onApproved, onFailed, onCancel }) {
  const [method, setMethod] = useState("card");
  const [scenario, setScenario] = useState("success");
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState(false);

  function failed(error) {
    setBusy(false);
    onFailed(error);
  }

  async function simulate(outcome, paidBy = { method, scenario: outcome === "approve_declines_later" ? "success" : scenario }) {
    setBusy(true);
    let answer;
    try {
      answer = await api(PAYMENT_URLS.simulate, { method: "POST", body: { orderId, outcome, ...paidBy } });
    } catch (error) {
      failed(error);
      return;
    }
    setBusy(false);
    if (answer?.challenge || answer?.status === "ACTION_REQUIRED") {
      setChallenge(true);
      return;
    }
    onApproved(paidBy.method);
  }

  async function authenticate(passed) {
    // The dialog closes first, so that the focus is back on the pay button before anything else moves.
    flushSync(() => setChallenge(false));
    setBusy(true);
    try {
      await api(PAYMENT_URLS.authenticate, { method: "POST", body: { orderId, passed } });
    } catch (error) {
      failed(error);
      return;
    }
    setBusy(false);
    onApproved(method);
  }

  return (
    <div className="payment-simulator" role="group" aria-label={MSG_SIMULATOR_WINDOW}>
      <p className="help">
        Commande <code>{orderId}</code> · {euros(totalAmount)}
      </p>
      <Choices
        name={`${name}-method`}
        legend={MSG_METHOD_LEGEND}
        options={SIMULATOR_METHODS}
        value={method}
        onChange={(value) => {
          setMethod(value);
          setScenario("success");
        }}
        disabled={busy}
      />
      <Choices name={`${name}-scenario`} legend={MSG_SCENARIO_LEGEND} options={SIMULATOR_SCENARIOS[method]} value={scenario} onChange={setScenario} disabled={busy} />
      <div className="payment-actions">
        <button type="button" className="button" onClick={() => simulate(scenario === "declined" ? "decline" : "approve")} disabled={busy}>
          {MSG_SIMULATE_PAY}
        </button>
        {subscription && (
          <button type="button" className="button button-secondary" onClick={() => simulate("approve_declines_later")} disabled={busy}>
            {MSG_DECLINES_LATER}
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          Annuler le paiement
        </button>
      </div>
      <Modal open={challenge} title={MSG_CHALLENGE_TITLE} onClose={() => authenticate(false)} className="payment-challenge">
        <p>{MSG_CHALLENGE_BODY}</p>
        <p className="payment-amount">
          Montant : <strong>{euros(totalAmount)}</strong>
        </p>
        <div className="payment-actions">
          <button type="button" className="button" onClick={() => authenticate(true)}>
            {MSG_CHALLENGE_PASS}
          </button>
          <button type="button" className="button button-secondary" onClick={() => authenticate(false)}>
            {MSG_CHALLENGE_FAIL}
          </button>
        </div>
      </Modal>
    </div>
  );
}
