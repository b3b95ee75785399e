/* One class as the planning shows it, in every view (the phone's list, FullCalendar's month, week and day): its time,
   title, instructor and what can be done with it (seats left, full, not open yet, under way, over, cancelled), and the
   member's own booking. Holds no FullCalendar code, so that the phone's list can draw it without loading FullCalendar. */
import {
  LABEL_CANCELLED,
  LABEL_ENDED,
  LABEL_FULL,
  LABEL_STARTED,
  bookingNotOpen,
  opensLabel,
  seatsLabel,
  sessionTiming,
} from "./messages.js";

/** The classes of a session's entry: its state, then "session-mine" when the member holds seats on it. */
export function sessionClassName(session, now = new Date()) {
  const { started } = sessionTiming(session, now);
  const state =
    session.status === "cancelled"
      ? "session-cancelled"
      : started
        ? "session-past"
        : bookingNotOpen(session, now)
          ? "session-not-open"
          : session.seats_left <= 0
            ? "session-full"
            : "session-open";
  return session.my_reservation ? `${state} session-mine` : state;
}

function seatsText(session) {
  const { started, ended } = sessionTiming(session);
  if (session.status === "cancelled") return { text: LABEL_CANCELLED, className: "is-cancelled" };
  if (started) return { text: ended ? LABEL_ENDED : LABEL_STARTED, className: "is-past" };
  if (bookingNotOpen(session) && !session.my_reservation) return { text: opensLabel(session), className: "is-not-open" };
  if (session.seats_left <= 0) return { text: LABEL_FULL, className: "is-full" };
  return { text: seatsLabel(session.seats_left), className: "" };
}

/** The words of a session's entry. A <span> (laid out as a block by calendar.css), so that it may sit in a button. */
export function SessionEntry({ session, timeText }) {
  const seats = seatsText(session);
  return (
    <span className="session-event" data-session-id={session.id}>
      <span className="session-event-time">{timeText}</span> <strong className="session-event-title">{session.course_title}</strong>
      <span className="session-event-instructor">{session.instructor}</span>
      <span className={seats.className ? `session-event-seats ${seats.className}` : "session-event-seats"}>{seats.text}</span>
      {session.my_reservation && <span className="session-event-mine">{session.my_reservation.status === "confirmed" ? "Réservé" : "En attente de paiement"}</span>}
    </span>
  );
}

/** A closure of the studio over a day: "Studio fermé : …", nothing to book. */
export function ClosureEntry({ closure, title }) {
  return (
    <span className="closure-event" data-closure-id={closure.id}>
      <strong>{title}</strong>
    </span>
  );
}
