/* The attendance sheet of a session (docs/decisions.md 38), used on a phone at the studio door: present or
   absent per booked member (big buttons), the no-shows on each member's record, and walk-ins added at the door
   (paid with their class card or subscription, or at the desk). */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { formatDateTime } from "../format.js";
import { formatLongDate, formatTime } from "../../../components/format.js";

export const MSG_SHEET_LOAD = "Erreur lors du chargement de la feuille de présence.";
export const MSG_MARK_FAILED = "La présence n'a pas pu être enregistrée. Veuillez réessayer.";
export const MSG_WALK_IN_FAILED = "L'ajout n'a pas pu être enregistré. Veuillez réessayer.";
export const MSG_SHEET_CANCELLED = "Ce cours est annulé : pas de feuille de présence.";

/** When the sheet opens, as the server's rule gives it (`attendance_opens_at`): "La feuille de présence ouvre le …". */
export function sheetOpensMessage(opensAt) {
  return `La feuille de présence ouvre le ${formatLongDate(opensAt)} à ${formatTime(opensAt)}.`;
}

export function AttendanceSheet({ sessionId }) {
  const fetched = useApi(`/api/course-sessions/${sessionId}/attendance`, { fallback: MSG_SHEET_LOAD });
  const [sheet, setSheet] = useState(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const [walkIn, setWalkIn] = useState({ email: "", participants: "1", paid_with: "pass" });
  const data = sheet || fetched.data;

  const call = async (path, body, fallback) => {
    setBusy(true);
    setError("");
    try {
      const answer = await api(path, { method: "POST", body });
      setSheet(answer);
      setNotice(answer.message || "");
      return true;
    } catch (err) {
      setError(errorMessage(err, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const mark = (line, present) =>
    call(`/api/course-sessions/${sessionId}/attendance`, { reservation_id: line.reservation_id, present }, MSG_MARK_FAILED);
  const addWalkIn = async (event) => {
    event.preventDefault();
    const body = { email: walkIn.email.trim(), participants: Number(walkIn.participants || 1), paid_with: walkIn.paid_with };
    if (await call(`/api/course-sessions/${sessionId}/walk-ins`, body, MSG_WALK_IN_FAILED)) setWalkIn({ email: "", participants: "1", paid_with: "pass" });
  };

  if (fetched.error && !data) {
    return (
      <p className="form-error" role="alert">
        {fetched.error}
      </p>
    );
  }
  if (!data) return <p>Chargement…</p>;
  const { counts, results } = data;
  // The server says whether it accepts marks and walk-ins now; until then nothing is offered that it would refuse.
  const closed = data.session?.attendance_open === false;
  const closedNotice = data.session?.status === "cancelled" ? MSG_SHEET_CANCELLED : sheetOpensMessage(data.session?.attendance_opens_at);
  return (
    <div className="attendance">
      {closed && (
        <p className="attendance-closed" role="status">
          {closedNotice}
        </p>
      )}
      <p className="attendance-counts" aria-live="polite">
        {counts.booked} inscrit(s) · {counts.present} présent(s) · {counts.absent} absent(s) · {counts.unmarked} à pointer
      </p>
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {results.length === 0 && <p>Personne n'est inscrit à ce cours.</p>}
      <ul className="attendance-list">
        {results.map((line) => {
          const name = `${line.first_name} ${line.last_name}`.trim() || line.email;
          return (
            <li key={line.reservation_id} className={`attendance-line attendance-${line.attendance || "unmarked"}`}>
              <div className="attendance-who">
                <strong>{name}</strong>
                <span>
                  {line.participants} participant(s) · {line.payment}
                  {line.walk_in ? " · ajouté(e) à l'accueil" : ""}
                </span>
                {line.no_shows > 0 && <span className="attendance-noshows">{line.no_shows} absence(s) au total</span>}
              </div>
              {!closed && (
                <div className="attendance-buttons" role="group" aria-label={`Présence de ${name}`}>
                  <button type="button" className="button button-present" aria-pressed={line.attendance === "present"} disabled={busy} onClick={() => mark(line, true)}>
                    Présent
                  </button>
                  <button type="button" className="button button-absent" aria-pressed={line.attendance === "absent"} disabled={busy} onClick={() => mark(line, false)}>
                    Absent
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {!closed && (
        <form className="attendance-walk-in" onSubmit={addWalkIn} noValidate>
          <h3>Ajouter une personne à l'accueil</h3>
          <label htmlFor={`walk-in-email-${sessionId}`}>E-mail de son compte</label>
          <input id={`walk-in-email-${sessionId}`} type="email" inputMode="email" autoComplete="off" value={walkIn.email} onChange={(e) => setWalkIn({ ...walkIn, email: e.target.value })} />
          <label htmlFor={`walk-in-participants-${sessionId}`}>Participants</label>
          <input id={`walk-in-participants-${sessionId}`} type="number" min="1" step="1" inputMode="numeric" value={walkIn.participants} onChange={(e) => setWalkIn({ ...walkIn, participants: e.target.value })} />
          <fieldset>
            <legend>Paiement</legend>
            <label>
              <input type="radio" name={`walk-in-paid-${sessionId}`} value="pass" checked={walkIn.paid_with === "pass"} onChange={() => setWalkIn({ ...walkIn, paid_with: "pass" })} /> Carte de cours ou abonnement
            </label>
            <label>
              <input type="radio" name={`walk-in-paid-${sessionId}`} value="desk" checked={walkIn.paid_with === "desk"} onChange={() => setWalkIn({ ...walkIn, paid_with: "desk" })} /> Payé à l'accueil
            </label>
          </fieldset>
          <button type="submit" className="button" disabled={busy}>
            Ajouter et pointer présent
          </button>
        </form>
      )}
    </div>
  );
}

export function AttendanceButton({ session }) {
  const [open, setOpen] = useState(false);
  if (session.status === "cancelled") return null;
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        Présences
      </button>
      {open && (
        <Modal open title={`Présences : ${session.course_title || ""} – ${formatDateTime(session.date)}`} onClose={() => setOpen(false)}>
          <AttendanceSheet sessionId={session.id} />
        </Modal>
      )}
    </>
  );
}
