/* "Fiche client" (docs/decisions.md 50): what the desk needs to know of a client at a glance — their account, class
   cards and subscriptions, upcoming and past classes, orders and invoices, and what staff did on their behalf, by whom
   and when. One read of `GET /api/users/{id}/history` (staff). Lists rather than tables, so a phone reads each line
   without scrolling sideways. */
import { useState } from "react";
import { createPortal } from "react-dom";
import { euros, formatDate, formatDateTime } from "../../../components/format.js";
import Modal from "../../../components/Modal.jsx";
import { useApi } from "../../../components/useApi.js";
import HealthAnswers from "./HealthAnswers.jsx";

export const MSG_HISTORY_LOAD = "La fiche du client n'a pas pu être chargée. Veuillez réessayer.";
export const MSG_NO_PASSWORD_YET = "N'a pas encore choisi son mot de passe (invitation envoyée par e-mail).";
export const NOTHING = "Aucun élément.";

export const historyUrl = (id) => `/api/users/${id}/history`;

export const personName = (row) => `${row.first_name || ""} ${row.last_name || ""}`.trim() || row.email;

/** "3 crédits restants sur 10, valable du 01/09/2026 au 28/02/2027" — or "Illimité" for a subscription's pass. */
export function passUsage(pass) {
  const validity = `valable du ${formatDate(pass.starts_on)} au ${formatDate(pass.expires_on)}`;
  if (!pass.is_card) {
    const cap = pass.weekly_cap ? `${pass.weekly_cap} cours par semaine` : "Illimité";
    return `${cap}, ${validity}`;
  }
  const left = pass.credits_left;
  return `${left} crédit${left === 1 ? "" : "s"} restant${left === 1 ? "" : "s"} sur ${pass.credits_total}, ${validity}`;
}

/** "Pole débutant — 12/12/2026 19:00 · Confirmée · 2 personnes · Carte 10 cours · Présent(e)". */
export function bookingLine(booking) {
  const parts = [booking.status_label];
  if (booking.participants > 1) parts.push(`${booking.participants} personnes`);
  if (booking.pass_title) parts.push(booking.pass_title);
  if (booking.attendance_label) parts.push(booking.attendance_label);
  return parts.join(" · ");
}

function Part({ id, title, rows, render }) {
  return (
    <section className="client-history-part" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p className="help">{NOTHING}</p>
      ) : (
        <ul className="client-history-list">{rows.map(render)}</ul>
      )}
    </section>
  );
}

export function ClientHistoryView({ data }) {
  const { profile } = data;
  return (
    <div className="client-history">
      <dl className="client-history-profile">
        <dt>E-mail</dt>
        <dd>{profile.email}</dd>
        <dt>Téléphone</dt>
        <dd>{profile.phone || "Non renseigné"}</dd>
        <dt>Rôle</dt>
        <dd>{profile.role_label}</dd>
        <dt>Inscrit le</dt>
        <dd>{formatDate(profile.date_joined)}</dd>
        {!profile.password_set && profile.is_active && (
          <>
            <dt>Compte</dt>
            <dd>{MSG_NO_PASSWORD_YET}</dd>
          </>
        )}
        {!profile.is_active && (
          <>
            <dt>Compte</dt>
            <dd>Désactivé</dd>
          </>
        )}
      </dl>
      <Part
        id="client-history-actions"
        title="Ce que l'équipe a fait pour ce client"
        rows={data.staff_actions}
        render={(line, index) => (
          <li key={index}>
            <strong>{line.summary}</strong> — par {line.staff_name}, le {formatDateTime(line.created_at)}
          </li>
        )}
      />
      <Part
        id="client-history-passes"
        title="Cartes et abonnements"
        rows={data.passes}
        render={(pass) => (
          <li key={pass.id}>
            <strong>{pass.title}</strong> ({pass.state_label}) : {passUsage(pass)}
          </li>
        )}
      />
      <Part
        id="client-history-upcoming"
        title="Cours à venir"
        rows={data.upcoming_bookings}
        render={(booking) => (
          <li key={booking.id}>
            <strong>{booking.course}</strong> — {formatDateTime(booking.start)} · {bookingLine(booking)}
          </li>
        )}
      />
      <Part
        id="client-history-past"
        title="Cours passés"
        rows={data.past_bookings}
        render={(booking) => (
          <li key={booking.id}>
            <strong>{booking.course}</strong> — {formatDateTime(booking.start)} · {bookingLine(booking)}
          </li>
        )}
      />
      <Part
        id="client-history-subscriptions"
        title="Abonnements mensuels"
        rows={data.subscriptions}
        render={(subscription) => (
          <li key={subscription.id}>
            <strong>{subscription.title}</strong> ({subscription.status_label}) : {euros(subscription.amount)} par
            période, {subscription.periods_paid} payée{subscription.periods_paid > 1 ? "s" : ""} sur{" "}
            {subscription.periods_committed}
            {subscription.next_due_on && `, prochaine échéance le ${formatDate(subscription.next_due_on)}`}
          </li>
        )}
      />
      <Part
        id="client-history-orders"
        title="Commandes"
        rows={data.orders}
        render={(order) => (
          <li key={order.order_id}>
            <strong>{order.title}</strong> — {euros(order.amount)} · {order.status_label} · {order.provider_label} · le{" "}
            {formatDate(order.created_at)}
          </li>
        )}
      />
      <Part
        id="client-history-invoices"
        title="Factures et avoirs"
        rows={data.invoices}
        render={(invoice) => (
          <li key={invoice.id}>
            <a href={invoice.pdf_url}>
              {invoice.kind_label} {invoice.number}
            </a>{" "}
            — {euros(invoice.total_amount)} · le {formatDate(invoice.issued_at)}
          </li>
        )}
      />
    </div>
  );
}

/** The modal itself: loads the file when opened. */
export function ClientHistory({ row, onClose }) {
  const { data, error, loading } = useApi(historyUrl(row.id), { fallback: MSG_HISTORY_LOAD, fresh: true });
  return (
    <Modal open title={`Fiche client : ${personName(row)}`} onClose={onClose} className="dash-modal client-history-modal">
      <div aria-busy={loading ? "true" : "false"}>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {loading && !data && <p className="help">Chargement…</p>}
        {data && <ClientHistoryView data={data} />}
        {data && <HealthAnswers userId={row.id} />}
      </div>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Fermer la fiche
        </button>
      </div>
    </Modal>
  );
}

/** "Fiche client" on a user's row. The file is drawn at the end of the page's body, not inside the row's actions
    cell, whose styles for its buttons (margins, flex) would shift the dialog off the phone's screen. */
export default function ClientHistoryButton({ row }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-small button-secondary" onClick={() => setOpen(true)}>
        Fiche client<span className="visually-hidden"> de {personName(row)}</span>
      </button>
      {open && createPortal(<ClientHistory row={row} onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
