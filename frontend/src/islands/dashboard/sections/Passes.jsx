/* Class cards and subscriptions: staff see every member's passes, grant one (from a tariff or by hand),
   add or remove credits and move the end date; each change needs a reason and shows in the pass's history. */
import { useState } from "react";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { formatDate, formatDateTime } from "../format.js";
import { MSG_FIELD_REQUIRED, MSG_FORM_INVALID, MSG_TARIFS_LOAD } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";

export const MSG_PASSES_LOAD = "Erreur lors du chargement des cartes et abonnements.";
export const MSG_HISTORY_LOAD = "Erreur lors du chargement de l'historique.";
export const MSG_PASS_GRANTED = "Carte attribuée avec succès !";
export const MSG_PASS_UPDATED = "Carte mise à jour avec succès !";
export const MSG_CREDITS_INTEGER = "Le nombre de crédits doit être un nombre entier.";

export const KIND_OPTIONS = [
  { value: "card", label: "Carte de cours" },
  { value: "subscription", label: "Abonnement (illimité)" },
];

const blank = (value) => value === undefined || value === null || String(value).trim() === "";

export function creditsText(row) {
  if (row.kind === "subscription") return "Illimité";
  return `${row.credits_left ?? 0} / ${row.credits_total ?? 0}`;
}

/** The browser's copy of the server's rules: a reason always; on grant a member's e-mail; whole credits. */
export function validatePass(values, mode) {
  const errors = {};
  if (blank(values.reason)) errors.reason = MSG_FIELD_REQUIRED;
  if (mode === "add" && blank(values.member_email)) errors.member_email = MSG_FIELD_REQUIRED;
  const credits = mode === "add" ? values.credits : values.credits_delta;
  if (!blank(credits) && !Number.isInteger(Number(credits))) errors[mode === "add" ? "credits" : "credits_delta"] = MSG_CREDITS_INTEGER;
  return Object.keys(errors).length ? { message: MSG_FORM_INVALID, errors } : null;
}

function HistoryButton({ row }) {
  const [open, setOpen] = useState(false);
  // Fetched again each time the dialog opens; closing it aborts the request.
  const { data: detail, error } = useApi(open ? `/api/passes/${row.id}` : null, { fallback: MSG_HISTORY_LOAD });
  const show = () => setOpen(true);
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={show}>
        Historique<span className="visually-hidden"> de la carte {row.id}</span>
      </button>
      {open && (
        <Modal open title={`Historique : ${row.title} – ${row.member_name || row.member_email}`} onClose={() => setOpen(false)}>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {!error && !detail && <p>Chargement…</p>}
          {detail && (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Mouvement</th>
                    <th scope="col">Crédits</th>
                    <th scope="col">Fin de validité</th>
                    <th scope="col">Raison</th>
                    <th scope="col">Par</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.adjustments.map((a) => (
                    <tr key={a.id}>
                      <td>{formatDateTime(a.at)}</td>
                      <td>
                        {a.action_label}
                        {a.reservation ? ` : ${a.reservation.title} du ${formatDateTime(a.reservation.date)}` : ""}
                      </td>
                      <td>{a.credits_delta > 0 ? `+${a.credits_delta}` : a.credits_delta || "—"}</td>
                      <td>{a.expires_on_after ? `${a.expires_on_before ? `${formatDate(a.expires_on_before)} → ` : ""}${formatDate(a.expires_on_after)}` : "—"}</td>
                      <td>{a.reason || "—"}</td>
                      <td>{a.by || "Automatique"}</td>
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

export const passesConfig = {
  key: "passes",
  title: "Cartes et abonnements",
  intro: "Les cartes de cours et abonnements des membres. Chaque modification est enregistrée avec sa raison.",
  noun: "une carte",
  endpoint: "/api/passes",
  itemPath: (row) => `/api/passes/${row.id}`,
  label: (row) => `la carte ${row.title} de ${row.member_name || row.member_email}`,
  serverPaged: true,
  defaultOrdering: "-created_at",
  searchable: "Rechercher (membre, e-mail ou offre)",
  canDelete: false,
  options: {
    tariffs: {
      endpoint: "/api/tarifs",
      error: MSG_TARIFS_LOAD,
      map: (rows) => rows.filter((t) => t.type !== "evenement").map((t) => ({ value: String(t.id), label: t.title })),
    },
  },
  columns: [
    { key: "member", label: "Membre", sort: "member", render: (row) => `${row.member_name || ""} (${row.member_email})`.trim() },
    { key: "title", label: "Offre", render: (row) => `${row.title} (${row.origin_label.toLowerCase()})` },
    { key: "credits", label: "Crédits", render: creditsText },
    { key: "expires_on", label: "Validité", sort: "expires_on", render: (row) => `${row.state_label} : du ${formatDate(row.starts_on)} au ${formatDate(row.expires_on)}` },
  ],
  rowActions: (row) => <HistoryButton row={row} />,
  fields: ({ mode, options, row }) =>
    mode === "add"
      ? [
          { name: "member_email", label: "E-mail du membre", type: "email", required: true },
          { name: "tariff_id", label: "Tarif (remplit crédits et validité)", type: "select", options: options.tariffs || [] },
          { name: "kind", label: "Type (sans tarif)", type: "select", options: KIND_OPTIONS },
          { name: "credits", label: "Crédits (carte)", type: "number", min: 1, step: 1 },
          { name: "starts_on", label: "Valable à partir du", type: "date" },
          { name: "expires_on", label: "Valable jusqu'au", type: "date", help: "Laisser vide avec un tarif : sa durée de validité s'applique." },
          { name: "reason", label: "Raison", type: "textarea", required: true },
        ]
      : [
          ...(row?.kind === "card"
            ? [{ name: "credits_delta", label: "Crédits à ajouter (négatif pour retirer)", type: "number", step: 1 }]
            : []),
          { name: "expires_on", label: "Valable jusqu'au", type: "date" },
          { name: "reason", label: "Raison", type: "textarea", required: true },
        ],
  emptyValues: () => ({ member_email: "", tariff_id: "", kind: "", credits: "", starts_on: "", expires_on: "", reason: "" }),
  toForm: (row) => ({ credits_delta: "", expires_on: row.expires_on || "", reason: "" }),
  toPayload: (values, mode) => {
    if (mode === "add") {
      return {
        member_email: values.member_email.trim(),
        tariff_id: values.tariff_id ? Number(values.tariff_id) : null,
        kind: values.kind,
        credits: blank(values.credits) ? null : Number(values.credits),
        starts_on: values.starts_on,
        expires_on: values.expires_on,
        reason: values.reason.trim(),
      };
    }
    return { credits_delta: blank(values.credits_delta) ? null : Number(values.credits_delta), expires_on: values.expires_on, reason: values.reason.trim() };
  },
  validate: validatePass,
  messages: { load: MSG_PASSES_LOAD, added: MSG_PASS_GRANTED, updated: MSG_PASS_UPDATED },
};

export default function Passes(props) {
  return <ResourceSection config={passesConfig} {...props} />;
}
