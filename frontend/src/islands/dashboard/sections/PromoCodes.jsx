/* Promo codes (docs/decisions.md 49, 56): list, add, edit, delete. A percentage or an amount off, between two dates,
   at most N uses in all and M per member; the uses counted are the orders paid with it; on the tariffs checked
   (none checked: every purchase). */
import { MSG_DELETE, MSG_SAVE } from "../messages.js";
import ResourceSection from "../ResourceSection.jsx";
import ChoiceChecks from "./ChoiceChecks.jsx";

export const MSG_PROMO_LOAD = "Erreur lors du chargement des codes promo.";
export const MSG_PROMO_CODE_REQUIRED = "Le code est obligatoire.";
export const MSG_PROMO_VALUE_REQUIRED = "La valeur de la remise est obligatoire.";
export const MSG_PROMO_TARIFFS_LOAD = "Erreur lors du chargement des tarifs.";
export const PROMO_NO_TARIFF = "Aucun tarif pour l'instant : le code vaut pour tous les achats.";

const KINDS = [
  { value: "percent", label: "Pourcentage" },
  { value: "amount", label: "Montant (€)" },
];

function limit(value) {
  const text = String(value ?? "").trim();
  return text === "" ? null : Number(text);
}

export function validatePromo(values) {
  const errors = {};
  if (!values.code.trim()) errors.code = MSG_PROMO_CODE_REQUIRED;
  if (!String(values.value).trim()) errors.value = MSG_PROMO_VALUE_REQUIRED;
  return errors;
}

export function tariffsText(row, choices = []) {
  if (!row.tariffs?.length) return "Tous";
  const titles = new Map(choices.map((choice) => [choice.value, choice.label]));
  return row.tariffs.map((id) => titles.get(id) || `#${id}`).join(", ");
}

function valueText(row) {
  return row.kind === "percent" ? `${Number(row.value)} %` : `${String(row.value).replace(".", ",")} €`;
}

export const promoCodesConfig = {
  key: "promo-codes",
  title: "Codes promo",
  noun: "un code promo",
  endpoint: "/api/promo-codes",
  itemPath: (row) => `/api/promo-codes/${row.id}`,
  options: {
    tariffs: { endpoint: "/api/tarifs", error: MSG_PROMO_TARIFFS_LOAD, map: (rows) => rows.map((t) => ({ value: t.id, label: t.title })) },
  },
  label: (row) => row.code,
  columns: [
    { key: "code", label: "Code" },
    { key: "value", label: "Remise", render: valueText },
    { key: "tariffs", label: "Tarifs", render: (row, ctx) => tariffsText(row, ctx?.options?.tariffs) },
    { key: "dates", label: "Validité", render: (row) => [row.starts_on, row.ends_on].filter(Boolean).join(" → ") || "Toujours" },
    { key: "uses_count", label: "Utilisations", render: (row) => (row.max_uses ? `${row.uses_count} / ${row.max_uses}` : String(row.uses_count)) },
    { key: "active", label: "Actif", render: (row) => (row.active ? "Oui" : "Non") },
  ],
  fields: ({ options = {} } = {}) => [
    { name: "code", label: "Code", required: true },
    { name: "label", label: "Libellé (facultatif)" },
    { name: "kind", label: "Type de remise", type: "select", required: true, noEmpty: true, options: KINDS },
    { name: "value", label: "Valeur (% ou €)", type: "number", required: true, min: 0.01, step: 0.01, inputMode: "decimal" },
    { name: "starts_on", label: "Valable du", type: "date" },
    { name: "ends_on", label: "Valable jusqu'au", type: "date" },
    { name: "max_uses", label: "Utilisations au total (vide : sans limite)", type: "number", min: 1, step: 1 },
    { name: "max_uses_per_member", label: "Utilisations par membre (vide : sans limite)", type: "number", min: 1, step: 1 },
    { name: "active", label: "Actif", type: "checkbox" },
    {
      name: "tariffs",
      label: "Tarifs couverts",
      component: ChoiceChecks,
      choices: options.tariffs || [],
      emptyText: PROMO_NO_TARIFF,
      help: "Le code ne vaut que pour les tarifs cochés ; aucun coché : tous les achats.",
    },
  ],
  emptyValues: () => ({ code: "", label: "", kind: "percent", value: "", starts_on: "", ends_on: "", max_uses: "", max_uses_per_member: "1", active: true, tariffs: [] }),
  toForm: (row) => ({
    code: row.code,
    label: row.label || "",
    kind: row.kind,
    value: String(row.value),
    starts_on: row.starts_on || "",
    ends_on: row.ends_on || "",
    max_uses: row.max_uses ?? "",
    max_uses_per_member: row.max_uses_per_member ?? "",
    active: row.active,
    tariffs: [...(row.tariffs || [])],
  }),
  toPayload: (values) => ({
    code: values.code.trim(),
    label: values.label.trim(),
    kind: values.kind,
    value: Number(values.value).toFixed(2),
    starts_on: values.starts_on || null,
    ends_on: values.ends_on || null,
    max_uses: limit(values.max_uses),
    max_uses_per_member: limit(values.max_uses_per_member),
    active: Boolean(values.active),
    tariffs: [...(values.tariffs || [])].sort((a, b) => a - b),
  }),
  validate: validatePromo,
  messages: { load: MSG_PROMO_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function PromoCodes(props) {
  return <ResourceSection config={promoCodesConfig} {...props} />;
}
