/* "Équipe" (docs/decisions.md 52): each instructor's pay rules from a date, their monthly statement (the page, CSV
   and PDF the server writes), and the substitute requests nobody has accepted yet. The server checks every value and
   answers in French; this section shows its answers. */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { euros, formatDate, formatDateTime } from "../../../components/format.js";
import { useApi } from "../../../components/useApi.js";
import "./team/team.css";

export const KINDS = [
  { value: "per_class", label: "Par cours" },
  { value: "per_attendee", label: "Par participant" },
  { value: "base_plus_attendee", label: "Forfait + par participant" },
];
export const MSG_RULE_SAVED = "Règle de rémunération enregistrée.";
export const MSG_RULE_DELETED = "Règle de rémunération supprimée.";
export const MSG_TEAM_LOAD = "Erreur lors du chargement de l'équipe.";
export const MSG_RULE_FIELDS = "Indiquez la date d'effet et les montants en euros (par exemple 25,50).";

const EMPTY = { starts_on: "", kind: "per_class", class_amount: "", attendee_amount: "" };

function thisMonth(today = new Date()) {
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}`;
}

/** "25,50" or "25.5" → "25.50"-ish text the API reads; "" → "0". */
export function amountText(value) {
  const text = String(value ?? "").trim().replace(/\s/g, "").replace(",", ".");
  return text === "" ? "0" : text;
}

function classAmountLabel(kind) {
  return kind === "base_plus_attendee" ? "Forfait par cours (€)" : "Montant par cours (€)";
}

function ruleAmounts(rule) {
  if (rule.kind === "per_class") return euros(rule.class_amount);
  if (rule.kind === "per_attendee") return `${euros(rule.attendee_amount)} par participant`;
  return `${euros(rule.class_amount)} + ${euros(rule.attendee_amount)} par participant`;
}

function RuleForm({ instructorId, rule, onSaved, onCancel }) {
  const [values, setValues] = useState(rule ? { ...rule } : EMPTY);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (field) => (event) => setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event) {
    event.preventDefault();
    if (!values.starts_on) {
      setError(MSG_RULE_FIELDS);
      return;
    }
    setBusy(true);
    setError("");
    const body = {
      starts_on: values.starts_on,
      kind: values.kind,
      class_amount: values.kind === "per_attendee" ? "0" : amountText(values.class_amount),
      attendee_amount: values.kind === "per_class" ? "0" : amountText(values.attendee_amount),
    };
    try {
      const path = rule ? `/api/instructor-pay-rules/${rule.id}` : `/api/instructors/${instructorId}/pay-rules`;
      await api(path, { method: rule ? "PUT" : "POST", body });
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <form className="team-rule-form" onSubmit={submit} aria-label={rule ? "Modifier la règle" : "Nouvelle règle"}>
      <label htmlFor="rule-starts-on">À partir du</label>
      <input id="rule-starts-on" type="date" value={values.starts_on} onChange={set("starts_on")} />
      <label htmlFor="rule-kind">Mode de rémunération</label>
      <select id="rule-kind" value={values.kind} onChange={set("kind")}>
        {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
      </select>
      {values.kind !== "per_attendee" && (
        <>
          <label htmlFor="rule-class-amount">{classAmountLabel(values.kind)}</label>
          <input id="rule-class-amount" inputMode="decimal" value={values.class_amount} onChange={set("class_amount")} />
        </>
      )}
      {values.kind !== "per_class" && (
        <>
          <label htmlFor="rule-attendee-amount">Montant par participant présent (€)</label>
          <input id="rule-attendee-amount" inputMode="decimal" value={values.attendee_amount} onChange={set("attendee_amount")} />
        </>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="team-actions">
        <button type="submit" className="button" disabled={busy}>Enregistrer la règle</button>
        <button type="button" className="button button-secondary" onClick={onCancel}>Annuler</button>
      </div>
    </form>
  );
}

function PayRules({ instructorId, onStatus, onChanged }) {
  const rules = useApi(`/api/instructors/${instructorId}/pay-rules`, { fallback: MSG_TEAM_LOAD, fresh: true });
  const [editing, setEditing] = useState(null); // null, "new" or a rule
  const [deleting, setDeleting] = useState(null);
  const [error, setError] = useState("");

  function saved() {
    setEditing(null);
    onStatus(MSG_RULE_SAVED);
    rules.reload();
    onChanged();
  }

  async function remove(rule) {
    setError("");
    try {
      await api(`/api/instructor-pay-rules/${rule.id}`, { method: "DELETE" });
      setDeleting(null);
      onStatus(MSG_RULE_DELETED);
      rules.reload();
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const list = rules.data || [];
  return (
    <div className="team-rules">
      <h3>Rémunération</h3>
      {(rules.error || error) && <p className="form-error" role="alert">{rules.error || error}</p>}
      {list.length === 0 && !rules.loading && <p>Aucune règle : ses cours ne sont pas rémunérés dans le relevé.</p>}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table dash-table">
          <thead><tr><th scope="col">À partir du</th><th scope="col">Mode</th><th scope="col">Montants</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {list.map((rule) => (
              <tr key={rule.id}>
                <td>{formatDate(rule.starts_on)}</td>
                <td>{rule.kind_label}</td>
                <td>{ruleAmounts(rule)}</td>
                <td className="team-actions">
                  <button type="button" className="button button-secondary" onClick={() => setEditing(rule)}
                    aria-label={`Modifier la règle du ${formatDate(rule.starts_on)}`}>Modifier</button>
                  {deleting === rule.id ? (
                    <button type="button" className="button button-danger" onClick={() => remove(rule)}>Confirmer la suppression</button>
                  ) : (
                    <button type="button" className="button button-secondary" onClick={() => setDeleting(rule.id)}
                      aria-label={`Supprimer la règle du ${formatDate(rule.starts_on)}`}>Supprimer</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <RuleForm key={editing === "new" ? "new" : editing.id} instructorId={instructorId}
          rule={editing === "new" ? null : editing} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" className="button" onClick={() => setEditing("new")}>Ajouter une règle</button>
      )}
    </div>
  );
}

function StatementView({ instructorId, rulesVersion }) {
  const [month, setMonth] = useState(thisMonth());
  const url = month ? `/api/instructors/${instructorId}/statements?month=${month}` : null;
  // A rule saved or deleted changes the amounts: the statement is read again.
  const statement = useApi(url, { fallback: MSG_TEAM_LOAD, fresh: true, refreshKey: rulesVersion });
  const data = statement.data;
  return (
    <div className="team-statement">
      <h3>Relevé mensuel</h3>
      <label htmlFor="statement-month">Mois</label>
      <input id="statement-month" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      {statement.error && <p className="form-error" role="alert">{statement.error}</p>}
      {data && (
        <>
          <p>Relevé de {data.month_label} : <strong>{euros(data.total)}</strong> pour {data.lines.length} cours.</p>
          {data.lines.length > 0 && (
            <div className="table-wrap">
              <table className="table dash-table">
              <thead><tr><th scope="col">Date</th><th scope="col">Cours</th><th scope="col">Présents</th><th scope="col">Règle appliquée</th><th scope="col">Montant</th></tr></thead>
              <tbody>
                {data.lines.map((line) => (
                  <tr key={line.session_id}>
                    <td>{formatDateTime(line.date)}</td>
                    <td>{line.course_title}</td>
                    <td>{line.attendees}</td>
                    <td>{line.rule}</td>
                    <td>{euros(line.amount)}</td>
                  </tr>
                ))}
              </tbody>
              </table>
            </div>
          )}
          <p className="team-actions">
            <a className="button button-secondary" href={data.csv_url} download>Télécharger le CSV</a>
            <a className="button button-secondary" href={data.pdf_url} download>Télécharger le PDF</a>
            <a href={`/instructor/statement/${instructorId}?month=${data.month}`}>Ouvrir la page du relevé</a>
          </p>
        </>
      )}
    </div>
  );
}

function OpenRequests() {
  const requests = useApi("/api/substitute-requests", { fallback: MSG_TEAM_LOAD, fresh: true });
  const open = (requests.data || []).filter((r) => r.status === "open");
  return (
    <div className="team-substitutes">
      <h3>Remplacements en attente</h3>
      {requests.error && <p className="form-error" role="alert">{requests.error}</p>}
      {open.length === 0 ? <p>Aucune demande de remplacement en attente.</p> : (
        <ul>
          {open.map((r) => (
            <li key={r.id}>
              {r.course_title}, {formatDateTime(r.date)} : demandé par {r.requested_by}{r.message ? ` (« ${r.message} »)` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function Team() {
  const instructors = useApi("/api/instructors", { fallback: MSG_TEAM_LOAD, fresh: true });
  const [chosen, setChosen] = useState("");
  const [status, setStatus] = useState("");
  const [rulesVersion, setRulesVersion] = useState(0);
  const list = instructors.data || [];
  const instructorId = chosen || (list[0] ? String(list[0].id) : "");
  return (
    <section className="dash-section team-section">
      <h2>Équipe</h2>
      <p role="status" className="team-status">{status}</p>
      {instructors.error && <p className="form-error" role="alert">{instructors.error}</p>}
      <label htmlFor="team-instructor">Professeur</label>
      <select id="team-instructor" value={instructorId} onChange={(e) => { setChosen(e.target.value); setStatus(""); }}>
        {list.map((i) => <option key={i.id} value={i.id}>{i.name}{i.active ? "" : " (inactif)"}</option>)}
      </select>
      {instructorId && (
        <>
          <PayRules key={`rules-${instructorId}`} instructorId={instructorId} onStatus={setStatus}
            onChanged={() => setRulesVersion((n) => n + 1)} />
          <StatementView key={`statement-${instructorId}`} instructorId={instructorId} rulesVersion={rulesVersion} />
        </>
      )}
      <OpenRequests />
    </section>
  );
}
