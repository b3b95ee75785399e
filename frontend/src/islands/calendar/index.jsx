import { readProps } from "../../components/props.js";
import { CLOSURES_URL } from "./closures.js";
import { PHONE_QUERY, phoneFirstRange, prefetchRange } from "./firstRange.js";
import { setupTabs } from "./tabs.js";

setupTabs(document.querySelector("[data-planning-tabs]"));

// React and the calendar come in chunks of their own, asked for once the page's text has been painted (the frame after
// this small entry runs), so that neither a phone's network nor its processor spends anything on them before the
// heading and the introduction show. The island keeps its height meanwhile (bookings.css), so nothing moves when the
// calendar appears. A phone opens on a plain list of the coming days (SessionList.jsx): its classes (and the studio's
// closures over them) are asked for at once, and the list is drawn once they are in. A wider screen's month is
// FullCalendar's, fetched with the rest; a phone fetches FullCalendar only when Mois, Semaine or Jour is asked for.
const element = document.querySelector('[data-island="calendar"]');
const opensOnToday = !new URLSearchParams(window.location.search).get("date");
// Asked for in a task of its own, after this entry's: the first formatting in the studio's time zone loads the
// browser's time-zone data, a pause of a phone's processor best kept apart from the scripts that run with the page.
let early = null;
function prefetchFirstRange() {
  const props = readProps(element);
  const range = phoneFirstRange();
  early = Promise.all([
    prefetchRange(props.feedUrl || "/api/course-sessions", range),
    prefetchRange(props.closuresUrl || CLOSURES_URL, range),
  ]);
}
const phoneScreen = Boolean(window.matchMedia?.(PHONE_QUERY).matches);
const phone = element && opensOnToday && phoneScreen;

function loadCalendar() {
  Promise.all([
    import(/* webpackChunkName: "mount" */ "../../components/mount.jsx"),
    import(/* webpackChunkName: "calendar-view" */ "./CalendarIsland.jsx"),
    phoneScreen ? null : import(/* webpackChunkName: "calendar-full" */ "./FullCalendarView.jsx"),
    early,
  ]).then(([{ mountIsland }, { default: CalendarIsland }]) => mountIsland("calendar", CalendarIsland, { sliced: true }));
}

// A tab opened in the background paints nothing and runs no animation frame: its calendar is loaded straight away.
if (document.visibilityState === "hidden") {
  if (phone) prefetchFirstRange();
  loadCalendar();
} else {
  if (phone) setTimeout(prefetchFirstRange, 0);
  requestAnimationFrame(() => setTimeout(loadCalendar, 0));
}
