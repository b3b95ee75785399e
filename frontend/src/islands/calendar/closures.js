/* The studio's closures on the public calendar (docs/decisions.md 51): each one an all-day entry over its days,
   "Studio fermé : Vacances de Noël", read from /api/closures/calendar for the range on screen. */
export const CLOSURES_URL = "/api/closures/calendar";
export const CLOSURE_CLASS = "studio-closure";

export const closureTitle = (label) => `Studio fermé : ${label}`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day after `day` (YYYY-MM-DD): FullCalendar's all-day end is exclusive, a closure's last day is included. */
export function dayAfter(day) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** FullCalendar's events for the closures the API answered (anything else in the answer is left out). */
export function closureEvents(closures) {
  return (Array.isArray(closures) ? closures : [])
    .filter((c) => c && typeof c.label === "string" && DAY.test(c.starts_on || "") && DAY.test(c.ends_on || ""))
    .map((closure) => ({
      id: `closure-${closure.id}`,
      title: closureTitle(closure.label),
      start: closure.starts_on,
      end: dayAfter(closure.ends_on),
      allDay: true,
      className: CLOSURE_CLASS,
      extendedProps: { closure },
    }));
}
