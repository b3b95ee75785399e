/* Read-only staff lists: calendar reservations, EVJF/EVG reservations, room-rental requests. */
import { formatDate, formatDateTime } from "../format.js";
import ResourceSection from "../ResourceSection.jsx";
import { AttendeesButton } from "./Sessions.jsx";

export const MSG_RESERVATIONS_LOAD = "Erreur lors du chargement des réservations.";
export const MSG_RENTALS_LOAD = "Erreur lors du chargement des demandes de location.";
const person = (row) => row.name || `${row.first_name || ""} ${row.last_name || ""}`.trim();

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

export const partiesConfig = {
  key: "parties",
  title: "Réservations EVJF/EVG",
  endpoint: "/api/evf-reservations",
  label: (row) => `la réservation ${row.id}`,
  serverPaged: true,
  defaultOrdering: "-created_at",
  canDelete: false,
  columns: [
    { key: "eventType", label: "Type", render: (row) => row.event_type_label || row.eventType },
    { key: "person", label: "Nom", render: person },
    { key: "date", label: "Date", sort: "date", render: (row) => formatDate(row.date) },
    { key: "time", label: "Heure" },
    { key: "participants", label: "Participants" },
    { key: "email", label: "E-mail" },
    { key: "message", label: "Message", render: (row) => <span className="dash-clip">{row.message}</span> },
  ],
};

export const rentalsConfig = {
  key: "rentals",
  title: "Demandes de location de salle",
  endpoint: "/api/rental-requests",
  label: (row) => `la demande de ${row.name}`,
  serverPaged: true,
  defaultOrdering: "-created_at",
  canDelete: false,
  columns: [
    { key: "name", label: "Nom" },
    { key: "email", label: "E-mail" },
    { key: "phone", label: "Téléphone" },
    { key: "eventType", label: "Événement", render: (row) => row.eventType || row.event_type },
    { key: "date", label: "Date", sort: "date", render: (row) => formatDate(row.date) },
    { key: "time", label: "Heure" },
    { key: "message", label: "Message", render: (row) => <span className="dash-clip">{row.message}</span> },
  ],
};

reservationsConfig.messages = { load: MSG_RESERVATIONS_LOAD };
partiesConfig.messages = { load: MSG_RESERVATIONS_LOAD };
rentalsConfig.messages = { load: MSG_RENTALS_LOAD };

export const Reservations = (props) => <ResourceSection config={reservationsConfig} {...props} />;
export const Parties = (props) => <ResourceSection config={partiesConfig} {...props} />;
export const Rentals = (props) => <ResourceSection config={rentalsConfig} {...props} />;
