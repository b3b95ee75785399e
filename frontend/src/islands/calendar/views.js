/* The planning's views, by FullCalendar's names. A phone opens on the list of seven days from today (not from Monday,
   whose classes are over by the weekend), drawn by SessionList.jsx; its week is the week's list, day by day: seven
   time-grid columns of 55 px cut titles and times to "Cerc aéri". A wider screen opens on the month. */
import { PHONE_MAX_WIDTH } from "./firstRange.js";

export const PHONE_VIEW = "listUpcoming";
export const PHONE_WEEK_VIEW = "listWeekPhone";
export const WIDE_VIEW = "dayGridMonth";

/** The view a screen of `width` CSS pixels opens on. */
export function viewForWidth(width) {
  return width <= PHONE_MAX_WIDTH ? PHONE_VIEW : WIDE_VIEW;
}

/** The view a screen shows for the phone list's tabs: "month", "week", "day". */
export const PHONE_TAB_VIEWS = { month: "dayGridMonth", week: PHONE_WEEK_VIEW, day: "timeGridDay" };

/** The same view across the phone breakpoint: the week stays the week, in the form that screen reads; the rest
    becomes the screen's opening view. */
export function viewAcross(type, phone) {
  if (type === "timeGridWeek" || type === PHONE_WEEK_VIEW) return phone ? PHONE_WEEK_VIEW : "timeGridWeek";
  return phone ? PHONE_VIEW : WIDE_VIEW;
}
