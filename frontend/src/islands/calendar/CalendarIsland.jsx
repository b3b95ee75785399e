/* The planning: a phone opens on its list of the coming seven days (SessionList.jsx, no FullCalendar), a wider screen
   on FullCalendar's month (FullCalendarView.jsx, a chunk of its own, fetched when first shown). Both hand a tapped class
   to the same booking flow: a notice (past, full with the waiting list, already booked, cancelled, not open yet) or the
   booking form with its payment choice. A class that has started shows "En cours" or "Terminé" instead of its seats. */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import "./calendar.css";

import Modal from "../../components/Modal.jsx";
import { notify } from "../../components/toast.jsx";
import { CLOSURES_URL } from "./closures.js";
import { PHONE_MAX_WIDTH, PHONE_QUERY, studioDay } from "./firstRange.js";
import { MSG_ALREADY_RESERVED, MSG_CANCELLED, MSG_FULL, MSG_LOAD_ERROR, MSG_LOGIN_TO_RESERVE, MSG_OFFLINE_READ_ONLY, MSG_PAST, LABEL_NOT_OPEN, clickOutcome, opensLabel } from "./messages.js";
import ReservationForm from "./ReservationForm.jsx";
import SessionList from "./SessionList.jsx";
import { PHONE_TAB_VIEWS, PHONE_VIEW, PHONE_WEEK_VIEW, WIDE_VIEW, viewForWidth } from "./views.js";
import WaitlistPanel from "./WaitlistPanel.jsx";

export { PHONE_MAX_WIDTH, PHONE_VIEW, PHONE_WEEK_VIEW, viewForWidth };

// Fetched ahead, while the phone is idle, but not run until asked for: the list is ready sooner without it. The
// booking form comes with the island: drawn with the popup that opens on it, the popup lays out once, with the
// payment choice and the button on its first screen.
const FullCalendarView = lazy(() => import(/* webpackChunkName: "calendar-full", webpackPrefetch: true */ "./FullCalendarView.jsx"));

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

const NOTICE_TITLES = {
  past: "Erreur",
  full: "Session complète",
  reserved: "Déjà réservé",
  cancelled: "Cours annulé",
  not_open: LABEL_NOT_OPEN,
};
const NOTICE_TEXT = { past: MSG_PAST, full: MSG_FULL, reserved: MSG_ALREADY_RESERVED, cancelled: MSG_CANCELLED };

/** The day a link asks for (`?date=YYYY-MM-DD`, e.g. the waiting list's offer e-mail), else undefined (today). */
export function dateFromLink(search = typeof window !== "undefined" ? window.location.search : "") {
  const day = new URLSearchParams(search).get("date") || "";
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

const showLoadError = () => notify(MSG_LOAD_ERROR, "error");

export default function CalendarIsland({ user, paymentConfig, feedUrl = "/api/course-sessions", closuresUrl = CLOSURES_URL, reserveUrl = "/api/reservations-courses", loginUrl = "/login", initialDate }) {
  const calendarRef = useRef(null);
  const phone = usePhone();
  // The view to show and its day (undefined: today). FullCalendar keeps its own once it is shown; it tells the list
  // where to start when "Liste" is asked for from it.
  const [view, setView] = useState(() => ({ type: viewForWidth(phone ? PHONE_MAX_WIDTH : PHONE_MAX_WIDTH + 1), day: initialDate || dateFromLink() }));
  const [reloadKey, setReloadKey] = useState(0);
  const [selected, setSelected] = useState(null);
  const [popup, setPopup] = useState(null); // "past" | "full" | "reserved" | "cancelled" | "not_open" | "reserve"

  const listShown = phone && view.type === PHONE_VIEW;
  // A phone's list turned into a wider screen (rotation, resized window) becomes the month around its day.
  useEffect(() => {
    if (!phone && view.type === PHONE_VIEW) setView((current) => ({ ...current, type: WIDE_VIEW }));
  }, [phone, view.type]);

  const today = studioDay(new Date());
  const handleDay = useCallback((day) => setView({ type: PHONE_VIEW, day }), []);
  const handleTab = useCallback((tab) => setView((current) => ({ type: PHONE_TAB_VIEWS[tab], day: current.day })), []);
  const handleViewShown = useCallback(
    (type, day) => {
      if (phone && type === PHONE_VIEW) setView({ type, day });
    },
    [phone],
  );

  const handleSessionClick = useCallback(
    (session) => {
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

  const refresh = useCallback(() => {
    setReloadKey((key) => key + 1);
    calendarRef.current?.getApi().refetchEvents();
  }, []);

  const handlePaid = useCallback(() => {
    close();
    refresh();
  }, [close, refresh]);

  const handleFull = useCallback(() => {
    setPopup("full");
    refresh();
  }, [refresh]);

  const notice = popup && popup !== "reserve";
  return (
    <div className="calendar-island">
      {listShown ? (
        <SessionList
          day={view.day || today}
          today={today}
          feedUrl={feedUrl}
          closuresUrl={closuresUrl}
          reloadKey={reloadKey}
          onDay={handleDay}
          onView={handleTab}
          onSessionClick={handleSessionClick}
          onLoadError={showLoadError}
        />
      ) : (
        <Suspense fallback={null}>
          <FullCalendarView
            calendarRef={calendarRef}
            phone={phone}
            initialView={!phone && view.type === PHONE_VIEW ? WIDE_VIEW : view.type}
            initialDate={view.day}
            feedUrl={feedUrl}
            closuresUrl={closuresUrl}
            onViewShown={handleViewShown}
            onSessionClick={handleSessionClick}
            onLoadError={showLoadError}
          />
        </Suspense>
      )}
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
            onHeld={refresh}
            onPaid={handlePaid}
            onFull={handleFull}
          />
        )}
      </Modal>
    </div>
  );
}
