/* The calendar's French messages and the small rules the popup applies before the server does. */
import { amountTimes, formatDate, formatter, formatTime, TIME_ZONE } from "../../components/format.js";

export const MSG_LOGIN_TO_RESERVE = "Vous devez être connecté pour réserver un cours.";
export const MSG_OFFLINE_READ_ONLY = "Hors connexion : le planning est en lecture seule. Réservez dès que le réseau revient.";
export const MSG_PAST = "Erreur - La date et l'heure sélectionnées sont déjà passées.";
export const MSG_FULL = "Cette session est complète.";
export const MSG_ALREADY_RESERVED = "Vous avez déjà une réservation pour cette session.";
export const MSG_REQUIRED = "❌ Veuillez renseigner tous les champs obligatoires.";
export const MSG_SENT = "✅ Réservation envoyée avec succès !";
export const MSG_LOAD_ERROR = "Erreur lors du chargement des cours.";
export const MSG_RESERVE_ERROR = "Erreur lors de la réservation.";
export const LABEL_FULL = "Complet";
// A class the studio cancelled stays in the calendar (docs/decisions.md 27), marked "Annulé", and cannot be booked.
export const LABEL_CANCELLED = "Annulé";
export const MSG_CANCELLED = "Ce cours est annulé par le studio : il ne peut plus être réservé.";
// A class that has started is not bookable: it says so instead of a seats count.
export const LABEL_STARTED = "En cours";
export const LABEL_ENDED = "Terminé";

/** Whether a class has started (then it cannot be booked, as `clickOutcome` says) and whether it has ended. */
export function sessionTiming(session, now = new Date()) {
  return { started: new Date(session.date) <= now, ended: new Date(session.end_date || session.date) <= now };
}
export const MSG_PASSES_LOAD_ERROR = "Vos cartes et abonnements n'ont pas pu être chargés : vous pouvez payer par carte bancaire.";
export const LABEL_PAY_BY_CARD = "Payer par carte bancaire";
export const LABEL_CONTACT_DETAILS = "Vos coordonnées et un message";

/** The member's own unpaid hold on the class, shown in the booking form, which resumes it. */
export function heldNotice(participants) {
  return `Vous avez déjà ${participants} place(s) retenue(s) pour ce cours, en attente de paiement : validez pour reprendre votre réservation et la payer.`;
}

/** The seats the member can take: those left, plus the ones their own live reservation already holds. */
export function seatsForMember(session) {
  const mine = session.my_reservation && session.my_reservation.status === "held" ? session.my_reservation.participants || 0 : 0;
  return Math.max(session.seats_left, 0) + mine;
}

/** 'YYYY-MM-DD' → 'JJ/MM/AAAA' (the pass's validity, a plain day). */
export function formatDay(isoDay) {
  return isoDay ? formatDate(isoDay) : "";
}

/** A pass usable to book (the server checks the session's day and the credits again). */
export function isUsablePass(pass) {
  if (!pass || !["active", "upcoming"].includes(pass.state)) return false;
  return pass.kind === "subscription" || (pass.credits_left ?? 0) > 0;
}

/** 'Carte 10 cours — 7 crédits restants, valable jusqu'au 22/05/2027'. */
export function passLabel(pass) {
  const until = `valable jusqu'au ${formatDay(pass.expires_on)}`;
  if (pass.kind === "subscription") return `${pass.title} — illimité, ${until}`;
  const left = pass.credits_left === 1 ? "1 crédit restant" : `${pass.credits_left} crédits restants`;
  return `${pass.title} — ${left}, ${until}`;
}

/** What booking `participants` with `pass` costs, as shown before sending. */
export function passCost(pass, participants) {
  if (pass.kind === "subscription") return "inclus dans votre abonnement";
  return participants === 1 ? "1 crédit" : `${participants} crédits`;
}

/** Participants: a number, at least 1, at most the seats left; anything non-numeric becomes 1. */
export function normalizeParticipants(value, max) {
  const parsed = Number.parseInt(String(value ?? "").trim(), 10);
  let n = Number.isFinite(parsed) && parsed >= 1 ? parsed : 1;
  if (Number.isFinite(max) && max >= 1 && n > max) n = max;
  return n;
}

/** Price × participants as a 2-decimal string, computed in cents (the server prices the order again; shown through euros()). */
export function formatTotal(pricePerParticipant, participants) {
  return amountTimes(pricePerParticipant, participants);
}

export function seatsLabel(seatsLeft) {
  if (seatsLeft <= 0) return LABEL_FULL;
  return seatsLeft === 1 ? "1 place restante" : `${seatsLeft} places restantes`;
}

export { formatLongDate as formatDate, formatTime } from "../../components/format.js";

const DAY_MONTH_YEAR = formatter(() => new Intl.DateTimeFormat("fr-FR", { timeZone: TIME_ZONE, day: "numeric", month: "long", year: "numeric" }));

/** "6 mars 2030 à 00:00": a moment as the server's messages write it (Paris time). */
export function momentText(iso) {
  return iso ? `${DAY_MONTH_YEAR().format(new Date(iso))} à ${formatTime(iso)}` : "";
}

// docs/decisions.md 45: a session opens for booking some days before it starts; the feed says when.
export const LABEL_NOT_OPEN = "Réservations pas encore ouvertes";

/** Whether the session does not take bookings yet (`booking_opens_at` in the future). */
export function bookingNotOpen(session, now = new Date()) {
  return Boolean(session.booking_opens_at) && new Date(session.booking_opens_at) > now;
}

/** "Réservations à partir du 6 mars 2030 à 00:00". */
export function opensLabel(session) {
  return `Réservations à partir du ${momentText(session.booking_opens_at)}`;
}

// docs/decisions.md 44: the popup states the free-cancellation window in words.
export const MSG_LATE_CANCELLATION_RULE =
  "Après, vous pouvez encore annuler (annulation tardive) : le studio conserve votre crédit ou votre paiement, sauf si votre place est reprise avant le cours.";

/** "Annulation gratuite jusqu'au 19 mars 2030 à 18:30." */
export function freeCancellationText(iso) {
  return `Annulation gratuite jusqu'au ${momentText(iso)}.`;
}

/** Which popup a click opens: "cancelled", "login" (toast), "past", "not_open", "full", "reserved" or "reserve". */
export function clickOutcome({ user, session, now = new Date() }) {
  if (session.status === "cancelled") return "cancelled";
  if (!user) return "login";
  if (new Date(session.date) <= now) return "past";
  if (!session.my_reservation && bookingNotOpen(session, now)) return "not_open";
  if (session.my_reservation && session.my_reservation.status === "confirmed") return "reserved";
  // A hold of mine (e.g. a seat the waiting list offered me) is paid from the reservation popup, full or not.
  if (session.my_reservation && session.my_reservation.status === "held") return "reserve";
  if (session.seats_left <= 0) return "full";
  return "reserve";
}
