/* A session of a weekly series is edited alone or with the following ones of its series ("Modifier ce
   cours et les suivants", PUT /api/course-sessions/{id}/following): the time, instructor, places, level, details
   and price then go to this session and the later ones (not the cancelled); each keeps its own day and course. */

export const FOLLOWING_LABEL = "Modifier ce cours et les suivants";
export const FOLLOWING_HELP =
  "L'heure, le professeur, les places, le niveau, les détails et le prix s'appliquent aussi aux séances suivantes de la série (pas aux annulées) ; chacune garde son jour.";
export const MSG_FOLLOWING_SAME_DAY =
  "Pour modifier ce cours et les suivants, changez l'heure mais ni le jour ni le cours ; pour déplacer cette séance seule, décochez « Modifier ce cours et les suivants ».";

const day = (value) => String(value || "").slice(0, 10);

/** The form's checkbox, for a session that belongs to a series (edit only). */
export function followingField(mode, row) {
  if (mode !== "edit" || !row || !row.series_id) return null;
  return { name: "following", label: FOLLOWING_LABEL, type: "checkbox", help: FOLLOWING_HELP };
}

/** A refusal before sending (the series keeps each session's own day and course), or null. */
export function followingRefusal(values) {
  if (!values.following) return null;
  if (day(values.date) !== day(values.original_date) || String(values.course_id) !== String(values.original_course_id)) {
    return { message: MSG_FOLLOWING_SAME_DAY, errors: { date: MSG_FOLLOWING_SAME_DAY } };
  }
  return null;
}

/** The "this and the following" body from the one-session payload: its time (HH:MM, Paris) and shared fields. */
export function followingBody(body) {
  const out = { max_attendees: body.max_attendees, level: body.level || "", details: body.details || "" };
  for (const key of ["instructor_id", "instructor"]) if (body[key] !== undefined) out[key] = body[key];
  const time = String(body.date || "").match(/[ T](\d{2}:\d{2})/);
  if (time) out.time = time[1];
  if (body.price_per_participant !== undefined && body.price_per_participant !== null && body.price_per_participant !== "") {
    out.price_per_participant = body.price_per_participant;
  }
  return out;
}

/** ResourceSection's submitTo: the following ones go to the series endpoint. */
export function submitToFollowing({ values, mode, row, body }) {
  if (mode !== "edit" || !values.following || !row?.series_id) return null;
  return { path: `/api/course-sessions/${row.id}/following`, method: "PUT", body: followingBody(body) };
}
