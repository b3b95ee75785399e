/* A field of several checkboxes, one per choice (`field.choices`: value and label); none checked has the meaning the
   field's `emptyMeaning` says ("tous les cours", "tous les tarifs"), shown alone when there is nothing to choose. */
export default function ChoiceChecks({ id, field, value, onChange, disabled }) {
  const chosen = new Set(value || []);
  const toggle = (choice, on) => {
    const next = new Set(chosen);
    if (on) next.add(choice);
    else next.delete(choice);
    onChange([...next]);
  };
  const choices = field.choices || [];
  if (!choices.length) return <p id={id}>{field.emptyText}</p>;
  return (
    <fieldset id={id} className="field-choices">
      <legend className="visually-hidden">{field.label}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="field-check">
          <input
            type="checkbox"
            disabled={disabled}
            checked={chosen.has(choice.value)}
            onChange={(event) => toggle(choice.value, event.target.checked)}
          />{" "}
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}
