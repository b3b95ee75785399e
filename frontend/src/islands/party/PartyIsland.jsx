/* The EVJF/EVG reserve button and form: the form opens in place of the slider. */
import { useEffect, useId, useRef, useState } from "react";
import { api } from "../../components/api.js";
import { euros } from "../../components/format.js";
import { reveal, useFocusFirstError } from "../../components/formFeedback.js";
import {
  LABEL_ESTIMATE,
  LABEL_GUEST_OF_HONOUR,
  MAX_SPECTATORS,
  MSG_ESTIMATE_NOTE,
  MSG_FAILURE,
  MSG_FOLLOW,
  MSG_LOGIN,
  MSG_REQUIRED,
  MSG_SPECTATORS,
  MSG_SUCCESS,
  MSG_UNKNOWN,
  PRICE_PER_PARTICIPANT,
  PRICE_PER_SPECTATOR,
} from "./messages.js";

const SLIDER_ID = "party-slider";

// A company to invoice (docs/decisions.md 54): the deposit's invoice is then made out to it, as Factur-X.
const NO_COMPANY = { company_name: "", company_siren: "", company_vat_number: "", company_address: "" };
export const COMPANY_LABELS = { company_name: "Nom de la société", company_siren: "SIREN", company_vat_number: "N° de TVA intracommunautaire", company_address: "Adresse de facturation" };

function companyBody(form) {
  return Object.fromEntries(Object.keys(NO_COMPANY).map((key) => [key, form[key].trim()]).filter(([, value]) => value));
}

function CompanyFields({ id, form, update }) {
  return (
    <details className="party-company">
      <summary>Facture au nom d'une société (facultatif)</summary>
      {Object.entries(COMPANY_LABELS).map(([key, label]) => (
        <div className="field" key={key}>
          <label htmlFor={`${id}-${key}`}>{label}</label>
          <input id={`${id}-${key}`} value={form[key]} onChange={update(key)} autoComplete={key === "company_name" ? "organization" : "off"} />
        </div>
      ))}
    </details>
  );
}

function emptyForm(user) {
  return { eventType: "EVJF", date: "", time: "", participants: "1", spectators: "0", guestOfHonour: true, message: "", email: user?.email || "", ...NO_COMPANY };
}

const ESTIMATE_DELAY_MS = 250;

/** A whole number written in a number field, or NaN. */
function wholeNumber(text) {
  return /^\s*\d+\s*$/.test(String(text ?? "")) ? Number.parseInt(text, 10) : Number.NaN;
}

/** The server's estimate of the party as the form stands (null while the numbers are not valid or it is on its way). */
function useEstimate(url, participants, spectators, guestOfHonour) {
  const [estimate, setEstimate] = useState(null);
  useEffect(() => {
    setEstimate(null);
    if (!url || !(participants >= 1) || !(spectators >= 0 && spectators <= MAX_SPECTATORS)) return undefined;
    let live = true;
    const timer = setTimeout(async () => {
      const query = new URLSearchParams({ participants: String(participants), spectators: String(spectators), guest_of_honour: String(guestOfHonour) });
      try {
        const data = await api(`${url}?${query}`);
        if (live && data?.amount) setEstimate(data.amount);
      } catch {
        // no estimate shown: the request can still be sent, and the studio quotes it
      }
    }, ESTIMATE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url, participants, spectators, guestOfHonour]);
  return estimate;
}

function today() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
}

export default function PartyIsland({ user, submitUrl = "/api/evf-reservations", estimateUrl = "/api/evf-reservations/estimate", loginUrl = "/login?next=/evjf-evg" }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(() => emptyForm(user));
  const [error, setError] = useState("");
  const [success, setSuccess] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const firstField = useRef(null);
  const formRef = useRef(null);
  const successRef = useRef(null);
  const [missing, setMissing] = useState([]);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);
  // The success message replaces the form: bring it into view so it is read.
  useEffect(() => {
    if (success) reveal(successRef.current);
  }, [success]);
  const fail = (message, fields = []) => {
    setMissing(fields);
    setError(message);
    setAttempt((n) => n + 1);
  };
  const invalid = (name) => (missing.includes(name) ? { "aria-invalid": "true", "aria-describedby": `${id}-error` } : {});

  useEffect(() => {
    const slider = document.getElementById(SLIDER_ID);
    if (slider) slider.hidden = open;
    if (open) firstField.current?.focus();
  }, [open]);

  const update = (name) => (event) => setForm((prev) => ({ ...prev, [name]: event.target.value }));
  const estimate = useEstimate(open ? estimateUrl : null, wholeNumber(form.participants), wholeNumber(form.spectators), form.guestOfHonour);

  function openForm() {
    if (!user) {
      window.location.assign(loginUrl);
      return;
    }
    setSuccess("");
    setOpen(true);
  }

  async function submit(event) {
    event.preventDefault();
    const participants = Number.parseInt(form.participants, 10);
    if (!form.date || !form.time || !form.email.trim() || !Number.isFinite(participants)) {
      fail(MSG_REQUIRED, [!form.date && "date", !form.time && "time", !Number.isFinite(participants) && "participants", !form.email.trim() && "email"].filter(Boolean));
      return;
    }
    if (participants < 1) {
      fail("Le nombre de participants doit être au moins 1.", ["participants"]);
      return;
    }
    const spectators = wholeNumber(form.spectators || "0");
    if (!(spectators >= 0 && spectators <= MAX_SPECTATORS)) {
      fail(MSG_SPECTATORS, ["spectators"]);
      return;
    }
    setMissing([]);
    setError("");
    setSubmitting(true);
    try {
      await api(submitUrl, {
        method: "POST",
        body: {
          eventType: form.eventType,
          date: form.date,
          time: form.time,
          participants,
          spectators,
          guest_of_honour: form.guestOfHonour,
          message: form.message,
          email: form.email.trim(),
          user_id: user?.id,
          ...companyBody(form),
        },
      });
      setForm(emptyForm(user));
      setOpen(false);
      setSuccess(MSG_SUCCESS);
    } catch (err) {
      if (err.status === 401) fail(MSG_LOGIN);
      else if (err.status === 0 || err.status === -1) fail(MSG_UNKNOWN);
      else fail(err.message || MSG_FAILURE);
    } finally {
      setSubmitting(false);
    }
  }

  if (!open) {
    return (
      <div className="party-cta-block">
        {success && (
          <>
            <p ref={successRef} className="form-success party-success" role="status">
              {success}
            </p>
            <p>
              {MSG_FOLLOW} <a href="/user/requests">Mes demandes</a>
            </p>
          </>
        )}
        <button type="button" className="button" onClick={openForm}>
          Réserver votre EVJF / EVG
        </button>
      </div>
    );
  }

  return (
    <form ref={formRef} className="form party-form" onSubmit={submit} noValidate aria-labelledby={`${id}-legend`}>
      <fieldset>
        <legend id={`${id}-legend`}>Votre demande de réservation</legend>
        <div className="field">
          <label htmlFor={`${id}-type`}>Type d'événement</label>
          <select id={`${id}-type`} ref={firstField} value={form.eventType} onChange={update("eventType")}>
            <option value="EVJF">EVJF (enterrement de vie de jeune fille)</option>
            <option value="EVG">EVG (enterrement de vie de garçon)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-date`}>Date *</label>
          <input id={`${id}-date`} type="date" min={today()} required value={form.date} onChange={update("date")} {...invalid("date")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-time`}>Heure *</label>
          <input id={`${id}-time`} type="time" required value={form.time} onChange={update("time")} {...invalid("time")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-participants`}>Participants *</label>
          <input id={`${id}-participants`} type="number" min="1" step="1" inputMode="numeric" required value={form.participants} onChange={update("participants")} {...invalid("participants")} />
          <p className="help">
            {euros(PRICE_PER_PARTICIPANT)} par participant, gratuit pour la future mariée ou le futur marié, {euros(PRICE_PER_SPECTATOR)} par spectateur.
          </p>
        </div>
        <div className="field field-check">
          <input id={`${id}-guest`} type="checkbox" checked={form.guestOfHonour} onChange={(event) => setForm((prev) => ({ ...prev, guestOfHonour: event.target.checked }))} />
          <label htmlFor={`${id}-guest`}>{LABEL_GUEST_OF_HONOUR}</label>
        </div>
        <div className="field">
          <label htmlFor={`${id}-spectators`}>Spectateurs</label>
          <input id={`${id}-spectators`} type="number" min="0" max={MAX_SPECTATORS} step="1" inputMode="numeric" value={form.spectators} onChange={update("spectators")} {...invalid("spectators")} />
        </div>
        <div className="party-estimate" aria-live="polite">
          {estimate && (
            <p>
              {LABEL_ESTIMATE} : <strong data-estimate>{euros(estimate)}</strong>
              <br />
              <small>{MSG_ESTIMATE_NOTE}</small>
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email *</label>
          <input id={`${id}-email`} type="email" autoComplete="email" required value={form.email} onChange={update("email")} {...invalid("email")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-message`}>Message</label>
          <textarea id={`${id}-message`} value={form.message} onChange={update("message")} />
        </div>
        <CompanyFields id={id} form={form} update={update} />
        {error && (
          <p id={`${id}-error`} className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
            Annuler
          </button>
          <button type="submit" className="button" disabled={submitting}>
            Envoyer la demande
          </button>
        </div>
      </fieldset>
    </form>
  );
}
