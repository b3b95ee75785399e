/* The sidebar's sections, in the product's order; each section's code is its own chunk, named "section-<key>".
   The page that opens on a section names that chunk's files beside the dashboard's own scripts
   (templates/dashboard/dashboard.html), so they download together; the others load on first visit. */

export const SECTIONS = [
  { key: "overview", label: "Vue d'ensemble", load: () => import(/* webpackChunkName: "section-overview" */ "./sections/Overview.jsx") },
  { key: "users", label: "Utilisateurs", load: () => import(/* webpackChunkName: "section-users" */ "./sections/Users.jsx") },
  { key: "courses", label: "Cours", load: () => import(/* webpackChunkName: "section-courses" */ "./sections/Courses.jsx") },
  { key: "tarifs", label: "Tarifs", load: () => import(/* webpackChunkName: "section-tarifs" */ "./sections/Tarifs.jsx") },
  { key: "testimonials", label: "Témoignages", load: () => import(/* webpackChunkName: "section-testimonials" */ "./sections/Testimonials.jsx") },
  { key: "instructors", label: "Professeurs", load: () => import(/* webpackChunkName: "section-instructors" */ "./sections/Instructors.jsx") },
  { key: "team", label: "Équipe", load: () => import(/* webpackChunkName: "section-team" */ "./sections/Team.jsx") },
  { key: "contact-messages", label: "Messages de contact", load: () => import(/* webpackChunkName: "section-contact-messages" */ "./sections/ContactMessages.jsx") },
  { key: "sessions", label: "Sessions", load: () => import(/* webpackChunkName: "section-sessions" */ "./sections/Sessions.jsx") },
  { key: "slider", label: "Slider", load: () => import(/* webpackChunkName: "section-slider" */ "./sections/Slider.jsx") },
  { key: "media", label: "Médias", load: () => import(/* webpackChunkName: "section-media" */ "./sections/Media.jsx") },
  { key: "slideshow", label: "Diaporama", load: () => import(/* webpackChunkName: "section-slideshow" */ "./sections/Slideshow.jsx") },
  { key: "orders", label: "Commandes", load: () => import(/* webpackChunkName: "section-orders" */ "./sections/Orders.jsx") },
  { key: "reservations", label: "Réservations", load: () => import(/* webpackChunkName: "section-reservations" */ "./sections/Lists.jsx").then((m) => ({ default: m.Reservations })) },
  { key: "parties", label: "EVJF/EVG", load: () => import(/* webpackChunkName: "section-parties" */ "./sections/Requests.jsx").then((m) => ({ default: m.PartyRequests })) },
  { key: "rentals", label: "Locations de salle", load: () => import(/* webpackChunkName: "section-rentals" */ "./sections/Requests.jsx").then((m) => ({ default: m.RentalRequests })) },
  { key: "closures", label: "Fermetures", load: () => import(/* webpackChunkName: "section-closures" */ "./sections/Closures.jsx") },
  { key: "desk", label: "Caisse", load: () => import(/* webpackChunkName: "section-desk" */ "./sections/Desk.jsx") },
  { key: "passes", label: "Cartes et abonnements", load: () => import(/* webpackChunkName: "section-passes" */ "./sections/Passes.jsx") },
  { key: "subscriptions", label: "Abonnements mensuels", load: () => import(/* webpackChunkName: "section-subscriptions" */ "./sections/Subscriptions.jsx") },
  { key: "emails", label: "E-mails non remis", load: () => import(/* webpackChunkName: "section-emails" */ "./sections/Emails.jsx") },
  { key: "promo-codes", label: "Codes promo", load: () => import(/* webpackChunkName: "section-promo-codes" */ "./sections/PromoCodes.jsx") },
  { key: "exports", label: "Exports", load: () => import(/* webpackChunkName: "section-exports" */ "./sections/Exports.jsx") },
  { key: "health", label: "Santé et décharge", load: () => import(/* webpackChunkName: "section-health" */ "./sections/Health.jsx") },
  { key: "gift-cards", label: "Cartes cadeaux", load: () => import(/* webpackChunkName: "section-gift-cards" */ "./sections/GiftCards.jsx") },
  { key: "accounting", label: "Comptabilité", load: () => import(/* webpackChunkName: "section-accounting" */ "./sections/Accounting.jsx") },
];

export const DEFAULT_SECTION = "overview"; // the owner's numbers first
const KEYS = new Set(SECTIONS.map((s) => s.key));

/** '/admin/sessions' -> 'sessions'; '/admin/dashboard' and anything unknown -> the overview. */
export function sectionFromPath(pathname) {
  const match = String(pathname || "").match(/^\/admin\/([a-z-]+)\/?$/);
  return match && KEYS.has(match[1]) ? match[1] : DEFAULT_SECTION;
}

export const sectionPath = (key) => `/admin/${key}`;
