/* An instructor's substitutes (docs/decisions.md 52), on their classes page: ask for a substitute on one of their
   coming classes, withdraw that request, or accept a colleague's. The server decides who may do what (the first
   accept wins; the others hear it is taken) and says so in French; this shows its answers. */
import { useState } from "react";
import { api, errorMessage } from "../../components/api.js";
import { formatLongDate, formatTime } from "../../components/format.js";
import { useApi } from "../../components/useApi.js";

export const MSG_LOAD_REQUESTS = "Les demandes de remplacement n'ont pas pu être chargées. Rechargez la page.";

function when(item) {
  return `${formatLongDate(item.date)}, ${formatTime(item.date)}–${formatTime(item.end_date)}`;
}

function AskForm({ session, onDone, onCancel }) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const fieldId = `substitute-message-${session.id}`;

  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const answer = await api(`/api/course-sessions/${session.id}/substitute-requests`, { method: "POST", body: { message } });
      onDone(answer.confirmation);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <form className="substitute-ask" onSubmit={submit}>
      <label htmlFor={fieldId}>Message aux autres professeurs (facultatif)</label>
      <textarea id={fieldId} value={message} maxLength={1000} rows={2} onChange={(event) => setMessage(event.target.value)} />
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="substitute-actions">
        <button type="submit" className="button" disabled={busy}>Envoyer la demande</button>
        <button type="button" className="button button-secondary" onClick={onCancel}>Annuler</button>
      </div>
    </form>
  );
}

function RequestCard({ item, onAction }) {
  return (
    <li className="substitute-request">
      <strong>{item.course_title}</strong>
      <span>{when(item)}</span>
      <span>Demandé par {item.requested_by}{item.accepted_by ? ` · remplacé(e) par ${item.accepted_by}` : ""}</span>
      <span className="substitute-status">{item.status_label}</span>
      {item.message && <q>{item.message}</q>}
      {item.can_accept && (
        <button type="button" className="button" onClick={() => onAction(item, "accept")}>
          Accepter le remplacement
        </button>
      )}
      {item.can_withdraw && (
        <button type="button" className="button button-secondary" onClick={() => onAction(item, "withdraw")}>
          Retirer ma demande
        </button>
      )}
    </li>
  );
}

export function Substitutes() {
  const requests = useApi("/api/substitute-requests", { fallback: MSG_LOAD_REQUESTS, fresh: true });
  const sessions = useApi("/api/instructor/sessions", { fallback: MSG_LOAD_REQUESTS, fresh: true });
  const [asking, setAsking] = useState(null);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");

  function done(confirmation) {
    setAsking(null);
    setError("");
    setStatus(confirmation);
    requests.reload();
    sessions.reload();
  }

  async function act(item, action) {
    setStatus("");
    setError("");
    try {
      const answer = await api(`/api/substitute-requests/${item.id}/${action}`, { method: "POST" });
      done(answer.confirmation);
    } catch (failure) {
      setError(errorMessage(failure));
      requests.reload();
    }
  }

  const list = requests.data || [];
  const open = new Set(list.filter((r) => r.status === "open").map((r) => r.session_id));
  const now = Date.now();
  const askable = ((sessions.data && sessions.data.results) || []).filter(
    (s) => s.status === "scheduled" && new Date(s.date).getTime() > now && !open.has(s.id),
  );
  const loadError = requests.error || sessions.error;

  return (
    <section className="substitutes" aria-labelledby="substitutes-title">
      <h2 id="substitutes-title">Remplacements</h2>
      <p role="status" className="substitute-confirmation">{status}</p>
      {(error || loadError) && <p className="form-error" role="alert">{error || loadError}</p>}
      {requests.loading && !requests.data ? <p>Chargement…</p> : list.length === 0 ? (
        <p>Aucune demande de remplacement en cours.</p>
      ) : (
        <ul className="substitute-requests">
          {list.map((item) => <RequestCard key={item.id} item={item} onAction={act} />)}
        </ul>
      )}
      {askable.length > 0 && (
        <>
          <h3>Demander un remplaçant</h3>
          <ul className="substitute-sessions">
            {askable.map((session) => (
              <li key={session.id}>
                <span><strong>{session.course_title}</strong> · {when(session)}</span>
                {asking === session.id ? (
                  <AskForm session={session} onDone={done} onCancel={() => setAsking(null)} />
                ) : (
                  <button type="button" className="button button-secondary" onClick={() => { setStatus(""); setAsking(session.id); }}
                    aria-label={`Demander un remplaçant pour ${session.course_title}, ${when(session)}`}>
                    Demander un remplaçant
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
