/* The attendance sheet of a session (docs/decisions.md 38), used on a phone at the studio door: present or
   absent per booked member (big buttons), the no-shows on each member's record, and "Ajouter un client": staff book
   a client into the class on their behalf (docs/decisions.md 50), paid with their class card or subscription, paid
   now at the desk (one or several means adding up to the price), or "à régler". */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import Modal from "../../../components/Modal.jsx";
import { formatDateTime } from "../format.js";
import { formatDate, formatLongDate, formatTime, toCents } from "../../../components/format.js";
import { ClientPicker, MeansLines, linesForApi, newLine, remainderCents, saleKey } from "./DeskParts.jsx";
import QrCheckin from "./QrCheckin.jsx";

export const MSG_HEALTH_MISSING = "Questionnaire de santé à compléter";
export function healthFlagText(since) {
  return `À signaler (déclaré le ${formatDate(since)})`;
}

export const MSG_SHEET_LOAD = "Erreur lors du chargement de la feuille de présence.";
export const MSG_MARK_FAILED = "La présence n'a pas pu être enregistrée. Veuillez réessayer.";
export const MSG_WALK_IN_FAILED = "L'ajout n'a pas pu être enregistré. Veuillez réessayer.";
export const MSG_CANCEL_FAILED = "L'annulation n'a pas pu être enregistrée. Veuillez réessayer.";
export const MSG_ADD_FAILED = "L'inscription n'a pas pu être enregistrée. Veuillez réessayer.";
export const MSG_CHOOSE_CLIENT = "Choisissez d'abord le client à inscrire.";
export const MSG_MEANS_DO_NOT_ADD_UP = "Les moyens de paiement doivent totaliser le prix de la séance.";
export const MSG_SHEET_CANCELLED = "Ce cours est annulé : pas de feuille de présence.";
export const MSG_CHECKIN_FAILED = "Le code QR n'a pas pu être vérifié. Veuillez réessayer.";

/** When the sheet opens, as the server's rule gives it (`attendance_opens_at`): "La feuille de présence ouvre le …". */
export function sheetOpensMessage(opensAt) {
  return `La feuille de présence ouvre le ${formatLongDate(opensAt)} à ${formatTime(opensAt)}.`;
}

/** `canBook`: staff (the dashboard) book a client on their behalf until the class starts; an instructor's own page,
    and staff once the class has started, add a walk-in at the door by e-mail, marked present (the walk-in API, open
    to the class's instructor). */
export function AttendanceSheet({ sessionId, canBook = false }) {
  const fetched = useApi(`/api/course-sessions/${sessionId}/attendance`, { fallback: MSG_SHEET_LOAD });
  const [sheet, setSheet] = useState(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
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
  const added = async (message) => {
    setSheet(await api(`/api/course-sessions/${sessionId}/attendance`));
    setNotice(message);
    setError("");
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
  // Booking on a member's behalf ends when the class starts (as the member's own); a late arrival is then a walk-in.
  const started = Boolean(data.session?.date) && new Date(data.session.date) <= new Date();
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
      {!closed && <QrCheckin onCode={(code) => call(`/api/course-sessions/${sessionId}/check-in`, { code }, MSG_CHECKIN_FAILED)} />}
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
                {/* Of the health questionnaire, only this flag and its date (docs/decisions.md 48). */}
                {line.health_flag_since && <span className="badge attendance-health">{healthFlagText(line.health_flag_since)}</span>}
                {line.health_missing && <span className="attendance-health-missing">{MSG_HEALTH_MISSING}</span>}
                {canBook && !started && <CancelOnBehalf sessionId={sessionId} line={line} name={name} busy={busy} setBusy={setBusy} onCancelled={added} onError={setError} />}
                {canBook && line.desk_payment === "due" && (
                  <SettleAtDesk line={line} name={name} price={data.session?.price_per_participant} busy={busy} setBusy={setBusy} onSettled={added} onError={setError} />
                )}
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
      {(!canBook || started) && !closed && <WalkInForm sessionId={sessionId} busy={busy} call={call} />}
      {canBook && !started && data.session?.status !== "cancelled" && (
        <AddClientForm sessionId={sessionId} price={data.session?.price_per_participant} busy={busy} setBusy={setBusy} onAdded={added} onError={setError} />
      )}
    </div>
  );
}

function WalkInForm({ sessionId, busy, call }) {
  const [walkIn, setWalkIn] = useState({ email: "", participants: "1", paid_with: "pass" });
  const addWalkIn = async (event) => {
    event.preventDefault();
    const body = { email: walkIn.email.trim(), participants: Number(walkIn.participants || 1), paid_with: walkIn.paid_with };
    if (await call(`/api/course-sessions/${sessionId}/walk-ins`, body, MSG_WALK_IN_FAILED)) setWalkIn({ email: "", participants: "1", paid_with: "pass" });
  };
  return (
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
  );
}

/** Staff cancel a booking on the member's behalf, under the member's own rules (free or late, credits, e-mails):
    asked once more before it is done. */
export function CancelOnBehalf({ sessionId, line, name, busy, setBusy, onCancelled, onError }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button button-small button-secondary" onClick={() => setAsking(true)}>
        Annuler sa réservation
      </button>
    );
  }
  const cancel = async () => {
    setBusy(true);
    onError("");
    try {
      const answer = await api(`/api/course-sessions/${sessionId}/bookings/${line.reservation_id}/cancel`, { method: "POST" });
      await onCancelled(answer.message);
    } catch (err) {
      onError(errorMessage(err, MSG_CANCEL_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="desk-cancel" role="group" aria-label={`Annuler la réservation de ${name}`}>
      Annuler la réservation de {name} ? (règles du membre : gratuite ou tardive)
      <button type="button" className="button button-small" disabled={busy} onClick={cancel}>
        Confirmer l'annulation
      </button>
      <button type="button" className="button button-small button-secondary" onClick={() => setAsking(false)}>
        Garder
      </button>
    </span>
  );
}

/** A booking "à régler" settled at the desk: a sale of that reservation (POST /api/desk/sales), one or several means
    adding up to its price. */
export function SettleAtDesk({ line, name, price, busy, setBusy, onSettled, onError }) {
  const priceCents = toCents(price) * line.participants;
  const [open, setOpen] = useState(false);
  const [lines, setLines] = useState(() => [newLine((priceCents / 100).toFixed(2))]);
  const [key] = useState(saleKey);
  if (!open) {
    return (
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        Régler à l'accueil
      </button>
    );
  }
  const submit = async (event) => {
    event.preventDefault();
    if (remainderCents(priceCents, lines) !== 0) return onError(MSG_MEANS_DO_NOT_ADD_UP);
    setBusy(true);
    onError("");
    try {
      const answer = await api("/api/desk/sales", {
        method: "POST",
        body: { user_id: line.user_id, reservation_id: line.reservation_id, payments: linesForApi(lines), idempotency_key: key },
      });
      await onSettled(answer.message);
    } catch (err) {
      onError(errorMessage(err, MSG_ADD_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="desk-settle" onSubmit={submit} noValidate aria-label={`Régler la séance de ${name}`}>
      <MeansLines idPrefix={`settle-${line.reservation_id}`} lines={lines} onChange={setLines} priceCents={priceCents} />
      <button type="submit" className="button button-small" disabled={busy}>
        Encaisser
      </button>
    </form>
  );
}

/** "Ajouter un client": book a client into this class on their behalf (POST /api/course-sessions/{id}/bookings). */
export function AddClientForm({ sessionId, price, busy, setBusy, onAdded, onError }) {
  const [client, setClient] = useState(null);
  const [participants, setParticipants] = useState("1");
  const [paidWith, setPaidWith] = useState("pass");
  const [lines, setLines] = useState([newLine()]);
  const [key, setKey] = useState(saleKey);
  const count = Math.max(Number.parseInt(participants, 10) || 1, 1);
  const priceCents = toCents(price) * count;

  const submit = async (event) => {
    event.preventDefault();
    if (!client) return onError(MSG_CHOOSE_CLIENT);
    if (paidWith === "desk" && remainderCents(priceCents, lines) !== 0) return onError(MSG_MEANS_DO_NOT_ADD_UP);
    const body = { user_id: client.id, participants: count, paid_with: paidWith };
    if (paidWith === "desk") Object.assign(body, { payments: linesForApi(lines), idempotency_key: key });
    setBusy(true);
    onError("");
    try {
      const answer = await api(`/api/course-sessions/${sessionId}/bookings`, { method: "POST", body });
      setClient(null);
      setParticipants("1");
      setLines([newLine()]);
      setKey(saleKey());
      await onAdded(answer.message);
    } catch (err) {
      onError(errorMessage(err, MSG_ADD_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="attendance-walk-in" onSubmit={submit} noValidate>
      <h3>Ajouter un client</h3>
      <ClientPicker id={`add-client-search-${sessionId}`} value={client} onChange={setClient} />
      <label htmlFor={`add-client-participants-${sessionId}`}>Participants</label>
      <input id={`add-client-participants-${sessionId}`} type="number" min="1" step="1" inputMode="numeric" value={participants} onChange={(e) => setParticipants(e.target.value)} />
      <fieldset>
        <legend>Paiement</legend>
        <label>
          <input type="radio" name={`add-client-paid-${sessionId}`} value="pass" checked={paidWith === "pass"} onChange={() => setPaidWith("pass")} /> Carte de cours ou abonnement
        </label>
        <label>
          <input type="radio" name={`add-client-paid-${sessionId}`} value="desk" checked={paidWith === "desk"} onChange={() => setPaidWith("desk")} /> Payé à l'accueil
        </label>
        <label>
          <input type="radio" name={`add-client-paid-${sessionId}`} value="due" checked={paidWith === "due"} onChange={() => setPaidWith("due")} /> À régler
        </label>
      </fieldset>
      {paidWith === "desk" && <MeansLines idPrefix={`add-client-${sessionId}`} lines={lines} onChange={setLines} priceCents={priceCents} />}
      <button type="submit" className="button" disabled={busy}>
        Inscrire au cours
      </button>
    </form>
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
          <AttendanceSheet sessionId={session.id} canBook />
        </Modal>
      )}
    </>
  );
}
