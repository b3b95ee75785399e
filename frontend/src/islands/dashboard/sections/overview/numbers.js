/* French numbers for the overview: counts "1 234", percentages "87 %", euros "1 234,50 €", the change
   against the previous period, and the labels of weeks, months and weekdays. */
import { euros, formatter } from "../../../../components/format.js";

const COUNT = formatter(() => new Intl.NumberFormat("fr-FR"));
const PERCENT = formatter(() => new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 0 }));
const WEEK_LABEL = formatter(() => new Intl.DateTimeFormat("fr-FR", { timeZone: "UTC", day: "numeric", month: "short" }));
const MONTH_LABEL = formatter(() => new Intl.DateTimeFormat("fr-FR", { timeZone: "UTC", month: "long", year: "numeric" }));
const DAY_LABEL = formatter(() => new Intl.DateTimeFormat("fr-FR", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" }));
export const WEEKDAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"];
export const WEEKDAYS_SHORT = ["lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."];

export const formatCount = (value) => COUNT().format(Number(value) || 0);
export const formatPercent = (value) => (value === null || value === undefined ? "—" : PERCENT().format(Number(value)));
export const formatEuros = (value) => (value === null || value === undefined ? "—" : euros(value));

function utc(day) {
  const [y, m, d] = String(day).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/** "2026-03-23" → "sem. du 23 mars" (week) or "mars 2026" (month). */
export function bucketLabel(start, bucket) {
  return bucket === "week" ? `sem. du ${WEEK_LABEL().format(utc(start))}` : MONTH_LABEL().format(utc(start));
}

/** "2026-03-01" → "1 mars 2026". */
export const formatDay = (day) => DAY_LABEL().format(utc(day));

/** The change against the previous period: {direction: "up"|"down"|"same"|"new", text}. Amounts are compared in
    cents (never floats of euros). */
export function change(current, previous) {
  const now = Math.round(Number(current) * 100);
  const before = Math.round(Number(previous) * 100);
  if (now === before) return { direction: "same", text: "stable" };
  if (!before) return { direction: "new", text: "nouveau" };
  const ratio = (now - before) / Math.abs(before);
  const text = `${ratio > 0 ? "+" : "−"}${PERCENT().format(Math.abs(ratio))}`;
  return { direction: ratio > 0 ? "up" : "down", text };
}

/** The change of a rate (0–1) in percentage points: "+5 pts". */
export function pointChange(current, previous) {
  if (current === null || current === undefined || previous === null || previous === undefined) return { direction: "new", text: "—" };
  const points = Math.round((Number(current) - Number(previous)) * 100);
  if (!points) return { direction: "same", text: "stable" };
  return { direction: points > 0 ? "up" : "down", text: `${points > 0 ? "+" : "−"}${Math.abs(points)} pt${Math.abs(points) > 1 ? "s" : ""}` };
}

/** "1 remboursement", "0 remboursement", "3 remboursements": French takes the singular up to 1. */
export function plural(count, one, many) {
  return `${formatCount(count)} ${Math.abs(Number(count) || 0) <= 1 ? one : many}`;
}
