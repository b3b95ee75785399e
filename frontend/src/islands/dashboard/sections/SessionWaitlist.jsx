/* Staff see a session's waiting list (docs/decisions.md 28, 35) from the sessions list, "Liste d'attente (N)":
   each member's position, participants, whether a seat is booked automatically with their pass, and an offer
   made with its expiry. One card per member, so it reads on a 390 px phone. */
import { useState } from "react";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { formatDateTime } from "../format.js";

export const MSG_WAITLIST_LOAD = "Erreur lors du chargement de la liste d'attente.";
export const MSG_WAITLIST_EMPTY = "Personne n'attend de place pour ce cours.";
export const AUTO_BOOK_YES = "Réservation automatique avec sa carte ou son abonnement";
export const AUTO_BOOK_NO = "Pas de réservation automatique : un lien de paiement lui est envoyé";

export function waitlistButtonLabel(count) {
  return `Liste d'attente (${count ?? 0})`;
}

/** "1er en attente", "2e en attente", or the offer and until when. */
export function entryStatusText(entry) {
  if (entry.status === "offered") {
    return entry.offer_expires_at ? `Place proposée, valable jusqu'au ${formatDateTime(entry.offer_expires_at)}` : "Place proposée";
  }
  return entry.position ? `${entry.position === 1 ? "1re" : `${entry.position}e`} place dans la file` : entry.status_label || "En liste d'attente";
}

export function WaitlistPanel({ sessionId }) {
  const fetched = useApi(`/api/course-sessions/${sessionId}/waitlist`, { fallback: MSG_WAITLIST_LOAD });
  if (fetched.error) {
    return (
      <p className="form-error" role="alert">
        {fetched.error}
      </p>
    );
  }
  if (!fetched.data) return <p>Chargement…</p>;
  const entries = fetched.data.results || [];
  if (entries.length === 0) return <p>{MSG_WAITLIST_EMPTY}</p>;
  return (
    <ol className="waitlist-staff" aria-label="Membres en liste d'attente, dans l'ordre">
      {entries.map((entry) => {
        const name = `${entry.first_name || ""} ${entry.last_name || ""}`.trim() || entry.email;
        return (
          <li key={entry.id} className={`waitlist-staff-entry waitlist-staff-${entry.status}`}>
            <strong className="waitlist-staff-status">{entryStatusText(entry)}</strong>
            <span className="waitlist-staff-who">
              {name} · <a href={`mailto:${entry.email}`}>{entry.email}</a>
            </span>
            <span>{entry.participants} participant(s)</span>
            <span>{entry.auto_book ? AUTO_BOOK_YES : AUTO_BOOK_NO}</span>
            <span className="help">Inscrit(e) le {formatDateTime(entry.joined_at)}</span>
          </li>
        );
      })}
    </ol>
  );
}

export function WaitlistButton({ session }) {
  const [open, setOpen] = useState(false);
  const count = session.waitlist_count ?? 0;
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        {waitlistButtonLabel(count)}
        <span className="visually-hidden">
          {" "}
          : {session.course_title || "session"} du {formatDateTime(session.date)}
        </span>
      </button>
      {/* Kept mounted, so that closing it (Escape, ×) gives the focus back to this button. */}
      <Modal open={open} title={`Liste d'attente : ${session.course_title || ""} – ${formatDateTime(session.date)}`} onClose={() => setOpen(false)}>
        {open && <WaitlistPanel sessionId={session.id} />}
      </Modal>
    </>
  );
}
