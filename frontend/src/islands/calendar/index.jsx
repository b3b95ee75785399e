import { mountIsland } from "../../components/mount.jsx";
import CalendarIsland from "./CalendarIsland.jsx";
import { setupTabs } from "./tabs.js";

setupTabs(document.querySelector("[data-planning-tabs]"));
mountIsland("calendar", CalendarIsland, { sliced: true });
