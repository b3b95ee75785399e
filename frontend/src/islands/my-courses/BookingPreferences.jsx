/* /my-courses: the reminder switches and the personal calendar link (docs/decisions.md 29). */
import { useState } from "react";

import { api } from "../../components/api.js";
import { useApi } from "../../components/useApi.js";

export const MSG_PREFERENCES_LOAD_ERROR = "Vos préférences de rappel n'ont pas pu être chargées.";
export const LABEL_REMIND_DAY_BEFORE = "M'envoyer un rappel par e-mail 24 heures avant chaque cours";
export const LABEL_REMIND_DEADLINE = "M'avertir avant la fin de l'annulation gratuite";
export const LABEL_REGENERATE = "Regénérer le lien";
export const LABEL_CREATE_LINK = "Créer mon lien de calendrier";

/** `source`: the preferences already requested by the page (usePreferences), so that they arrive with its other data. */
export function usePreferences(url) {
  return useApi(url || null, { fresh: true, fallback: MSG_PREFERENCES_LOAD_ERROR });
}

export default function BookingPreferences({ url = "/api/booking-preferences", source }) {
  const own = usePreferences(source ? null : url);
  const { data, error, setData } = source || own;
  const [message, setMessage] = useState("");
  const [failure, setFailure] = useState("");

  const send = async (path, options) => {
    setMessage("");
    setFailure("");
    try {
      const answer = await api(path, options);
      setData(answer);
      setMessage(answer.message || "");
    } catch (err) {
      setFailure(err.message || MSG_PREFERENCES_LOAD_ERROR);
    }
  };
  const toggle = (field) => (event) => send(url, { method: "PATCH", body: { [field]: event.target.checked } });

  return (
    <section className="booking-preferences" aria-labelledby="booking-preferences-title">
      <h2 id="booking-preferences-title">Rappels et agenda</h2>
      {(error || failure) && <p className="form-error" role="alert">{error || failure}</p>}
      {data && (
        <>
          <p>
            <label>
              <input type="checkbox" checked={Boolean(data.remind_day_before)} onChange={toggle("remind_day_before")} /> {LABEL_REMIND_DAY_BEFORE}
            </label>
          </p>
          <p>
            <label>
              <input type="checkbox" checked={Boolean(data.remind_cancellation_deadline)} onChange={toggle("remind_cancellation_deadline")} /> {LABEL_REMIND_DEADLINE}
            </label>
          </p>
          <p className="help">Abonnez votre agenda (Google, Apple, Outlook) à ce lien personnel et secret : vos cours réservés s'y ajoutent tout seuls.</p>
          {data.calendar_url && (
            <p>
              <input type="text" readOnly aria-label="Lien de mon calendrier" value={data.calendar_url} onFocus={(e) => e.target.select()} />
            </p>
          )}
          <p>
            <button type="button" className="button button-secondary" onClick={() => send(`${url}/calendar-link`, { method: "POST" })}>
              {data.calendar_url ? LABEL_REGENERATE : LABEL_CREATE_LINK}
            </button>
            {data.calendar_url && <span className="help"> L'ancien lien cessera de fonctionner.</span>}
          </p>
        </>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}
