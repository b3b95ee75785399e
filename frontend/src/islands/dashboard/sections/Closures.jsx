/* Fermetures (docs/decisions.md 51): the days the studio is closed, with a label. Weekly series skip them, the public
   calendar shows them, and "Annuler les cours de la fermeture" cancels the classes still planned inside one as a class
   cancellation does (refunds, credits back, e-mails to the members: docs/decisions.md 27). */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import Modal from "../../../components/Modal.jsx";
import { formatDate } from "../format.js";
import { MSG_DELETE, MSG_FIELD_REQUIRED, MSG_FORM_INVALID, MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import ReasonForm from "../ReasonForm.jsx";

export const MSG_CLOSURES_LOAD = "Erreur lors de la récupération des fermetures.";
export const MSG_CLOSURE_ENDS_BEFORE_START = "Le dernier jour de la fermeture doit être le premier jour ou un jour après.";
export const MSG_CLOSURE_DELETED = "Fermeture supprimée. Les cours qu'elle a annulés restent annulés.";
export const MSG_CLOSURE_REASON_REQUIRED = "Indiquez le motif de l'annulation : il est envoyé aux inscrits.";
export const MSG_CLOSURE_CANCEL_FAILED = "L'annulation des cours de la fermeture a échoué. Veuillez réessayer.";
export const CLOSURE_CANCEL_HELP =
  "Chaque cours programmé pendant la fermeture est annulé comme une annulation de cours : paiements par carte remboursés intégralement, crédits rendus sur les cartes de cours, e-mail avec le motif à chaque inscrit. Les cours restent affichés « Annulé » dans le planning.";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function validateClosure(values) {
  const errors = {};
  if (!String(values.label || "").trim()) errors.label = MSG_FIELD_REQUIRED;
  if (!DAY.test(values.starts_on || "")) errors.starts_on = MSG_FIELD_REQUIRED;
  if (!DAY.test(values.ends_on || "")) errors.ends_on = MSG_FIELD_REQUIRED;
  if (!errors.starts_on && !errors.ends_on && values.ends_on < values.starts_on) errors.ends_on = MSG_CLOSURE_ENDS_BEFORE_START;
  return Object.keys(errors).length ? { message: MSG_FORM_INVALID, errors } : null;
}

/** "Annuler les cours de la fermeture": the reason, then the count of classes, bookings and refunds, kept in view. */
export function CancelClosureSessions({ closure, onDone }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError(MSG_CLOSURE_REASON_REQUIRED);
      return;
    }
    setBusy(true);
    setError("");
    try {
      const data = await api(`/api/closures/${closure.id}/cancel-sessions`, { method: "POST", body: { reason: reason.trim() } });
      setOpen(false);
      setDone(data.message);
      onDone?.(data);
    } catch (err) {
      setError(errorMessage(err, MSG_CLOSURE_CANCEL_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {closure.sessions_planned > 0 && (
        <button type="button" className="button button-small button-danger" onClick={() => setOpen(true)}>
          Annuler les cours de la fermeture<span className="visually-hidden"> {closure.label}</span>
        </button>
      )}
      {done && (
        <p className="form-success" role="status">
          {done}
        </p>
      )}
      {open && (
        <Modal open title={`Annuler les cours : ${closure.label}`} onClose={() => setOpen(false)}>
          <ReasonForm
            id={`closure-reason-${closure.id}`}
            reason={reason}
            onReason={setReason}
            error={error}
            busy={busy}
            onSubmit={submit}
            submitLabel="Confirmer l'annulation des cours"
          >
            <p>
              {closure.sessions_planned} cours programmé(s) du {formatDate(closure.starts_on)} au {formatDate(closure.ends_on)}.
            </p>
            <p>{CLOSURE_CANCEL_HELP}</p>
          </ReasonForm>
        </Modal>
      )}
    </>
  );
}

export const closuresConfig = {
  key: "closures",
  title: "Fermetures",
  noun: "une fermeture",
  endpoint: "/api/closures",
  itemPath: (row) => `/api/closures/${row.id}`,
  label: (row) => row.label,
  intro: "Les jours où le studio est fermé : les séries hebdomadaires n'y créent aucun cours et le planning public les affiche.",
  columns: [
    { key: "label", label: "Intitulé" },
    { key: "starts_on", label: "Du", render: (row) => formatDate(row.starts_on) },
    { key: "ends_on", label: "Au (inclus)", render: (row) => formatDate(row.ends_on) },
    { key: "sessions_planned", label: "Cours programmés" },
  ],
  rowActions: (row, ctx) => <CancelClosureSessions closure={row} onDone={ctx.reload} />,
  fields: () => [
    { name: "label", label: "Intitulé", required: true, help: "Affiché dans le planning : « Studio fermé : Vacances de Noël »." },
    { name: "starts_on", label: "Premier jour", type: "date", required: true },
    { name: "ends_on", label: "Dernier jour (inclus)", type: "date", required: true, help: "Le même jour que le premier pour une seule journée." },
  ],
  emptyValues: () => ({ label: "", starts_on: "", ends_on: "" }),
  toForm: (row) => ({ label: row.label, starts_on: row.starts_on, ends_on: row.ends_on }),
  toPayload: (values) => ({ label: values.label.trim(), starts_on: values.starts_on, ends_on: values.ends_on }),
  validate: validateClosure,
  savedMessage: (saved) => saved?.message,
  messages: { load: MSG_CLOSURES_LOAD, save: MSG_SAVE, delete: MSG_DELETE, deleted: MSG_CLOSURE_DELETED },
};

export default function Closures(props) {
  return <ResourceSection config={closuresConfig} {...props} />;
}
