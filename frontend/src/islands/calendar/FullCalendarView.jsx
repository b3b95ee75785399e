/* The planning's month, week and day (and a wider screen's every view): FullCalendar v7, fed by /api/course-sessions
   for the visible range and by the studio's closures as all-day entries over their days ("Studio fermé : …"), so the
   sessions are drawn without waiting for them. A wider screen opens on the month; a phone comes here from its list
   (SessionList.jsx) when Mois, Semaine or Jour is asked for, and goes back to it with "Liste". */
import { useCallback, useEffect, useMemo, useRef } from "react";
import FullCalendar from "@fullcalendar/react";
import dayGridPlugin from "@fullcalendar/react/daygrid";
import timeGridPlugin from "@fullcalendar/react/timegrid";
import listPlugin from "@fullcalendar/react/list";
import classicThemePlugin from "@fullcalendar/react/themes/classic";
import frLocale from "@fullcalendar/react/locales/fr";
import "@fullcalendar/react/skeleton.css";
import "@fullcalendar/react/themes/classic/theme.css";
import "@fullcalendar/react/themes/classic/palette.css";

import { api } from "../../components/api.js";
import { closureEvents } from "./closures.js";
import { PHONE_LIST_DAYS, STUDIO_TIME_ZONE, takePrefetched } from "./firstRange.js";
import { MSG_LOAD_ERROR, sessionTiming } from "./messages.js";
import { ClosureEntry, SessionEntry, sessionClassName } from "./SessionEntry.jsx";
import { PHONE_VIEW, PHONE_WEEK_VIEW, viewAcross } from "./views.js";

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, classicThemePlugin];
const DESKTOP_TOOLBAR = { start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,timeGridDay" };
// On a phone the toolbar wraps: navigation, then the title, then the view switcher (Liste, Mois, Semaine, Jour).
const PHONE_HEADER = { start: "prev,next today", center: "title", end: `${PHONE_VIEW},dayGridMonth,${PHONE_WEEK_VIEW},timeGridDay` };
// Short months in its title ("28 nov. – 4 déc. 2026"): the long ones overflow a phone's width across two months.
const SHORT_TITLE = { day: "numeric", month: "short", year: "numeric" };
const VIEWS = {
  [PHONE_VIEW]: { type: "list", duration: { days: PHONE_LIST_DAYS }, titleFormat: SHORT_TITLE },
  [PHONE_WEEK_VIEW]: { type: "list", duration: { weeks: 1 }, titleFormat: SHORT_TITLE },
};
// The switcher's words for the two list views (FullCalendar would call both "Planning").
const BUTTONS = { [PHONE_VIEW]: { text: "Liste" }, [PHONE_WEEK_VIEW]: { text: "Semaine" } };
const TIME_FORMAT = { hour: "2-digit", minute: "2-digit", hour12: false };

function toEvent(session) {
  return {
    id: String(session.id),
    title: session.course_title,
    start: session.date,
    end: session.end_date,
    // FullCalendar v7 reads `className` (v6's `classNames` is ignored).
    className: sessionClassName(session),
    extendedProps: { session },
  };
}

function EventContent({ event, timeText }) {
  const { closure, session } = event.extendedProps;
  return closure ? <ClosureEntry closure={closure} title={event.title} /> : <SessionEntry session={session} timeText={timeText} />;
}

// Days of the neighbouring months stay readable (WCAG contrast): the theme fades them too much.
const otherMonthClass = (info) => (info.isOther ? "day-other" : "");

/** `onViewShown(type, day)` hears each view and range shown; `onSessionClick(session)` each class tapped. */
export default function FullCalendarView({ calendarRef, phone, initialView, initialDate, feedUrl, closuresUrl, onViewShown, onSessionClick, onLoadError }) {
  const firstLayout = useRef(true);

  // Crossing the phone breakpoint (rotation, resized window) switches to that screen's view.
  useEffect(() => {
    if (firstLayout.current) {
      firstLayout.current = false;
      return;
    }
    const calendar = calendarRef.current?.getApi();
    if (!calendar) return;
    calendar.changeView(viewAcross(calendar.view.type, phone));
  }, [phone]); // eslint-disable-line react-hooks/exhaustive-deps

  // FullCalendar's callback form: sessions asked for early (firstRange.js) are handed over at once, so the first
  // frame is drawn with them; any other range is fetched here.
  const fetchEvents = useCallback(
    (info, success) => {
      const toEvents = (sessions) => {
        // A list of the days to come starts from now: the classes already over today are left out of it.
        const now = new Date();
        const viewType = calendarRef.current?.getApi()?.view?.type ?? initialView;
        const fromNow = viewType.startsWith("list") && new Date(info.startStr) <= now && now < new Date(info.endStr);
        return sessions.filter((session) => !(fromNow && sessionTiming(session, now).ended)).map(toEvent);
      };
      const early = takePrefetched(feedUrl, info.startStr, info.endStr);
      if (early) {
        success(toEvents(early));
        return;
      }
      const params = new URLSearchParams({ start: info.startStr, end: info.endStr });
      api(`${feedUrl}?${params}`).then(
        (sessions) => success(toEvents(sessions)),
        (error) => {
          console.error(MSG_LOAD_ERROR, error);
          onLoadError?.();
          success([]);
        },
      );
    },
    [feedUrl, initialView], // eslint-disable-line react-hooks/exhaustive-deps
  );

  // Closures are not worth a second error message: without them the sessions still show, cancelled or not.
  const fetchClosures = useCallback(
    (info, success) => {
      const early = takePrefetched(closuresUrl, info.startStr, info.endStr);
      if (early) {
        success(closureEvents(early));
        return;
      }
      const params = new URLSearchParams({ start: info.startStr, end: info.endStr });
      api(`${closuresUrl}?${params}`).then(
        (closures) => success(closureEvents(closures)),
        () => success([]),
      );
    },
    [closuresUrl],
  );
  const eventSources = useMemo(() => [{ events: fetchEvents }, { events: fetchClosures }], [fetchEvents, fetchClosures]);

  const handleEventClick = useCallback(
    (info) => {
      info.jsEvent?.preventDefault();
      const session = info.event.extendedProps.session;
      if (session) onSessionClick(session); // a closure: nothing to book
    },
    [onSessionClick],
  );

  // The view's first day in the studio's time zone: FullCalendar writes its range's start as "2026-11-30T00:00:00+01:00".
  const handleDatesSet = useCallback((info) => onViewShown?.(info.view.type, info.startStr.slice(0, 10)), [onViewShown]);

  return (
    <FullCalendar
      ref={calendarRef}
      plugins={PLUGINS}
      locale={frLocale}
      timeZone={STUDIO_TIME_ZONE}
      firstDay={1}
      initialView={initialView}
      initialDate={initialDate}
      headerToolbar={phone ? PHONE_HEADER : DESKTOP_TOOLBAR}
      views={VIEWS}
      buttons={BUTTONS}
      noEventsText="Aucun cours sur cette période."
      slotMinTime="08:00:00"
      slotMaxTime="22:00:00"
      scrollTime="08:00:00"
      slotDuration="00:30:00"
      allDaySlot
      allDayText="Journée"
      eventTimeFormat={TIME_FORMAT}
      slotHeaderFormat={TIME_FORMAT}
      height="auto"
      dayMaxEvents={false}
      eventSources={eventSources}
      eventContent={EventContent}
      eventClick={handleEventClick}
      datesSet={handleDatesSet}
      dayCellClass={otherMonthClass}
    />
  );
}
