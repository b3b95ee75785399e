/* The planning calendar: FullCalendar v7 fed by /api/course-sessions for the visible range.
   The view follows the screen: a phone gets the list of the coming seven days from now (FullCalendar's
   list view, part of @fullcalendar/react v7, ~4 kB gzipped), wider screens the month; Mois/Semaine/Jour stay in the
   switcher. A class that has started shows "En cours" or "Terminé" instead of its seats: it cannot be booked. The
   studio's closures come from a second source, as all-day entries over their days ("Studio fermé : …"), so the
   sessions are drawn without waiting for them. */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import FullCalendar from "@fullcalendar/react";
import dayGridPlugin from "@fullcalendar/react/daygrid";
import timeGridPlugin from "@fullcalendar/react/timegrid";
import listPlugin from "@fullcalendar/react/list";
import classicThemePlugin from "@fullcalendar/react/themes/classic";
import frLocale from "@fullcalendar/react/locales/fr";
import "@fullcalendar/react/skeleton.css";
import "@fullcalendar/react/themes/classic/theme.css";
import "@fullcalendar/react/themes/classic/palette.css";
import "./calendar.css";

import { api } from "../../components/api.js";
import Modal from "../../components/Modal.jsx";
import { notify } from "../../components/toast.jsx";
import { CLOSURES_URL, closureEvents } from "./closures.js";
import { PHONE_LIST_DAYS, PHONE_MAX_WIDTH, PHONE_QUERY, STUDIO_TIME_ZONE, takePrefetched } from "./firstRange.js";
import ReservationForm from "./ReservationForm.jsx";
import WaitlistPanel from "./WaitlistPanel.jsx";
import {
  LABEL_CANCELLED,
  LABEL_ENDED,
  LABEL_FULL,
  LABEL_NOT_OPEN,
  LABEL_STARTED,
  MSG_ALREADY_RESERVED,
  MSG_CANCELLED,
  MSG_FULL,
  MSG_LOAD_ERROR,
  MSG_LOGIN_TO_RESERVE,
  MSG_OFFLINE_READ_ONLY,
  MSG_PAST,
  bookingNotOpen,
  clickOutcome,
  opensLabel,
  seatsLabel,
  sessionTiming,
} from "./messages.js";

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, classicThemePlugin];
export { PHONE_MAX_WIDTH };
const DESKTOP_TOOLBAR = { start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,timeGridDay" };
// On a phone the toolbar wraps: navigation, then the title, then the view switcher (Liste, Mois, Semaine, Jour).
// A phone's week is the week's list, day by day: seven time-grid columns of 55 px cut titles and times to "Cerc aéri".
export const PHONE_WEEK_VIEW = "listWeekPhone";
const PHONE_HEADER = { start: "prev,next today", center: "title", end: `listUpcoming,dayGridMonth,${PHONE_WEEK_VIEW},timeGridDay` };
// The phone's list: seven days from today (not from Monday, whose classes are over by the weekend).
export const PHONE_VIEW = "listUpcoming";
// Short months in its title ("28 nov. – 4 déc. 2026"): the long ones overflow a phone's width across two months.
const SHORT_TITLE = { day: "numeric", month: "short", year: "numeric" };
const VIEWS = {
  [PHONE_VIEW]: { type: "list", duration: { days: PHONE_LIST_DAYS }, titleFormat: SHORT_TITLE },
  [PHONE_WEEK_VIEW]: { type: "list", duration: { weeks: 1 }, titleFormat: SHORT_TITLE },
};
// The switcher's words for the two list views (FullCalendar would call both "Planning").
const BUTTONS = { [PHONE_VIEW]: { text: "Liste" }, [PHONE_WEEK_VIEW]: { text: "Semaine" } };

/** The view a screen of `width` CSS pixels opens on. */
export function viewForWidth(width) {
  return width <= PHONE_MAX_WIDTH ? PHONE_VIEW : "dayGridMonth";
}

function usePhone() {
  const query = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(PHONE_QUERY) : null;
  const [phone, setPhone] = useState(() => (query ? query.matches : false));
  useEffect(() => {
    if (!query) return undefined;
    const onChange = (event) => setPhone(event.matches);
    query.addEventListener?.("change", onChange);
    return () => query.removeEventListener?.("change", onChange);
  }, [query?.media]); // eslint-disable-line react-hooks/exhaustive-deps
  return phone;
}
const TIME_FORMAT = { hour: "2-digit", minute: "2-digit", hour12: false };
const NOTICE_TITLES = {
  past: "Erreur",
  full: "Session complète",
  reserved: "Déjà réservé",
  cancelled: "Cours annulé",
  not_open: LABEL_NOT_OPEN,
};
const NOTICE_TEXT = { past: MSG_PAST, full: MSG_FULL, reserved: MSG_ALREADY_RESERVED, cancelled: MSG_CANCELLED };

function toEvent(session) {
  const { started } = sessionTiming(session);
  return {
    id: String(session.id),
    title: session.course_title,
    start: session.date,
    end: session.end_date,
    // FullCalendar v7 reads `className` (v6's `classNames` is ignored).
    className: [
      session.status === "cancelled"
        ? "session-cancelled"
        : started
          ? "session-past"
          : bookingNotOpen(session)
            ? "session-not-open"
            : session.seats_left <= 0
              ? "session-full"
              : "session-open",
      session.my_reservation ? "session-mine" : "",
    ]
      .filter(Boolean)
      .join(" "),
    extendedProps: { session },
  };
}

function EventContent({ event, timeText }) {
  if (event.extendedProps.closure) {
    return (
      <div className="closure-event" data-closure-id={event.extendedProps.closure.id}>
        <strong>{event.title}</strong>
      </div>
    );
  }
  const session = event.extendedProps.session;
  const full = session.seats_left <= 0;
  const cancelled = session.status === "cancelled";
  const { started, ended } = sessionTiming(session);
  return (
    <div className="session-event" data-session-id={session.id}>
      <span className="session-event-time">{timeText}</span> <strong className="session-event-title">{event.title}</strong>
      <span className="session-event-instructor">{session.instructor}</span>
      {cancelled ? (
        <span className="session-event-seats is-cancelled">{LABEL_CANCELLED}</span>
      ) : started ? (
        <span className="session-event-seats is-past">{ended ? LABEL_ENDED : LABEL_STARTED}</span>
      ) : bookingNotOpen(session) && !session.my_reservation ? (
        <span className="session-event-seats is-not-open">{opensLabel(session)}</span>
      ) : (
        <span className={full ? "session-event-seats is-full" : "session-event-seats"}>{full ? LABEL_FULL : seatsLabel(session.seats_left)}</span>
      )}
      {session.my_reservation && <span className="session-event-mine">{session.my_reservation.status === "confirmed" ? "Réservé" : "En attente de paiement"}</span>}
    </div>
  );
}

/** The day a link asks for (`?date=YYYY-MM-DD`, e.g. the waiting list's offer e-mail), else undefined (today). */
export function dateFromLink(search = typeof window !== "undefined" ? window.location.search : "") {
  const day = new URLSearchParams(search).get("date") || "";
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

// Days of the neighbouring months stay readable (WCAG contrast): the theme fades them too much.
const otherMonthClass = (info) => (info.isOther ? "day-other" : "");

export default function CalendarIsland({ user, paymentConfig, feedUrl = "/api/course-sessions", closuresUrl = CLOSURES_URL, reserveUrl = "/api/reservations-courses", loginUrl = "/login", initialDate }) {
  const calendarRef = useRef(null);
  const phone = usePhone();
  const [initialView] = useState(() => viewForWidth(phone ? PHONE_MAX_WIDTH : PHONE_MAX_WIDTH + 1));
  const firstLayout = useRef(true);

  // Crossing the phone breakpoint (rotation, resized window) switches to that screen's view.
  useEffect(() => {
    if (firstLayout.current) {
      firstLayout.current = false;
      return;
    }
    const api = calendarRef.current?.getApi();
    if (!api) return;
    // The week stays the week across the breakpoint, in the form that screen reads.
    const type = api.view.type;
    if (type === "timeGridWeek" || type === PHONE_WEEK_VIEW) api.changeView(phone ? PHONE_WEEK_VIEW : "timeGridWeek");
    else api.changeView(phone ? PHONE_VIEW : "dayGridMonth");
  }, [phone]);
  const [selected, setSelected] = useState(null);
  const [popup, setPopup] = useState(null); // "past" | "full" | "reserved" | "reserve"

  // FullCalendar's callback form: sessions asked for early (firstRange.js) are handed over at once, so the first
  // frame is drawn with them; any other range is fetched here.
  const fetchEvents = useCallback(
    (info, success) => {
      const toEvents = (sessions) => {
        // The list of the days to come starts from now: the classes already over today are left out of it.
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
          notify(MSG_LOAD_ERROR, "error");
          success([]);
        },
      );
    },
    [feedUrl, initialView],
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
      if (!session) return; // a closure: nothing to book
      // Read from the service worker's cache without a network: the planning is read-only (docs/decisions.md 53).
      if (document.documentElement.classList.contains("is-offline")) {
        notify(MSG_OFFLINE_READ_ONLY, "warning");
        return;
      }
      const outcome = clickOutcome({ user, session });
      if (outcome === "login") {
        notify(MSG_LOGIN_TO_RESERVE, "warning");
        return;
      }
      setSelected(session);
      setPopup(outcome);
    },
    [user],
  );

  const close = useCallback(() => {
    setPopup(null);
    setSelected(null);
  }, []);

  const refresh = useCallback(() => calendarRef.current?.getApi().refetchEvents(), []);

  const handlePaid = useCallback(() => {
    close();
    refresh();
  }, [close, refresh]);

  const handleHeld = useCallback(() => refresh(), [refresh]);

  const handleFull = useCallback(() => {
    setPopup("full");
    refresh();
  }, [refresh]);

  const notice = popup && popup !== "reserve";
  return (
    <div className="calendar-island">
      <FullCalendar
        ref={calendarRef}
        plugins={PLUGINS}
        locale={frLocale}
        timeZone={STUDIO_TIME_ZONE}
        firstDay={1}
        initialView={initialView}
        initialDate={initialDate || dateFromLink()}
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
        dayCellClass={otherMonthClass}
      />
      <Modal open={Boolean(notice)} title={notice ? NOTICE_TITLES[popup] : ""} onClose={close}>
        {popup === "full" && selected && user && (
          <>
            <p className="calendar-notice" role="alert">{NOTICE_TEXT.full}</p>
            <WaitlistPanel session={selected} onClose={close} />
          </>
        )}
        {notice && popup !== "full" && (
          <>
            <p className="calendar-notice" role="alert">{popup === "not_open" && selected ? `${opensLabel(selected)}.` : NOTICE_TEXT[popup]}</p>
            <div className="modal-actions">
              <button type="button" className="button" onClick={close}>Fermer</button>
            </div>
          </>
        )}
      </Modal>
      <Modal open={popup === "reserve"} title="Réserver un cours" onClose={close} className="reservation-modal">
        {popup === "reserve" && selected && (
          <ReservationForm
            session={selected}
            user={user}
            paymentConfig={paymentConfig}
            reserveUrl={reserveUrl}
            loginUrl={loginUrl}
            onCancel={close}
            onHeld={handleHeld}
            onPaid={handlePaid}
            onFull={handleFull}
          />
        )}
      </Modal>
    </div>
  );
}
