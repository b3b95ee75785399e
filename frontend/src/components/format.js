/* One French formatting of money, dates and times for every island: Intl with fr-FR, shown in
   Europe/Paris whatever the visitor's own time zone. The server's templates use the same shapes
   (studio/templatetags/formatting.py): "25,00 €", "lundi 10 mars 2031", "18:30", "10/03/2031 18:30". */
export const TIME_ZONE = "Europe/Paris";
const LOCALE = "fr-FR";

/** A formatter made on first use, then kept: building an Intl formatter with a time zone loads the browser's locale
    and zone data, tens of milliseconds of a phone's main thread, which an island that has not shown a date yet
    (or never does) should not spend before its first paint. */
export function formatter(make) {
  let made = null;
  return () => (made ??= make());
}

const MONEY = formatter(() => new Intl.NumberFormat(LOCALE, { style: "currency", currency: "EUR", minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const LONG_DATE = formatter(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, weekday: "long", day: "numeric", month: "long", year: "numeric" }));
const SHORT_DATE = formatter(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, weekday: "short", day: "numeric", month: "long", year: "numeric" }));
const NUMERIC_DATE = formatter(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: "2-digit", month: "2-digit", year: "numeric" }));
const TIME = formatter(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, hour: "2-digit", minute: "2-digit", hour12: false }));
const MEDIUM_DATE_TIME = formatter(() => new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, dateStyle: "medium", timeStyle: "short" }));

const PLAIN_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const NAIVE_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?$/;

/** Cents from "25.00", "25,5", 25 or null (money is never added as floats). */
export function toCents(value) {
  const cents = Math.round(Number.parseFloat(String(value ?? "0").replace(",", ".")) * 100);
  return Number.isFinite(cents) ? cents : 0;
}

/** 25 → "25,00 €" (no-break space before the sign, so the amount never wraps). */
export function euros(value) {
  return MONEY().format(toCents(value) / 100);
}

/** A price × a quantity, in euros. */
export function eurosTimes(unitPrice, quantity) {
  return euros((toCents(unitPrice) * quantity) / 100);
}

/** The API's decimal string (never shown): "25,5" → "25.50", computed in cents. */
export function toAmount(value) {
  return (toCents(value) / 100).toFixed(2);
}

/** A price × a quantity as the API's decimal string: ("25.00", 2) → "50.00" (display goes through euros()). */
export function amountTimes(unitPrice, quantity) {
  return ((toCents(unitPrice) * quantity) / 100).toFixed(2);
}

function toDate(value) {
  if (value instanceof Date) return value;
  if (value === null || value === undefined || value === "") return null;
  const text = String(value);
  // A datetime without offset is already Paris wall-clock time (the server renders it so): read it as such.
  const naive = text.match(NAIVE_DATE_TIME);
  if (naive) return { naive };
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

function pad(n) {
  return String(n).padStart(2, "0");
}

/** "2031-03-10T18:30:00+01:00" → "lundi 10 mars 2031"; a plain "2031-03-10" is that day, wherever the visitor is. */
export function formatLongDate(value) {
  const day = String(value ?? "").match(PLAIN_DAY);
  if (day) return LONG_DATE().format(new Date(Date.UTC(+day[1], +day[2] - 1, +day[3], 12)));
  const date = toDate(value);
  if (!date) return "";
  if (date.naive) return LONG_DATE().format(new Date(Date.UTC(+date.naive[1], +date.naive[2] - 1, +date.naive[3], 12)));
  return LONG_DATE().format(date);
}

/** "lun. 10 mars 2031". */
export function formatShortDate(value) {
  const date = toDate(value);
  if (!date) return "";
  if (date.naive) return SHORT_DATE().format(new Date(Date.UTC(+date.naive[1], +date.naive[2] - 1, +date.naive[3], 12)));
  return SHORT_DATE().format(date);
}

/** "10/03/2031" (a plain day stays that day). */
export function formatDate(value) {
  const text = String(value ?? "");
  const day = text.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (day && (PLAIN_DAY.test(text) || NAIVE_DATE_TIME.test(text))) return `${day[3]}/${day[2]}/${day[1]}`;
  const date = toDate(value);
  return date && !date.naive ? NUMERIC_DATE().format(date) : text;
}

/** "18:30" (24-hour, Paris). */
export function formatTime(value) {
  const date = toDate(value);
  if (!date) return "";
  if (date.naive) return `${date.naive[4]}:${date.naive[5]}`;
  return TIME().format(date);
}

/** "10/03/2031 18:30". */
export function formatDateTime(value) {
  const date = toDate(value);
  if (!date) return value ? String(value) : "";
  if (date.naive) return `${date.naive[3]}/${date.naive[2]}/${date.naive[1]} ${date.naive[4]}:${date.naive[5]}`;
  return `${NUMERIC_DATE().format(date)} ${TIME().format(date)}`;
}

/** "10 mars 2031, 18:30" (messages). */
export function formatMediumDateTime(value) {
  const date = toDate(value);
  if (!date) return "";
  if (date.naive) return MEDIUM_DATE_TIME().format(new Date(`${date.naive[1]}-${date.naive[2]}-${date.naive[3]}T${date.naive[4]}:${date.naive[5]}:00${parisOffset(date.naive)}`));
  return MEDIUM_DATE_TIME().format(date);
}

// The Paris UTC offset on a wall-clock day (CET +01:00 or CEST +02:00), for the rare naive datetime.
function parisOffset(naive) {
  const probe = new Date(Date.UTC(+naive[1], +naive[2] - 1, +naive[3], 12));
  const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, hour: "2-digit", hour12: false }).format(probe));
  return `+${pad(hour - 12)}:00`;
}
