/* The rules a tariff's passes apply (docs/decisions.md 51), as the tariff form checks them before sending; the server
   checks them again with the same French messages (courses.services.catalogue, payments' tariff_rules API). */
export const MSG_COMMITMENT_INVALID = "Le nombre de périodes d'engagement est un nombre entier de 0 (la durée de validité) à 120.";
export const MSG_PAUSE_WEEKS_INVALID = "Le nombre de semaines de suspension par an est un nombre entier de 0 (aucune) à 52.";
export const MSG_FUTURE_CAP_INVALID = "Le nombre de réservations à venir est un nombre entier de 0 (illimité) à 100.";
export const MSG_CREDITS_INVALID = "Le nombre de cours inclus est un nombre entier de 0 à 500.";
export const MSG_VALIDITY_INVALID = "La validité est un nombre entier de mois de 0 à 60.";
export const MSG_COURSES_LOAD = "Erreur lors de la récupération des cours.";

export const COMMITMENT_MAX = 120;
export const PAUSE_WEEKS_MAX = 52;
export const PAUSE_WEEKS_DEFAULT = 4;

export const REDUCED_RATE_OPTIONS = [
  { value: "true", label: "Oui : le membre justifie sa situation à l'achat" },
  { value: "false", label: "Non" },
];

const WHOLE = /^\d+$/;

function wholeUpTo(value, max) {
  const text = String(value ?? "").trim();
  return text === "" || (WHOLE.test(text) && Number(text) <= max);
}

/** The errors of the rule fields (field name → French message), empty when they pass. */
export function tariffRuleErrors(values) {
  const errors = {};
  if (!wholeUpTo(values.pass_credits, 500)) errors.pass_credits = MSG_CREDITS_INVALID;
  if (!wholeUpTo(values.pass_validity_months, 60)) errors.pass_validity_months = MSG_VALIDITY_INVALID;
  if (!wholeUpTo(values.max_future_bookings, 100)) errors.max_future_bookings = MSG_FUTURE_CAP_INVALID;
  if (!wholeUpTo(values.commitment_periods, COMMITMENT_MAX)) errors.commitment_periods = MSG_COMMITMENT_INVALID;
  if (!wholeUpTo(values.pause_weeks_per_year, PAUSE_WEEKS_MAX)) errors.pause_weeks_per_year = MSG_PAUSE_WEEKS_INVALID;
  return errors;
}

export const wholeNumber = (value, fallback = 0) => {
  const text = String(value ?? "").trim();
  return text === "" ? fallback : Number(text);
};

export const reducedRateToForm = (value) => (value === true ? "true" : value === false ? "false" : "");
export const reducedRateToPayload = (value) => (value === "true" ? true : value === "false" ? false : null);
