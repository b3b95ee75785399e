/* Exports for a range of days (docs/decisions.md 39), as an .xlsx workbook with typed cells (amounts, dates,
   phone numbers and postcodes as text: no import wizard) or as CSV for other software (UTF-8 with BOM, « ; »,
   virgule décimale, JJ/MM/AAAA). The browser downloads the file the API answers. */
import { useState } from "react";

export const EXPORTS = [
  { kind: "orders", label: "Commandes et remboursements" },
  { kind: "reservations", label: "Réservations et présences" },
  { kind: "members", label: "Membres" },
  { kind: "passes", label: "Cartes et abonnements" },
  { kind: "subscriptions", label: "Abonnements" },
];
export const FORMATS = [
  { format: "xlsx", label: "Excel (.xlsx)", hint: "pour Excel ou LibreOffice : montants, dates et numéros gardés tels quels" },
  { format: "csv", label: "CSV", hint: "pour un autre logiciel : séparateur « ; », virgule décimale, dates JJ/MM/AAAA" },
];
export const MSG_EXPORT_RANGE = "Choisissez le premier et le dernier jour, le second après le premier.";

function monthStart(today = new Date()) {
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-01`;
}
function isoDay(today = new Date()) {
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
}

export function exportUrl(kind, start, end, format = "xlsx") {
  return `/api/exports/${kind}?${new URLSearchParams({ start, end, format })}`;
}

export default function Exports() {
  const [start, setStart] = useState(monthStart());
  const [end, setEnd] = useState(isoDay());
  const [format, setFormat] = useState("xlsx");
  const valid = Boolean(start && end && start <= end);
  return (
    <section className="dash-section">
      <h2>Exports</h2>
      <p>Un fichier par export pour les jours choisis, heure de Paris.</p>
      <div className="export-range">
        <label htmlFor="export-start">Du</label>
        <input id="export-start" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        <label htmlFor="export-end">Au (inclus)</label>
        <input id="export-end" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
      </div>
      <fieldset className="export-format">
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.format}>
            <input type="radio" name="export-format" value={f.format} checked={format === f.format} onChange={() => setFormat(f.format)} /> {f.label}{" "}
            <small>({f.hint})</small>
          </label>
        ))}
      </fieldset>
      {!valid && (
        <p className="form-error" role="alert">
          {MSG_EXPORT_RANGE}
        </p>
      )}
      <ul className="export-list">
        {EXPORTS.map((e) => (
          <li key={e.kind}>
            {valid ? (
              <a className="button button-secondary" href={exportUrl(e.kind, start, end, format)} download>
                {e.label}
              </a>
            ) : (
              <span className="button button-secondary" aria-disabled="true">
                {e.label}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
