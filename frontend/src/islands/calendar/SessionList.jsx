/* The phone's list of the planning: the classes of seven days from a given day (today when the page opens), day by
   day, with the studio's closures over their days; the member's own bookings marked. Drawn without FullCalendar: a
   phone's processor spends on this plain list a few milliseconds where FullCalendar's first render and layout took a
   quarter of a second, before the member could scroll or tap. Mois, Semaine and Jour are FullCalendar's views,
   loaded when they are asked for; the toolbar reads like theirs (Précédent, Suivant, Aujourd'hui, the views' tabs). */
import { useEffect, useId, useMemo, useState } from "react";
import { api } from "../../components/api.js";
import { closureEvents } from "./closures.js";
import { listRange, STUDIO_TIME_ZONE, studioDay, takePrefetched } from "./firstRange.js";
import { MSG_LOAD_ERROR, sessionTiming } from "./messages.js";
import { ClosureEntry, SessionEntry, sessionClassName } from "./SessionEntry.jsx";

export const MSG_NO_CLASSES = "Aucun cours sur cette période.";
const LIST_DAYS = 7;

// Made on first use: the page's first task should not pay for the locale's data.
let formats = null;
function listFormats() {
  formats ||= {
    title: new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
    weekday: new Intl.DateTimeFormat("fr-FR", { weekday: "long", timeZone: "UTC" }),
    date: new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }),
    time: new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: STUDIO_TIME_ZONE }),
  };
  return formats;
}

/** The day `count` days after `day` (both YYYY-MM-DD). */
export function addDays(day, count) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + count)).toISOString().slice(0, 10);
}

const asDate = (day) => new Date(`${day}T00:00:00Z`);

/** "29 nov. – 5 déc. 2026": the list's seven days, as FullCalendar titles its views on a phone. */
export function listTitle(day) {
  // Spaces around the dash, as FullCalendar writes its titles: the browser puts thin ones, or none within a month.
  const range = listFormats().title.formatRange(asDate(day), asDate(addDays(day, LIST_DAYS - 1)));
  return range.replace(/\s/g, " ").replace(/\s*–\s*/, " – ");
}

/** "18:30 – 19:45" in the studio's time. */
export function timeText(session) {
  const { time } = listFormats();
  return `${time.format(new Date(session.date))} – ${time.format(new Date(session.end_date))}`;
}

/** The list's days that have something to show, in order: { day, closures, sessions }. Classes already over are left
    out of a list that starts from today. */
export function listDays(day, sessions, closures, now = new Date()) {
  const last = addDays(day, LIST_DAYS);
  const fromNow = day <= studioDay(now) && studioDay(now) < last;
  const byDay = new Map();
  const entry = (key) => {
    if (!byDay.has(key)) byDay.set(key, { day: key, closures: [], sessions: [] });
    return byDay.get(key);
  };
  for (const closure of closureEvents(closures)) {
    for (let key = closure.start > day ? closure.start : day; key < closure.end && key < last; key = addDays(key, 1)) entry(key).closures.push(closure);
  }
  const ordered = (Array.isArray(sessions) ? sessions : []).slice().sort((a, b) => new Date(a.date) - new Date(b.date));
  for (const session of ordered) {
    if (fromNow && sessionTiming(session, now).ended) continue;
    const key = studioDay(new Date(session.date));
    if (key >= day && key < last) entry(key).sessions.push(session);
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

const TABS = [
  ["list", "Liste"],
  ["month", "Mois"],
  ["week", "Semaine"],
  ["day", "Jour"],
];

function Chevron({ flip }) {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" style={flip ? { transform: "scaleX(-1)" } : undefined}>
      <polyline points="15 18 9 12 15 6" />
    </svg>
  );
}

/** The first range's classes and closures if the page's entry asked for them early and they are in: the list is then
    drawn with them in its first render. */
function prefetched(day, feedUrl, closuresUrl) {
  const range = listRange(day);
  const sessions = takePrefetched(feedUrl, range.start, range.end);
  if (!sessions) return null;
  return { day, reloadKey: 0, sessions, closures: takePrefetched(closuresUrl, range.start, range.end) || [] };
}

/** `onDay(day)` moves the list; `onView("month" | "week" | "day")` leaves it for FullCalendar's view of `day`;
    `reloadKey` changing asks the server again (after a booking). */
export default function SessionList({ day, today, feedUrl, closuresUrl, reloadKey = 0, onDay, onView, onSessionClick, onLoadError }) {
  const titleId = useId();
  // { day, reloadKey, sessions, closures }: what was last read from the server.
  const [loaded, setLoaded] = useState(() => prefetched(day, feedUrl, closuresUrl));

  useEffect(() => {
    if (loaded && loaded.day === day && loaded.reloadKey === reloadKey) return undefined;
    let current = true;
    const range = listRange(day);
    const ask = (url) => api(`${url}?${new URLSearchParams(range)}`);
    // Without the closures the classes still show: they are not worth a second error message.
    Promise.all([
      ask(feedUrl).catch((error) => {
        console.error(MSG_LOAD_ERROR, error);
        onLoadError?.();
        return [];
      }),
      ask(closuresUrl).catch(() => []),
    ]).then(([sessions, closures]) => {
      if (current) setLoaded({ day, reloadKey, sessions, closures });
    });
    return () => {
      current = false;
    };
  }, [day, reloadKey, feedUrl, closuresUrl]); // eslint-disable-line react-hooks/exhaustive-deps

  // Another range's answer is not shown under this range's title; the same range's stays while it is asked again.
  const shown = loaded && loaded.day === day ? loaded : null;
  const days = useMemo(() => (shown ? listDays(shown.day, shown.sessions, shown.closures) : null), [shown]);
  const { weekday, date } = listFormats();
  return (
    <div className="session-list">
      <div className="session-list-toolbar">
        <div className="session-list-nav">
          <button type="button" className="session-list-button" aria-label="Précédent" onClick={() => onDay(addDays(day, -LIST_DAYS))}>
            <Chevron />
          </button>
          <button type="button" className="session-list-button" aria-label="Suivant" onClick={() => onDay(addDays(day, LIST_DAYS))}>
            <Chevron flip />
          </button>
          <button type="button" className="session-list-button" disabled={day === today} onClick={() => onDay(today)}>
            Aujourd'hui
          </button>
        </div>
        <h2 id={titleId} className="session-list-title">{listTitle(day)}</h2>
        <div role="tablist" aria-label="Affichage du calendrier" className="session-list-tabs">
          {TABS.map(([key, label]) => (
            <button key={key} type="button" role="tab" aria-selected={key === "list"} className="session-list-button" onClick={() => key !== "list" && onView(key)}>
              {label}
            </button>
          ))}
        </div>
      </div>
      <div role="region" aria-labelledby={titleId} aria-busy={days === null} className="session-list-body">
        {days && days.length === 0 && <p className="session-list-empty">{MSG_NO_CLASSES}</p>}
        {days?.map((group) => {
          const when = asDate(group.day);
          return (
            <div key={group.day} className="session-list-day">
              <h3 className="session-list-day-heading" data-date={group.day}>
                <span>{weekday.format(when)}</span> <span>{date.format(when)}</span>
              </h3>
              <ul className="session-list-entries">
                {group.closures.map((closure) => (
                  <li key={closure.id} className="session-list-entry studio-closure">
                    <ClosureEntry closure={closure.extendedProps.closure} title={closure.title} />
                  </li>
                ))}
                {group.sessions.map((session) => (
                  <li key={session.id} className="session-list-entry">
                    <button type="button" className={`session-list-item ${sessionClassName(session)}`} onClick={() => onSessionClick(session)}>
                      <SessionEntry session={session} timeText={timeText(session)} />
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </div>
  );
}
