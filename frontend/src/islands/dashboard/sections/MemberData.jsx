/* On a member's request (docs/decisions.md 34, 37), staff download everything held about them (JSON) or delete
   their account: personal data erased, future bookings cancelled, accounting records kept. Members only; the
   server refuses the rest. */
import { useState } from "react";
import { api } from "../../../components/api.js";
import ConfirmDialog from "../ConfirmDialog.jsx";

export const MSG_ERASE_FAILED = "Le compte n'a pas pu être supprimé. Veuillez réessayer.";

export const memberExportUrl = (row) => `/api/users/${row.id}/export`;
export const memberEraseUrl = (row) => `/api/users/${row.id}/erase`;

export function eraseQuestion(row) {
  const who = `${row.first_name || ""} ${row.last_name || ""}`.trim() || row.email;
  return (
    `Supprimer le compte de ${who} à sa demande ? Ses données personnelles seront effacées et ses réservations ` +
    "à venir annulées ; ses paiements et factures restent dans la comptabilité. C'est définitif."
  );
}

export default function MemberDataActions({ row, onDone }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  if (row.role !== "user") return null;
  const who = `${row.first_name || ""} ${row.last_name || ""}`.trim() || row.email;
  const erase = async () => {
    setBusy(true);
    setError("");
    try {
      const data = await api(memberEraseUrl(row), { method: "POST" });
      setOpen(false);
      setNotice(data.message);
      onDone?.(data.message);
    } catch (failure) {
      setError(failure.message && failure.status > 0 ? failure.message : MSG_ERASE_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <a className="button button-small button-secondary" href={memberExportUrl(row)} download>
        Données<span className="visually-hidden"> de {who} (JSON)</span>
      </a>
      <button type="button" className="button button-small button-danger" onClick={() => setOpen(true)}>
        Effacer à sa demande (RGPD)<span className="visually-hidden"> le compte de {who}</span>
      </button>
      {notice && (
        <span className="form-success" role="status">
          {notice}
        </span>
      )}
      <ConfirmDialog
        open={open}
        question={eraseQuestion(row)}
        busy={busy}
        error={error}
        onConfirm={erase}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
