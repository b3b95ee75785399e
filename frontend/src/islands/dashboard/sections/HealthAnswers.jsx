/* A member's health declaration in their "Fiche client", for the admins only (docs/decisions.md 48): the server
   answers 403 to anyone else, and then nothing shows. Answers are health data: shown, never copied elsewhere. */
import { useApi } from "../../../components/useApi.js";
import { formatDate } from "../format.js";

export const MSG_NO_DECLARATION = "Aucune déclaration enregistrée.";
export const HEALTH_ANSWERS_TITLE = "Questionnaire de santé (administrateurs seulement)";

export default function HealthAnswers({ userId }) {
  const { data, failure } = useApi(`/api/users/${userId}/health-declaration`);
  if (failure?.status === 403 || (!data && !failure)) return null;
  return (
    <section className="client-history-part" aria-labelledby="client-history-health">
      <h3 id="client-history-health">{HEALTH_ANSWERS_TITLE}</h3>
      {failure || !data ? (
        <p className="help">{failure?.status === 404 ? MSG_NO_DECLARATION : failure?.message}</p>
      ) : (
        <>
          <p className="help">
            Déclaré le {formatDate(data.signed_at)}, valable jusqu'au {formatDate(data.valid_until)} · questionnaire v{data.questionnaire_version ?? "–"},
            décharge v{data.waiver_version ?? "–"}, règlement v{data.house_rules_version ?? "–"}
          </p>
          <ul className="client-history-list">
            {data.answers.map((a, index) => (
              <li key={index}>
                {a.question} <strong>{a.answer}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
