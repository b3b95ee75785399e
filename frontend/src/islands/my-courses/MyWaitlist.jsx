/* /my-courses: the waiting lists I am on (docs/decisions.md 28), with my true position, an offer to pay, and a way
   to leave. */
import { useState } from "react";

import { api } from "../../components/api.js";
import { formatShortDate, formatTime } from "../../components/format.js";
import { useApi } from "../../components/useApi.js";

export const MSG_WAITLIST_MINE_ERROR = "Vos listes d'attente n'ont pas pu être chargées.";

export function waitlistStatusLabel(entry) {
  if (entry.status === "offered") {
    const until = entry.offer_expires_at ? ` jusqu'à ${formatTime(entry.offer_expires_at)} le ${formatShortDate(entry.offer_expires_at)}` : "";
    return `Place proposée${until} : payez-la depuis le planning`;
  }
  return `Position ${entry.position}`;
}

/** `source`: the list already requested by the page (useWaitlist), so that it arrives with the page's other data. */
export function useWaitlist(url) {
  return useApi(url || null, { fresh: true, fallback: MSG_WAITLIST_MINE_ERROR });
}

export default function MyWaitlist({ url = "/api/waitlist/mine", calendarUrl = "/courses/calendar", source }) {
  const own = useWaitlist(source ? null : url);
  const { data, error, reload } = source || own;
  const [leaveError, setLeaveError] = useState("");
  const entries = Array.isArray(data) ? data : [];
  if (!error && entries.length === 0) return null;

  const leave = async (entry) => {
    setLeaveError("");
    try {
      await api(`/api/course-sessions/${entry.session_id}/waitlist`, { method: "DELETE" });
      reload();
    } catch (err) {
      setLeaveError(err.message || MSG_WAITLIST_MINE_ERROR);
    }
  };

  return (
    <section className="my-waitlist" aria-labelledby="my-waitlist-title">
      <h2 id="my-waitlist-title">Mes listes d'attente</h2>
      {(error || leaveError) && <p className="form-error" role="alert">{error || leaveError}</p>}
      <ul>
        {entries.map((entry) => (
          <li key={entry.id} data-session-id={entry.session_id}>
            <strong>{entry.title}</strong> — {formatShortDate(entry.date)} à {formatTime(entry.date)} : {entry.status === "offered" ? <a href={`${calendarUrl}?date=${entry.date.slice(0, 10)}&session=${entry.session_id}`}>{waitlistStatusLabel(entry)}</a> : waitlistStatusLabel(entry)}{" "}
            <button type="button" className="button button-secondary" onClick={() => leave(entry)}>Quitter la liste d'attente</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
