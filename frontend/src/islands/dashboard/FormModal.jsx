/* One modal for add and edit. Field errors from the browser rules or the server show beside
   their fields; the form-level message above the buttons. */
import { useId, useRef, useState } from "react";
import { useFocusFirstError } from "../../components/formFeedback.js";
import Modal from "../../components/Modal.jsx";

function Field({ field, value, error, disabled, onChange, values, formId }) {
  const id = `${formId}-${field.name}`;
  const errorId = `${id}-error`;
  const common = {
    id,
    name: field.name,
    disabled,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  let control;
  if (field.component) {
    const Custom = field.component;
    control = <Custom {...common} field={field} value={value} values={values} onChange={(v) => onChange(field.name, v)} />;
  } else if (field.type === "textarea") {
    control = <textarea {...common} value={value ?? ""} onChange={(e) => onChange(field.name, e.target.value)} />;
  } else if (field.type === "select") {
    control = (
      <select {...common} value={value ?? ""} onChange={(e) => onChange(field.name, e.target.value)}>
        {!field.noEmpty && <option value="">— Choisir —</option>}
        {(field.options || []).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else if (field.type === "checkbox") {
    control = <input {...common} type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(field.name, e.target.checked)} />;
  } else if (field.type === "file") {
    control = (
      <input {...common} type="file" accept={field.accept} onChange={(e) => onChange(field.name, e.target.files[0] || null)} />
    );
  } else {
    control = (
      <input
        {...common}
        type={field.type || "text"}
        min={field.min}
        max={field.max}
        step={field.step}
        inputMode={field.inputMode}
        value={value ?? ""}
        onChange={(e) => onChange(field.name, e.target.value)}
      />
    );
  }
  return (
    <div className={field.type === "checkbox" ? "field field-check" : "field"}>
      <label htmlFor={id}>
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
      </label>
      {control}
      {field.help && <p className="help">{field.help}</p>}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

export default function FormModal({ open, title, fields, values, errors, formError, busy, progress, onChange, onSubmit, onClose }) {
  const formId = useId();
  const formRef = useRef(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt || formError ? `${attempt}|${formError || ""}` : "");
  return (
    <Modal open={open} title={title} onClose={onClose} className="dash-modal">
      <form
        ref={formRef}
        className="form dash-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setAttempt((n) => n + 1);
          onSubmit();
        }}
      >
        {fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            formId={formId}
            values={values}
            value={values[field.name]}
            error={errors[field.name]}
            disabled={busy || field.disabled}
            onChange={onChange}
          />
        ))}
        {progress !== null && progress !== undefined && (
          <div className="field">
            <label htmlFor={`${formId}-progress`}>Envoi : {progress} %</label>
            <progress id={`${formId}-progress`} max="100" value={progress} />
          </div>
        )}
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Annuler
          </button>
          <button type="submit" className="button" disabled={busy}>
            Enregistrer
          </button>
        </div>
      </form>
    </Modal>
  );
}
