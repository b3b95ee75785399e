/* Cartes cadeaux (docs/decisions.md 49 and 56): the cards sold, their balance and validity, searched by code, name or
   e-mail; "Ajuster" adds to or takes from a balance with a reason (recorded as a movement); the CSV export for the
   accounts. The server refuses what staff may not do; this screen only shows it. */
import { useCallback, useEffect, useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import { euros } from "../../../components/format.js";
import Modal from "../../../components/Modal.jsx";
import { formatDate } from "../format.js";

export const MSG_GIFT_CARDS_LOAD = "Erreur lors de la récupération des cartes cadeaux.";
export const MSG_GIFT_CARDS_NONE = "Aucune carte cadeau vendue pour l'instant.";
export const MSG_ADJUST_AMOUNT = "Indiquez un montant en euros, par exemple 10.00 ou -5.00 (jamais 0).";
export const MSG_ADJUST_REASON = "Indiquez le motif de l'ajustement.";
export const MSG_ADJUSTED = "Solde ajusté : {balance}.";
export const STATUS_LABELS = { active: "Active", cancelled: "Annulée", pending: "En attente de paiement" };
const AMOUNT = /^-?\d{1,6}([.,]\d{1,2})?$/;

export function validAdjustment(amount) {
  const text = String(amount ?? "").trim();
  return AMOUNT.test(text) && Number(text.replace(",", ".")) !== 0;
}

function statusText(card) {
  if (card.status === "active" && card.expired) return "Expirée";
  return STATUS_LABELS[card.status] || "—";
}

export function AdjustCard({ card, onDone }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    if (!validAdjustment(amount)) return setError(MSG_ADJUST_AMOUNT);
    if (!reason.trim()) return setError(MSG_ADJUST_REASON);
    setBusy(true);
    setError("");
    try {
      const data = await api(`/api/gift-cards/${card.id}/adjust`, {
        method: "POST",
        body: { amount: amount.trim().replace(",", "."), reason: reason.trim() },
      });
      setOpen(false);
      setAmount("");
      setReason("");
      onDone(data);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
    return undefined;
  };
  if (card.status !== "active") return null;
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen(true)}>
        Ajuster<span className="visually-hidden"> la carte {card.code}</span>
      </button>
      {open && (
        <Modal open title={`Ajuster la carte ${card.code}`} onClose={() => setOpen(false)}>
          <form onSubmit={submit} noValidate className="gift-adjust">
            <p>Solde actuel : {euros(card.balance)}</p>
            <div className="field">
              <label htmlFor={`gift-adjust-amount-${card.id}`}>Montant ajouté (négatif pour retirer), en €</label>
              <input id={`gift-adjust-amount-${card.id}`} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`gift-adjust-reason-${card.id}`}>Motif (gardé dans l'historique de la carte)</label>
              <textarea id={`gift-adjust-reason-${card.id}`} value={reason} maxLength={300} rows={3} onChange={(e) => setReason(e.target.value)} />
            </div>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="button" disabled={busy}>
              Enregistrer l'ajustement
            </button>
          </form>
        </Modal>
      )}
    </>
  );
}

export default function GiftCards() {
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState("");
  const [cards, setCards] = useState(null);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const load = useCallback(async () => {
    setError("");
    try {
      setCards(await api(`/api/gift-cards/staff?${new URLSearchParams({ q: search })}`));
    } catch (err) {
      setError(errorMessage(err, MSG_GIFT_CARDS_LOAD));
    }
  }, [search]);
  useEffect(() => {
    load();
  }, [load]);
  return (
    <section className="dash-section">
      <div className="dash-section-head">
        <h2>Cartes cadeaux</h2>
        <a className="button button-small button-secondary" href="/api/gift-cards/export.csv" download>
          Exporter en CSV
        </a>
      </div>
      <form
        className="dash-filters"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(query.trim());
        }}
      >
        <label htmlFor="gift-search">Recherche</label>
        <input id="gift-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Code, nom ou e-mail" />
        <button type="submit" className="button button-small">
          Filtrer
        </button>
      </form>
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {cards && !cards.length && <p>{MSG_GIFT_CARDS_NONE}</p>}
      {cards && cards.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Tableau : Cartes cadeaux">
          <table className="table dash-table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Acheteur</th>
                <th scope="col">Bénéficiaire</th>
                <th scope="col">Montant</th>
                <th scope="col">Solde</th>
                <th scope="col">Valable jusqu'au</th>
                <th scope="col">Statut</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {cards.map((card) => (
                <tr key={card.id}>
                  <td data-label="Code">{card.code}</td>
                  <td className="dash-wrap" data-label="Acheteur">{card.buyer_name || card.buyer_email}</td>
                  <td className="dash-wrap" data-label="Bénéficiaire">{card.recipient_name || card.recipient_email || "—"}</td>
                  <td data-label="Montant">{card.tariff_title ? `${card.tariff_title} (${euros(card.initial_amount)})` : euros(card.initial_amount)}</td>
                  <td data-label="Solde">{euros(card.balance)}</td>
                  <td data-label="Valable jusqu'au">{card.expires_on ? formatDate(card.expires_on) : "—"}</td>
                  <td data-label="Statut">{statusText(card)}</td>
                  <td className="dash-actions" data-label="Actions">
                    <AdjustCard
                      card={card}
                      onDone={(data) => {
                        setNotice(MSG_ADJUSTED.replace("{balance}", euros(data.balance)));
                        load();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
