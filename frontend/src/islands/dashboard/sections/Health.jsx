/* Santé et décharge (docs/decisions.md 48): staff edit the health questionnaire (yes/no questions, each with an
   optional advice shown to a member who answers "yes"), the waiver and the house rules. Nothing is edited in place:
   publishing makes a new version, asked before each member's next booking; earlier versions stay readable as members
   accepted them. The members' answers are not here (the admins read them from a member's page). */
import { useEffect, useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import { formatDateTime } from "../format.js";
import { MSG_LOAD } from "../messages.js";

export const MSG_PUBLISHED = "Nouvelle version publiée : elle sera demandée avant la prochaine réservation de chaque membre.";
export const MSG_PUBLISH_FAILED = "La publication a échoué. Veuillez réessayer.";
export const MSG_QUESTION_TEXT_REQUIRED = "Chaque question a un texte.";
export const MSG_DOCUMENT_REQUIRED = "Donnez un titre et un texte au document.";
export const HEALTH_HELP =
  "Publier crée une nouvelle version : chaque membre la relit et l'accepte avant sa prochaine réservation. Les versions déjà acceptées restent consultables telles quelles.";
const KINDS = [
  ["waiver", "Décharge de responsabilité"],
  ["house_rules", "Règlement intérieur"],
];

function Feedback({ error, done }) {
  return (
    <>
      {error && <p className="form-error" role="alert">{error}</p>}
      {done && <p className="form-success" role="status">{done}</p>}
    </>
  );
}

function QuestionnaireEditor({ versions, onPublished }) {
  const latest = versions[0];
  const [questions, setQuestions] = useState(() => (latest?.questions || [{ text: "", advice: "" }]).map((q) => ({ ...q })));
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (latest) setQuestions(latest.questions.map((q) => ({ ...q })));
  }, [latest]);

  const change = (index, name) => (event) => setQuestions((prev) => prev.map((q, i) => (i === index ? { ...q, [name]: event.target.value } : q)));
  const publish = async (event) => {
    event.preventDefault();
    setDone("");
    if (questions.some((q) => !q.text.trim())) {
      setError(MSG_QUESTION_TEXT_REQUIRED);
      return;
    }
    setBusy(true);
    setError("");
    try {
      await api("/api/health/questionnaires", { method: "POST", body: { questions: questions.map((q) => ({ text: q.text.trim(), advice: q.advice.trim() })) } });
      setDone(MSG_PUBLISHED);
      onPublished();
    } catch (err) {
      setError(errorMessage(err, MSG_PUBLISH_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form health-editor" onSubmit={publish} noValidate>
      <h3>Questionnaire de santé {latest ? `(version ${latest.version} en vigueur)` : "(aucune version publiée)"}</h3>
      {questions.map((question, index) => (
        <fieldset key={index} className="health-editor-question">
          <legend>Question {index + 1}</legend>
          <div className="field">
            <label htmlFor={`health-q-${index}`}>Texte (réponse oui/non)</label>
            <input id={`health-q-${index}`} value={question.text} maxLength={300} onChange={change(index, "text")} />
          </div>
          <div className="field">
            <label htmlFor={`health-a-${index}`}>Conseil montré sur « oui » (facultatif)</label>
            <textarea id={`health-a-${index}`} value={question.advice} maxLength={1000} onChange={change(index, "advice")} />
          </div>
          {questions.length > 1 && (
            <button type="button" className="button button-small button-secondary" onClick={() => setQuestions((prev) => prev.filter((_, i) => i !== index))}>
              Retirer la question {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      <div className="modal-actions">
        <button type="button" className="button button-secondary" disabled={questions.length >= 30} onClick={() => setQuestions((prev) => [...prev, { text: "", advice: "" }])}>
          Ajouter une question
        </button>
        <button type="submit" className="button" disabled={busy}>
          Publier le questionnaire
        </button>
      </div>
      <Feedback error={error} done={done} />
    </form>
  );
}

function DocumentEditor({ kind, label, versions, onPublished }) {
  const latest = versions[0];
  const [title, setTitle] = useState(latest?.title || label);
  const [body, setBody] = useState(latest?.body || "");
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (latest) {
      setTitle(latest.title);
      setBody(latest.body);
    }
  }, [latest]);

  const publish = async (event) => {
    event.preventDefault();
    setDone("");
    if (!title.trim() || !body.trim()) {
      setError(MSG_DOCUMENT_REQUIRED);
      return;
    }
    setBusy(true);
    setError("");
    try {
      await api("/api/health/documents", { method: "POST", body: { kind, title: title.trim(), body: body.trim() } });
      setDone(MSG_PUBLISHED);
      onPublished();
    } catch (err) {
      setError(errorMessage(err, MSG_PUBLISH_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form health-editor" onSubmit={publish} noValidate>
      <h3>
        {label} {latest ? `(version ${latest.version} en vigueur)` : "(aucune version publiée)"}
      </h3>
      <div className="field">
        <label htmlFor={`health-${kind}-title`}>Titre</label>
        <input id={`health-${kind}-title`} value={title} maxLength={150} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`health-${kind}-body`}>Texte (paragraphes séparés par une ligne vide)</label>
        <textarea id={`health-${kind}-body`} rows={10} value={body} onChange={(e) => setBody(e.target.value)} />
      </div>
      <div className="modal-actions">
        <button type="submit" className="button" disabled={busy}>
          Publier : {label.toLowerCase()}
        </button>
      </div>
      <Feedback error={error} done={done} />
      {versions.length > 1 && (
        <details>
          <summary>Versions précédentes</summary>
          {versions.slice(1).map((v) => (
            <details key={v.version} className="health-old-version">
              <summary>
                Version {v.version}, publiée le {formatDateTime(v.published_at)}
              </summary>
              <p style={{ whiteSpace: "pre-line" }}>{v.body}</p>
            </details>
          ))}
        </details>
      )}
    </form>
  );
}

export default function Health() {
  const questionnaires = useApi("/api/health/questionnaires");
  const documents = useApi("/api/health/documents");
  if (questionnaires.failure || documents.failure) return <p className="form-error" role="alert">{MSG_LOAD}</p>;
  if (!questionnaires.data || !documents.data) return <p aria-busy="true">Chargement…</p>;
  return (
    <section className="dash-section health-section">
      <h2>Santé et décharge</h2>
      <p className="help">{HEALTH_HELP}</p>
      <QuestionnaireEditor versions={questionnaires.data} onPublished={questionnaires.reload} />
      {KINDS.map(([kind, label]) => (
        <DocumentEditor key={kind} kind={kind} label={label} versions={documents.data.filter((d) => d.kind === kind)} onPublished={documents.reload} />
      ))}
    </section>
  );
}
