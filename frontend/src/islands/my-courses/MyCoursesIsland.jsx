/* 'Mes Cours de Pole Dance': upcoming and past sessions, how each was paid (card, class card or subscription),
   cancellation free until each course's window, late afterwards (docs/decisions.md 44), and one feedback per course followed. */
import { Suspense, lazy, useCallback, useId, useRef, useState } from "react";
import { api } from "../../components/api.js";
import { formatShortDate, formatTime } from "../../components/format.js";
import { useApi } from "../../components/useApi.js";
import { useFocusFirstError } from "../../components/formFeedback.js";
import Modal from "../../components/Modal.jsx";
import MyWaitlist, { useWaitlist } from "./MyWaitlist.jsx";
import BookingPreferences, { usePreferences } from "./BookingPreferences.jsx";
import { googleCalendarUrl, icsUrl } from "./addToCalendar.js";
import { notify } from "../../components/toast.jsx";
import CheckinQr from "./CheckinQr.jsx";
import {
  LABEL_LATE_CANCEL,
  MSG_CANCEL_ERROR,
  MSG_CANCELLATION_RULE,
  MSG_FEEDBACK_ERROR,
  MSG_FEEDBACK_REQUIRED,
  MSG_FEEDBACK_SAVED,
  MSG_LOAD_ERROR,
  MSG_LOAD_MORE,
  MSG_PAY_LOADING,
  MSG_PAY_TITLE,
  cancelConsequence,
  holdUntilLabel,
  lateCancelConsequence,
  paymentLabel,
} from "./messages.js";

// The payment widget (and its providers' panes) is fetched when the member opens a payment: most visits never do.
const PaymentWidget = lazy(() => import(/* webpackChunkName: "payment-widget" */ "../../components/PaymentWidget.jsx"));

function SessionsTable({ caption, rows, empty, onCancel, onPay, calendarLocation }) {
  return (
    <table className="my-courses-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Cours</th>
          <th scope="col">Date</th>
          <th scope="col">Horaire</th>
          <th scope="col">Niveau</th>
          <th scope="col">Professeur</th>
          <th scope="col">Participants</th>
          <th scope="col">Statut</th>
          <th scope="col">Paiement</th>
          {onCancel && <th scope="col">Annulation</th>}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={onCancel ? 9 : 8}>{empty}</td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={row.reservation_id}>
            <td data-label="Cours">{row.title}</td>
            <td data-label="Date">{formatShortDate(row.date)}</td>
            <td data-label="Horaire">{formatTime(row.date)}</td>
            <td data-label="Niveau">{row.level}</td>
            <td data-label="Professeur">{row.instructor}</td>
            <td data-label="Participants">{row.participants}</td>
            <td data-label="Statut">
              {row.status_label}
              {onPay && row.can_pay && (
                <span className="held-booking">
                  {" "}
                  {row.hold_expires_at && <span className="help">{holdUntilLabel(formatTime(row.hold_expires_at))}</span>}{" "}
                  <button type="button" className="button button-small" onClick={() => onPay(row)}>
                    Payer<span className="visually-hidden"> la réservation {row.title} du {formatShortDate(row.date)}</span>
                  </button>
                </span>
              )}
              {onCancel && row.status === "confirmed" && (
                <span className="add-to-calendar">
                  {" "}Ajouter à mon agenda :{" "}
                  <a href={googleCalendarUrl(row, calendarLocation)} target="_blank" rel="noopener noreferrer">Google<span className="visually-hidden"> ({row.title})</span></a>
                  {" · "}
                  <a href={icsUrl(row)} download>Apple, Outlook (.ics)<span className="visually-hidden"> ({row.title})</span></a>
                </span>
              )}
              {onCancel && <CheckinQr row={row} />}
            </td>
            <td data-label="Paiement">{paymentLabel(row)}</td>
            {onCancel && (
              <td data-label="Annulation">
                {row.can_cancel ? (
                  <>
                    <button type="button" className="button button-small button-secondary" onClick={() => onCancel(row)}>
                      Annuler
                      <span className="visually-hidden"> la réservation {row.title} du {formatShortDate(row.date)}</span>
                    </button>
                    {row.status === "confirmed" && row.free_cancellation_text && (
                      <span className="help free-cancellation"> {row.cancel_is_late ? `${LABEL_LATE_CANCEL} : délai dépassé.` : row.free_cancellation_text}</span>
                    )}
                  </>
                ) : (
                  <span className="help">—</span>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FeedbackForm({ course, userId, feedbackUrl, onSaved }) {
  const id = useId();
  const [rating, setRating] = useState(course.rating ? String(course.rating) : "");
  const [comment, setComment] = useState(course.comment || "");
  const [error, setError] = useState("");
  const [missing, setMissing] = useState({ rating: false, comment: false });
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const formRef = useRef(null);
  useFocusFirstError(formRef, attempt);
  const errorId = `${id}-error`;
  const invalid = (on) => (on ? { "aria-invalid": "true", "aria-describedby": errorId } : {});

  async function submit(event) {
    event.preventDefault();
    if (!rating || !comment.trim()) {
      setMissing({ rating: !rating, comment: !comment.trim() });
      setError(MSG_FEEDBACK_REQUIRED);
      setAttempt((n) => n + 1);
      return;
    }
    setMissing({ rating: false, comment: false });
    setError("");
    setSaving(true);
    try {
      const data = await api(feedbackUrl, {
        method: "POST",
        body: { user_id: userId, course_id: course.course_id, rating: Number(rating), comment: comment.trim() },
      });
      notify(data?.message || MSG_FEEDBACK_SAVED, "success");
      onSaved(course.course_id, data.feedback);
    } catch (err) {
      setError(err.message || MSG_FEEDBACK_ERROR);
      setAttempt((n) => n + 1);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form ref={formRef} className="feedback-card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} data-course-id={course.course_id}>
      <h3 id={`${id}-title`}>{course.title}</h3>
      <fieldset className="rating-stars">
        <legend>Note (1 à 5) *</legend>
        {[1, 2, 3, 4, 5].map((value) => (
          <label key={value}>
            <input type="radio" name={`${id}-rating`} value={value} checked={rating === String(value)} onChange={() => setRating(String(value))} {...invalid(missing.rating)} />
            <span aria-hidden="true">{"★".repeat(value)}</span>
            <span className="visually-hidden">{value} sur 5</span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-comment`}>Commentaire *</label>
        <textarea id={`${id}-comment`} value={comment} onChange={(event) => setComment(event.target.value)} {...invalid(missing.comment)} />
      </div>
      {error && (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="button" disabled={saving}>
          {course.rating ? "Modifier mon avis" : "Enregistrer mon avis"}
        </button>
      </div>
    </form>
  );
}

/** Pays a held booking through the usual order flow (create-order for this reservation, approve, capture): the same
    payment widget as the reservation popup, on the hold the member already has. */
function PayDialog({ row, user, paymentConfig, onPaid, onClose }) {
  return (
    <Modal open title={MSG_PAY_TITLE} onClose={onClose}>
      <p>
        « {row.title} » du {formatShortDate(row.date)} à {formatTime(row.date)}, {row.participants} participant(s).
        {row.hold_expires_at && ` ${holdUntilLabel(formatTime(row.hold_expires_at))}.`}
      </p>
      <Suspense fallback={<p className="help">{MSG_PAY_LOADING}</p>}>
        <PaymentWidget
          order={{ kind: "reservation", reservationId: row.reservation_id }}
          context="calendar"
          config={paymentConfig}
          payer={{ first_name: user?.first_name || "", last_name: user?.last_name || "", email: user?.email || "" }}
          details={{ title: row.title, type: "COURS", date: String(row.date).slice(0, 10), time: formatTime(row.date), message: "" }}
          totalAmount={row.total_amount}
          onSuccess={onPaid}
          onError={(err) => console.error("Paiement échoué", err)}
          onCancel={() => {}}
        />
      </Suspense>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Fermer
        </button>
      </div>
    </Modal>
  );
}

function CancelDialog({ row, cancelUrl, onDone, onClose }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function confirm() {
    setBusy(true);
    setError("");
    try {
      const data = await api(cancelUrl(row.reservation_id), { method: "POST" });
      notify(data.message, "success");
      onDone(data);
    } catch (err) {
      setError(err.status > 0 && err.message ? err.message : MSG_CANCEL_ERROR);
      setBusy(false);
    }
  }
  return (
    <Modal open title="Annuler la réservation" onClose={onClose}>
      <p>
        Annuler votre réservation « {row.title} » du {formatShortDate(row.date)} à {formatTime(row.date)} ?
      </p>
      <p>{row.cancel_is_late ? lateCancelConsequence(row) : cancelConsequence(row)}</p>
      {row.status === "confirmed" && row.free_cancellation_text && <p className="help">{row.free_cancellation_text}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Garder ma réservation
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={confirm}>
          {row.cancel_is_late ? "Confirmer l'annulation tardive" : "Confirmer l'annulation"}
        </button>
      </div>
    </Modal>
  );
}

const defaultCancelUrl = (id) => `/api/reservations-courses/${id}/cancel`;

export default function MyCoursesIsland({ user, listUrl, feedbackUrl = "/api/course-feedback", cancelUrl = defaultCancelUrl, waitlistUrl, preferencesUrl, calendarLocation = "", paymentConfig }) {
  // The history is paginated (upcoming first, then the most recent past): page 1 on load, older pages on demand.
  const first = useApi(`${listUrl}?page=1`, { fresh: true, fallback: MSG_LOAD_ERROR });
  const { reload: reloadFirst, setData: setList } = first;
  const rows = first.data ? first.data.results : first.failure ? [] : null;
  // The waiting lists and the reminder settings are asked for at the same time as the history and the page shows
  // them all at once: a part arriving later would push the tables below it down under the reader's eyes.
  const waitlist = useWaitlist(waitlistUrl);
  const preferences = usePreferences(preferencesUrl);
  const answered = (part) => !part.loading || part.data !== null || part.failure !== null;
  const [pagesShown, setPagesShown] = useState(1);
  const nextPage = first.data?.next ? pagesShown + 1 : null;
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState("");
  const loadError = first.error || moreError;
  const [cancelling, setCancelling] = useState(null);
  const [paying, setPaying] = useState(null);

  const reload = useCallback(() => {
    setPagesShown(1);
    setMoreError("");
    reloadFirst();
  }, [reloadFirst]);

  const loadMore = useCallback(async () => {
    setLoadingMore(true);
    try {
      const data = await api(`${listUrl}?page=${nextPage}&t=${Date.now()}`);
      setList((current) => {
        const known = new Set(current.results.map((row) => row.reservation_id));
        return { ...current, next: data.next, results: [...current.results, ...data.results.filter((row) => !known.has(row.reservation_id))] };
      });
      setPagesShown(nextPage);
    } catch (err) {
      console.error(MSG_LOAD_ERROR, err);
      setMoreError(MSG_LOAD_ERROR);
    } finally {
      setLoadingMore(false);
    }
  }, [listUrl, nextPage, setList]);

  const onSaved = useCallback(
    (courseId, feedback) => {
      setList((current) => ({ ...current, results: current.results.map((row) => (row.course_id === courseId ? { ...row, rating: feedback.rating, comment: feedback.comment } : row)) }));
    },
    [setList],
  );

  if (rows === null || !answered(waitlist) || !answered(preferences)) return <p role="status">Chargement de vos cours…</p>;
  const upcoming = rows.filter((row) => !row.is_past);
  const past = rows.filter((row) => row.is_past);
  const feedbackCourses = [];
  const seen = new Set();
  for (const row of past) {
    if (row.can_give_feedback && !seen.has(row.course_id)) {
      seen.add(row.course_id);
      feedbackCourses.push(row);
    }
  }
  return (
    <div className="my-courses">
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      <SessionsTable caption="Cours à venir" rows={upcoming} empty="Aucun cours à venir. Réservez depuis le planning !" onCancel={setCancelling} onPay={setPaying} calendarLocation={calendarLocation} />
      <p className="help">{MSG_CANCELLATION_RULE}</p>
      {waitlistUrl && <MyWaitlist url={waitlistUrl} source={waitlist} />}
      {preferencesUrl && <BookingPreferences url={preferencesUrl} source={preferences} />}
      {paying && (
        <PayDialog
          row={paying}
          user={user}
          paymentConfig={paymentConfig}
          onClose={() => {
            setPaying(null);
            reload();
          }}
          onPaid={() => {
            setPaying(null);
            reload();
          }}
        />
      )}
      {cancelling && (
        <CancelDialog
          row={cancelling}
          cancelUrl={typeof cancelUrl === "function" ? cancelUrl : defaultCancelUrl}
          onClose={() => setCancelling(null)}
          onDone={() => {
            setCancelling(null);
            reload();
          }}
        />
      )}
      <SessionsTable caption="Cours passés" rows={past} empty="Aucun cours passé pour le moment." />
      {nextPage && (
        <p>
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={loadingMore}>
            {MSG_LOAD_MORE}
          </button>
        </p>
      )}
      <h2>Mes avis</h2>
      {feedbackCourses.length === 0 ? (
        <p>Après votre premier cours, vous pourrez donner votre avis ici.</p>
      ) : (
        <div className="feedback-list">
          {feedbackCourses.map((course) => (
            <FeedbackForm key={course.course_id} course={course} userId={user?.id} feedbackUrl={feedbackUrl} onSaved={onSaved} />
          ))}
        </div>
      )}
    </div>
  );
}
