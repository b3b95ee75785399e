/* What the front desk's forms share (docs/decisions.md 43, 50): finding a client by name or e-mail, and the means
   of payment lines of a sale with the amount still to share out ("Reste à répartir"), all in cents. */
import { useEffect, useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { euros, toAmount, toCents } from "../../../components/format.js";

export const MEANS = [
  { value: "cash", label: "Espèces" },
  { value: "card_terminal", label: "Carte bancaire (TPE)" },
  { value: "cheque", label: "Chèque" },
  { value: "ancv", label: "Chèque-Vacances (ANCV)" },
  { value: "pass_sport", label: "Pass'Sport" },
  { value: "coupon_sport", label: "Coupon Sport" },
];
export const MSG_CLIENT_SEARCH_FAILED = "La recherche de clients a échoué. Veuillez réessayer.";
export const MSG_NO_CLIENT_FOUND = "Aucun client ne correspond à cette recherche.";

export const newLine = (amount = "") => ({ means: "cash", amount });

/** What is left to share out between the means, in cents (negative when the lines add up to more). */
export function remainderCents(priceCents, lines) {
  return priceCents - lines.reduce((sum, line) => sum + toCents(line.amount), 0);
}

/** The lines as the API takes them: {means, amount "50.00"}, empty ones left out. */
export function linesForApi(lines) {
  return lines.filter((line) => toCents(line.amount) > 0).map((line) => ({ means: line.means, amount: toAmount(line.amount) }));
}

/** One key per sale, the same when it is sent again (the server records one sale per key). */
export function saleKey() {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function ClientPicker({ id, value, onChange }) {
  const [search, setSearch] = useState("");
  const [found, setFound] = useState([]);
  const [error, setError] = useState("");
  const [searched, setSearched] = useState(false);

  useEffect(() => {
    const text = search.trim();
    if (text.length < 2) {
      setFound([]);
      setSearched(false);
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await api(`/api/users?search=${encodeURIComponent(text)}&page_size=8`, { signal: controller.signal });
        setFound(answer.results || []);
        setError("");
        setSearched(true);
      } catch (err) {
        if (err?.name !== "AbortError") setError(errorMessage(err, MSG_CLIENT_SEARCH_FAILED));
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search]);

  if (value) {
    return (
      <p className="desk-client-chosen">
        Client : <strong>{`${value.first_name} ${value.last_name}`.trim() || value.email}</strong> ({value.email}){" "}
        <button type="button" className="button button-small button-secondary" onClick={() => onChange(null)}>
          Changer
        </button>
      </p>
    );
  }
  return (
    <div className="desk-client-picker">
      <label htmlFor={id}>Rechercher un client (nom ou e-mail)</label>
      <input id={id} type="search" autoComplete="off" value={search} onChange={(e) => setSearch(e.target.value)} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {searched && found.length === 0 && <p>{MSG_NO_CLIENT_FOUND}</p>}
      {found.length > 0 && (
        <ul className="desk-client-results">
          {found.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className="button button-small button-secondary"
                onClick={() => {
                  setSearch("");
                  onChange(user);
                }}
              >
                {`${user.first_name} ${user.last_name}`.trim() || user.email} · {user.email}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function MeansLines({ idPrefix, lines, onChange, priceCents }) {
  const left = remainderCents(priceCents, lines);
  const set = (index, patch) => onChange(lines.map((line, i) => (i === index ? { ...line, ...patch } : line)));
  return (
    <fieldset className="desk-means">
      <legend>Moyens de paiement</legend>
      {lines.map((line, index) => (
        <div className="desk-means-line" key={index}>
          <label htmlFor={`${idPrefix}-means-${index}`}>Moyen {index + 1}</label>
          <select id={`${idPrefix}-means-${index}`} value={line.means} onChange={(e) => set(index, { means: e.target.value })}>
            {MEANS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
          <label htmlFor={`${idPrefix}-amount-${index}`}>Montant {index + 1} (€)</label>
          <input id={`${idPrefix}-amount-${index}`} type="text" inputMode="decimal" value={line.amount} onChange={(e) => set(index, { amount: e.target.value })} />
          {lines.length > 1 && (
            <button type="button" className="button button-small button-secondary" onClick={() => onChange(lines.filter((_, i) => i !== index))}>
              Retirer
            </button>
          )}
        </div>
      ))}
      <button type="button" className="button button-small button-secondary" onClick={() => onChange([...lines, newLine(left > 0 ? toAmount(left / 100) : "")])}>
        Ajouter un moyen de paiement
      </button>
      <p className="desk-remainder" aria-live="polite">
        {left === 0 ? "Le total est réparti." : left > 0 ? `Reste à répartir : ${euros(left / 100)}` : `Trop perçu : ${euros(-left / 100)}`}
      </p>
    </fieldset>
  );
}
