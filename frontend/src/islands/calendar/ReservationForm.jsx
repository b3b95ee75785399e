/* The reservation popup's form: hold the seats, then pay them with the shared payment widget;
   or, for a member with a usable class card or subscription, book with it: confirmed at once. */
import { lazy, Suspense, useId, useMemo, useRef, useState } from "react";
import { api } from "../../components/api.js";
import PaymentWidget from "../../components/PaymentWidget.jsx";
import { euros } from "../../components/format.js";
import { useFocusFirstError } from "../../components/formFeedback.js";
import { useApi } from "../../components/useApi.js";
import { notify } from "../../components/toast.jsx";
import {
  LABEL_CONTACT_DETAILS,
  LABEL_PAY_BY_CARD,
  MSG_PASSES_LOAD_ERROR,
  MSG_REQUIRED,
  MSG_RESERVE_ERROR,
  MSG_SENT,
  formatDate,
  formatTime,
  formatTotal,
  heldNotice,
  freeCancellationText,
  MSG_LATE_CANCELLATION_RULE,
  isUsablePass,
  normalizeParticipants,
  passCost,
  passLabel,
  seatsForMember,
} from "./messages.js";

import { asksHealth } from "./health.js";

const CARD = "card";
const HealthStep = lazy(() => import("./HealthStep.jsx"));

export default function ReservationForm({ session, user, paymentConfig, reserveUrl, loginUrl, passesUrl = "/api/passes/mine", onCancel, onHeld, onPaid, onFull }) {
  const id = useId();
  // A hold of the member's own (unpaid) on this class is theirs: its seats count for them, and sending the form
  // resumes it (the server renews the same reservation's hold) before its payment.
  const myHold = session.my_reservation?.status === "held" ? session.my_reservation : null;
  const seatsLeft = seatsForMember(session);
  const maxSeats = Math.max(seatsLeft, 1);
  const [participants, setParticipants] = useState(() => String(myHold?.participants || 1));
  const [fields, setFields] = useState({
    first_name: user?.first_name || "",
    last_name: user?.last_name || "",
    email: user?.email || "",
    message: "",
  });
  const [error, setError] = useState("");
  const [missing, setMissing] = useState([]);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef(null);
  useFocusFirstError(formRef, attempt);
  const [submitting, setSubmitting] = useState(false);
  const [reservation, setReservation] = useState(null);
  const [health, setHealth] = useState(""); // the server's reason when it asks the health step first
  // The member's usable class cards and subscriptions; a failure leaves the bank card (the message says so).
  const { data: passData, failure: passesFailure } = useApi(user && passesUrl ? passesUrl : null);
  const passes = useMemo(() => (Array.isArray(passData) ? passData.filter(isUsablePass) : []), [passData]);
  const passesError = passesFailure ? MSG_PASSES_LOAD_ERROR : "";
  // "card" or a pass id; until the member picks, the first usable pass (derived, so never a frame on the bank card).
  const [picked, setPayWith] = useState(null);
  const payWith = picked ?? (passes.length ? String(passes[0].id) : CARD);

  const count = normalizeParticipants(participants, maxSeats);
  const total = formatTotal(session.price_per_participant, count);
  const date = formatDate(session.date);
  const time = `${formatTime(session.date)} – ${formatTime(session.end_date)}`;
  const locked = Boolean(reservation) || submitting;
  const chosenPass = passes.find((p) => String(p.id) === payWith) || null;

  const update = (name) => (event) => setFields((prev) => ({ ...prev, [name]: event.target.value }));

  async function submit(event) {
    event.preventDefault();
    setParticipants(String(count));
    const blank = ["first_name", "last_name", "email"].filter((name) => !fields[name].trim());
    if (blank.length) {
      setMissing(blank);
      setError(MSG_REQUIRED);
      setAttempt((n) => n + 1);
      return;
    }
    setMissing([]);
    setError("");
    setSubmitting(true);
    try {
      const data = await api(reserveUrl, {
        method: "POST",
        body: {
          session_id: session.id,
          title: session.course_title,
          date: session.date.slice(0, 10),
          time: formatTime(session.date),
          participants: count,
          message: fields.message,
          email: fields.email.trim(),
          first_name: fields.first_name.trim(),
          last_name: fields.last_name.trim(),
          type: "cours",
          user_id: user?.id,
          name: fields.last_name.trim(),
          ...(chosenPass ? { pass_id: chosenPass.id } : { total_amount: total }),
        },
      });
      if (chosenPass) {
        notify(data?.message || MSG_SENT, "success");
        onPaid?.(data);
        return;
      }
      setReservation(data);
      notify(data?.message || MSG_SENT, "success");
      onHeld?.(data);
    } catch (err) {
      if (err.status === 401) {
        window.location.assign(loginUrl);
        return;
      }
      if (asksHealth(err)) {
        setHealth(err.message);
        return;
      }
      // Taken by others meanwhile (a class opening): the waiting list's form rather than a dead end.
      if (err.status === 409 && err.data?.code === "session_full" && err.data?.waitlist_open && onFull) {
        onFull();
        return;
      }
      console.error("Réservation échouée", err);
      setError(err.message || MSG_RESERVE_ERROR);
      setAttempt((n) => n + 1);
    } finally {
      setSubmitting(false);
    }
  }

  const invalid = (name) => (missing.includes(name) ? { "aria-invalid": "true", "aria-describedby": `${id}-error` } : {});
  const holdUntil = reservation?.hold_expires_at ? formatTime(reservation.hold_expires_at) : "";
  // On a phone the payment choice must show on the popup's first screen: the class is a summary, and the member's
  // name, e-mail (prefilled from the account) and message fold away, opened when one is missing.
  const prefilled = Boolean(fields.first_name && fields.last_name && fields.email);
  const [detailsOpen, setDetailsOpen] = useState(!prefilled);
  const showDetails = detailsOpen || missing.length > 0;
  return (
    <>
    {health && (
      <Suspense fallback={<p aria-busy="true">Chargement…</p>}>
        <HealthStep
          reason={health}
          onCancel={() => setHealth("")}
          onDone={() => {
            setHealth("");
            formRef.current?.requestSubmit(); // recorded: the booking is sent again, as the member left it
          }}
        />
      </Suspense>
    )}
    <form ref={formRef} hidden={Boolean(health)} className="form reservation-form" onSubmit={submit} noValidate aria-describedby={error ? `${id}-error` : undefined}>
      <p className="reservation-summary">
        <strong className="reservation-summary-title">{session.course_title}</strong>
        <span className="reservation-summary-when">
          {date}, {time}
        </span>
        <span className="help">
          Avec {session.instructor} · {seatsLeft} place(s) restante(s) · {euros(session.price_per_participant)} par participant
        </span>
      </p>
      {myHold && !reservation && (
        <p className="form-info" role="status">
          {heldNotice(myHold.participants)}
        </p>
      )}
      <div className="field reservation-participants">
        <label htmlFor={`${id}-participants`}>Participants</label>
        <input
          id={`${id}-participants`}
          type="number"
          inputMode="numeric"
          min="1"
          max={maxSeats}
          step="1"
          value={participants}
          disabled={locked}
          onChange={(event) => setParticipants(event.target.value)}
          onBlur={() => setParticipants(String(count))}
        />
      </div>
      {passes.length > 0 && !reservation && (
        <fieldset className="reservation-pay-with">
          <legend>Mode de paiement</legend>
          {passes.map((p) => (
            <label key={p.id} className="field-check">
              <input type="radio" name={`${id}-pay-with`} value={String(p.id)} checked={payWith === String(p.id)} disabled={locked} onChange={() => setPayWith(String(p.id))} />
              <span>Utiliser : {passLabel(p)}</span>
            </label>
          ))}
          <label className="field-check">
            <input type="radio" name={`${id}-pay-with`} value={CARD} checked={payWith === CARD} disabled={locked} onChange={() => setPayWith(CARD)} />
            <span>{LABEL_PAY_BY_CARD}</span>
          </label>
        </fieldset>
      )}
      {passesError && <p className="help">{passesError}</p>}
      {chosenPass ? (
        <p className="reservation-total" aria-live="polite">
          Avec votre {chosenPass.kind === "subscription" ? "abonnement" : "carte"} : <strong data-total>{passCost(chosenPass, count)}</strong>
        </p>
      ) : (
        <p className="reservation-total" aria-live="polite">
          Montant total : <strong data-total>{euros(reservation ? reservation.total_amount : total)}</strong>
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      {session.free_cancellation_until && (
        <p className="help reservation-cancellation">
          <strong>{freeCancellationText(session.free_cancellation_until)}</strong> {MSG_LATE_CANCELLATION_RULE}
        </p>
      )}
      <details className="reservation-details" open={showDetails} onToggle={(event) => setDetailsOpen(event.currentTarget.open)}>
        <summary>{LABEL_CONTACT_DETAILS}</summary>
        <div className="reservation-grid">
          <div className="field">
            <label htmlFor={`${id}-first`}>Prénom *</label>
            <input id={`${id}-first`} autoComplete="given-name" required value={fields.first_name} disabled={locked} onChange={update("first_name")} {...invalid("first_name")} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-last`}>Nom *</label>
            <input id={`${id}-last`} autoComplete="family-name" required value={fields.last_name} disabled={locked} onChange={update("last_name")} {...invalid("last_name")} />
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email *</label>
          <input id={`${id}-email`} type="email" autoComplete="email" required value={fields.email} disabled={locked} onChange={update("email")} {...invalid("email")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-message`}>Message</label>
          <textarea id={`${id}-message`} value={fields.message} disabled={locked} onChange={update("message")} />
        </div>
      </details>
      {reservation && (
        <div className="reservation-payment">
          <p className="form-success" role="status">
            Vos places sont retenues jusqu'à {holdUntil}. Réglez maintenant pour confirmer votre réservation.
          </p>
          <PaymentWidget
            order={{ kind: "reservation", reservationId: reservation.id }}
            context="calendar"
            config={paymentConfig}
            payer={{ first_name: reservation.first_name, last_name: reservation.last_name, email: reservation.email }}
            details={{ title: session.course_title, type: "COURS", date: session.date.slice(0, 10), time: formatTime(session.date), message: fields.message }}
            totalAmount={reservation.total_amount}
            onSuccess={onPaid}
            onError={(err) => console.error("Paiement échoué", err)}
            onCancel={() => {}}
          />
        </div>
      )}
      <div className="modal-actions">
        {/* Once the seats are held, the payment widget has its own "Annuler le paiement": this one only closes. */}
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {reservation ? "Fermer" : "Annuler"}
        </button>
        {!reservation && (
          <button type="submit" className="button" disabled={submitting}>
            Envoyer la réservation
          </button>
        )}
      </div>
    </form>
    </>
  );
}
