/* Subscriptions billed per period (docs/decisions.md 24-25): every member's subscription with filters (active,
   unpaid, frozen, ending within 30 days), its charges, the reduced rate the member confirmed, the staff's actions
   with who and why, and the staff's freeze (from a day, for N weeks, with a reason), retry, cancel (with or without
   refund) and end of a reduced plan, each behind a confirm dialog (SubscriptionActions.jsx). */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import Modal from "../../../components/Modal.jsx";
import { useApi } from "../../../components/useApi.js";
import { formatDate, formatMoney } from "../format.js";
import { ACTIONS, ActionForm, ReducedAndLog, canRetry, isLive } from "./SubscriptionActions.jsx";

export const MSG_SUBSCRIPTIONS_LOAD = "Erreur lors du chargement des abonnements.";
export const MSG_FREEZE_FAILED = "Le gel n'a pas pu être enregistré.";
export const MSG_FROZEN = "Abonnement gelé : la fin d'engagement est décalée.";

export const FILTERS = [
  { value: "", label: "Tous" },
  { value: "active", label: "Actifs" },
  { value: "unpaid", label: "Impayés" },
  { value: "frozen", label: "Gelés" },
  { value: "ending", label: "Se terminent sous 30 jours" },
];

/** The filter the address names (?filter=unpaid, as the overview's figures link here), or none. */
export function filterFromAddress(search = typeof window !== "undefined" ? window.location.search : "") {
  const value = new URLSearchParams(search).get("filter") || "";
  return FILTERS.some((f) => f.value === value) ? value : "";
}

export function subscriptionsUrl(filter) {
  return filter ? `/api/subscriptions?filter=${encodeURIComponent(filter)}` : "/api/subscriptions";
}

function Charges({ row }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Période</th>
            <th scope="col">Échéance</th>
            <th scope="col">Montant</th>
            <th scope="col">Statut</th>
            <th scope="col">Tentatives</th>
            <th scope="col">Référence</th>
          </tr>
        </thead>
        <tbody>
          {row.charges.map((c) => (
            <tr key={c.period}>
              <td>{c.period}</td>
              <td>{formatDate(c.due_on)}</td>
              <td>{formatMoney(c.amount)}</td>
              <td>
                {c.status_label}
                {c.next_attempt_on && c.status === "failed" ? ` (nouvel essai le ${formatDate(c.next_attempt_on)})` : ""}
              </td>
              <td>{c.attempts}</td>
              <td>
                {c.reference || "—"}
                {c.status === "refunded" ? (c.refunded_at ? " (remboursée)" : " (remboursement en cours)") : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ReducedAndLog row={row} />
      {row.freezes.length > 0 && (
        <ul>
          {row.freezes.map((f) => (
            <li key={`${f.starts_on}-${f.reason}`}>
              Gel du {formatDate(f.starts_on)} au {formatDate(f.ends_on)} ({f.weeks} sem.) par {f.by || "—"} : {f.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function FreezeForm({ row, onDone, onCancel }) {
  const [values, setValues] = useState({ starts_on: "", weeks: "4", reason: "" });
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const change = (key) => (event) => setValues((v) => ({ ...v, [key]: event.target.value }));
  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const body = { starts_on: values.starts_on, weeks: Number(values.weeks), reason: values.reason };
      const updated = await api(`/api/subscriptions/${row.id}/freeze`, { method: "POST", body });
      onDone(updated);
    } catch (failure) {
      setError(errorMessage(failure, MSG_FREEZE_FAILED));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <label>
        Gel à partir du
        <input type="date" name="starts_on" value={values.starts_on} onChange={change("starts_on")} required />
      </label>
      <label>
        Nombre de semaines
        <input type="number" name="weeks" min="1" max="52" value={values.weeks} onChange={change("weeks")} required />
      </label>
      <label>
        Raison
        <textarea name="reason" value={values.reason} onChange={change("reason")} required />
      </label>
      <p>
        <button type="submit" className="button" disabled={busy}>
          Geler
        </button>{" "}
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Annuler
        </button>
      </p>
    </form>
  );
}

export default function Subscriptions() {
  const [filter, setFilter] = useState(() => filterFromAddress());
  const [open, setOpen] = useState(null);
  const [freezing, setFreezing] = useState(null);
  const [acting, setActing] = useState(null); // { kind, row }
  const [notice, setNotice] = useState("");
  const { data, error, loading, reload } = useApi(subscriptionsUrl(filter), { fallback: MSG_SUBSCRIPTIONS_LOAD, fresh: true });
  const rows = data || [];
  return (
    <section className="dash-section" aria-labelledby="dash-subscriptions-title">
      <h2 id="dash-subscriptions-title">Abonnements</h2>
      <p>Les abonnements payés par période : échéances payées et restantes, impayés, gels.</p>
      <label>
        Filtre{" "}
        <select value={filter} onChange={(event) => setFilter(event.target.value)} name="filter">
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {loading && !data && <p>Chargement…</p>}
      {data && rows.length === 0 && <p>Aucun abonnement.</p>}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Membre</th>
                <th scope="col">Formule</th>
                <th scope="col">Statut</th>
                <th scope="col">Payées / restantes</th>
                <th scope="col">Prochaine échéance</th>
                <th scope="col">Moyen de paiement</th>
                <th scope="col">Fin d'engagement</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-subscription-row={row.id}>
                  <td>
                    {`${row.member.first_name} ${row.member.last_name}`.trim() || row.member.email}
                    <br />
                    <small>{row.member.email}</small>
                  </td>
                  <td>{row.title}</td>
                  <td>
                    <span className={`badge badge-${row.status}`}>{row.status_label}</span>
                  </td>
                  <td>
                    {row.periods_paid} / {row.periods_left}
                  </td>
                  <td>{row.next_due_on ? `${formatMoney(row.next_due_amount)} le ${formatDate(row.next_due_on)}` : "—"}</td>
                  <td data-subscription-method>{row.method_label || (row.provider === "paypal" ? "PayPal" : "—")}</td>
                  <td data-subscription-end>{formatDate(row.ends_on)}</td>
                  <td>
                    <button type="button" className="button button-small button-secondary" onClick={() => setOpen(open === row.id ? null : row.id)}>
                      Échéances<span className="visually-hidden"> de l'abonnement {row.id}</span>
                    </button>{" "}
                    {["active", "unpaid", "frozen"].includes(row.status) && (
                      <button type="button" className="button button-small" onClick={() => setFreezing(row)}>
                        Geler<span className="visually-hidden"> l'abonnement {row.id}</span>
                      </button>
                    )}
                    {canRetry(row) && (
                      <button type="button" className="button button-small" onClick={() => setActing({ kind: "retry", row })}>
                        Relancer l'échéance<span className="visually-hidden"> de l'abonnement {row.id}</span>
                      </button>
                    )}{" "}
                    {isLive(row) && (
                      <button type="button" className="button button-small button-secondary" onClick={() => setActing({ kind: "cancel", row })}>
                        Annuler<span className="visually-hidden"> l'abonnement {row.id}</span>
                      </button>
                    )}{" "}
                    {isLive(row) && row.reduced && !row.reduced.ended_at && (
                      <button type="button" className="button button-small button-secondary" onClick={() => setActing({ kind: "endReduced", row })}>
                        Terminer le tarif réduit<span className="visually-hidden"> de l'abonnement {row.id}</span>
                      </button>
                    )}
                    {row.reduced && (
                      <>
                        <br />
                        <small>Tarif réduit : {row.reduced.status_label}</small>
                      </>
                    )}
                    {open === row.id && <Charges row={row} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {acting && (
        <Modal open title={`${ACTIONS[acting.kind].title} : ${acting.row.title} – ${acting.row.member.email}`} onClose={() => setActing(null)}>
          <ActionForm
            kind={acting.kind}
            row={acting.row}
            onCancel={() => setActing(null)}
            onDone={(message) => {
              setActing(null);
              setNotice(message);
              reload();
            }}
          />
        </Modal>
      )}
      {freezing && (
        <Modal open title={`Geler : ${freezing.title} – ${freezing.member.email}`} onClose={() => setFreezing(null)}>
          <FreezeForm
            row={freezing}
            onCancel={() => setFreezing(null)}
            onDone={() => {
              setFreezing(null);
              setNotice(MSG_FROZEN);
              reload();
            }}
          />
        </Modal>
      )}
    </section>
  );
}
