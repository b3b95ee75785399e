/* A labelled radio group (fieldset and legend): one name, so the arrow keys move between the choices natively. */
export default function Choices({ name, legend, options, value, onChange, disabled }) {
  return (
    <fieldset className="payment-choices" disabled={disabled}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="payment-choice">
          <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
