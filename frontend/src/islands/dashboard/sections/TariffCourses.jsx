/* "Cours couverts": the courses a tariff's passes book, one checkbox each; none checked means every course. */
export default function TariffCourses({ id, field, value, onChange, disabled }) {
  const chosen = new Set(value || []);
  const toggle = (courseId, on) => {
    const next = new Set(chosen);
    if (on) next.add(courseId);
    else next.delete(courseId);
    onChange([...next]);
  };
  const courses = field.courses || [];
  if (!courses.length) return <p id={id}>Aucun cours pour l'instant : le tarif couvre tous les cours.</p>;
  return (
    <fieldset id={id} className="field-choices">
      <legend className="visually-hidden">{field.label}</legend>
      {courses.map((course) => (
        <label key={course.value} className="field-check">
          <input
            type="checkbox"
            disabled={disabled}
            checked={chosen.has(course.value)}
            onChange={(event) => toggle(course.value, event.target.checked)}
          />{" "}
          {course.label}
        </label>
      ))}
    </fieldset>
  );
}
