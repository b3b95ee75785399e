/* Dates and money for the dashboard tables and forms. The server renders datetimes in Europe/Paris. */
import { euros } from "../../components/format.js";

const NAIVE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/;

/** '2026-03-01T18:30:00+01:00' -> '2026-03-01T18:30' for <input type="datetime-local">. */
export function toInputDateTime(value) {
  const match = value && String(value).match(NAIVE);
  return match ? `${match[1]}T${match[2]}` : "";
}

/** '2026-03-01T18:30' -> '2026-03-01 18:30:00' (the session payload's date format). */
export function toApiDateTime(value) {
  const match = value && String(value).match(NAIVE);
  return match ? `${match[1]} ${match[2]}${match[3] || ":00"}` : "";
}

// Display goes through the shared French formatter: "10/03/2031 18:30", "10/03/2031", "25,00 €".
export { formatDate, formatDateTime } from "../../components/format.js";

export function formatMoney(value, currency = "EUR") {
  if (value === null || value === undefined || value === "") return "";
  if (currency === "EUR") return euros(value);
  const amount = Number(value);
  if (!Number.isFinite(amount)) return String(value);
  return new Intl.NumberFormat("fr-FR", { style: "currency", currency }).format(amount);
}

/* The codes the APIs answer, in French. Every list shows a code through choiceLabel(), never as it came: the
   orders' statuses are payments.models.PaymentStatus (labels copied from there); the orders' types are written by
   payments/services (orders.py: "COURS" or the tariff's type in capitals, deposits.py: "ACOMPTE_EVJF" and
   "ACOMPTE_LOCATION", subscriptions/services/paypal.py: "ABONNEMENT_PAYPAL", gift_card_orders.py: "CARTE_CADEAU", the
   model's default "UNKNOWN"). */
export const ORDER_STATUS_LABELS = {
  CREATED: "Créée",
  APPROVED: "Approuvée",
  COMPLETED: "Payée",
  DECLINED: "Refusée",
  VOIDED: "Annulée",
  REFUND_PENDING: "Remboursement en cours",
  REFUNDED: "Remboursée",
};

export const ORDER_TYPE_LABELS = {
  COURS: "Cours",
  ABONNEMENT: "Abonnement",
  FORFAIT: "Forfait",
  EVENEMENT: "Événement",
  ACOMPTE_EVJF: "Acompte EVJF",
  ACOMPTE_LOCATION: "Acompte location de salle",
  ABONNEMENT_PAYPAL: "Abonnement PayPal",
  CARTE_CADEAU: "Carte cadeau",
  UNKNOWN: "Non précisé",
};

// Words a code may hold that stay in capitals once spelled out ("ACOMPTE_EVG" → "Acompte EVG").
const ACRONYMS = new Set(["EVJF", "EVG", "PAYPAL", "SEPA", "ANCV", "CB", "PDF"]);
const ACRONYM_SPELLING = { PAYPAL: "PayPal" };

/** A code the lists do not know yet, spelled out rather than shown raw: "ACOMPTE_STAGE" → "Acompte stage". */
export function spellCode(code) {
  const words = String(code ?? "").trim().split(/[_\s]+/).filter(Boolean);
  return words
    .map((word, i) => {
      const upper = word.toUpperCase();
      if (ACRONYMS.has(upper)) return ACRONYM_SPELLING[upper] || upper;
      const lower = word.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(" ");
}

/** The French label of a code from one of the tables above (case-insensitive), else the code spelled out. */
export function choiceLabel(labels, code) {
  if (code === null || code === undefined || code === "") return "";
  return labels[String(code).toUpperCase()] ?? spellCode(code);
}

export const orderStatusLabel = (code) => choiceLabel(ORDER_STATUS_LABELS, code);
export const orderTypeLabel = (code) => choiceLabel(ORDER_TYPE_LABELS, code);

/** A day and a time as typed or stored ("2026-03-10", "18:30:00") → "10/03/2026 18:30"; text that is no date stays. */
export function formatDayAndTime(day, time) {
  const iso = String(day ?? "").match(/^(\d{4})-(\d{2})-(\d{2})$/);
  const shownDay = iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : String(day ?? "").trim();
  const clock = String(time ?? "").match(/^(\d{1,2})[:h](\d{2})/);
  const shownTime = clock ? `${clock[1].padStart(2, "0")}:${clock[2]}` : String(time ?? "").trim();
  return [shownDay, shownTime].filter(Boolean).join(" ");
}
