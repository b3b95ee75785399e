/* Read-only staff list: who is coming to the next sessions (EVJF/EVG and room-rental requests are in Requests.jsx). */
import { formatDateTime } from "../format.js";
import ResourceSection from "../ResourceSection.jsx";
import { AttendeesButton } from "./Sessions.jsx";

export const MSG_RESERVATIONS_LOAD = "Erreur lors du chargement des réservations.";

const isoDay = (date) => date.toISOString().slice(0, 10);
export const DOOR_LIST_DAYS = 60;

/* Who is coming: the coming sessions with their participants, paid or held (the list a teacher needs at the door). */
export const reservationsConfig = {
  key: "reservations",
  title: "Réservations des prochaines sessions",
  intro: `Les sessions des ${DOOR_LIST_DAYS} prochains jours et leurs participants (payé ou en attente de paiement).`,
  endpoint: "/api/course-sessions",
  listParams: () => {
    const today = new Date();
    return { view: "staff", start: isoDay(today), end: isoDay(new Date(today.getTime() + DOOR_LIST_DAYS * 86400000)) };
  },
  label: (row) => `la session ${row.id}`,
  serverPaged: true,
  defaultOrdering: "date",
  canDelete: false,
  columns: [
    { key: "date", label: "Date", sort: "date", render: (row) => formatDateTime(row.date) },
    { key: "course_title", label: "Cours" },
    { key: "instructor", label: "Professeur" },
    { key: "seats", label: "Places prises", render: (row) => `${row.seats_taken ?? 0} / ${row.max_attendees}` },
    { key: "attendees", label: "Participants", render: (row) => <AttendeesButton session={row} /> },
  ],
};

reservationsConfig.messages = { load: MSG_RESERVATIONS_LOAD };

export const Reservations = (props) => <ResourceSection config={reservationsConfig} {...props} />;
