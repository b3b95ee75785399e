/* A weekly series of sessions (docs/decisions.md 35), previewed (dates created, dates skipped and why: French
   public holidays, the studio's closures) before it is created. */
import { useState } from "react";
import { api, errorMessage } from "../../../components/api.js";
import Modal from "../../../components/Modal.jsx";
import { INSTRUCTOR_LABEL, instructorChoices } from "./sessionInstructor.js";

export const MSG_SERIES_FAILED = "La série n'a pas pu être créée. Veuillez réessayer.";
export const WEEKDAYS = ["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi", "Dimanche"];
const EMPTY = { course_id: "", weekdays: [], time: "18:30", duration: "60", instructor_id: "", max_attendees: "10", price_per_participant: "", starts_on: "", ends_on: "" };

export function seriesPayload(values, preview) {
  const body = {
    course_id: Number(values.course_id),
    weekdays: [...values.weekdays].sort(),
    time: values.time,
    duration: values.duration ? Number(values.duration) : null,
    instructor_id: values.instructor_id ? Number(values.instructor_id) : null,
    max_attendees: Number(values.max_attendees || 10),
    starts_on: values.starts_on,
    ends_on: values.ends_on,
    preview,
  };
  if (values.price_per_participant !== "") body.price_per_participant = values.price_per_participant.replace(",", ".");
  return body;
}

export function SeriesForm({ courses = [], instructors = [], onCreated }) {
  const [values, setValues] = useState(EMPTY);
  const [plan, setPlan] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (name) => (event) => {
    setValues({ ...values, [name]: event.target.value });
    setPlan(null);
  };
  const toggleDay = (day) => {
    const weekdays = values.weekdays.includes(day) ? values.weekdays.filter((d) => d !== day) : [...values.weekdays, day];
    setValues({ ...values, weekdays });
    setPlan(null);
  };
  const send = async (preview) => {
    setBusy(true);
    setError("");
    try {
      const answer = await api("/api/course-sessions/series", { method: "POST", body: seriesPayload(values, preview) });
      setPlan(answer);
      if (!preview) onCreated?.(answer.message);
    } catch (err) {
      setError(errorMessage(err, MSG_SERIES_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="series-form" onSubmit={(e) => e.preventDefault()} noValidate>
      <label htmlFor="series-course">Cours</label>
      <select id="series-course" value={values.course_id} onChange={set("course_id")}>
        <option value="">— Choisir —</option>
        {courses.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Jours</legend>
        {WEEKDAYS.map((name, day) => (
          <label key={name} className="series-day">
            <input type="checkbox" checked={values.weekdays.includes(day)} onChange={() => toggleDay(day)} /> {name}
          </label>
        ))}
      </fieldset>
      <label htmlFor="series-time">Heure</label>
      <input id="series-time" type="time" value={values.time} onChange={set("time")} />
      <label htmlFor="series-duration">Durée (minutes)</label>
      <input id="series-duration" type="number" min="15" max="600" value={values.duration} onChange={set("duration")} />
      <label htmlFor="series-instructor">{INSTRUCTOR_LABEL}</label>
      <select id="series-instructor" value={values.instructor_id} onChange={set("instructor_id")}>
        <option value="">— Choisir —</option>
        {instructorChoices(instructors).map((i) => (
          <option key={i.value} value={i.value}>
            {i.label}
          </option>
        ))}
      </select>
      <label htmlFor="series-places">Places</label>
      <input id="series-places" type="number" min="1" value={values.max_attendees} onChange={set("max_attendees")} />
      <label htmlFor="series-price">Prix par participant (€, facultatif)</label>
      <input id="series-price" inputMode="decimal" value={values.price_per_participant} onChange={set("price_per_participant")} />
      <label htmlFor="series-from">Du</label>
      <input id="series-from" type="date" value={values.starts_on} onChange={set("starts_on")} />
      <label htmlFor="series-to">Au (inclus)</label>
      <input id="series-to" type="date" value={values.ends_on} onChange={set("ends_on")} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => send(true)}>
          Prévisualiser
        </button>
        <button type="button" className="button" disabled={busy || !plan || !plan.preview} onClick={() => send(false)}>
          Créer la série
        </button>
      </div>
      {plan && (
        <div className="series-plan" aria-live="polite">
          <p role="status">{plan.message}</p>
          <h3>{plan.preview ? "Séances à créer" : "Séances créées"}</h3>
          <ul>
            {plan.dates.map((d) => (
              <li key={d.date}>{d.label}</li>
            ))}
          </ul>
          {plan.skipped.length > 0 && (
            <>
              <h3>Dates sautées</h3>
              <ul>
                {plan.skipped.map((s) => (
                  <li key={s.date}>
                    {s.label} — {s.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}

export function SeriesButton({ ctx }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="series-open">
      <button type="button" className="button button-secondary" onClick={() => setOpen(true)}>
        Créer une série hebdomadaire
      </button>
      {open && (
        <Modal open title="Série hebdomadaire de séances" onClose={() => setOpen(false)}>
          <SeriesForm
            courses={ctx.options.courses || []}
            instructors={ctx.options.instructors || []}
            onCreated={(message) => {
              // Said in the form, and in the section's status line, which stays once the dialog is closed.
              ctx.notify?.(message);
              ctx.reload?.();
            }}
          />
        </Modal>
      )}
    </div>
  );
}
