/* The staff session list opens on upcoming sessions; filters (when, course, instructor, search) live in
   the address (?when=&course_id=&instructor=&search=), so a reload or a shared link shows the same list. */
import { useState } from "react";

export const WHEN_OPTIONS = [
  { value: "upcoming", label: "À venir" },
  { value: "past", label: "Passées" },
  { value: "cancelled", label: "Annulées" },
  { value: "full", label: "Complètes" },
  { value: "", label: "Toutes" },
];
const KEYS = ["when", "course_id", "instructor", "search"];

/** The filters the address holds; `when` defaults to upcoming sessions. */
export function filtersFromSearch(search = typeof window !== "undefined" ? window.location.search : "") {
  const params = new URLSearchParams(search);
  const filters = { when: params.has("when") ? params.get("when") : "upcoming" };
  for (const key of KEYS.slice(1)) if (params.get(key)) filters[key] = params.get(key);
  return filters;
}

/** The list's API parameters for these filters (empty ones left out). */
export function filterParams(filters) {
  const params = {};
  for (const key of KEYS) if (filters[key]) params[key] = filters[key];
  return params;
}

export function writeFiltersToAddress(filters) {
  if (typeof window === "undefined") return;
  const params = new URLSearchParams(window.location.search);
  for (const key of KEYS) params.delete(key);
  params.set("when", filters.when || "");
  for (const key of KEYS.slice(1)) if (filters[key]) params.set(key, filters[key]);
  window.history.replaceState(window.history.state, "", `${window.location.pathname}?${params}`);
}

export function SessionFilters({ filters, courses = [], onChange }) {
  const [draft, setDraft] = useState({ instructor: filters.instructor || "", search: filters.search || "" });
  const change = (next) => {
    writeFiltersToAddress(next);
    onChange(next);
  };
  const submit = (event) => {
    event.preventDefault();
    change({ ...filters, instructor: draft.instructor.trim(), search: draft.search.trim() });
  };
  return (
    <form className="dash-filters" onSubmit={submit} role="search" aria-label="Filtrer les sessions">
      {/* Each filter is its label over its control, apart from the next one. */}
      <div className="dash-filter">
        <label htmlFor="sessions-when">Période</label>
        <select id="sessions-when" value={filters.when || ""} onChange={(e) => change({ ...filters, when: e.target.value })}>
          {WHEN_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="dash-filter">
        <label htmlFor="sessions-course">Cours</label>
        <select id="sessions-course" value={filters.course_id || ""} onChange={(e) => change({ ...filters, course_id: e.target.value })}>
          <option value="">Tous les cours</option>
          {courses.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="dash-filter">
        <label htmlFor="sessions-instructor">Professeur</label>
        <input id="sessions-instructor" value={draft.instructor} onChange={(e) => setDraft({ ...draft, instructor: e.target.value })} />
      </div>
      <div className="dash-filter">
        <label htmlFor="sessions-search">Recherche</label>
        <input id="sessions-search" type="search" value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
      </div>
      <button type="submit" className="button button-small">
        Filtrer
      </button>
    </form>
  );
}
