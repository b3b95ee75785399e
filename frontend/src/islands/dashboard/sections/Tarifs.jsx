/* Tarifs: title, price (a number) and type required, the rest optional; what a tariff grants,
   with its weekly cap (docs/decisions.md 26: "Un cours par semaine" is a cap of 1, 0 = unlimited). */
import { formatMoney } from "../format.js";
import { MSG_DELETE, MSG_SAVE, MSG_TARIFS_LOAD, WEEKLY_CAP_MAX } from "../messages.js";
import { TARIF_TYPE_OPTIONS, tarifTypeLabel } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateTarif } from "../validation.js";

const TEXT_FIELDS = ["title", "description", "frequency", "validity", "conditions", "details"];

function weeklyCapText(row) {
  if (row.pass_weekly_cap) return String(row.pass_weekly_cap);
  return row.pass_unlimited ? "Illimité" : "";
}

export const tarifsConfig = {
  key: "tarifs",
  title: "Tarifs",
  noun: "un tarif",
  endpoint: "/api/tarifs",
  itemPath: (row) => `/api/tarifs/${row.id}`,
  label: (row) => row.title,
  columns: [
    { key: "title", label: "Titre" },
    { key: "type", label: "Type", render: (row) => tarifTypeLabel(row.type) },
    { key: "price", label: "Prix", render: (row) => formatMoney(row.price) },
    { key: "frequency", label: "Fréquence" },
    { key: "validity", label: "Validité" },
    { key: "pass_weekly_cap", label: "Cours / semaine", render: weeklyCapText },
  ],
  fields: () => [
    { name: "type", label: "Type", type: "select", required: true, options: TARIF_TYPE_OPTIONS },
    { name: "title", label: "Titre", required: true },
    { name: "price", label: "Prix (€)", type: "number", min: 0, step: "0.01", required: true },
    { name: "description", label: "Description", type: "textarea" },
    { name: "frequency", label: "Fréquence" },
    { name: "validity", label: "Validité" },
    { name: "reduction_percentage", label: "Réduction (%)", type: "number", min: 0, step: "0.01" },
    { name: "conditions", label: "Conditions", type: "textarea" },
    { name: "details", label: "Détails", type: "textarea" },
    { name: "pass_credits", label: "Crédits de cours accordés (carte)", type: "number", min: 0, step: "1" },
    { name: "pass_validity_months", label: "Durée de la carte ou de l'abonnement (mois)", type: "number", min: 0, step: "1" },
    { name: "pass_unlimited", label: "Abonnement (sans crédits de cours)", type: "checkbox" },
    {
      name: "pass_weekly_cap",
      label: "Cours par semaine (0 = illimité)",
      type: "number",
      min: 0,
      max: WEEKLY_CAP_MAX,
      step: "1",
      help: "Au plus ce nombre de cours par semaine (du lundi au dimanche) avec la carte ou l'abonnement vendu ensuite. « Un cours par semaine » : 1.",
    },
    {
      name: "max_future_bookings",
      label: "Réservations à venir au plus (0 = illimité)",
      type: "number",
      min: 0,
      max: 100,
      step: "1",
      help: "Nombre de réservations à venir qu'un membre peut détenir à la fois avec ce tarif (cartes déjà vendues comprises).",
    },
  ],
  emptyValues: () => ({ type: "cours", title: "", price: "", description: "", frequency: "", validity: "", reduction_percentage: "", conditions: "", details: "", pass_credits: "0", pass_validity_months: "0", pass_unlimited: false, pass_weekly_cap: "0", max_future_bookings: "0" }),
  toForm: (row) => ({
    ...Object.fromEntries(TEXT_FIELDS.map((name) => [name, row[name] ?? ""])),
    type: row.type || "",
    price: String(row.price ?? ""),
    reduction_percentage: row.reduction_percentage === null || row.reduction_percentage === undefined ? "" : String(row.reduction_percentage),
    pass_credits: String(row.pass_credits ?? 0),
    pass_validity_months: String(row.pass_validity_months ?? 0),
    pass_unlimited: Boolean(row.pass_unlimited),
    pass_weekly_cap: String(row.pass_weekly_cap ?? 0),
    max_future_bookings: String(row.max_future_bookings ?? 0),
  }),
  toPayload: (values) => ({
    ...Object.fromEntries(TEXT_FIELDS.map((name) => [name, values[name]])),
    type: values.type,
    price: String(values.price).replace(",", "."),
    reduction_percentage: values.reduction_percentage === "" ? null : values.reduction_percentage,
    pass_credits: Number(values.pass_credits || 0),
    pass_validity_months: Number(values.pass_validity_months || 0),
    pass_unlimited: Boolean(values.pass_unlimited),
    pass_weekly_cap: Number(String(values.pass_weekly_cap ?? "").trim() || 0),
    max_future_bookings: Number(String(values.max_future_bookings ?? "").trim() || 0),
  }),
  validate: validateTarif,
  messages: { load: MSG_TARIFS_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Tarifs(props) {
  return <ResourceSection config={tarifsConfig} {...props} />;
}
