/* EVJF/EVG and room-rental requests (docs/decisions.md 17): each request with its status; "Gérer" opens its history
   and the staff's steps: send a quote (the server prices a party: 25 € per participant, the bride or groom free, 5 €
   per spectator, at least 6 people; a room rental's amount is the staff's), confirm once the deposit is paid, refuse
   with a reason. Every refusal is the server's French message. */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import Modal from "../../../components/Modal.jsx";
import { useApi } from "../../../components/useApi.js";
import { formatDate, formatDateTime, formatMoney } from "../format.js";

export const MSG_REQUESTS_LOAD = "Erreur lors du chargement des demandes.";
export const MSG_QUOTED = "Devis envoyé au membre.";
export const MSG_CONFIRMED = "Demande confirmée : le membre est prévenu.";
export const MSG_REFUSED = "Demande refusée : le membre est prévenu.";
export const MSG_STEP_FAILED = "L'opération n'a pas pu être enregistrée.";

export const STATUSES = [
  { value: "", label: "Tous les statuts" },
  { value: "sent", label: "Envoyée" },
  { value: "quoted", label: "Devis envoyé" },
  { value: "confirmed", label: "Confirmée" },
  { value: "refused", label: "Refusée" },
  { value: "cancelled", label: "Annulée" },
];

export const KINDS = {
  parties: {
    title: "Demandes EVJF/EVG",
    endpoint: "/api/evf-reservations",
    what: (row) => `${row.eventType} – ${`${row.first_name || ""} ${row.last_name || ""}`.trim() || row.email}`,
    detail: partyPeople,
    filter: true,
  },
  rentals: {
    title: "Demandes de location de salle",
    endpoint: "/api/rental-requests",
    what: (row) => `${row.eventType} – ${row.name}`,
    filter: false,
  },
};

/** Who comes, as the member asked: "8 participants (future mariée ou futur marié compris, gratuit) · 2 spectateurs". */
export function partyPeople(row) {
  const who = row.guest_of_honour === false ? "sans la future mariée ni le futur marié" : "future mariée ou futur marié compris, gratuit";
  const spectators = row.spectators ?? 0;
  return `${row.participants} participant(s) (${who}) · ${spectators} spectateur(s)`;
}

export function listUrl(kind, status, page) {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${KINDS[kind].endpoint}?${query}` : KINDS[kind].endpoint;
}

function useStep(onDone) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function run(url, body, notice) {
    setBusy(true);
    setError("");
    try {
      const row = await api(url, { method: "POST", body });
      onDone(row, notice);
    } catch (failure) {
      setError(errorMessage(failure, MSG_STEP_FAILED));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

export function QuoteForm({ kind, row, onDone }) {
  const party = kind === "parties";
  const [values, setValues] = useState({
    participants: String(row.quote_participants ?? row.participants ?? 6),
    spectators: String(row.quote_spectators ?? row.spectators ?? 0),
    amount: row.quote_amount || "",
    deposit: row.deposit_amount || "",
    note: row.quote_note || "",
  });
  const { busy, error, run } = useStep(onDone);
  const change = (key) => (event) => setValues((v) => ({ ...v, [key]: event.target.value }));
  function submit(event) {
    event.preventDefault();
    const body = party
      ? { participants: Number(values.participants), spectators: Number(values.spectators), deposit: values.deposit.trim(), note: values.note }
      : { amount: values.amount.trim(), deposit: values.deposit.trim(), note: values.note };
    run(`${KINDS[kind].endpoint}/${row.id}/quote`, body, MSG_QUOTED);
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Envoyer un devis">
      {party ? (
        <>
          <p className="help">Prix calculé par le serveur : 25 € par participant, gratuit pour la future mariée ou le futur marié, 5 € par spectateur, au moins 6 personnes facturées.</p>
          <label>
            Participants (future mariée ou futur marié compris)
            <input type="number" name="participants" min="1" max="100" value={values.participants} onChange={change("participants")} required />
          </label>
          <label>
            Spectateurs
            <input type="number" name="spectators" min="0" max="100" value={values.spectators} onChange={change("spectators")} />
          </label>
        </>
      ) : (
        <label>
          Montant du devis (€)
          <input type="text" inputMode="decimal" name="amount" placeholder="150.00" value={values.amount} onChange={change("amount")} required />
        </label>
      )}
      <label>
        Acompte à payer en ligne (€)
        <input type="text" inputMode="decimal" name="deposit" placeholder="50.00" value={values.deposit} onChange={change("deposit")} required />
      </label>
      <label>
        Mot pour le membre
        <textarea name="note" value={values.note} onChange={change("note")} maxLength={2000} />
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p>
        <button type="submit" className="button" disabled={busy}>
          Envoyer le devis
        </button>
      </p>
    </form>
  );
}

function RefuseForm({ kind, row, onDone }) {
  const [reason, setReason] = useState("");
  const { busy, error, run } = useStep(onDone);
  return (
    <form
      className="form"
      noValidate
      aria-label="Refuser la demande"
      onSubmit={(event) => {
        event.preventDefault();
        run(`${KINDS[kind].endpoint}/${row.id}/refuse`, { reason }, MSG_REFUSED);
      }}
    >
      <label>
        Raison du refus
        <textarea name="reason" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={2000} required />
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p>
        <button type="submit" className="button button-danger" disabled={busy}>
          Refuser
        </button>
      </p>
    </form>
  );
}

function ConfirmButton({ kind, row, onDone }) {
  const { busy, error, run } = useStep(onDone);
  return (
    <div>
      <button type="button" className="button" disabled={busy} onClick={() => run(`${KINDS[kind].endpoint}/${row.id}/confirm`, {}, MSG_CONFIRMED)}>
        Confirmer la demande
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function RequestPanel({ kind, row, onDone }) {
  const open = row.status === "sent" || row.status === "quoted";
  return (
    <div className="request-panel">
      <p>
        Statut : <strong>{row.status_text}</strong>
      </p>
      <dl className="request-details">
        <dt>Date souhaitée</dt>
        <dd>
          {formatDate(row.date)} à {row.time}
        </dd>
        {kind === "parties" && (
          <>
            <dt>Participants demandés</dt>
            <dd>{row.participants}</dd>
            <dt>Future mariée ou futur marié</dt>
            <dd>{row.guest_of_honour === false ? "ne prend pas le cours" : "prend le cours (gratuit)"}</dd>
            <dt>Spectateurs</dt>
            <dd>{row.spectators ?? 0}</dd>
            {row.estimate && (
              <>
                <dt>Prix de la demande</dt>
                <dd>{formatMoney(row.estimate)}</dd>
              </>
            )}
          </>
        )}
        <dt>E-mail</dt>
        <dd>{row.email}</dd>
        {row.message && (
          <>
            <dt>Message</dt>
            <dd>{row.message}</dd>
          </>
        )}
        {row.quote_amount && (
          <>
            <dt>Devis</dt>
            <dd>
              {formatMoney(row.quote_amount)}, acompte {formatMoney(row.deposit_amount)}
              {row.deposit_paid_at ? ` payé le ${formatDate(row.deposit_paid_at)}` : " non payé"}
            </dd>
          </>
        )}
      </dl>
      <h3>Historique</h3>
      <ol className="request-history">
        {row.events.map((event, index) => (
          <li key={`${event.kind}-${index}`}>
            {formatDateTime(event.at)} – <strong>{event.label}</strong> ({event.by}){event.note ? ` : ${event.note}` : ""}
          </li>
        ))}
      </ol>
      {row.status === "quoted" && row.deposit_paid_at && <ConfirmButton kind={kind} row={row} onDone={onDone} />}
      {open && !row.deposit_paid_at && (kind === "parties" || row.user_id) && (
        <>
          <h3>{row.quote_amount ? "Modifier le devis" : "Envoyer un devis"}</h3>
          <QuoteForm kind={kind} row={row} onDone={onDone} />
        </>
      )}
      {open && kind === "rentals" && !row.user_id && <p className="help">Demande faite sans compte : répondez par e-mail.</p>}
      {open && (
        <>
          <h3>Refuser</h3>
          <RefuseForm kind={kind} row={row} onDone={onDone} />
        </>
      )}
    </div>
  );
}

export default function Requests({ kind = "parties" }) {
  const config = KINDS[kind];
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState(null);
  const [notice, setNotice] = useState("");
  const { data, error, loading, setData } = useApi(listUrl(kind, status, page), { fallback: MSG_REQUESTS_LOAD, fresh: true });
  const rows = data?.results || [];
  const current = rows.find((row) => row.id === openId) || null;

  function done(updated, message) {
    setData((previous) => (previous ? { ...previous, results: previous.results.map((row) => (row.id === updated.id ? updated : row)) } : previous));
    setNotice(message);
  }

  return (
    <section className="dash-section" aria-labelledby={`dash-${kind}-title`}>
      <h2 id={`dash-${kind}-title`}>{config.title}</h2>
      {config.filter && (
        <label>
          Statut{" "}
          <select
            name="status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value);
              setPage(1);
            }}
          >
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {notice && !current && <p role="status">{notice}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {loading && !data && <p>Chargement…</p>}
      {data && rows.length === 0 && <p>Aucune demande.</p>}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table className="table dash-table">
            <thead>
              <tr>
                <th scope="col">Demande</th>
                <th scope="col">Date</th>
                <th scope="col">Statut</th>
                <th scope="col">Devis</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-request-row={row.id}>
                  <td data-label="Demande">
                    {config.what(row)}
                    {config.detail && (
                      <>
                        <br />
                        <small>{config.detail(row)}</small>
                      </>
                    )}
                  </td>
                  <td data-label="Date">
                    {formatDate(row.date)} {row.time}
                  </td>
                  <td data-label="Statut">{row.status_text}</td>
                  <td data-label="Devis">{row.quote_amount ? `${formatMoney(row.quote_amount)} (acompte ${formatMoney(row.deposit_amount)})` : "—"}</td>
                  <td className="dash-actions">
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => {
                        setNotice("");
                        setOpenId(row.id);
                      }}
                    >
                      Gérer<span className="visually-hidden"> la demande {row.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && (data.previous || data.next) && (
        <p>
          <button type="button" className="button button-small button-secondary" disabled={!data.previous} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            Précédentes
          </button>{" "}
          <button type="button" className="button button-small button-secondary" disabled={!data.next} onClick={() => setPage((p) => p + 1)}>
            Suivantes
          </button>
        </p>
      )}
      {current && (
        <Modal open title={`Demande ${current.id} : ${config.what(current)}`} onClose={() => setOpenId(null)}>
          {notice && <p role="status">{notice}</p>}
          <RequestPanel kind={kind} row={current} onDone={done} />
        </Modal>
      )}
    </section>
  );
}

export const PartyRequests = () => <Requests kind="parties" />;
export const RentalRequests = () => <Requests kind="rentals" />;
