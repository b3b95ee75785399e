/* Staff cancel a class with a reason (docs/decisions.md 27, 35); per cancelled class, who was refunded or
   credited and which refunds are still pending. */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { euros } from "../../../components/format.js";
import { formatDateTime } from "../format.js";
import ReasonForm from "../ReasonForm.jsx";

export const MSG_CANCEL_FAILED = "L'annulation du cours a échoué. Veuillez réessayer.";
export const MSG_REPORT_LOAD = "Erreur lors du chargement des remboursements.";
export const MSG_REASON_REQUIRED = "Indiquez le motif de l'annulation : il est envoyé aux inscrits.";
export const CANCEL_HELP =
  "Toutes les réservations seront annulées : paiements par carte remboursés intégralement, crédits rendus sur les cartes de cours, e-mail avec le motif à chaque inscrit. Le cours reste affiché « Annulé » dans le planning.";

function CancelClassButton({ session, onDone }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const title = `Annuler le cours : ${session.course_title || ""} – ${formatDateTime(session.date)}`;
  const submit = async (event) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError(MSG_REASON_REQUIRED);
      return;
    }
    setBusy(true);
    setError("");
    try {
      const data = await api(`/api/course-sessions/${session.id}/cancel`, { method: "POST", body: { reason: reason.trim() } });
      setOpen(false);
      onDone?.(data.message);
    } catch (err) {
      setError(errorMessage(err, MSG_CANCEL_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="button button-small button-danger" onClick={() => setOpen(true)}>
        Annuler le cours
      </button>
      {open && (
        <Modal open title={title} onClose={() => setOpen(false)}>
          <ReasonForm
            id={`cancel-reason-${session.id}`}
            reason={reason}
            onReason={setReason}
            error={error}
            busy={busy}
            onSubmit={submit}
            submitLabel="Confirmer l'annulation"
          >
            <p>{CANCEL_HELP}</p>
          </ReasonForm>
        </Modal>
      )}
    </>
  );
}

const amountOf = (line) => (line.credits ? `${line.credits} crédit(s)` : line.amount ? euros(line.amount) : "—");

export function CancellationReport({ session }) {
  const [open, setOpen] = useState(false);
  const report = useApi(open ? `/api/course-sessions/${session.id}/cancellation` : null, { fallback: MSG_REPORT_LOAD });
  const rows = report.data?.results || null;
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        Remboursements
      </button>
      {open && (
        <Modal open title={`Cours annulé : ${session.course_title || ""} – ${formatDateTime(session.date)}`} onClose={() => setOpen(false)}>
          {session.cancellation_reason && <p>Motif : {session.cancellation_reason}</p>}
          {report.error && (
            <p className="form-error" role="alert">
              {report.error}
            </p>
          )}
          {!report.error && !rows && <p>Chargement…</p>}
          {rows && rows.length === 0 && <p>Personne n'était inscrit.</p>}
          {rows && report.data.refunds_pending > 0 && (
            <p className="form-error" role="status">
              {report.data.refunds_pending} remboursement(s) en attente : ils sont relancés automatiquement.
            </p>
          )}
          {rows && rows.length > 0 && (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Nom</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Participants</th>
                    <th scope="col">Résultat</th>
                    <th scope="col">Montant ou crédits</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((line) => (
                    <tr key={line.reservation_id}>
                      <td>{`${line.first_name} ${line.last_name}`.trim()}</td>
                      <td>{line.email}</td>
                      <td>{line.participants}</td>
                      <td>{line.outcome_label}</td>
                      <td>{amountOf(line)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Modal>
      )}
    </>
  );
}

/** The row's class actions: "Annuler le cours" while it is to come, the refunds report once cancelled. */
export function ClassCancelActions({ session, onDone }) {
  if (session.status === "cancelled") return <CancellationReport session={session} />;
  if (session.is_past) return null;
  return <CancelClassButton session={session} onDone={onDone} />;
}

export function sessionStatusLabel(session) {
  if (session.status === "cancelled") return "Annulé";
  return session.is_past ? "Passée" : "À venir";
}
