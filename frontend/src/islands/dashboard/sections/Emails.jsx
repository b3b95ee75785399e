/* Undelivered e-mails (docs/decisions.md 41): what the mail server did not accept, still being retried or given up
   after the last attempt; staff put a mail back in the queue with "Renvoyer". */
import { useState } from "react";
import { api } from "../../../components/api.js";
import { formatDateTime } from "../format.js";
import ResourceSection from "../ResourceSection.jsx";

export const MSG_EMAILS_LOAD = "Erreur lors du chargement des e-mails non remis.";
export const MSG_RESEND_FAILED = "L'e-mail n'a pas pu être remis en file d'envoi.";

export function ResendButton({ row, onDone }) {
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      const data = await api(`/api/emails/${row.id}/resend`, { method: "POST" });
      onDone({ text: data.message, error: false });
    } catch (error) {
      onDone({ text: error.message && error.status > 0 ? error.message : MSG_RESEND_FAILED, error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button button-small" onClick={resend} disabled={busy} aria-busy={busy}>
      Renvoyer<span className="visually-hidden"> l'e-mail « {row.subject} »</span>
    </button>
  );
}

export function emailsConfig(onDone) {
  return {
    key: "emails",
    title: "E-mails non remis",
    intro:
      "Les e-mails que le serveur de messagerie n'a pas acceptés : en attente d'une nouvelle tentative, ou abandonnés " +
      "après la dernière. « Renvoyer » les remet en file d'envoi.",
    endpoint: "/api/emails/undelivered",
    label: (row) => `l'e-mail ${row.id}`,
    serverPaged: true,
    canDelete: false,
    columns: [
      { key: "created_at", label: "Créé le", render: (row) => formatDateTime(row.created_at) },
      { key: "to", label: "Destinataire", render: (row) => (row.to || []).join(", ") },
      { key: "subject", label: "Objet" },
      { key: "status", label: "Statut", render: (row) => row.status_label },
      { key: "attempts", label: "Tentatives" },
      { key: "last_error", label: "Dernière erreur", render: (row) => <span className="dash-clip">{row.last_error}</span> },
    ],
    rowActions: (row) => <ResendButton row={row} onDone={onDone} />,
    messages: { load: MSG_EMAILS_LOAD },
  };
}

export default function Emails(props) {
  const [notice, setNotice] = useState(null);
  const [version, setVersion] = useState(0);
  const [config] = useState(() =>
    emailsConfig((result) => {
      setNotice(result);
      if (!result.error) setVersion((v) => v + 1); // the resent mail leaves the list
    })
  );
  return (
    <>
      {notice && (
        <p className={notice.error ? "form-error" : "form-success"} role={notice.error ? "alert" : "status"}>
          {notice.text}
        </p>
      )}
      <ResourceSection key={version} config={config} {...props} />
    </>
  );
}
