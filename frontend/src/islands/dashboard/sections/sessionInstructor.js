/* A session's instructor is a person of the instructors list, chosen in a select (single session, weekly
   series and "this and the following" send `instructor_id`). Inactive instructors are not offered, except the one a
   session already has, so editing an old class keeps its teacher. */

export const MSG_INSTRUCTORS_LOAD = "Erreur lors du chargement des professeurs.";
export const INSTRUCTOR_LABEL = "Professeur";
export const INACTIVE_SUFFIX = " (inactif)";

/** The options source of the sessions section (ResourceSection's `options`): every instructor, with its flag. */
export const instructorsSource = {
  endpoint: "/api/instructors",
  error: MSG_INSTRUCTORS_LOAD,
  map: (rows) => rows.map((i) => ({ value: String(i.id), label: i.name, active: i.active !== false })),
};

/** The choices for a form: the active instructors, and the session's own one if it is no longer active. */
export function instructorChoices(instructors = [], currentId = "") {
  const current = String(currentId ?? "");
  return instructors
    .filter((i) => i.active !== false || i.value === current)
    .map((i) => ({ value: i.value, label: i.active === false ? `${i.label}${INACTIVE_SUFFIX}` : i.label }));
}

/** The session form's field. */
export function instructorField(options, row) {
  return {
    name: "instructor_id",
    label: INSTRUCTOR_LABEL,
    type: "select",
    required: true,
    options: instructorChoices(options.instructors || [], row?.instructor_id),
  };
}

export const instructorFormValue = (row) => (row && row.instructor_id ? String(row.instructor_id) : "");
export const instructorPayload = (values) => (values.instructor_id ? Number(values.instructor_id) : null);
