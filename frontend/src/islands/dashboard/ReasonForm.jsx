/* The form that asks staff for the reason sent to the members of the classes they cancel (one class, or every class
   of a closure): what happens, the reason, the refusal if any, and the confirming button. */
export default function ReasonForm({ id, reason, onReason, error, busy, onSubmit, submitLabel, children }) {
  return (
    <form onSubmit={onSubmit} noValidate>
      {children}
      <label htmlFor={id}>Motif (envoyé aux inscrits)</label>
      <textarea id={id} value={reason} maxLength={1000} rows={3} onChange={(e) => onReason(e.target.value)} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-danger" disabled={busy}>
        {busy ? "Annulation…" : submitLabel}
      </button>
    </form>
  );
}
