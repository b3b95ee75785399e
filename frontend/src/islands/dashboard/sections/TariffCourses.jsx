/* "Cours couverts": the courses a tariff's passes book, one checkbox each; none checked means every course. */
import ChoiceChecks from "./ChoiceChecks.jsx";

export default function TariffCourses({ field, ...props }) {
  const shown = { ...field, choices: field.courses, emptyText: "Aucun cours pour l'instant : le tarif couvre tous les cours." };
  return <ChoiceChecks field={shown} {...props} />;
}
