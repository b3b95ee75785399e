/* The waiting list of a full session (docs/decisions.md 28): join (optionally booking automatically with a pass
   that can pay), see the true position, leave. Shown in the "Session complète" popup to a logged-in member. */
import { lazy, Suspense, useCallback, useEffect, useId, useState } from "react";

import { api } from "../../components/api.js";
import { asksHealth } from "./health.js";
import { isUsablePass, passLabel } from "./messages.js";

const HealthStep = lazy(() => import("./HealthStep.jsx"));

export const MSG_WAITLIST_INTRO = "Inscrivez-vous sur la liste d'attente : si une place se libère, elle vous est proposée par e-mail.";
export const LABEL_AUTO_BOOK = "Réserver automatiquement avec ma carte/mon abonnement";
export const MSG_WAITLIST_LOAD_ERROR = "La liste d'attente n'a pas pu être chargée.";
export const LABEL_WAITLIST_PARTICIPANTS = "Nombre de participants";

export function participantsLabel(session) {
  const taken = Math.max((session.max_attendees ?? 0) - Math.max(session.seats_left ?? 0, 0), 0);
  return taken === 1 ? "1 participant inscrit" : `${taken} participants inscrits`;
}

export function positionLabel(entry) {
  if (!entry) return "";
  if (entry.status === "offered") return "Une place vous est proposée : payez-la avant l'heure indiquée dans l'e-mail.";
  return `Vous êtes en position ${entry.position} sur la liste d'attente.`;
}

export default function WaitlistPanel({ session, waitlistUrl = `/api/course-sessions/${session.id}/waitlist`, mineUrl = "/api/waitlist/mine", passesUrl = "/api/passes/mine", onClose }) {
  const id = useId();
  const [entry, setEntry] = useState(undefined); // undefined: loading; null: not in line
  const [passes, setPasses] = useState([]);
  const [autoBook, setAutoBook] = useState(false);
  const [passId, setPassId] = useState("");
  const [participants, setParticipants] = useState("1");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [health, setHealth] = useState(""); // the server's reason when it asks the health step first

  const load = useCallback(async () => {
    try {
      const mine = await api(mineUrl);
      setEntry(mine.find((e) => e.session_id === session.id) || null);
    } catch {
      setEntry(null);
      setError(MSG_WAITLIST_LOAD_ERROR);
    }
  }, [mineUrl, session.id]);

  useEffect(() => {
    load();
    api(passesUrl)
      .then((list) => {
        const usable = (list || []).filter(isUsablePass);
        setPasses(usable);
        if (usable.length) setPassId(String(usable[0].id));
      })
      .catch(() => setPasses([]));
  }, [load, passesUrl]);

  const join = async () => {
    setBusy(true);
    setError("");
    try {
      const body = autoBook ? { auto_book: true, pass_id: Number(passId) } : { auto_book: false };
      // The seats asked for (1 by default); the server refuses more than the class has, in French.
      const asked = Number(participants);
      if (participants !== "1") body.participants = Number.isInteger(asked) ? asked : participants;
      await api(waitlistUrl, { method: "POST", body });
      await load();
    } catch (err) {
      if (asksHealth(err)) setHealth(err.message);
      else setError(err.message || MSG_WAITLIST_LOAD_ERROR);
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    setBusy(true);
    setError("");
    try {
      await api(waitlistUrl, { method: "DELETE" });
      await load();
    } catch (err) {
      setError(err.message || MSG_WAITLIST_LOAD_ERROR);
    } finally {
      setBusy(false);
    }
  };

  if (health) {
    return (
      <Suspense fallback={<p aria-busy="true">Chargement…</p>}>
        <HealthStep
          reason={health}
          onCancel={() => setHealth("")}
          onDone={() => {
            setHealth("");
            join(); // recorded: the member joins the line as they asked
          }}
        />
      </Suspense>
    );
  }

  return (
    <div className="waitlist-panel">
      <p className="waitlist-participants">{participantsLabel(session)} sur {session.max_attendees} places.</p>
      {entry === undefined && <p aria-busy="true">Chargement…</p>}
      {entry === null && (
        <>
          <p>{MSG_WAITLIST_INTRO}</p>
          <div className="field waitlist-count">
            <label htmlFor={`${id}-participants`}>{LABEL_WAITLIST_PARTICIPANTS}</label>
            <input
              id={`${id}-participants`}
              type="number"
              inputMode="numeric"
              min="1"
              max={session.max_attendees}
              step="1"
              value={participants}
              onChange={(e) => setParticipants(e.target.value)}
            />
          </div>
          {passes.length > 0 && (
            <div className="waitlist-auto">
              <label htmlFor={`${id}-auto`}>
                <input id={`${id}-auto`} type="checkbox" checked={autoBook} onChange={(e) => setAutoBook(e.target.checked)} /> {LABEL_AUTO_BOOK}
              </label>
              {autoBook && (
                <select aria-label="Carte ou abonnement" value={passId} onChange={(e) => setPassId(e.target.value)}>
                  {passes.map((p) => (
                    <option key={p.id} value={p.id}>{passLabel(p)}</option>
                  ))}
                </select>
              )}
            </div>
          )}
        </>
      )}
      {entry && <p className="waitlist-position" role="status">{positionLabel(entry)}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="modal-actions">
        {entry === null && <button type="button" className="button" disabled={busy} onClick={join}>Rejoindre la liste d'attente</button>}
        {entry && <button type="button" className="button button-secondary" disabled={busy} onClick={leave}>Quitter la liste d'attente</button>}
        <button type="button" className="button button-secondary" onClick={onClose}>Fermer</button>
      </div>
    </div>
  );
}
