/* The booking popup's health step (docs/decisions.md 48): before a member's first booking, or after a new version of
   the questionnaire, the waiver or the house rules (or a year), the server refuses the booking with 409
   `declaration_required`/`declaration_renew`; the popup then shows this step: yes/no answers (the advice of a "yes"
   shown under it), both documents to read, one box to accept them; recorded, the booking is sent again. Lazy-loaded:
   most bookings never need it. */
import { useCallback, useEffect, useId, useState } from "react";
import { api } from "../../components/api.js";
import { notify } from "../../components/toast.jsx";
import "./health.css";

export const MSG_HEALTH_LOAD_ERROR = "Le questionnaire n'a pas pu être chargé. Veuillez réessayer.";
export const MSG_ANSWER_EACH = "Répondez par oui ou par non à chaque question.";
export const MSG_ACCEPT_BOTH = "Acceptez la décharge de responsabilité et le règlement intérieur pour réserver.";
export const LABEL_ACCEPT = "J'ai lu et j'accepte la décharge de responsabilité et le règlement intérieur.";
export const LABEL_SUBMIT = "Valider et réserver";

function Document({ doc }) {
  if (!doc) return null;
  return (
    <details className="health-document">
      <summary>
        {doc.title} <span className="help">(version {doc.version})</span>
      </summary>
      {doc.body.split(/\n\s*\n/).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </details>
  );
}

export default function HealthStep({ reason, currentUrl = "/api/health/current", declareUrl = "/api/health/declaration", submitLabel = LABEL_SUBMIT, onDone, onCancel }) {
  const id = useId();
  const [current, setCurrent] = useState(null);
  const [answers, setAnswers] = useState([]);
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const data = await api(currentUrl);
      setCurrent(data);
      setAnswers((data.questionnaire?.questions || []).map(() => null));
      setAccepted(false);
    } catch {
      setError(MSG_HEALTH_LOAD_ERROR);
    }
  }, [currentUrl]);

  useEffect(() => {
    load();
  }, [load]);

  const questions = current?.questionnaire?.questions || [];
  const hasDocuments = Boolean(current?.waiver || current?.house_rules);

  async function submit() {
    if (answers.some((a) => a === null)) {
      setError(MSG_ANSWER_EACH);
      return;
    }
    if (hasDocuments && !accepted) {
      setError(MSG_ACCEPT_BOTH);
      return;
    }
    setError("");
    setBusy(true);
    try {
      const data = await api(declareUrl, {
        method: "POST",
        body: {
          questionnaire_version: current.questionnaire?.version ?? null,
          waiver_version: current.waiver?.version ?? null,
          house_rules_version: current.house_rules?.version ?? null,
          answers,
          accepted,
        },
      });
      notify(data?.message, "success");
      onDone?.(data);
    } catch (err) {
      setError(err.message || MSG_HEALTH_LOAD_ERROR);
      if (err.status === 409) await load(); // a new version meanwhile: read it again
    } finally {
      setBusy(false);
    }
  }

  const answer = (index, value) => setAnswers((prev) => prev.map((a, i) => (i === index ? value : a)));
  return (
    <section className="health-step" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Questionnaire de santé</h3>
      {reason && <p className="form-info" role="status">{reason}</p>}
      {current === null && !error && <p aria-busy="true">Chargement…</p>}
      {questions.map((question, index) => (
        <fieldset key={index} className="health-question">
          <legend>{question.text}</legend>
          <label className="field-check">
            <input type="radio" name={`${id}-q${index}`} checked={answers[index] === true} onChange={() => answer(index, true)} /> Oui
          </label>
          <label className="field-check">
            <input type="radio" name={`${id}-q${index}`} checked={answers[index] === false} onChange={() => answer(index, false)} /> Non
          </label>
          {answers[index] === true && question.advice && <p className="help health-advice">{question.advice}</p>}
        </fieldset>
      ))}
      <Document doc={current?.waiver} />
      <Document doc={current?.house_rules} />
      {hasDocuments && (
        <label className="field-check">
          <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} /> {LABEL_ACCEPT}
        </label>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Annuler
        </button>
        <button type="button" className="button" disabled={busy || current === null} onClick={submit}>
          {submitLabel}
        </button>
      </div>
    </section>
  );
}
