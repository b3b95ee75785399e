/* Tarifs: title, price (a number) and type required, the rest optional; every rule the passes it sells apply
   (docs/decisions.md 26, 51): classes included, validity, weekly cap ("Un cours par semaine" is a cap of 1, 0 =
   unlimited), future bookings, commitment, reduced rate, pause allowance, courses covered, and the "offre
   découverte" flag (sold once per person, docs/decisions.md 60). Read and saved through
   /api/tariff-rules, which writes the tariff and its subscription plan at once. */
import { formatMoney } from "../format.js";
import { MSG_DELETE, MSG_FORM_INVALID, MSG_SAVE, MSG_TARIFS_LOAD, WEEKLY_CAP_MAX } from "../messages.js";
import { TARIF_TYPE_OPTIONS, tarifTypeLabel } from "../options.js";
import ResourceSection from "../ResourceSection.jsx";
import { validateTarif } from "../validation.js";
import TariffCourses from "./TariffCourses.jsx";
import {
  COMMITMENT_MAX,
  MSG_COURSES_LOAD,
  PAUSE_WEEKS_DEFAULT,
  PAUSE_WEEKS_MAX,
  REDUCED_RATE_OPTIONS,
  reducedRateToForm,
  reducedRateToPayload,
  tariffRuleErrors,
  wholeNumber,
} from "./tariffRules.js";

export const DISCOVERY_LABEL = "Offre découverte";

const TEXT_FIELDS = ["title", "description", "frequency", "validity", "conditions", "details"];

function weeklyCapText(row) {
  if (row.pass_weekly_cap) return String(row.pass_weekly_cap);
  return row.pass_unlimited ? "Illimité" : "";
}

function validateTariffRules(values) {
  const invalid = validateTarif(values);
  const errors = { ...tariffRuleErrors(values), ...(invalid?.errors || {}) };
  return Object.keys(errors).length ? { message: invalid?.message || MSG_FORM_INVALID, errors } : null;
}

export const tarifsConfig = {
  key: "tarifs",
  title: "Tarifs",
  noun: "un tarif",
  endpoint: "/api/tariff-rules",
  itemPath: (row) => `/api/tariff-rules/${row.id}`,
  options: {
    courses: { endpoint: "/api/courses", error: MSG_COURSES_LOAD, map: (rows) => rows.map((c) => ({ value: c.id, label: c.title })) },
  },
  label: (row) => row.title,
  columns: [
    { key: "title", label: "Titre", render: (row) => (row.discovery_offer ? `${row.title} (${DISCOVERY_LABEL})` : row.title) },
    { key: "type", label: "Type", render: (row) => tarifTypeLabel(row.type) },
    { key: "price", label: "Prix", render: (row) => formatMoney(row.price) },
    { key: "frequency", label: "Fréquence" },
    { key: "validity", label: "Validité" },
    { key: "pass_weekly_cap", label: "Cours / semaine", render: weeklyCapText },
  ],
  fields: ({ options = {} } = {}) => [
    { name: "type", label: "Type", type: "select", required: true, options: TARIF_TYPE_OPTIONS },
    { name: "title", label: "Titre", required: true },
    { name: "price", label: "Prix (€)", type: "number", min: 0, step: "0.01", required: true },
    { name: "description", label: "Description", type: "textarea" },
    { name: "frequency", label: "Fréquence" },
    { name: "validity", label: "Validité" },
    { name: "reduction_percentage", label: "Réduction (%)", type: "number", min: 0, step: "0.01" },
    { name: "conditions", label: "Conditions", type: "textarea" },
    { name: "details", label: "Détails", type: "textarea" },
    {
      name: "pass_credits",
      label: "Cours inclus (carte)",
      type: "number",
      min: 0,
      max: 500,
      step: "1",
      help: "Nombre de cours de la carte vendue, un par participant réservé ; 0 pour un abonnement.",
    },
    {
      name: "pass_validity_months",
      label: "Durée de la carte ou de l'abonnement (mois)",
      type: "number",
      min: 0,
      max: 60,
      step: "1",
      help: "La carte ou l'abonnement réserve les cours de ce nombre de mois à partir de l'achat.",
    },
    {
      name: "pass_unlimited",
      label: "Abonnement (sans crédits de cours)",
      type: "checkbox",
      help: "Coché : le membre réserve sans décompter de cours, seul (un participant), dans les limites ci-dessous.",
    },
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
    {
      name: "commitment_periods",
      label: "Engagement (périodes, 0 = toute la durée)",
      type: "number",
      min: 0,
      max: COMMITMENT_MAX,
      step: "1",
      help: "Un abonnement payé par période (« par mois ») engage le membre pour ce nombre de périodes ; 0 : autant de périodes que la validité en contient.",
    },
    {
      name: "reduced_rate",
      label: "Tarif réduit",
      type: "select",
      options: REDUCED_RATE_OPTIONS,
      help: "Tarif étudiant ou demandeur d'emploi : le membre déclare sa situation à l'achat. « — Choisir — » : déduit du titre.",
    },
    {
      name: "pause_weeks_per_year",
      label: "Semaines de suspension par an",
      type: "number",
      min: 0,
      max: PAUSE_WEEKS_MAX,
      step: "1",
      help: "Semaines par année d'abonnement que le membre peut suspendre lui-même depuis son profil ; 0 : aucune.",
    },
    {
      name: "discovery_offer",
      label: DISCOVERY_LABEL,
      type: "checkbox",
      help: "Vendue une seule fois par personne : un même compte, une même adresse e-mail ou un même téléphone ne l'achète qu'une fois.",
    },
    {
      name: "covered_course_ids",
      label: "Cours couverts",
      component: TariffCourses,
      courses: options.courses || [],
      help: "Les cours que la carte ou l'abonnement permet de réserver (cartes déjà vendues comprises) ; aucun coché : tous les cours.",
    },
  ],
  emptyValues: () => ({ type: "cours", title: "", price: "", description: "", frequency: "", validity: "", reduction_percentage: "", conditions: "", details: "", pass_credits: "0", pass_validity_months: "0", pass_unlimited: false, pass_weekly_cap: "0", max_future_bookings: "0", commitment_periods: "0", reduced_rate: "", pause_weeks_per_year: String(PAUSE_WEEKS_DEFAULT), covered_course_ids: [], discovery_offer: false }),
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
    commitment_periods: String(row.commitment_periods ?? 0),
    reduced_rate: reducedRateToForm(row.reduced_rate),
    pause_weeks_per_year: String(row.pause_weeks_per_year ?? PAUSE_WEEKS_DEFAULT),
    covered_course_ids: [...(row.covered_course_ids || [])],
    discovery_offer: Boolean(row.discovery_offer),
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
    commitment_periods: wholeNumber(values.commitment_periods),
    reduced_rate: reducedRateToPayload(values.reduced_rate),
    pause_weeks_per_year: wholeNumber(values.pause_weeks_per_year, PAUSE_WEEKS_DEFAULT),
    covered_course_ids: [...(values.covered_course_ids || [])],
    discovery_offer: Boolean(values.discovery_offer),
  }),
  validate: validateTariffRules,
  messages: { load: MSG_TARIFS_LOAD, save: MSG_SAVE, delete: MSG_DELETE },
};

export default function Tarifs(props) {
  return <ResourceSection config={tarifsConfig} {...props} />;
}
