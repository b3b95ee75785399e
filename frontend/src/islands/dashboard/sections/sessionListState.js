/* The staff session list keeps its filters, sort and page in the address (?when=&course_id=&instructor=
   &search=&ordering=&page=), so a reload, the back button or a shared link shows the same list; it opens on upcoming
   sessions (today first), sorted by date, page 1. After a save it shows the session saved: on the page that holds
   it, with filters that hold it. */
import { filterParams, filtersFromSearch } from "./SessionFilters.jsx";

export const DEFAULT_ORDERING = "date";
const ORDERINGS = new Set(["date", "-date"]);

/** The whole list state the address holds. */
export function listStateFromSearch(search = typeof window !== "undefined" ? window.location.search : "") {
  const params = new URLSearchParams(search);
  const page = Number(params.get("page"));
  const ordering = params.get("ordering");
  return {
    filters: filtersFromSearch(search),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    ordering: ORDERINGS.has(ordering) ? ordering : DEFAULT_ORDERING,
  };
}

/** '?when=upcoming&course_id=3&ordering=-date&page=2' (the defaults, page 1 and date order, left out). */
export function listStateSearch({ filters, page, ordering }) {
  const params = new URLSearchParams();
  params.set("when", filters.when || "");
  for (const [key, value] of Object.entries(filterParams(filters))) if (key !== "when") params.set(key, value);
  if (ordering && ordering !== DEFAULT_ORDERING) params.set("ordering", ordering);
  if (page > 1) params.set("page", String(page));
  return `?${params}`;
}

export function writeListStateToAddress(state) {
  if (typeof window === "undefined") return;
  const search = listStateSearch(state);
  if (search !== window.location.search) window.history.replaceState(window.history.state, "", `${window.location.pathname}${search}`);
}

const contains = (text, part) => String(text || "").toLocaleLowerCase("fr").includes(String(part || "").trim().toLocaleLowerCase("fr"));

/** Whether the list under these filters holds this session (as the server filters it). */
export function filtersHold(filters, session, now = new Date()) {
  const over = new Date(session.end_date || session.date) <= now;
  const cancelled = session.status === "cancelled";
  const when = filters.when || "";
  if (when === "upcoming" && (over || cancelled)) return false;
  if (when === "past" && !over) return false;
  if (when === "cancelled" && !cancelled) return false;
  if (when === "full" && !(session.seats_left === 0 && !over && !cancelled)) return false;
  if (filters.course_id && String(filters.course_id) !== String(session.course_id)) return false;
  if (filters.instructor && !contains(session.instructor, filters.instructor)) return false;
  if (filters.search && !contains(session.course_title, filters.search) && !contains(session.instructor, filters.search)) return false;
  return true;
}

/** The filters to show a saved session: the current ones if they hold it, else upcoming or past alone. */
export function filtersShowing(filters, session, now = new Date()) {
  if (filtersHold(filters, session, now)) return filters;
  if (session.status === "cancelled") return { when: "cancelled" };
  return { when: new Date(session.end_date || session.date) <= now ? "past" : "upcoming" };
}

/** The API query of the page that holds session `id` under these filters and order. */
export function focusQuery({ filters, ordering, pageSize, id }) {
  const params = new URLSearchParams({ view: "staff", ...filterParams(filters), ordering, page_size: String(pageSize), focus: String(id) });
  return `?${params}`;
}
