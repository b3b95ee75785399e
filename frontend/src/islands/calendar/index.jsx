import { mountIsland, readProps } from "../../components/mount.jsx";
import { PHONE_QUERY, phoneFirstRange, prefetchSessions } from "./firstRange.js";
import { setupTabs } from "./tabs.js";

setupTabs(document.querySelector("[data-planning-tabs]"));

// FullCalendar and its styles are most of this page's code: they come in a chunk of their own, asked for once this
// small entry runs, so the browser paints the page's text without waiting for them (the island keeps its height
// meanwhile, from bookings.css, so nothing moves when the calendar appears). On a phone the sessions of the list it
// opens on are asked for at the same time, and the calendar is drawn once they are in.
const element = document.querySelector('[data-island="calendar"]');
const opensOnToday = !new URLSearchParams(window.location.search).get("date");
const early =
  element && opensOnToday && window.matchMedia?.(PHONE_QUERY).matches
    ? prefetchSessions(readProps(element).feedUrl || "/api/course-sessions", phoneFirstRange())
    : null;

Promise.all([import(/* webpackChunkName: "calendar-view" */ "./CalendarIsland.jsx"), early]).then(
  ([{ default: CalendarIsland }]) => mountIsland("calendar", CalendarIsland, { sliced: true }),
);
