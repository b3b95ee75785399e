/* The calendar's French messages (SPEC.md 2.9, 5, 8) and the small rules the popup applies before the server does. */
export const MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours.";
export const MSG_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées.";
export const MSG_FULL = "Cette session est complète.";
export const MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session.";
export const MSG_REQUIRED = "❌ Veuillez renseigner tous les champs obligatoires.";
export const MSG_SENT = "✅ Réservation envoyée avec succès !";
export const MSG_LOAD_ERROR = "Erreur lors du chargement des cours.";
export const MSG_RESERVE_ERROR = "Erreur lors de la réservation.";
export const LABEL_FULL = "Complet";

/** Participants: a number, at least 1, at most the seats left; anything non-numeric becomes 1 (SPEC.md 5). */
export function normalizeParticipants(value, max) {
  const parsed = Number.parseInt(String(value ?? "").trim(), 10);
  let n = Number.isFinite(parsed) && parsed >= 1 ? parsed : 1;
  if (Number.isFinite(max) && max >= 1 && n > max) n = max;
  return n;
}

/** Price × participants as a 2-decimal string, computed in cents (display only: the server prices the order). */
export function formatTotal(pricePerParticipant, participants) {
  const cents = Math.round(Number.parseFloat(pricePerParticipant || "0") * 100);
  return ((cents * participants) / 100).toFixed(2);
}

export function seatsLabel(seatsLeft) {
  if (seatsLeft <= 0) return LABEL_FULL;
  return seatsLeft === 1 ? "1 place restante" : `${seatsLeft} places restantes`;
}

const PARIS = "Europe/Paris";

export function formatDate(iso) {
  return new Intl.DateTimeFormat("fr-FR", { timeZone: PARIS, weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(new Date(iso));
}

export function formatTime(iso) {
  return new Intl.DateTimeFormat("fr-FR", { timeZone: PARIS, hour: "2-digit", minute: "2-digit", hour12: false }).format(new Date(iso));
}

/** Which popup a click opens: "login" (toast), "past", "full", "reserved" or "reserve". */
export function clickOutcome({ user, session, now = new Date() }) {
  if (!user) return "login";
  if (new Date(session.date) <= now) return "past";
  if (session.my_reservation && session.my_reservation.status === "confirmed") return "reserved";
  if (session.seats_left <= 0) return "full";
  return "reserve";
}
