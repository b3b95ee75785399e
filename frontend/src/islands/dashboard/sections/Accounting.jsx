/* The accountant's files for a period (docs/decisions.md 54): the journal (CSV as the other exports: « ; »,
   virgule décimale, JJ/MM/AAAA) and the FEC (18 colonnes séparées par des tabulations). A month by default, the
   previous one: what an accountant asks for. The browser downloads the file the API answers. */
import { useState } from "react";

export const MSG_ACCOUNTING_RANGE = "Choisissez le premier et le dernier jour, le second après le premier.";
export const FILES = [
  { kind: "journal", label: "Journal des ventes et encaissements (CSV)", hint: "factures, avoirs et paiements par moyen, pour un tableur" },
  { kind: "fec", label: "Fichier des écritures comptables (FEC)", hint: "le format de l'administration fiscale, pour l'expert-comptable" },
];

const pad = (n) => String(n).padStart(2, "0");

/** The previous month's first and last day, as AAAA-MM-JJ. */
export function previousMonth(today = new Date()) {
  const first = new Date(today.getFullYear(), today.getMonth() - 1, 1);
  const last = new Date(today.getFullYear(), today.getMonth(), 0);
  const day = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return [day(first), day(last)];
}

export function accountingUrl(kind, start, end) {
  return `/api/accounting/${kind}?${new URLSearchParams({ start, end })}`;
}

export default function Accounting({ today }) {
  const [initialStart, initialEnd] = previousMonth(today);
  const [start, setStart] = useState(initialStart);
  const [end, setEnd] = useState(initialEnd);
  const valid = Boolean(start && end && start <= end);
  return (
    <section className="dash-section">
      <h2>Comptabilité</h2>
      <p>Les factures, avoirs et paiements des jours choisis (heure de Paris), pour l'expert-comptable.</p>
      <div className="export-range">
        <label htmlFor="accounting-start">Du</label>
        <input id="accounting-start" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        <label htmlFor="accounting-end">Au (inclus)</label>
        <input id="accounting-end" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
      </div>
      {!valid && (
        <p className="form-error" role="alert">
          {MSG_ACCOUNTING_RANGE}
        </p>
      )}
      <ul className="export-list">
        {FILES.map((f) => (
          <li key={f.kind}>
            {valid ? (
              <a className="button button-secondary" href={accountingUrl(f.kind, start, end)} download>
                {f.label}
              </a>
            ) : (
              <span className="button button-secondary" aria-disabled="true">
                {f.label}
              </span>
            )}{" "}
            <small>({f.hint})</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
