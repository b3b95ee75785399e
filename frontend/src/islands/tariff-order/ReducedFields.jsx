/* A student or job-seeker rate: the member says which, confirms it (required, checked again by the
   server) and may send a proof, uploaded at once and checked by the server (content and size). */
import { useId, useState } from "react";
import { api, errorMessage } from "../../components/api.js";
import { MSG_PROOF_FAILED, MSG_PROOF_SENT } from "./messages.js";

export default function ReducedFields({ value, onChange, error, disabled = false }) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [proofError, setProofError] = useState("");
  const set = (patch) => onChange({ ...value, ...patch });

  async function upload(event) {
    const file = event.target.files?.[0];
    setProofError("");
    if (!file) return;
    const form = new FormData();
    form.append("file", file);
    setUploading(true);
    try {
      const proof = await api("/api/subscriptions/reduced-proofs", { method: "POST", body: form, timeout: 60000 });
      set({ proofId: proof.id, proofName: file.name });
    } catch (failure) {
      set({ proofId: null, proofName: "" });
      setProofError(errorMessage(failure, MSG_PROOF_FAILED));
    } finally {
      setUploading(false);
    }
  }

  return (
    <fieldset className="reduced-fields" disabled={disabled}>
      <legend>Tarif réduit</legend>
      <p className="help">Réservé aux étudiant(e)s et aux demandeur(se)s d'emploi. Le studio peut vous demander un justificatif.</p>
      <div role="radiogroup" aria-label="Votre statut">
        <label>
          <input type="radio" name={`${id}-status`} value="student" checked={value.status === "student"} onChange={() => set({ status: "student" })} />{" "}
          Étudiant(e)
        </label>{" "}
        <label>
          <input
            type="radio"
            name={`${id}-status`}
            value="job_seeker"
            checked={value.status === "job_seeker"}
            onChange={() => set({ status: "job_seeker" })}
          />{" "}
          Demandeur(se) d'emploi
        </label>
      </div>
      <p>
        <label>
          <input
            type="checkbox"
            checked={value.confirmed}
            onChange={(event) => set({ confirmed: event.target.checked })}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            required
          />{" "}
          Je confirme être étudiant(e) ou demandeur(se) d'emploi (obligatoire)
        </label>
      </p>
      {error && (
        <p className="form-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-proof`}>Justificatif (facultatif) : photo ou scan JPEG, PNG, GIF ou WebP</label>
        <input id={`${id}-proof`} type="file" accept="image/jpeg,image/png,image/gif,image/webp" onChange={upload} disabled={uploading} />
      </div>
      {uploading && <p role="status">Envoi du justificatif…</p>}
      {value.proofId && !uploading && <p role="status">{`${MSG_PROOF_SENT} (${value.proofName})`}</p>}
      {proofError && (
        <p className="form-error" role="alert">
          {proofError}
        </p>
      )}
    </fieldset>
  );
}
