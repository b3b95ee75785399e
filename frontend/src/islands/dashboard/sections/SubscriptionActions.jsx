/* Staff actions on a subscription (docs/decisions.md 25): retry the unpaid period now, cancel with or without the
   refund of the current period, end a reduced (student, job-seeker) plan. Each opens a confirm dialog that says what
   will happen and asks why; the server answers the French outcome, shown in the section. */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { formatDateTime } from "../format.js";

export const MSG_ACTION_FAILED = "L'action n'a pas pu être enregistrée.";

export const ACTIONS = {
  retry: {
    url: "retry",
    title: "Relancer l'échéance",
    confirm: "Relancer maintenant le paiement de l'échéance impayée ? Le membre est prélevé tout de suite.",
    button: "Relancer l'échéance",
    reasonRequired: false,
  },
  cancel: {
    url: "cancel",
    title: "Annuler l'abonnement",
    confirm:
      "Annuler cet abonnement ? Plus aucune échéance ne sera prélevée. Sans remboursement, le membre garde l'accès jusqu'à la fin de la période payée.",
    button: "Confirmer l'annulation",
    reasonRequired: true,
  },
  endReduced: {
    url: "end-reduced",
    title: "Terminer le tarif réduit",
    confirm:
      "Le membre n'a plus droit au tarif réduit ? L'abonnement s'arrête : plus aucune échéance ne sera prélevée, l'accès reste jusqu'à la fin de la période payée.",
    button: "Terminer le tarif réduit",
    reasonRequired: true,
  },
};

export function canRetry(row) {
  return ["active", "unpaid"].includes(row.status) && row.charges.some((c) => c.status === "failed" || c.status === "due");
}

export function isLive(row) {
  return ["active", "unpaid", "frozen"].includes(row.status);
}

export function ActionForm({ kind, row, onDone, onCancel }) {
  const action = ACTIONS[kind];
  const [reason, setReason] = useState("");
  const [refund, setRefund] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const body = kind === "cancel" ? { reason, refund } : { reason };
      const answer = await api(`/api/subscriptions/${row.id}/${action.url}`, { method: "POST", body });
      onDone(answer.message);
    } catch (failure) {
      setError(errorMessage(failure, MSG_ACTION_FAILED));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p>{action.confirm}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {kind === "cancel" && (
        <label>
          <input type="checkbox" name="refund" checked={refund} onChange={(event) => setRefund(event.target.checked)} /> Rembourser la
          période en cours (via le prestataire de paiement) : l'accès s'arrête aujourd'hui
        </label>
      )}
      <label>
        {action.reasonRequired ? "Raison" : "Raison (facultatif)"}
        <textarea name="reason" value={reason} onChange={(event) => setReason(event.target.value)} required={action.reasonRequired} />
      </label>
      <p>
        <button type="submit" className="button" disabled={busy}>
          {action.button}
        </button>{" "}
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Retour
        </button>
      </p>
    </form>
  );
}

export function ReducedAndLog({ row }) {
  return (
    <>
      {row.reduced && (
        <p data-subscription-reduced>
          Tarif réduit : {row.reduced.status_label}, confirmé par le membre le {formatDateTime(row.reduced.confirmed_at)}
          {row.reduced.proof_url ? (
            <>
              {" "}
              (
              <a href={row.reduced.proof_url} target="_blank" rel="noopener noreferrer">
                voir le justificatif
              </a>
              )
            </>
          ) : (
            " (sans justificatif)"
          )}
          {row.reduced.ended_at ? ` — terminé le ${formatDateTime(row.reduced.ended_at)}` : ""}
        </p>
      )}
      {row.actions?.length > 0 && (
        <ul aria-label="Historique des actions">
          {row.actions.map((a) => (
            <li key={`${a.kind}-${a.created_at}`}>
              {formatDateTime(a.created_at)} — {a.label} par {a.by || "—"}
              {a.reason ? ` : ${a.reason}` : ""} — {a.outcome}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
