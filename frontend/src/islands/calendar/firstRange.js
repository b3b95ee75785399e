/* The sessions and closures a phone's planning opens on, asked for by the island's small entry while FullCalendar's
   code is still on its way: the calendar then draws its first frame with them, in one render, instead of drawing an
   empty list and drawing again when they arrive. This module is part of the entry, so it holds no FullCalendar code. */
import { api } from "../../components/api.js";

export const PHONE_MAX_WIDTH = 639;
export const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;
export const STUDIO_TIME_ZONE = "Europe/Paris";
export const PHONE_LIST_DAYS = 7;

// Made when first used, not when the module loads: the first formatter in a time zone loads the browser's time-zone
// data, which the page's entry script should not wait for.
let formats = null;
function studioFormats() {
  formats ||= {
    day: new Intl.DateTimeFormat("en-CA", { timeZone: STUDIO_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }),
    offset: new Intl.DateTimeFormat("en-US", { timeZone: STUDIO_TIME_ZONE, timeZoneName: "longOffset" }),
  };
  return formats;
}

/** "+01:00" or "+02:00": the studio's offset from UTC at `instant`. */
function offsetAt(instant) {
  const name = studioFormats().offset.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value || "GMT";
  return name === "GMT" ? "+00:00" : name.slice(3);
}

/** Midnight of the studio's day `days` after the one `now` falls on, written as FullCalendar writes a range's ends
    in the studio's time zone ("2026-11-29T00:00:00+01:00"). */
export function studioMidnight(now, days = 0) {
  const [year, month, day] = studioFormats().day.format(now).split("-").map(Number);
  // Midnight UTC of that day falls on the same side of a change of hour as the studio's midnight (the change happens
  // at 1 o'clock UTC), so its offset is the one FullCalendar writes.
  const utcMidnight = new Date(Date.UTC(year, month - 1, day + days));
  return `${utcMidnight.toISOString().slice(0, 10)}T00:00:00${offsetAt(utcMidnight)}`;
}

/** The studio's day (YYYY-MM-DD) on which `instant` falls. */
export function studioDay(instant) {
  return studioFormats().day.format(instant);
}

/** The range the phone's list opens on: today and the six days after, in the studio's time zone. */
export function phoneFirstRange(now = new Date()) {
  return { start: studioMidnight(now), end: studioMidnight(now, PHONE_LIST_DAYS) };
}

/** The phone's list from the studio's day `day` (YYYY-MM-DD): that day and the six after. */
export function listRange(day) {
  const [year, month, date] = day.split("-").map(Number);
  // Noon UTC falls on the same day in Paris, whatever the season.
  return phoneFirstRange(new Date(Date.UTC(year, month - 1, date, 12)));
}

// What the island's entry asked for early, by address: { start, end, answer } once the answer is in, { start, end }
// while it is awaited. The sessions and the studio's closures of the first range are both asked for, so that the
// calendar draws its first frame with all of them: an answer arriving later makes FullCalendar render everything
// again, synchronously, in one long task of a phone's processor.
const early = new Map();

/** Ask for `url`'s answer over `range` now; resolves (never rejects) once the answer is in or has failed. */
export function prefetchRange(url, range) {
  const entry = { ...range };
  early.set(url, entry);
  const params = new URLSearchParams({ start: range.start, end: range.end });
  return api(`${url}?${params}`).then(
    (answer) => {
      entry.answer = answer;
    },
    () => {
      if (early.get(url) === entry) early.delete(url); // the calendar asks again itself, and says so if it fails
    },
  );
}

/** `url`'s answer asked for early, if it is that of this range and has arrived; given once. */
export function takePrefetched(url, start, end) {
  const entry = early.get(url);
  if (!entry || !("answer" in entry) || entry.start !== start || entry.end !== end) return null;
  early.delete(url);
  return entry.answer;
}
