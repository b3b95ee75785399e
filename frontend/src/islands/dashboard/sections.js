/* The sidebar's sections, in the product's order; each loads its code on first visit (webpack splits them), except
   the overview, the page's default: it comes with the dashboard's own code, so that its figures are asked for without
   waiting for one more download (they are what a phone shows first and largest). */
import Overview from "./sections/Overview.jsx";

export const SECTIONS = [
  { key: "overview", label: "Vue d'ensemble", load: () => Promise.resolve({ default: Overview }) },
  { key: "users", label: "Utilisateurs", load: () => import("./sections/Users.jsx") },
  { key: "courses", label: "Cours", load: () => import("./sections/Courses.jsx") },
  { key: "tarifs", label: "Tarifs", load: () => import("./sections/Tarifs.jsx") },
  { key: "testimonials", label: "Témoignages", load: () => import("./sections/Testimonials.jsx") },
  { key: "instructors", label: "Professeurs", load: () => import("./sections/Instructors.jsx") },
  { key: "contact-messages", label: "Messages de contact", load: () => import("./sections/ContactMessages.jsx") },
  { key: "sessions", label: "Sessions", load: () => import("./sections/Sessions.jsx") },
  { key: "slider", label: "Slider", load: () => import("./sections/Slider.jsx") },
  { key: "media", label: "Médias", load: () => import("./sections/Media.jsx") },
  { key: "slideshow", label: "Diaporama", load: () => import("./sections/Slideshow.jsx") },
  { key: "orders", label: "Commandes", load: () => import("./sections/Orders.jsx") },
  { key: "reservations", label: "Réservations", load: () => import("./sections/Lists.jsx").then((m) => ({ default: m.Reservations })) },
  { key: "parties", label: "EVJF/EVG", load: () => import("./sections/Requests.jsx").then((m) => ({ default: m.PartyRequests })) },
  { key: "rentals", label: "Locations de salle", load: () => import("./sections/Requests.jsx").then((m) => ({ default: m.RentalRequests })) },
  { key: "passes", label: "Cartes et abonnements", load: () => import("./sections/Passes.jsx") },
  { key: "subscriptions", label: "Abonnements mensuels", load: () => import("./sections/Subscriptions.jsx") },
  { key: "emails", label: "E-mails non remis", load: () => import("./sections/Emails.jsx") },
  { key: "exports", label: "Exports", load: () => import("./sections/Exports.jsx") },
];

export const DEFAULT_SECTION = "overview"; // the owner's numbers first
const KEYS = new Set(SECTIONS.map((s) => s.key));

/** '/admin/sessions' -> 'sessions'; '/admin/dashboard' and anything unknown -> the overview. */
export function sectionFromPath(pathname) {
  const match = String(pathname || "").match(/^\/admin\/([a-z-]+)\/?$/);
  return match && KEYS.has(match[1]) ? match[1] : DEFAULT_SECTION;
}

export const sectionPath = (key) => `/admin/${key}`;
