import { mountIsland } from "../../components/mount.jsx";
import { setupTabs } from "./tabs.js";

setupTabs(document.querySelector("[data-planning-tabs]"));

// FullCalendar and its styles are most of this page's code: they come in a chunk of their own, asked for once this
// small entry runs, so the browser paints the page's text without waiting for them (the island keeps its height
// meanwhile, from bookings.css, so nothing moves when the calendar appears).
import(/* webpackChunkName: "calendar-view" */ "./CalendarIsland.jsx").then(({ default: CalendarIsland }) =>
  mountIsland("calendar", CalendarIsland, { sliced: true }),
);
