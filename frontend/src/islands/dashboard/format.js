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
