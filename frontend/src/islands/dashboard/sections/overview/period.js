/* The overview's periods, in Paris days "YYYY-MM-DD": each runs up to today, so that it compares with
   the previous period of the same length on what has happened. The season starts on 1 September. */
import { TIME_ZONE } from "../../../../components/format.js";

export const PERIODS = [
  { value: "week", label: "Cette semaine" },
  { value: "month", label: "Ce mois" },
  { value: "30days", label: "30 derniers jours" },
  { value: "season", label: "Cette saison" },
  { value: "custom", label: "Personnalisée" },
];
export const DEFAULT_PERIOD = "month";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today in Paris, "2026-03-29", whatever the browser's own time zone. */
export function parisToday(now = new Date()) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

function toUtc(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

function fromUtc(date) {
  return date.toISOString().slice(0, 10);
}

export function addDays(day, days) {
  const date = toUtc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return fromUtc(date);
}

/** Days from `from` to `to`, both included. */
export function dayCount(from, to) {
  return Math.round((toUtc(to) - toUtc(from)) / 86400000) + 1;
}

/** {from, to} of a named period ending today; null for "custom". */
export function periodRange(period, today) {
  const [y, m] = today.split("-").map(Number);
  switch (period) {
    case "week":
      return { from: addDays(today, -((toUtc(today).getUTCDay() + 6) % 7)), to: today };
    case "month":
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case "30days":
      return { from: addDays(today, -29), to: today };
    case "season":
      return { from: `${m >= 9 ? y : y - 1}-09-01`, to: today };
    default:
      return null;
  }
}

/** The previous period of the same length (as the server computes it). */
export function previousRange({ from, to }) {
  const length = dayCount(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** The period the address names (?period=…&from=…&to=…), the month by default. */
export function periodFromSearch(search, today) {
  const params = new URLSearchParams(search || "");
  const period = PERIODS.some((p) => p.value === params.get("period")) ? params.get("period") : DEFAULT_PERIOD;
  if (period === "custom") {
    const from = params.get("from") || "";
    const to = params.get("to") || "";
    if (DAY.test(from) && DAY.test(to)) return { period, from, to };
    return { period, ...periodRange(DEFAULT_PERIOD, today) };
  }
  return { period, ...periodRange(period, today) };
}

export function writePeriodToAddress({ period, from, to }) {
  if (typeof window === "undefined") return;
  const params = new URLSearchParams(window.location.search);
  params.set("period", period);
  if (period === "custom") {
    params.set("from", from);
    params.set("to", to);
  } else {
    params.delete("from");
    params.delete("to");
  }
  window.history.replaceState(window.history.state, "", `${window.location.pathname}?${params}`);
}

export function statsUrl({ from, to }) {
  return `/api/dashboard/stats?${new URLSearchParams({ from, to })}`;
}
