/* Read-only staff lists: calendar reservations, EVJF/EVG reservations, room-rental requests, passes. */
import { formatDate, formatDateTime, formatMoney } from "../format.js";
import ResourceSection from "../ResourceSection.jsx";

export const MSG_RESERVATIONS_LOAD = "Erreur lors du chargement des réservations.";
export const MSG_RENTALS_LOAD = "Erreur lors du chargement des demandes de location.";
export const MSG_PASSES_LOAD = "Erreur lors du chargement des cartes et abonnements.";
const STATUS = { held: "En attente de paiement", confirmed: "Payée", cancelled: "Annulée", expired: "Expirée" };
const person = (row) => row.name || `${row.first_name || ""} ${row.last_name || ""}`.trim();

export const reservationsConfig = {
  key: "reservations",
  title: "Réservations de cours",
  endpoint: "/api/reservations",
  label: (row) => `la réservation ${row.id}`,
  serverPaged: true,
  defaultOrdering: "-created_at",
  canDelete: false,
  columns: [
    { key: "created_at", label: "Créée le", sort: "created_at", render: (row) => formatDateTime(row.created_at) },
    { key: "session", label: "Session", render: (row) => `${row.course_title || row.title || ""} ${formatDateTime(row.session_date || row.date)}` },
    { key: "person", label: "Membre", render: person },
    { key: "email", label: "E-mail" },
    { key: "participants", label: "Participants" },
    { key: "amount", label: "Montant", render: (row) => formatMoney(row.total_amount ?? row.amount) },
    { key: "status", label: "Statut", sort: "status", render: (row) => row.status_display || STATUS[row.status] || row.status },
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
    { key: "eventType", label: "Type", render: (row) => row.eventType || row.event_type },
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

export const passesConfig = {
  key: "passes",
  title: "Cartes et abonnements",
  endpoint: "/api/passes",
  label: (row) => `la carte ${row.id}`,
  serverPaged: true,
  canDelete: false,
  columns: [
    { key: "member", label: "Membre", render: (row) => row.user_name || row.member || person(row) },
    { key: "title", label: "Offre", render: (row) => row.title || row.tariff_title },
    { key: "credits", label: "Crédits restants", render: (row) => row.credits_left ?? row.credits ?? "—" },
    { key: "valid_until", label: "Valable jusqu'au", render: (row) => formatDate(row.valid_until || row.expires_at || row.end_date) },
  ],
  messages: { load: MSG_PASSES_LOAD },
};
reservationsConfig.messages = { load: MSG_RESERVATIONS_LOAD };
partiesConfig.messages = { load: MSG_RESERVATIONS_LOAD };
rentalsConfig.messages = { load: MSG_RENTALS_LOAD };

export const Reservations = (props) => <ResourceSection config={reservationsConfig} {...props} />;
export const Parties = (props) => <ResourceSection config={partiesConfig} {...props} />;
export const Rentals = (props) => <ResourceSection config={rentalsConfig} {...props} />;
export const Passes = (props) => <ResourceSection config={passesConfig} {...props} />;
