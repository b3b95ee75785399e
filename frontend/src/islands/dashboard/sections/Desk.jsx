/* "Caisse" (docs/decisions.md 43): a sale made at the front desk (a client, what is sold — a tariff, or one of the
   client's subscription periods due, listed once the client is chosen — one or several means of payment adding up to
   the price from the database) and the day's takings by means ("caisse du jour"), with its CSV
   (UTF-8 with BOM, « ; », virgule décimale, JJ/MM/AAAA). */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { useApi } from "../../../components/useApi.js";
import { euros, formatDate, formatTime, toCents } from "../../../components/format.js";
import { ClientPicker, MeansLines, linesForApi, newLine, remainderCents, saleKey } from "./DeskParts.jsx";

export const MSG_TARIFFS_LOAD = "Les tarifs n'ont pas pu être chargés.";
export const MSG_TAKINGS_LOAD = "La caisse du jour n'a pas pu être chargée.";
export const MSG_SALE_FAILED = "La vente n'a pas pu être enregistrée. Veuillez réessayer.";
export const MSG_SALE_INCOMPLETE = "Choisissez le client et ce qui est vendu.";
export const MSG_SALE_NOT_SHARED = "Les moyens de paiement doivent totaliser le prix.";
export const MSG_PERIODS_LOAD = "Les échéances d'abonnement du client n'ont pas pu être chargées.";
const PERIOD_PREFIX = "period-";

/** "Abonnement mensuel – Période 2 – 55,00 € – due le 10/02/2030": a subscription period the desk takes payment for. */
export function periodLabel(p) {
  return `${p.title} – Période ${p.period} – ${euros(p.amount)} – due le ${formatDate(p.due_on)}`;
}

export function isoDay(today = new Date()) {
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
}

export function takingsCsvUrl(day) {
  return `/api/desk/takings.csv?${new URLSearchParams({ date: day })}`;
}

function SaleForm({ onSold }) {
  const tariffs = useApi("/api/tarifs", { fallback: MSG_TARIFFS_LOAD });
  const [client, setClient] = useState(null);
  const periods = useApi(client ? `/api/desk/periods?user_id=${client.id}` : null, { fallback: MSG_PERIODS_LOAD });
  const [tariffId, setTariffId] = useState("");
  const [lines, setLines] = useState([newLine()]);
  const [key, setKey] = useState(saleKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const sellable = (tariffs.data || []).filter((t) => toCents(t.price) > 0);
  const due = client ? periods.data || [] : [];
  // What is sold: a tariff (its id), or a period due ("period-" and the charge's id).
  const period = due.find((p) => `${PERIOD_PREFIX}${p.charge_id}` === tariffId);
  const tariff = period ? null : sellable.find((t) => String(t.id) === tariffId);
  const item = period ? { price: period.amount, body: { charge_id: period.charge_id } } : tariff ? { price: tariff.price, body: { tariff_id: tariff.id } } : null;
  const priceCents = item ? toCents(item.price) : 0;

  const submit = async (event) => {
    event.preventDefault();
    setNotice("");
    if (!client || !item) return setError(MSG_SALE_INCOMPLETE);
    if (remainderCents(priceCents, lines) !== 0) return setError(MSG_SALE_NOT_SHARED);
    setBusy(true);
    setError("");
    try {
      const answer = await api("/api/desk/sales", {
        method: "POST",
        body: { user_id: client.id, ...item.body, payments: linesForApi(lines), idempotency_key: key },
      });
      setNotice(answer.message);
      setClient(null);
      setTariffId("");
      setLines([newLine()]);
      setKey(saleKey());
      onSold();
    } catch (err) {
      setError(errorMessage(err, MSG_SALE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="desk-sale" onSubmit={submit} noValidate>
      <h3>Nouvelle vente</h3>
      <ClientPicker
        id="desk-client-search"
        value={client}
        onChange={(chosen) => {
          setClient(chosen);
          if (tariffId.startsWith(PERIOD_PREFIX)) {
            setTariffId("");
            setLines([newLine()]);
          }
        }}
      />
      <label htmlFor="desk-tariff">Vendu</label>
      <select
        id="desk-tariff"
        value={tariffId}
        onChange={(e) => {
          setTariffId(e.target.value);
          const chosen =
            due.find((p) => `${PERIOD_PREFIX}${p.charge_id}` === e.target.value) || sellable.find((t) => String(t.id) === e.target.value);
          setLines([newLine(chosen ? (chosen.amount ?? chosen.price) : "")]);
        }}
      >
        <option value="">Choisir un tarif…</option>
        {due.length > 0 && (
          <optgroup label="Échéances d'abonnement à régler">
            {due.map((p) => (
              <option key={p.charge_id} value={`${PERIOD_PREFIX}${p.charge_id}`}>
                {periodLabel(p)}
              </option>
            ))}
          </optgroup>
        )}
        <optgroup label="Tarifs">
          {sellable.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.title} – {euros(t.price)}
            </option>
          ))}
        </optgroup>
      </select>
      {client && periods.error && (
        <p className="form-error" role="alert">
          {periods.error}
        </p>
      )}
      {tariffs.error && (
        <p className="form-error" role="alert">
          {tariffs.error}
        </p>
      )}
      {item && <MeansLines idPrefix="desk-sale" lines={lines} onChange={setLines} priceCents={priceCents} />}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        Enregistrer la vente
      </button>
    </form>
  );
}

function Takings({ day, version }) {
  const takings = useApi(`/api/desk/takings?date=${day}`, { fallback: MSG_TAKINGS_LOAD, refreshKey: version });
  if (takings.error) {
    return (
      <p className="form-error" role="alert">
        {takings.error}
      </p>
    );
  }
  const data = takings.data;
  if (!data) return <p>Chargement…</p>;
  return (
    <>
      <table className="desk-takings">
        <caption>Encaissements par moyen de paiement</caption>
        <thead>
          <tr>
            <th scope="col">Moyen</th>
            <th scope="col">Paiements</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {data.by_means.map((row) => (
            <tr key={row.means} data-means={row.means}>
              <th scope="row">{row.label}</th>
              <td>{row.count}</td>
              <td>{euros(row.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total de la journée</th>
            <td />
            <td data-total>{euros(data.total)}</td>
          </tr>
        </tfoot>
      </table>
      <h3>Ventes du jour</h3>
      {data.sales.length === 0 && <p>Aucune vente à l'accueil ce jour-là.</p>}
      <ul className="desk-sales">
        {data.sales.map((sale) => (
          <li key={sale.order_id}>
            {formatTime(sale.completed_at)} · <strong>{sale.client}</strong> · {sale.title} · {euros(sale.amount)} (
            {sale.payments.map((p) => `${p.label} ${euros(p.amount)}`).join(", ")}){sale.staff ? ` · ${sale.staff}` : ""}
            {sale.status !== "COMPLETED" ? ` · ${sale.status_label}` : ""}
          </li>
        ))}
      </ul>
    </>
  );
}

export default function Desk() {
  const [day, setDay] = useState(isoDay());
  const [version, setVersion] = useState(0);
  return (
    <section className="dash-section desk">
      <h2>Caisse</h2>
      <SaleForm onSold={() => setVersion((v) => v + 1)} />
      <h3>Caisse du jour</h3>
      <div className="desk-day">
        <label htmlFor="desk-day">Jour</label>
        <input id="desk-day" type="date" value={day} onChange={(e) => setDay(e.target.value)} />
        {day && (
          <a className="button button-secondary" href={takingsCsvUrl(day)} download>
            Exporter en CSV
          </a>
        )}
      </div>
      {day && <Takings day={day} version={version} />}
    </section>
  );
}
